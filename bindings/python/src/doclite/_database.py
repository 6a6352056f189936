"""Databases, collections and documents."""

import contextlib
import enum
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Set, Tuple, Union, cast
import json
import os

from ._blob import Blob, json_default
from ._errors import (BadDocumentIDError, ConflictError, InvalidParameterError, NotFoundError, NotOpenError, error_from,
                      new_error, owned_result)
from ._ffi import Handle, borrowed_text, c_callback, c_string, ffi, json_text, lib, owned_text, present, text
from ._listeners import CollectionChange, ListenerToken, _Listener, add_collection_listener, add_document_listener
from ._query import Query, ResultSet
from ._types import JSONObject, JSONValue
from ._vector import DistanceMetric, QueryIndex, VectorEncoding, vector_index_configuration

DEFAULT = "_default"


class ConcurrencyControl(enum.IntEnum):
    """What Collection.save and Collection.delete do when the stored document changed
    since the Document was read (Couchbase Lite's ConcurrencyControl)."""

    LAST_WRITE_WINS = lib.kCBLConcurrencyControlLastWriteWins
    """The save or delete replaces the stored document whatever its revision."""
    FAIL_ON_CONFLICT = lib.kCBLConcurrencyControlFailOnConflict
    """The save or delete raises ConflictError, changing nothing, unless the stored
    document is still the revision the Document was read or saved as."""


class Document:
    """A document: its ID and its properties, read like a dict (`doc["name"]`).

    A property may hold a Blob (`doc.set_blob("photo", blob)`, or a Blob anywhere in the
    properties): saving the document stores the blob's content and the document holds
    its metadata dict. A document read from a collection holds that dict, which
    `get_blob` turns back into a Blob.

    A document read from or saved to a collection knows its revision (`revision_id`,
    `sequence`), which a save or delete with ConcurrencyControl.FAIL_ON_CONFLICT
    checks against the stored one."""

    __slots__ = ("id", "properties", "_collection", "_revision", "_sequence")

    id: Optional[str]
    """The document ID; None for a new document that a save gives a new ID."""
    properties: Dict[str, Any]
    """The properties (JSON values, and Blobs to store)."""

    def __init__(self, id: Optional[str], properties: Optional[Mapping[str, Any]] = None, *,
                 _collection: Optional["Collection"] = None, _revision: Optional[bytes] = None,
                 _sequence: int = 0) -> None:
        """A new document `id` (None: a new ID when saved) holding a copy of `properties`."""
        self.id = id
        self.properties = dict(properties or {})
        self._collection = _collection   # (the collection it was read from or saved to: for get_blob)
        self._revision = _revision   # (the revision ID's ASCII bytes: decoded when asked for)
        self._sequence = _sequence

    @property
    def revision_id(self) -> Optional[str]:
        """The revision the document was read or last saved as (Couchbase Lite's
        revisionID), or None for a document never saved, or deleted since (by
        Collection.delete, given this Document)."""
        return None if self._revision is None else self._revision.decode("ascii")

    @property
    def sequence(self) -> int:
        """The collection's sequence number of that revision (it grows with each change
        to the collection); 0 when `revision_id` is None."""
        return self._sequence

    def __getitem__(self, key: str) -> JSONValue:
        """The property `key`; KeyError when there is none."""
        return self.properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        """Sets the property `key` (a JSON value, or a Blob) until the document is saved."""
        self.properties[key] = value

    def __contains__(self, key: object) -> bool:
        """Whether the document has the property `key`."""
        return key in self.properties

    def __iter__(self) -> Iterator[str]:
        """The property names."""
        return iter(self.properties)

    def __len__(self) -> int:
        """The number of properties."""
        return len(self.properties)

    def get(self, key: str, default: Any = None) -> JSONValue:
        """The property `key`, or `default` when there is none."""
        return self.properties.get(key, default)

    def set_blob(self, key: str, blob: Blob) -> "Document":
        """Sets the property `key` to `blob` (Couchbase Lite's setBlob); its content is
        stored when the document is saved. Returns the document."""
        if not isinstance(blob, Blob):
            raise TypeError(f"expected a doclite.Blob, got {type(blob).__name__}")
        self.properties[key] = blob
        return self

    def get_blob(self, key: str) -> Optional[Blob]:
        """The blob in the property `key` (Couchbase Lite's blob(forKey:)): a Blob set
        there, or the blob its metadata dict describes, read from the database of the
        collection the document was read from or saved to. None when the property is not
        a blob, or that database does not store its content."""
        value: Any = self.properties.get(key)
        if isinstance(value, Blob):
            return value
        if not Blob.is_blob(value):
            return None
        if self._collection is None:
            raise InvalidParameterError(f"the document {self.id!r} was not read from or saved to a collection: "
                                        f"read its blob with Database.get_blob(document[{key!r}])")
        return self._collection.database.get_blob(value)

    def to_json(self) -> str:
        """The properties as JSON text (a Blob as its metadata dict)."""
        return json.dumps(self.properties, ensure_ascii=False, separators=(",", ":"), default=json_default())

    def __repr__(self) -> str:
        return f"Document({self.id!r}, {self.properties!r})"


