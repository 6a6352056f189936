"""Databases, collections and documents."""

import contextlib
import enum
from typing import Any, Callable, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union
import json
import os

from ._blob import Blob, json_default
from ._errors import InvalidParameterError, NotFoundError, NotOpenError, error_from, new_error, owned_result
from ._ffi import Handle, borrowed_text, c_string, ffi, lib, owned_text, text
from ._listeners import CollectionChange, ListenerToken, add_collection_listener, add_document_listener
from ._query import Query, ResultSet

DEFAULT = "_default"


class Document:
    """A document: its ID and its properties, read like a dict (`doc["name"]`).

    A property may hold a Blob (`doc.set_blob("photo", blob)`, or a Blob anywhere in the
    properties): saving the document stores the blob's content and the document holds
    its metadata dict. A document read from a collection holds that dict, which
    `get_blob` turns back into a Blob."""

    __slots__ = ("id", "properties", "_collection")

    def __init__(self, id, properties=None, *, _collection=None):
        self.id = id
        self.properties = dict(properties or {})
        self._collection = _collection   # (the collection it was read from or saved to: for get_blob)

    def __getitem__(self, key):
        return self.properties[key]

    def __setitem__(self, key, value):
        self.properties[key] = value

    def __contains__(self, key):
        return key in self.properties

    def __iter__(self):
        return iter(self.properties)

    def __len__(self):
        return len(self.properties)

    def get(self, key: str, default: Any = None) -> Any:
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
        value = self.properties.get(key)
        if isinstance(value, Blob):
            return value
        if not Blob.is_blob(value):
            return None
        if self._collection is None:
            raise InvalidParameterError(f"the document {self.id!r} was not read from or saved to a collection: "
                                        f"read its blob with Database.get_blob(document[{key!r}])", 1, 9)
        return self._collection.database.get_blob(value)

    def to_json(self) -> str:
        """The properties as JSON text (a Blob as its metadata dict)."""
        return json.dumps(self.properties, ensure_ascii=False, separators=(",", ":"), default=json_default())

    def __repr__(self):
        return f"Document({self.id!r}, {self.properties!r})"


