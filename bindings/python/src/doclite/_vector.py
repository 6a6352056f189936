"""Vector indexes: their options (Couchbase Lite 3.2's DistanceMetric and VectorEncoding,
passed to Collection.create_vector_index), and the updates of a lazy one (QueryIndex,
IndexUpdater)."""
import enum
import json
import math
from typing import Any, Optional, Sequence

from ._errors import InvalidParameterError, error_from, new_error
from ._ffi import Handle, borrowed_text, ffi, lib, owned_text
from ._types import JSONValue


class DistanceMetric(enum.IntEnum):
    """How a vector index and APPROX_VECTOR_DISTANCE() measure the distance between two
    vectors; smaller is nearer for every metric."""

    EUCLIDEAN_SQUARED = lib.kCBLDistanceMetricEuclideanSquared
    """The square of the Euclidean distance (the default)."""
    COSINE = lib.kCBLDistanceMetricCosine
    """1 minus the cosine of the angle between the vectors."""
    EUCLIDEAN = lib.kCBLDistanceMetricEuclidean
    """The Euclidean (L2) distance."""
    DOT = lib.kCBLDistanceMetricDot
    """The dot product, negated."""


class VectorEncoding:
    """How a vector index compresses its vectors: VectorEncoding.none(),
    VectorEncoding.scalar_quantizer(bits) (4, 6 or 8: the default is 8) or
    VectorEncoding.product_quantizer(subquantizers, bits)."""

    def __init__(self, kind: str, first: int = 0, second: int = 0) -> None:
        self._kind, self._first, self._second = kind, first, second

    @staticmethod
    def none() -> "VectorEncoding":
        """The vectors as they are (float32)."""
        return VectorEncoding("none")

    @staticmethod
    def scalar_quantizer(bits: int = 8) -> "VectorEncoding":
        """Each item quantized to `bits` bits (4, 6 or 8)."""
        return VectorEncoding("SQ", _unsigned(bits, "the scalar quantizer's bits"))

    @staticmethod
    def product_quantizer(subquantizers: int, bits: int) -> "VectorEncoding":
        """Each vector cut into `subquantizers` parts (a divisor of the dimensions, 2 to
        1024), each coded in `bits` bits (4 to 12)."""
        return VectorEncoding("PQ", _unsigned(subquantizers, "the subquantizers"), _unsigned(bits, "the product quantizer's bits"))

    def __repr__(self) -> str:
        if self._kind == "none":
            return "VectorEncoding.none()"
        if self._kind == "SQ":
            return f"VectorEncoding.scalar_quantizer({self._first})"
        return f"VectorEncoding.product_quantizer({self._first}, {self._second})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VectorEncoding) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))

    def _create(self) -> Any:
        """A new CBLVectorEncoding, freed by the caller with CBLVectorEncoding_Free."""
        if self._kind == "none":
            return lib.CBLVectorEncoding_CreateNone()
        if self._kind == "SQ":
            return lib.CBLVectorEncoding_CreateScalarQuantizer(self._first)
        return lib.CBLVectorEncoding_CreateProductQuantizer(self._first, self._second)


def _unsigned(value: Any, role: str, optional: bool = False) -> int:
    """`value` as a C unsigned (0 for None where optional)."""
    if value is None and optional:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 0xFFFFFFFF:
        raise InvalidParameterError(f"{role} must be an integer from 0 to 4294967295, not {value!r}")
    return value


def vector_index_configuration(language: int, expression: Any, dimensions: int, centroids: int,
                               metric: DistanceMetric, encoding: Optional[VectorEncoding], num_probes: Optional[int],
                               min_training_size: Optional[int], max_training_size: Optional[int], is_lazy: bool) -> Any:
    """A CBLVectorIndexConfiguration* (its encoding, if any, to free with CBLVectorEncoding_Free)."""
    if not isinstance(metric, DistanceMetric):
        raise InvalidParameterError(f"the metric must be a DistanceMetric, not {metric!r}")
    if encoding is not None and not isinstance(encoding, VectorEncoding):
        raise InvalidParameterError(f"the encoding must be a VectorEncoding, not {encoding!r}")
    config = ffi.new("CBLVectorIndexConfiguration*")
    config.expressionLanguage = language
    config.expression = expression
    config.dimensions = _unsigned(dimensions, "the dimensions")
    config.centroids = _unsigned(centroids, "the centroids")
    config.metric = int(metric)
    config.numProbes = _unsigned(num_probes, "num_probes", optional=True)
    config.minTrainingSize = _unsigned(min_training_size, "min_training_size", optional=True)
    config.maxTrainingSize = _unsigned(max_training_size, "max_training_size", optional=True)
    config.isLazy = bool(is_lazy)
    config.encoding = encoding._create() if encoding is not None else ffi.NULL
    return config


