"""Vector indexes' options: the distance metric and the encoding (Couchbase Lite 3.2's
DistanceMetric and VectorEncoding), passed to Collection.create_vector_index."""
import enum
from typing import Any, Optional

from ._errors import InvalidParameterError
from ._ffi import ffi, lib


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
                               min_training_size: Optional[int], max_training_size: Optional[int]) -> Any:
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
    config.encoding = encoding._create() if encoding is not None else ffi.NULL
    return config