class Collection:
    """A collection of documents, read and written like a dict of documents by ID."""

    database: "Database"
    """The database the collection belongs to."""
    scope_name: str
    """The name of its scope (`_default` for the default scope)."""
    name: str
    """Its name within the scope."""

    def __init__(self, database: "Database", handle: Handle, scope: str, name: str) -> None:
        """The collection `scope.name` of `database`, by its library handle (see
        Database.collection, Database.create_collection)."""
        self.database = database
        self._handle = handle
        self.scope_name = scope
        self.name = name

    @property
    def full_name(self) -> str:
        """`scope.name`."""
        return f"{self.scope_name}.{self.name}"

    @property
    def scope(self) -> "Scope":
        """The collection's scope (Couchbase Lite's Collection.scope)."""
        pointer = lib.CBLCollection_Scope(self._pointer())
        if pointer == ffi.NULL:
            raise NotOpenError(f"the collection '{self.full_name}' is not open")
        return Scope(self.database, Handle(pointer))

    def _pointer(self) -> Any:
        """The collection's handle for a call; NotOpenError once its database is closed
        (the library would answer some calls, such as the count, with an empty result)."""
        if self.database._handle is None:
            raise NotOpenError(f"the collection '{self.full_name}' is not open: its database '{self.database.name}' "
                               f"is closed")
        return self._handle.pointer

    def __len__(self) -> int:
        """The number of documents (deleted ones not counted)."""
        count: int = lib.CBLCollection_Count(self._pointer())
        return count

    def __iter__(self) -> Iterator[str]:
        """The IDs of the documents, in ID order (as iterating a dict gives its keys), read
        from the library a block at a time as they are iterated: a document saved or
        deleted meanwhile may be seen or not. `ids()` reads them all at once."""
        self._pointer()
        query = Query(self.database, f"SELECT META().id FROM {_sqlpp_name(self.scope_name)}.{_sqlpp_name(self.name)} "
                                     f"ORDER BY META().id")
        return (row[0] for row in query.execute())

    def ids(self) -> List[str]:
        """The IDs of the documents, in ID order: a list read at once (`keys()` is the same)."""
        return list(self)

    keys = ids

    @contextlib.contextmanager
    def _document(self, id: str) -> Iterator[Any]:
        """The document handle of `id` (NULL when there is none) for the block, released after it."""
        error = new_error()
        document = lib.CBLCollection_GetDocument(self._pointer(), text(id, "the document ID"), error)
        if document == ffi.NULL and error.code:
            raise error_from(error)
        try:
            yield document
        finally:
            lib.CBL_Release(document)

    def get(self, id: str) -> Optional[Document]:
        """The document `id`, or None when there is none. An ID that is not a str raises
        TypeError; one holding U+0000 or a lone surrogate, ValueError."""
        with self._document(id) as document:
            if document == ffi.NULL:
                return None
            body = cast(str, owned_text(lib.CBLDocument_CreateJSON(document)))   # (not NULL: the handle is live)
            return Document(borrowed_text(lib.CBLDocument_ID(document)), json.loads(body), _collection=self,
                            _revision=ffi.string(lib.CBLDocument_RevisionID(document)),   # (a saved document's: not NULL)
                            _sequence=lib.CBLDocument_Sequence(document))

    def __getitem__(self, id: str) -> Document:
        """The document `id`; NotFoundError (a KeyError) when there is none."""
        document = self.get(id)
        if document is None:
            raise NotFoundError(f"no document '{id}' in {self.full_name}")
        return document

    def __contains__(self, id: str) -> bool:
        """Whether there is a document `id` (an ID that is not a str raises TypeError)."""
        return self.get(id) is not None

    def save(self, document: Union[Document, Mapping[str, Any]], id: Optional[str] = None,
             concurrency_control: ConcurrencyControl = ConcurrencyControl.LAST_WRITE_WINS) -> Document:
        """Saves a Document, or a dict of properties (under `id`, or a new ID);
        returns the saved Document. A Blob anywhere in the properties is saved as its
        metadata dict, and its content stored in the same transaction. A Document whose
        `id` is None gets a new ID. Properties the library cannot keep exactly raise
        before anything is saved: NaN or an infinity (ValueError), an integer outside
        [-2**63, 2**64-1] (OverflowError), a lone surrogate (UnicodeEncodeError).

        A saved Document (the one given, and the one returned) has the new `revision_id`
        and `sequence`. With `concurrency_control=ConcurrencyControl.FAIL_ON_CONFLICT`
        the save raises ConflictError, saving nothing, when the stored document is not
        the revision the Document was read from this collection or saved to it as: changed
        or deleted since, or, for a new document (a dict, or a Document never saved),
        when the ID is taken. The default, LAST_WRITE_WINS, replaces it whatever it is."""
        concurrency_control = ConcurrencyControl(concurrency_control)
        revision_id = None
        properties: Mapping[str, Any]
        if isinstance(document, Document):
            id, properties = document.id, document.properties
            if self._holds(document):
                revision_id = document._revision
        else:
            properties = document
        collection = self._pointer()
        blobs: List[Blob] = []
        body = _body(properties, "the document body", json_default(blobs))
        error = new_error()
        if concurrency_control == ConcurrencyControl.FAIL_ON_CONFLICT and id is not None:
            handle = self._revision_to_replace(id, revision_id, error)
        elif id is not None:
            handle = lib.CBLDocument_CreateWithID(text(id, "the document ID"), error)
        else:
            handle = lib.CBLDocument_Create()
        if handle == ffi.NULL:
            raise error_from(error)
        try:
            with self.database._storing(blobs):
                if not lib.CBLDocument_SetJSON(handle, body, error):
                    raise error_from(error)
                if concurrency_control == ConcurrencyControl.LAST_WRITE_WINS:
                    saved_ok = lib.CBLCollection_SaveDocument(collection, handle, error)
                else:
                    saved_ok = lib.CBLCollection_SaveDocumentWithConcurrencyControl(collection, handle,
                                                                                    concurrency_control, error)
                if not saved_ok:
                    raise error_from(error)
            saved = Document(borrowed_text(lib.CBLDocument_ID(handle)), properties, _collection=self,
                             _revision=_revision(handle),
                             _sequence=lib.CBLDocument_Sequence(handle))
        finally:
            lib.CBL_Release(handle)
        if isinstance(document, Document):
            document.id = saved.id
            document._collection = self
            document._revision, document._sequence = saved._revision, saved._sequence
        return saved

    def _holds(self, document: Document) -> bool:
        """Whether `document` was read from or saved to this collection (so that its
        revision is one of this collection's)."""
        other = document._collection
        return other is self or (other is not None and other.database is self.database
                                 and other.full_name == self.full_name)

    def _revision_to_replace(self, id: str, revision_id: Optional[bytes], error: Any) -> Any:
        """For a save that fails on a conflict: the stored document `id` as a mutable
        handle (a new one when there is none; NULL with `error` set on an error), to be
        saved with FAIL_ON_CONFLICT, which fails if it changes meanwhile; ConflictError
        now when it is not `revision_id` (None: no document)."""
        handle = lib.CBLCollection_GetMutableDocument(self._pointer(), text(id, "the document ID"), error)
        if handle == ffi.NULL:
            if error.code:
                raise error_from(error)
            if revision_id is not None:
                raise self._conflict(id, "was deleted since it was read")
            return lib.CBLDocument_CreateWithID(text(id, "the document ID"), error)
        stored = _revision(handle)
        if stored != revision_id:
            lib.CBL_Release(handle)
            raise self._conflict(id, "was changed since it was read" if revision_id is not None else "exists")
        return handle

    def _conflict(self, id: str, what: str) -> ConflictError:
        """The ConflictError of a save or delete of document `id` that lost to another change."""
        return ConflictError(f"the document '{id}' in {self.full_name} {what} (ConcurrencyControl.FAIL_ON_CONFLICT)")

    def __setitem__(self, id: str, properties: Mapping[str, Any]) -> None:
        """Saves `properties` as the document `id`, which must be a str (`save` without
        an ID makes a new one): `collection[None] = …` raises TypeError."""
        text(id, "the document ID")
        self.save(properties, id=id)

    def save_many(self, documents: Union[Mapping[str, Mapping[str, Any]], Iterable[Union[Document, Tuple[str, Mapping[str, Any]]]]],
                  chunk: int = 1000) -> None:
        """Saves many documents, `chunk` per call into the library (each call one
        transaction): a mapping of ID to properties, or an iterable of (ID,
        properties) pairs or Documents. An error names the document. Blobs in the
        properties are stored as `save` stores them, in their chunk's transaction.
        Every ID is a str (TypeError otherwise); IDs and properties are checked as
        `save` checks them, a chunk's before any of it is saved. (The last write wins;
        the Documents given keep their `revision_id`: read them again for the new one.)"""
        items = getattr(documents, "items", None)
        pairs: Iterable[Any] = items() if items is not None else documents
        self._pointer()
        ids: List[bytes] = []
        bodies: List[bytes] = []
        blobs: List[Blob] = []
        encode = json_default(blobs)
        for item in pairs:
            id, properties = (item.id, item.properties) if isinstance(item, Document) else item
            line = text(id, "a document ID")
            if not line or b"\n" in line:   # (the library reads one ID per line: these would shift the IDs)
                raise BadDocumentIDError(f"invalid document ID {id!r}: an ID is not empty and holds no control "
                                         f"characters")
            ids.append(line)
            bodies.append(_body(properties, f"the body of document {id!r}", encode))   # (never a raw newline)
            if len(ids) == chunk:
                self._save_lines(ids, bodies, blobs)
                ids, bodies = [], []
                del blobs[:]
        if ids:
            self._save_lines(ids, bodies, blobs)

    def _save_lines(self, ids: List[bytes], bodies: List[bytes], blobs: Sequence[Blob] = ()) -> None:
        """Saves the documents of UTF-8 `ids` and `bodies` (lists of bytes) in one call."""
        error = new_error()
        with self.database._storing(blobs):
            if not lib.CBLCollection_SaveDocumentsJSON(self._pointer(), b"\n".join(ids), b"\n".join(bodies), error):
                raise error_from(error)

    def delete(self, id: Union[str, Document],
               concurrency_control: ConcurrencyControl = ConcurrencyControl.LAST_WRITE_WINS) -> None:
        """Deletes the document `id` (an ID, or a Document read from or saved to this
        collection), leaving a tombstone; NotFoundError when there is none. A Document
        given then has no `revision_id` (saved again, it is a new document).

        With `concurrency_control=ConcurrencyControl.FAIL_ON_CONFLICT` (given a
        Document: an ID alone raises TypeError) the delete raises ConflictError,
        deleting nothing, when the stored document is not the revision the Document
        was read or saved as."""
        concurrency_control = ConcurrencyControl(concurrency_control)
        fail_on_conflict = concurrency_control == ConcurrencyControl.FAIL_ON_CONFLICT
        if isinstance(id, Document):
            if id.id is None:
                raise NotFoundError("the document has no ID: it was never saved")
            document_id = id.id
            revision_id = id._revision if self._holds(id) else None
        elif fail_on_conflict:
            raise TypeError("a delete with ConcurrencyControl.FAIL_ON_CONFLICT is given the Document read "
                            "(its revision), not an ID")
        else:
            document_id, revision_id = id, None
        with self._document(document_id) as document:
            if document == ffi.NULL:
                if fail_on_conflict and revision_id is not None:
                    raise self._conflict(document_id, "was deleted since it was read")
                raise NotFoundError(f"no document '{document_id}' in {self.full_name}")
            error = new_error()
            if fail_on_conflict:
                stored = _revision(document)
                if stored != revision_id:
                    raise self._conflict(document_id, "was changed since it was read" if revision_id is not None
                                         else "was saved by another writer")
                deleted = lib.CBLCollection_DeleteDocumentWithConcurrencyControl(self._pointer(), document,
                                                                                 concurrency_control, error)
            else:
                deleted = lib.CBLCollection_DeleteDocument(self._pointer(), document, error)
            if not deleted:
                raise error_from(error)
        if isinstance(id, Document):
            id._revision, id._sequence = None, 0

    def __delitem__(self, id: str) -> None:
        """Deletes the document `id`, as `delete`."""
        self.delete(id)

    def set_expiration(self, id: str, milliseconds: Optional[int]) -> None:
        """Purges document `id` at `milliseconds` since 1970 (None or 0: never);
        NotFoundError when there is no such document."""
        error = new_error()
        if not lib.CBLCollection_SetDocumentExpiration(self._pointer(), text(id, "the document ID"), milliseconds or 0,
                                                       error):
            raise error_from(error)

    def get_expiration(self, id: str) -> Optional[int]:
        """When document `id` is purged, in milliseconds since 1970 (as `set_expiration`
        set it), or None for never, or when there is no such document."""
        error = new_error()
        expiration: int = lib.CBLCollection_GetDocumentExpiration(self._pointer(), text(id, "the document ID"), error)
        if error.code:
            raise error_from(error)
        return expiration or None

    def purge(self, id: str) -> None:
        """Removes document `id` without a trace; NotFoundError when there is none (as `delete`)."""
        error = new_error()
        if not lib.CBLCollection_PurgeDocumentByID(self._pointer(), text(id, "the document ID"), error):
            if not error.code:   # (no such document: false with code 0, as in couchbase-lite-C)
                raise NotFoundError(f"no document '{id}' in {self.full_name}")
            raise error_from(error)

    def add_change_listener(self, listener: Callable[[CollectionChange], object]) -> ListenerToken:
        """Calls `listener(CollectionChange)` after each commit that changes the
        collection, on the committing thread; returns a ListenerToken. A change the
        listener makes itself (it saves a document, say) is delivered after it returns,
        not inside it: listeners never nest."""
        return add_collection_listener(self, listener)

    def add_document_change_listener(self, id: str, listener: Callable[["Collection", str], object]) -> ListenerToken:
        """Calls `listener(collection, id)` after each commit that changes document `id`."""
        return add_document_listener(self, id, listener)

    def create_value_index(self, name: str, expressions: Union[str, Sequence[str]], where: Optional[str] = None) -> None:
        """A value index on SQL++ expressions (`"type, lower(name)"` or a list of them)."""
        config, keep = self._index_configuration("CBLValueIndexConfiguration*", expressions, where, "sqlpp")
        error = new_error()
        if not lib.CBLCollection_CreateValueIndex(self._pointer(), text(name, "the index name"), config[0], error):
            raise error_from(error)

    def create_full_text_index(self, name: str, expressions: Union[str, Sequence[Any]], where: Any = None,
                               ignore_accents: bool = False, language: Optional[str] = None,
                               expression_language: str = "sqlpp") -> None:
        """A full-text index on SQL++ expressions (or, with expression_language="json",
        a JSON array of JSON-query expressions), searched with MATCH() and ranked with RANK()."""
        config, keep = self._index_configuration("CBLFullTextIndexConfiguration*", expressions, where, expression_language)
        keep.append(c_string(language, "the full-text language", optional=True))
        config.ignoreAccents, config.language = ignore_accents, keep[-1]
        error = new_error()
        if not lib.CBLCollection_CreateFullTextIndex(self._pointer(), text(name, "the index name"), config[0], error):
            raise error_from(error)

    def create_array_index(self, name: str, path: str, expressions: Union[str, Sequence[Any], None] = None,
                           expression_language: str = "sqlpp") -> None:
        """An array index (Couchbase Lite 3.2's ArrayIndexConfiguration) on the elements of
        the array at `path`, one property path (`"tags"`, `"contacts"`; the nested form
        `"a[].b"` raises UnsupportedError), or, given `expressions`, on those expressions of
        each element: SQL++ (`"type, city"` or a list of them) or, with
        expression_language="json", a JSON array of JSON-query expressions
        (`[[".type"], [".city"]]`). A query that UNNESTs that path
        (`SELECT … FROM _ AS d UNNEST d.tags AS t WHERE t = 'blue'`) reads the index
        instead of walking each document's array. The same definition again is a no-op;
        another one under the same name replaces it."""
        language = _expression_language(expression_language)
        config = ffi.new("CBLArrayIndexConfiguration*")
        keep = [c_string(path, "the array path"),
                _definition(_expressions(expressions, expression_language), "the index expressions",
                            expression_language == "json", optional=True)]
        config.expressionLanguage = language
        config.path, config.expressions = keep   # (alive through the call)
        error = new_error()
        if not lib.CBLCollection_CreateArrayIndex(self._pointer(), text(name, "the index name"), config[0], error):
            raise error_from(error)

    def create_predictive_index(self, name: str, model: str, input: Any, properties: Union[str, Sequence[str], None] = None,
                                expression_language: str = "sqlpp") -> None:
        """A predictive index (Couchbase Lite's PredictiveIndexConfiguration): each
        document's prediction by the registered model `model` (see doclite.register_model)
        for `input`, one SQL++ expression (`"{'text': text}"`) or, with
        expression_language="json", one JSON-query expression (a dict such as
        `{"text": [".text"]}`, or its JSON text), computed as documents are saved and kept,
        so that a query calling `PREDICTION(model, input…)` with the same model and input
        reads it and calls the model for no row. `properties` (optional): the prediction's
        property paths to keep a value index on (`["label"]`, or that JSON array's text).

        The model is called for every document now, and for each document saved later:
        while it is unregistered, those saves fail. The same definition again is a no-op;
        another one under the same name replaces it."""
        language = _expression_language(expression_language)
        if properties is not None and not isinstance(properties, str):
            properties = list(properties)
        config = ffi.new("CBLPredictiveIndexConfiguration*")
        keep = [c_string(model, "the model name"), _definition(input, "the prediction input", expression_language == "json"),
                _definition(properties, "the prediction properties", True, optional=True)]
        config.expressionLanguage = language
        config.model, config.input, config.properties = keep   # (alive through the call)
        error = new_error()
        if not lib.CBLCollection_CreatePredictiveIndex(self._pointer(), text(name, "the index name"), config[0], error):
            raise error_from(error)

    def create_vector_index(self, name: str, expression: Any, dimensions: int, centroids: int,
                            metric: DistanceMetric = DistanceMetric.EUCLIDEAN_SQUARED, encoding: Optional[VectorEncoding] = None,
                            num_probes: Optional[int] = None, min_training_size: Optional[int] = None,
                            max_training_size: Optional[int] = None, is_lazy: bool = False,
                            expression_language: str = "sqlpp") -> None:
        """A vector index (Couchbase Lite 3.2's VectorIndexConfiguration): the vector each
        document holds at `expression` (one SQL++ expression such as `"vector"` or
        `"PREDICTION(embed, {'text': text}).vector"`, or, with expression_language="json",
        one JSON-query expression), an array of `dimensions` numbers (2 to 4096) or a Base64
        string of float32s, so that `APPROX_VECTOR_DISTANCE(expression, $target)` finds the
        nearest documents. A document whose value is no such vector is left out of the index;
        its save never fails for it. `centroids` (1 to 64000), `encoding` (None: 8-bit scalar
        quantizer), `num_probes` and the training sizes describe the approximate search, as in
        Couchbase Lite; out-of-range values raise InvalidParameterError. With `is_lazy`, the
        application computes the vectors (get_index(name).begin_update(limit)) instead of the
        index reading them as documents are saved. The same definition again is a no-op;
        another one under the same name replaces it."""
        language = _expression_language(expression_language)
        keep = _definition(expression, "the vector expression", expression_language == "json")
        config = vector_index_configuration(language, keep, dimensions, centroids, metric, encoding, num_probes,
                                            min_training_size, max_training_size, is_lazy)
        error = new_error()
        try:
            if not lib.CBLCollection_CreateVectorIndex(self._pointer(), text(name, "the index name"), config[0], error):
                raise error_from(error)
        finally:
            if config.encoding != ffi.NULL:
                lib.CBLVectorEncoding_Free(config.encoding)

    def get_index(self, name: str) -> Optional[QueryIndex]:
        """The index `name` (Couchbase Lite's index(withName:)), None when there is none."""
        error = new_error()
        pointer = lib.CBLCollection_GetIndex(self._pointer(), text(name, "the index name"), error)
        if pointer == ffi.NULL:
            if error.code:
                raise error_from(error)
            return None
        return QueryIndex(pointer)

    @staticmethod
    def _index_configuration(c_type: str, expressions: Any, where: Any, expression_language: str) -> Tuple[Any, List[Any]]:
        """A configuration struct with its language, expressions and condition set, and
        the C strings it points to (keep them alive while it is used)."""
        language = _expression_language(expression_language)
        config = ffi.new(c_type)
        as_json = expression_language == "json"
        keep = [_definition(_expressions(expressions, expression_language), "the index expressions", as_json),
                _definition(where, "the index condition", as_json, optional=True)]
        config.expressionLanguage = language
        config.expressions, config.where = keep
        return config, keep

    def indexes(self) -> List[str]:
        """The names of the collection's indexes."""
        names: List[str] = json.loads(owned_result(lib.CBLCollection_GetIndexNames, self._pointer()))
        return names

    def delete_index(self, name: str) -> None:
        """Deletes the index `name` (of any kind); a missing index is not an error."""
        error = new_error()
        if not lib.CBLCollection_DeleteIndex(self._pointer(), text(name, "the index name"), error):
            raise error_from(error)

    def __repr__(self) -> str:
        return f"<doclite.Collection {self.full_name}>"