class Collection:
    """A collection of documents, read and written like a dict of documents by ID."""

    def __init__(self, database, handle, scope, name):
        self.database = database
        self._handle = handle
        self.scope_name = scope
        self.name = name

    @property
    def full_name(self) -> str:
        """`scope.name`."""
        return f"{self.scope_name}.{self.name}"

    def __len__(self):
        return lib.CBLCollection_Count(self._handle.pointer)

    @contextlib.contextmanager
    def _document(self, id):
        """The document handle of `id` (NULL when there is none) for the block, released after it."""
        error = new_error()
        document = lib.CBLCollection_GetDocument(self._handle.pointer, text(id), error)
        if document == ffi.NULL and error.code:
            raise error_from(error)
        try:
            yield document
        finally:
            lib.CBL_Release(document)

    def get(self, id: str) -> Optional[Document]:
        """The document `id`, or None when there is none."""
        with self._document(id) as document:
            if document == ffi.NULL:
                return None
            return Document(borrowed_text(lib.CBLDocument_ID(document)), json.loads(owned_text(lib.CBLDocument_CreateJSON(document))),
                            _collection=self)

    def __getitem__(self, id: str) -> Document:
        document = self.get(id)
        if document is None:
            raise NotFoundError(f"no document '{id}' in {self.full_name}", 1, 7)
        return document

    def __contains__(self, id):
        return self.get(id) is not None

    def save(self, document: Union[Document, Mapping[str, Any]], id: Optional[str] = None) -> Document:
        """Saves a Document, or a dict of properties (under `id`, or a new ID);
        returns the saved Document. A Blob anywhere in the properties is saved as its
        metadata dict, and its content stored in the same transaction."""
        if isinstance(document, Document):
            id, properties = document.id, document.properties
        else:
            properties = document
        blobs = []
        body = json.dumps(properties, ensure_ascii=False, allow_nan=False, default=json_default(blobs))
        error = new_error()
        handle = lib.CBLDocument_CreateWithID(text(id), error) if id is not None else lib.CBLDocument_Create()
        if handle == ffi.NULL:
            raise error_from(error)
        try:
            with self.database._storing(blobs):
                if not lib.CBLDocument_SetJSON(handle, body.encode("utf-8"), error) or \
                        not lib.CBLCollection_SaveDocument(self._handle.pointer, handle, error):
                    raise error_from(error)
            saved = Document(borrowed_text(lib.CBLDocument_ID(handle)), properties, _collection=self)
        finally:
            lib.CBL_Release(handle)
        if isinstance(document, Document):
            document.id = saved.id
            document._collection = self
        return saved

    def __setitem__(self, id: str, properties: Mapping[str, Any]) -> None:
        self.save(properties, id=id)

    def save_many(self, documents: Union[Mapping[str, Mapping[str, Any]], Iterable[Union[Document, Tuple[str, Mapping[str, Any]]]]],
                  chunk: int = 1000) -> None:
        """Saves many documents, `chunk` per call into the library (each call one
        transaction): a mapping of ID to properties, or an iterable of (ID,
        properties) pairs or Documents. An error names the document. Blobs in the
        properties are stored as `save` stores them, in their chunk's transaction."""
        if hasattr(documents, "items"):
            documents = documents.items()
        ids, bodies, blobs = [], [], []
        encode = json_default(blobs)
        for item in documents:
            id, properties = (item.id, item.properties) if isinstance(item, Document) else item
            if not isinstance(id, str):
                raise TypeError(f"a document ID must be a string, got {type(id).__name__}")
            ids.append(id)
            bodies.append(json.dumps(properties, ensure_ascii=False, allow_nan=False, default=encode))   # (never a raw newline)
            if len(ids) == chunk:
                self._save_lines(ids, bodies, blobs)
                ids, bodies = [], []
                del blobs[:]
        if ids:
            self._save_lines(ids, bodies, blobs)

    def _save_lines(self, ids, bodies, blobs=()):
        error = new_error()
        with self.database._storing(blobs):
            if not lib.CBLCollection_SaveDocumentsJSON(self._handle.pointer, "\n".join(ids).encode("utf-8"),
                                                       "\n".join(bodies).encode("utf-8"), error):
                raise error_from(error)

    def delete(self, id: str) -> None:
        """Deletes the document `id` (a tombstone remains); NotFoundError when there is none."""
        with self._document(id) as document:
            if document == ffi.NULL:
                raise NotFoundError(f"no document '{id}' in {self.full_name}", 1, 7)
            error = new_error()
            if not lib.CBLCollection_DeleteDocument(self._handle.pointer, document, error):
                raise error_from(error)

    def __delitem__(self, id):
        self.delete(id)

    def set_expiration(self, id: str, milliseconds: Optional[int]) -> None:
        """Purges document `id` at `milliseconds` since 1970 (None or 0: never)."""
        error = new_error()
        if not lib.CBLCollection_SetDocumentExpiration(self._handle.pointer, text(id), milliseconds or 0, error):
            raise error_from(error)

    def purge(self, id: str) -> None:
        """Removes document `id` without a trace."""
        error = new_error()
        if not lib.CBLCollection_PurgeDocumentByID(self._handle.pointer, text(id), error):
            raise error_from(error)

    def add_change_listener(self, listener: Callable[[CollectionChange], None]) -> ListenerToken:
        """Calls `listener(CollectionChange)` after each commit that changes the
        collection, on the committing thread; returns a ListenerToken."""
        return add_collection_listener(self, listener)

    def add_document_change_listener(self, id: str, listener: Callable[["Collection", str], None]) -> ListenerToken:
        """Calls `listener(collection, id)` after each commit that changes document `id`."""
        return add_document_listener(self, id, listener)

    def create_value_index(self, name: str, expressions: Union[str, Sequence[str]], where: Optional[str] = None) -> None:
        """A value index on SQL++ expressions (`"type, lower(name)"` or a list of them)."""
        config, keep = self._index_configuration("CBLValueIndexConfiguration*", expressions, where, "sqlpp")
        error = new_error()
        if not lib.CBLCollection_CreateValueIndex(self._handle.pointer, text(name), config[0], error):
            raise error_from(error)

    def create_full_text_index(self, name: str, expressions: Union[str, Sequence[Any]], where: Any = None,
                               ignore_accents: bool = False, language: Optional[str] = None,
                               expression_language: str = "sqlpp") -> None:
        """A full-text index on SQL++ expressions (or, with expression_language="json",
        a JSON array of JSON-query expressions), searched with MATCH() and ranked with RANK()."""
        config, keep = self._index_configuration("CBLFullTextIndexConfiguration*", expressions, where, expression_language)
        keep.append(c_string(language))
        config.ignoreAccents, config.language = ignore_accents, keep[-1]
        error = new_error()
        if not lib.CBLCollection_CreateFullTextIndex(self._handle.pointer, text(name), config[0], error):
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
        if expressions is not None:
            expressions = _expressions_text(expressions, expression_language)
        config = ffi.new("CBLArrayIndexConfiguration*")
        keep = [c_string(path), c_string(expressions)]   # (alive through the call)
        config.expressionLanguage = language
        config.path, config.expressions = keep
        error = new_error()
        if not lib.CBLCollection_CreateArrayIndex(self._handle.pointer, text(name), config[0], error):
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
        if expression_language == "json" and not isinstance(input, str):
            input = json.dumps(input)
        if properties is not None and not isinstance(properties, str):
            properties = json.dumps(list(properties))
        config = ffi.new("CBLPredictiveIndexConfiguration*")
        keep = [c_string(model), c_string(input), c_string(properties)]   # (alive through the call)
        config.expressionLanguage = language
        config.model, config.input, config.properties = keep
        error = new_error()
        if not lib.CBLCollection_CreatePredictiveIndex(self._handle.pointer, text(name), config[0], error):
            raise error_from(error)

    @staticmethod
    def _index_configuration(c_type, expressions, where, expression_language):
        """A configuration struct with its language, expressions and condition set, and
        the C strings it points to (keep them alive while it is used)."""
        language = _expression_language(expression_language)
        expressions = _expressions_text(expressions, expression_language)
        if where is not None and not isinstance(where, str):
            where = json.dumps(where)
        config = ffi.new(c_type)
        keep = [c_string(expressions), c_string(where)]
        config.expressionLanguage = language
        config.expressions, config.where = keep
        return config, keep

    def indexes(self) -> List[str]:
        """The names of the collection's indexes."""
        return json.loads(owned_result(lib.CBLCollection_GetIndexNames, self._handle.pointer))

    def delete_index(self, name: str) -> None:
        """Deletes the index `name` (of any kind); a missing index is not an error."""
        error = new_error()
        if not lib.CBLCollection_DeleteIndex(self._handle.pointer, text(name), error):
            raise error_from(error)

    def __repr__(self):
        return f"<doclite.Collection {self.full_name}>"