class QueryIndex:
    """An index of a collection (Couchbase Lite's QueryIndex), from Collection.get_index."""

    def __init__(self, pointer: Any) -> None:
        self._handle = Handle(pointer)

    @property
    def name(self) -> str:
        """The index's name."""
        return borrowed_text(lib.CBLQueryIndex_Name(self._handle.pointer)) or ""

    def begin_update(self, limit: int) -> Optional["IndexUpdater"]:
        """The next documents, at most `limit`, whose vectors this lazy vector index lacks,
        in the order they were saved; None when every document with a value is indexed.
        A document saved again since it was indexed is pending again; deleted and purged
        ones leave the index by themselves. InvalidParameterError for a limit below 1,
        UnsupportedError for an index that is not a lazy vector index."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidParameterError(f"begin_update's limit must be an integer above 0, not {limit!r}")
        error = new_error()
        pointer = lib.CBLQueryIndex_BeginUpdate(self._handle.pointer, limit, error)
        if pointer == ffi.NULL:
            if error.code:
                raise error_from(error)
            return None
        return IndexUpdater(pointer)

    def __repr__(self) -> str:
        return f"QueryIndex({self.name!r})"


class IndexUpdater(Sequence[JSONValue]):
    """A batch of documents whose vectors a lazy vector index lacks (Couchbase Lite's
    IndexUpdater), from QueryIndex.begin_update: `updater[i]` is document i's value of the
    index's expression; compute its vector and set_vector(i, vector) (None: the document has
    none), or skip_vector(i) (it comes back in a later update); then finish() writes them
    in one transaction. An updater not finished changes nothing."""

    def __init__(self, pointer: Any) -> None:
        self._handle = Handle(pointer)
        self._count: int = lib.CBLIndexUpdater_Count(pointer)

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"an IndexUpdater is indexed by integers, not {index!r}")
        if index < 0:
            index += self._count
        text = owned_text(lib.CBLIndexUpdater_CopyValueJSON(self._handle.pointer, index)) if 0 <= index < self._count else None
        if text is None:
            raise IndexError(f"index {index} is out of range (the updater has {self._count} items)")
        return json.loads(text)

    def set_vector(self, index: int, vector: Optional[Sequence[float]]) -> None:
        """Sets document `index`'s vector (copied): as many finite numbers as the index's
        dimensions; None when the document has none. InvalidParameterError for another
        length, an index out of range; NotOpenError once finished."""
        if vector is None:
            items = ffi.NULL
            count = 0
        else:
            values = list(vector)
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values):
                raise InvalidParameterError(f"a vector holds finite numbers only: {values!r}")
            items, count = ffi.new("float[]", values), len(values)
        error = new_error()
        if not lib.CBLIndexUpdater_SetVector(self._handle.pointer, _index(index), items, count, error):
            raise error_from(error)

    def skip_vector(self, index: int) -> None:
        """Leaves document `index` out of this update: it comes back in a later one."""
        error = new_error()
        if not lib.CBLIndexUpdater_SkipVector(self._handle.pointer, _index(index), error):
            raise error_from(error)

    def finish(self) -> None:
        """Writes the vectors set, in one transaction (a document saved again meanwhile is
        left for a later update). UnsupportedError while a document is neither set nor
        skipped; NotOpenError once finished."""
        error = new_error()
        if not lib.CBLIndexUpdater_Finish(self._handle.pointer, error):
            raise error_from(error)


def _index(index: Any) -> int:
    """An item's index for C."""
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise InvalidParameterError(f"an item's index must be an integer from 0, not {index!r}")
    return index