class Scope:
    """A scope of a database: a namespace of collections (Couchbase Lite's Scope), from
    Database.scope, Database.default_scope, Database.scopes or Collection.scope. A scope
    exists while it holds a collection (`_default` always)."""

    database: "Database"
    """The database the scope belongs to."""
    name: str
    """The scope's name."""

    def __init__(self, database: "Database", handle: Handle) -> None:
        """The scope of the library handle `handle` (adopted) in `database`."""
        self.database = database
        self._handle = handle
        self.name = present(borrowed_text(lib.CBLScope_Name(handle.pointer)), "scope name")

    def _pointer(self) -> Any:
        """The scope's handle for a call; NotOpenError once its database is closed."""
        if self.database._handle is None:
            raise NotOpenError(f"the scope '{self.name}' is not open: its database '{self.database.name}' is closed")
        return self._handle.pointer

    def collection_names(self) -> List[str]:
        """The names of the scope's collections."""
        names: List[str] = json.loads(owned_result(lib.CBLScope_CollectionNames, self._pointer()))
        return names

    def collection(self, name: str) -> Optional[Collection]:
        """The collection `name` of the scope, or None when there is none."""
        error = new_error()
        return self.database._collection(lib.CBLScope_Collection(self._pointer(), text(name, "the collection name"), error),
                                         error, self.name, name)

    def collections(self) -> List[Collection]:
        """The scope's collections, by name."""
        found = (self.collection(name) for name in self.collection_names())
        return [collection for collection in found if collection is not None]

    def __repr__(self) -> str:
        return f"<doclite.Scope {self.name}>"