def _expression_language(expression_language):
    """The CBLQueryLanguage of an index's `expression_language`: "sqlpp" or "json"."""
    if expression_language == "sqlpp":
        return lib.kCBLN1QLLanguage
    if expression_language == "json":
        return lib.kCBLJSONLanguage
    raise ValueError(f"unknown expression language {expression_language!r} (sqlpp or json)")


def _expressions_text(expressions, expression_language):
    """An index's expressions as the library reads them: a string as it is, a list of
    SQL++ expressions joined by commas, a list of JSON-query expressions as a JSON array."""
    if isinstance(expressions, str):
        return expressions
    return json.dumps(expressions) if expression_language == "json" else ", ".join(expressions)


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

    def __init__(self, name: str, directory: Optional[str] = None, full_sync: bool = False):
        config = ffi.new("CBLDatabaseConfiguration*")
        directory_text = c_string(directory)   # (kept alive through the call)
        config.directory, config.fullSync = directory_text, full_sync
        error = new_error()
        pointer = lib.CBLDatabase_Open(text(name), config, error)
        if pointer == ffi.NULL:
            raise error_from(error)
        self._handle = Handle(pointer)
        self.name = name

    @property
    def path(self) -> str:
        """The database file's path."""
        return owned_text(lib.CBLDatabase_Path(self._handle.pointer))

    def close(self) -> None:
        """Closes the database (its collections, queries and results are closed with it)."""
        if self._handle is None:
            return
        error = new_error()
        if not lib.CBLDatabase_Close(self._handle.pointer, error):
            raise error_from(error)
        self._handle.release()
        self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()

    def _pointer(self):
        if self._handle is None:
            raise NotOpenError(f"the database '{self.name}' is closed", 1, 6)
        return self._handle.pointer

    def _collection(self, pointer, error, scope, name):
        if pointer == ffi.NULL:
            if error.code:
                raise error_from(error)
            return None
        return Collection(self, Handle(pointer), scope, name)

    def default_collection(self) -> Collection:
        error = new_error()
        return self._collection(lib.CBLDatabase_DefaultCollection(self._pointer(), error), error, DEFAULT, DEFAULT)

    def collection(self, name: str, scope: str = DEFAULT) -> Optional[Collection]:
        """The collection `scope.name`, or None when there is none."""
        error = new_error()
        return self._collection(lib.CBLDatabase_Collection(self._pointer(), text(name), text(scope), error), error, scope, name)

    def create_collection(self, name: str, scope: str = DEFAULT) -> Collection:
        """The collection `scope.name`, created when missing."""
        error = new_error()
        return self._collection(lib.CBLDatabase_CreateCollection(self._pointer(), text(name), text(scope), error),
                                error, scope, name)

    def delete_collection(self, name: str, scope: str = DEFAULT) -> None:
        error = new_error()
        if not lib.CBLDatabase_DeleteCollection(self._pointer(), text(name), text(scope), error):
            raise error_from(error)

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
    def _storing(self, blobs):
        """For a block saving documents that hold `blobs`: the blobs' content stored first,
        in one transaction with the block (none when there are no blobs)."""
        if not blobs:
            yield
            return
        with self.batch():
            stored = set()
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

    def get_blob(self, properties: Mapping[str, Any]) -> Optional[Blob]:
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
        pointer = lib.CBLDatabase_GetBlob(self._pointer(), json.dumps(properties, allow_nan=False).encode("utf-8"), error)
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


def open(path: Union[str, "os.PathLike[str]"], full_sync: bool = False) -> Database:
    """Opens (creating when missing) the database at `path` (`"data/beers"`: the file
    data/beers.doclite)."""
    path = os.fspath(path)
    if path.endswith(".doclite"):
        path = path[: -len(".doclite")]
    directory, name = os.path.split(path)
    return Database(name, directory or None, full_sync)