def _revision(document: Any) -> Optional[bytes]:
    """The revision ID of a document handle, as the ASCII bytes the library keeps (None
    before its first save)."""
    pointer = lib.CBLDocument_RevisionID(document)
    if pointer == ffi.NULL:
        return None
    revision: bytes = ffi.string(pointer)
    return revision


def _expression_language(expression_language: str) -> Any:
    """The CBLQueryLanguage of an index's `expression_language`: "sqlpp" or "json"."""
    if expression_language == "sqlpp":
        return lib.kCBLN1QLLanguage
    if expression_language == "json":
        return lib.kCBLJSONLanguage
    raise ValueError(f"unknown expression language {expression_language!r} (sqlpp or json)")


def _expressions(expressions: Any, expression_language: str) -> Any:
    """An index's expressions for _definition: a list of SQL++ expressions joined by
    commas; a string, a list of JSON-query expressions (sent as a JSON array) or None as it is."""
    if expressions is None or isinstance(expressions, str) or expression_language == "json":
        return expressions
    return ", ".join(expressions)


def _definition(value: Any, what: str, as_json: bool, optional: bool = False) -> Any:
    """A `char[]` for a field of an index configuration (keep it alive while the struct is
    used): a str as it is, checked by c_string (None is NULL where `optional`); with
    `as_json`, any other value as its JSON text, checked by json_text."""
    if as_json and value is not None and not isinstance(value, str):
        return ffi.new("char[]", json_text(value, what))
    return c_string(value, what, optional)


def _body(properties: Any, what: str, default: Callable[[Any], Any]) -> bytes:
    """A document's properties (a Mapping: TypeError otherwise) as the UTF-8 JSON text the
    library reads, checked by json_text."""
    if not isinstance(properties, (dict, Mapping)):   # (a dict first: the ABC's check is slower)
        raise TypeError(f"{what}: a document's properties are a dict, got {type(properties).__name__}")
    return json_text(properties, what, default)


def _sqlpp_name(name: str) -> str:
    """A scope or collection name as a SQL++ identifier: in backquotes (a name may hold
    '-' or '%'), a backquote doubled."""
    return "`" + name.replace("`", "``") + "`"


class MaintenanceType(enum.IntEnum):
    """A task of Database.perform_maintenance (Couchbase Lite's MaintenanceType)."""

    COMPACT = lib.kCBLMaintenanceTypeCompact
    """Reclaims the space of deleted data, and deletes the blobs no document refers to."""
    REINDEX = lib.kCBLMaintenanceTypeReindex
    """Rebuilds every index."""
    INTEGRITY_CHECK = lib.kCBLMaintenanceTypeIntegrityCheck
    """Checks the file (a damaged one raises)."""
    OPTIMIZE = lib.kCBLMaintenanceTypeOptimize
    """Refreshes the query planner's statistics where worthwhile."""
    FULL_OPTIMIZE = lib.kCBLMaintenanceTypeFullOptimize
    """Gathers statistics for every index."""


class Database:
    """An open database file, `directory/name.doclite`; a context manager that closes it."""

    name: str
    """The database's name (its file's name without `.doclite`)."""

    def __init__(self, name: str, directory: Optional[str] = None, full_sync: bool = False, *,
                 create: bool = True) -> None:
        """Opens the database `name` in `directory` (None: the current directory), the file
        `directory/name.doclite`. A missing file is created, with its directory, as Couchbase
        Lite does; with `create=False` it raises NotFoundError naming the path, and nothing is
        created. `full_sync`: sync every commit to disk (survives power loss)."""
        name_text = text(name, "the database name")
        directory_text = c_string(directory, "the database directory", optional=True)   # (alive through the calls)
        if not create and not lib.CBL_DatabaseExists(name_text, directory_text):
            path = os.path.join(directory or os.curdir, f"{name}.doclite")
            raise NotFoundError(f"no database file {path!r} (opened with create=False)")
        config = ffi.new("CBLDatabaseConfiguration*")
        config.directory, config.fullSync = directory_text, full_sync
        error = new_error()
        pointer = lib.CBLDatabase_Open(name_text, config, error)
        if pointer == ffi.NULL:
            raise error_from(error)
        self._handle: Optional[Handle] = Handle(pointer)
        self.name = name
        self._notifications_ready: List[Any] = []   # (every ready callback given: the library may call one late)

    @classmethod
    def _borrowing(cls, pointer: Any) -> "Database":
        """A Database on a handle the library lends for a call (CBLConformance_Run's query
        runner), holding a reference of its own: release it with `_handle.release()`, never
        close(), which would close the library's database."""
        database = cls.__new__(cls)
        database._handle = Handle(lib.CBL_Retain(pointer))
        database.name = present(borrowed_text(lib.CBLDatabase_Name(pointer)), "database name")
        database._notifications_ready = []
        return database

    @property
    def path(self) -> str:
        """The database file's path."""
        return present(owned_text(lib.CBLDatabase_Path(self._pointer())), "database path")

    def close(self) -> None:
        """Closes the database (its collections, queries and results are closed with it)."""
        if self._handle is None:
            return
        error = new_error()
        if not lib.CBLDatabase_Close(self._handle.pointer, error):
            raise error_from(error)
        self._handle.release()
        self._handle = None

    def delete(self) -> None:
        """Closes the database and deletes its file (Couchbase Lite's Database.delete()):
        its documents, indexes and blobs are gone. doclite.delete_database deletes a
        database that is not open."""
        error = new_error()
        if not lib.CBLDatabase_Delete(self._pointer(), error):
            raise error_from(error)
        if self._handle is not None:
            self._handle.release()
            self._handle = None

    def __enter__(self) -> "Database":
        """The database itself (`with doclite.open(path) as db:`)."""
        return self

    def __exit__(self, *exception: object) -> None:
        """Closes the database when the `with` block ends, however it ends."""
        self.close()

    def _pointer(self) -> Any:
        """The database's handle for a call; NotOpenError once it is closed."""
        if self._handle is None:
            raise NotOpenError(f"the database '{self.name}' is closed")
        return self._handle.pointer

    def _collection(self, pointer: Any, error: Any, scope: str, name: str) -> Optional[Collection]:
        """The Collection of a collection handle the library returned (+1), or None for
        NULL without an error (no such collection); the error raised for NULL with one."""
        if pointer == ffi.NULL:
            if error.code:
                raise error_from(error)
            return None
        return Collection(self, Handle(pointer), scope, name)

    def _existing(self, collection: Optional[Collection], scope: str, name: str) -> Collection:
        """`collection`, which the library returns whenever it has no error to report."""
        if collection is None:
            raise NotFoundError(f"no collection {scope}.{name}")
        return collection

    def default_collection(self) -> Collection:
        """The default collection, `_default._default`."""
        error = new_error()
        return self._existing(self._collection(lib.CBLDatabase_DefaultCollection(self._pointer(), error), error,
                                               DEFAULT, DEFAULT), DEFAULT, DEFAULT)

    def collection(self, name: str, scope: str = DEFAULT) -> Optional[Collection]:
        """The collection `scope.name`, or None when there is none."""
        error = new_error()
        return self._collection(lib.CBLDatabase_Collection(self._pointer(), text(name, "the collection name"),
                                                           text(scope, "the scope name"), error), error, scope, name)

    def create_collection(self, name: str, scope: str = DEFAULT) -> Collection:
        """The collection `scope.name`, created when missing."""
        error = new_error()
        return self._existing(self._collection(lib.CBLDatabase_CreateCollection(
            self._pointer(), text(name, "the collection name"), text(scope, "the scope name"), error), error, scope, name),
            scope, name)

    def delete_collection(self, name: str, scope: str = DEFAULT) -> None:
        """Deletes the collection `scope.name` and its documents; a missing one is not an error."""
        error = new_error()
        if not lib.CBLDatabase_DeleteCollection(self._pointer(), text(name, "the collection name"),
                                                text(scope, "the scope name"), error):
            raise error_from(error)

    def scope_names(self) -> List[str]:
        """The names of the scopes that hold a collection (`_default` always)."""
        names: List[str] = json.loads(owned_result(lib.CBLDatabase_ScopeNames, self._pointer()))
        return names

    def collection_names(self, scope: str = DEFAULT) -> List[str]:
        """The names of the collections of `scope` (none for a scope without collections)."""
        names: List[str] = json.loads(owned_result(lib.CBLDatabase_CollectionNames, self._pointer(),
                                                   text(scope, "the scope name")))
        return names

    def default_scope(self) -> Scope:
        """The default scope, `_default` (Couchbase Lite's Database.defaultScope)."""
        error = new_error()
        pointer = lib.CBLDatabase_DefaultScope(self._pointer(), error)
        if pointer == ffi.NULL:
            raise error_from(error)
        return Scope(self, Handle(pointer))

    def scope(self, name: str) -> Optional[Scope]:
        """The scope `name`, or None when it holds no collection (Couchbase Lite's Database.scope(name))."""
        error = new_error()
        pointer = lib.CBLDatabase_Scope(self._pointer(), text(name, "the scope name"), error)
        if pointer == ffi.NULL:
            if error.code:
                raise error_from(error)
            return None
        return Scope(self, Handle(pointer))

    def scopes(self) -> List[Scope]:
        """The scopes that hold a collection (`_default` always), by name."""
        found = (self.scope(name) for name in self.scope_names())
        return [scope for scope in found if scope is not None]

    @contextlib.contextmanager
    def batch(self) -> Iterator["Database"]:
        """A transaction: committed when the block ends, rolled back when it raises."""
        error = new_error()
        if not lib.CBLDatabase_BeginTransaction(self._pointer(), error):
            raise error_from(error)
        committed = False
        try:
            yield self
            committed = True
        finally:
            if not lib.CBLDatabase_EndTransaction(self._pointer(), committed, error) and committed:
                raise error_from(error)

    @contextlib.contextmanager
    def _storing(self, blobs: Sequence[Blob]) -> Iterator[None]:
        """For a block saving documents that hold `blobs`: the blobs' content stored first,
        in one transaction with the block (none when there are no blobs)."""
        if not blobs:
            yield
            return
        with self.batch():
            stored: Set[str] = set()
            for blob in blobs:
                if blob.digest not in stored:
                    stored.add(blob.digest)
                    self.save_blob(blob)
            yield

    def save_blob(self, blob: Blob) -> None:
        """Stores `blob`'s content in the database (once per digest; Couchbase Lite's
        saveBlob), so that a document may refer to it by its metadata dict, set anywhere in
        its properties. Until one does, compaction deletes it. Inside a batch, a rollback
        undoes it."""
        if not isinstance(blob, Blob):
            raise TypeError(f"expected a doclite.Blob, got {type(blob).__name__}")
        error = new_error()
        if not lib.CBLDatabase_SaveBlob(self._pointer(), blob._pointer, error):
            raise error_from(error)

    def get_blob(self, properties: Union[Mapping[str, Any], Blob]) -> Optional[Blob]:
        """The blob a metadata dict describes (as a document or a query row holds it:
        `db.get_blob(row["photo"])`), or None when the database does not store its content
        (Couchbase Lite's getBlob(properties:)). InvalidParameterError when `properties` is
        not a blob's metadata (a Blob stands for its own). The Blob reads its content from
        this database while it is open."""
        if isinstance(properties, Blob):
            properties = properties.properties
        if not isinstance(properties, Mapping):
            raise TypeError(f"a blob's metadata is a dict, got {type(properties).__name__}")
        error = new_error()
        pointer = lib.CBLDatabase_GetBlob(self._pointer(), json_text(properties, "the blob's metadata"), error)
        if pointer == ffi.NULL:
            if error.code:
                raise error_from(error)
            return None
        return Blob._adopt(pointer)

    def perform_maintenance(self, type: MaintenanceType) -> None:
        """Runs a maintenance task: MaintenanceType.COMPACT (which also deletes the blobs
        no document refers to), REINDEX, INTEGRITY_CHECK, OPTIMIZE or FULL_OPTIMIZE."""
        error = new_error()
        if not lib.CBLDatabase_PerformMaintenance(self._pointer(), MaintenanceType(type), error):
            raise error_from(error)

    def create_query(self, query: Union[str, Mapping[str, Any]], language: str = "sqlpp") -> Query:
        """A compiled query: SQL++ (`"SELECT name FROM _ WHERE type = 'hotel'"`) or,
        with `language="json"`, LiteCore's JSON query language."""
        return Query(self, query, language)

    def query(self, query: Union[str, Mapping[str, Any]], parameters: Optional[Mapping[str, Any]] = None,
              language: str = "sqlpp") -> ResultSet:
        """Runs a query once; its rows (see ResultSet)."""
        return self.create_query(query, language).execute(parameters)

    def buffer_notifications(self, ready: Optional[Callable[["Database"], object]]) -> None:
        """Buffers the database's notifications (Couchbase Lite's bufferNotifications):
        instead of calling its collection, document and live-query listeners on the
        library's threads, DocLite queues the calls, calls `ready(database)` when the
        queue stops being empty (on the committing or querying thread: it should only
        arrange for send_notifications to be called), and `send_notifications()` makes
        them, in order, on the thread that calls it. With asyncio:
        `db.buffer_notifications(lambda db: loop.call_soon_threadsafe(db.send_notifications))`.
        None stops buffering (calls already queued wait for send_notifications). An
        exception `ready` raises goes to doclite.listener_error."""
        if ready is not None and not callable(ready):
            raise TypeError(f"a ready callback is callable, got {type(ready).__name__}")
        pointer = self._pointer()
        if ready is None:
            lib.CBLDatabase_BufferNotifications(pointer, ffi.NULL, ffi.NULL)
            return
        guarded = _Listener(ready)

        @c_callback("void(void*, CBLDatabase*)")
        def callback(context: Any, database: Any) -> None:
            guarded(self)

        self._notifications_ready.append(callback)
        lib.CBLDatabase_BufferNotifications(pointer, callback, ffi.NULL)

    def send_notifications(self) -> None:
        """Makes the queued listener calls of a buffering database (see
        buffer_notifications), in order, on this thread; nothing when none is queued."""
        lib.CBLDatabase_SendNotifications(self._pointer())


def _name_and_directory(path: Union[str, "os.PathLike[str]"]) -> Tuple[str, Optional[str]]:
    """A database path (`"data/beers"` or `"data/beers.doclite"`) as its name and
    directory (None: the current one)."""
    path = os.fspath(path)
    if not isinstance(path, str):
        raise TypeError(f"a database path is a str or os.PathLike[str], got {type(path).__name__}")
    if path.endswith(".doclite"):
        path = path[: -len(".doclite")]
    directory, name = os.path.split(path)
    return name, directory or None


def open(path: Union[str, "os.PathLike[str]"], full_sync: bool = False, *, create: bool = True) -> Database:
    """Opens the database at `path` (`"data/beers"`: the file data/beers.doclite). A
    missing file is created, with its directory, as Couchbase Lite does; with
    `create=False` a missing file raises NotFoundError naming the path, and nothing is
    created. `full_sync`: sync every commit to disk."""
    name, directory = _name_and_directory(path)
    return Database(name, directory, full_sync, create=create)


def database_exists(path: Union[str, "os.PathLike[str]"]) -> bool:
    """Whether there is a database at `path` (as `open` reads it: `"data/beers"` is the
    file data/beers.doclite), as Couchbase Lite's Database.exists."""
    name, directory = _name_and_directory(path)
    exists: bool = lib.CBL_DatabaseExists(text(name, "the database name"),
                                          text(directory, "the database directory", optional=True))
    return exists


def delete_database(path: Union[str, "os.PathLike[str]"]) -> None:
    """Deletes the database at `path` (as `open` reads it), which must not be open
    (Couchbase Lite's Database.delete(name:inDirectory:)); NotFoundError naming the path
    when there is none. An open database deletes itself with Database.delete()."""
    name, directory = _name_and_directory(path)
    error = new_error()
    if not lib.CBL_DeleteDatabase(text(name, "the database name"), text(directory, "the database directory", optional=True),
                                  error):
        if error.code:
            raise error_from(error)
        missing = os.path.join(directory or os.curdir, f"{name}.doclite")
        raise NotFoundError(f"no database file {missing!r}")
