"""Databases, collections and documents."""

import contextlib
import enum
from typing import Any, Callable, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union
import json
import os

from ._blob import Blob, json_default
from ._errors import (BadDocumentIDError, InvalidParameterError, NotFoundError, NotOpenError, error_from, new_error,
                      owned_result)
from ._ffi import Handle, borrowed_text, c_string, ffi, json_text, lib, owned_text, text
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

    def _pointer(self):
        """The collection's handle for a call; NotOpenError once its database is closed
        (the library would answer some calls, such as the count, with an empty result)."""
        if self.database._handle is None:
            raise NotOpenError(f"the collection '{self.full_name}' is not open: its database '{self.database.name}' "
                               f"is closed", 1, 6)
        return self._handle.pointer

    def __len__(self) -> int:
        """The number of documents (deleted ones not counted)."""
        return lib.CBLCollection_Count(self._pointer())

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
    def _document(self, id):
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
            return Document(borrowed_text(lib.CBLDocument_ID(document)), json.loads(owned_text(lib.CBLDocument_CreateJSON(document))),
                            _collection=self)

    def __getitem__(self, id: str) -> Document:
        """The document `id`; NotFoundError (a KeyError) when there is none."""
        document = self.get(id)
        if document is None:
            raise NotFoundError(f"no document '{id}' in {self.full_name}", 1, 7)
        return document

    def __contains__(self, id: str) -> bool:
        """Whether there is a document `id` (an ID that is not a str raises TypeError)."""
        return self.get(id) is not None

    def save(self, document: Union[Document, Mapping[str, Any]], id: Optional[str] = None) -> Document:
        """Saves a Document, or a dict of properties (under `id`, or a new ID);
        returns the saved Document. A Blob anywhere in the properties is saved as its
        metadata dict, and its content stored in the same transaction. A Document whose
        `id` is None gets a new ID. Properties the library cannot keep exactly raise
        before anything is saved: NaN or an infinity (ValueError), an integer outside
        [-2**63, 2**64-1] (OverflowError), a lone surrogate (UnicodeEncodeError)."""
        if isinstance(document, Document):
            id, properties = document.id, document.properties
        else:
            properties = document
        collection = self._pointer()
        blobs = []
        body = _body(properties, "the document body", json_default(blobs))
        error = new_error()
        handle = lib.CBLDocument_CreateWithID(text(id, "the document ID"), error) if id is not None else lib.CBLDocument_Create()
        if handle == ffi.NULL:
            raise error_from(error)
        try:
            with self.database._storing(blobs):
                if not lib.CBLDocument_SetJSON(handle, body, error) or \
                        not lib.CBLCollection_SaveDocument(collection, handle, error):
                    raise error_from(error)
            saved = Document(borrowed_text(lib.CBLDocument_ID(handle)), properties, _collection=self)
        finally:
            lib.CBL_Release(handle)
        if isinstance(document, Document):
            document.id = saved.id
            document._collection = self
        return saved

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
        `save` checks them, a chunk's before any of it is saved."""
        if hasattr(documents, "items"):
            documents = documents.items()
        self._pointer()
        ids, bodies, blobs = [], [], []
        encode = json_default(blobs)
        for item in documents:
            id, properties = (item.id, item.properties) if isinstance(item, Document) else item
            line = text(id, "a document ID")
            if not line or b"\n" in line:   # (the library reads one ID per line: these would shift the IDs)
                raise BadDocumentIDError(f"invalid document ID {id!r}: an ID is not empty and holds no control "
                                         f"characters", 1, 29)
            ids.append(line)
            bodies.append(_body(properties, f"the body of document {id!r}", encode))   # (never a raw newline)
            if len(ids) == chunk:
                self._save_lines(ids, bodies, blobs)
                ids, bodies = [], []
                del blobs[:]
        if ids:
            self._save_lines(ids, bodies, blobs)

    def _save_lines(self, ids, bodies, blobs=()):
        """Saves the documents of UTF-8 `ids` and `bodies` (lists of bytes) in one call."""
        error = new_error()
        with self.database._storing(blobs):
            if not lib.CBLCollection_SaveDocumentsJSON(self._pointer(), b"\n".join(ids), b"\n".join(bodies), error):
                raise error_from(error)

    def delete(self, id: str) -> None:
        """Deletes the document `id` (a tombstone remains); NotFoundError when there is none."""
        with self._document(id) as document:
            if document == ffi.NULL:
                raise NotFoundError(f"no document '{id}' in {self.full_name}", 1, 7)
            error = new_error()
            if not lib.CBLCollection_DeleteDocument(self._pointer(), document, error):
                raise error_from(error)

    def __delitem__(self, id: str) -> None:
        """Deletes the document `id`, as `delete`."""
        self.delete(id)

    def set_expiration(self, id: str, milliseconds: Optional[int]) -> None:
        """Purges document `id` at `milliseconds` since 1970 (None or 0: never)."""
        error = new_error()
        if not lib.CBLCollection_SetDocumentExpiration(self._pointer(), text(id, "the document ID"), milliseconds or 0,
                                                       error):
            raise error_from(error)

    def purge(self, id: str) -> None:
        """Removes document `id` without a trace; NotFoundError when there is none (as `delete`)."""
        error = new_error()
        if not lib.CBLCollection_PurgeDocumentByID(self._pointer(), text(id, "the document ID"), error):
            if not error.code:   # (no such document: false with code 0, as in couchbase-lite-C)
                raise NotFoundError(f"no document '{id}' in {self.full_name}", 1, 7)
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

    @staticmethod
    def _index_configuration(c_type, expressions, where, expression_language):
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
        return json.loads(owned_result(lib.CBLCollection_GetIndexNames, self._pointer()))

    def delete_index(self, name: str) -> None:
        """Deletes the index `name` (of any kind); a missing index is not an error."""
        error = new_error()
        if not lib.CBLCollection_DeleteIndex(self._pointer(), text(name, "the index name"), error):
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


def _expressions(expressions, expression_language):
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
            raise NotFoundError(f"no database file {path!r} (opened with create=False)", 1, 7)
        config = ffi.new("CBLDatabaseConfiguration*")
        config.directory, config.fullSync = directory_text, full_sync
        error = new_error()
        pointer = lib.CBLDatabase_Open(name_text, config, error)
        if pointer == ffi.NULL:
            raise error_from(error)
        self._handle = Handle(pointer)
        self.name = name

    @property
    def path(self) -> str:
        """The database file's path."""
        return owned_text(lib.CBLDatabase_Path(self._pointer()))

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
        """The default collection, `_default._default`."""
        error = new_error()
        return self._collection(lib.CBLDatabase_DefaultCollection(self._pointer(), error), error, DEFAULT, DEFAULT)

    def collection(self, name: str, scope: str = DEFAULT) -> Optional[Collection]:
        """The collection `scope.name`, or None when there is none."""
        error = new_error()
        return self._collection(lib.CBLDatabase_Collection(self._pointer(), text(name, "the collection name"),
                                                           text(scope, "the scope name"), error), error, scope, name)

    def create_collection(self, name: str, scope: str = DEFAULT) -> Collection:
        """The collection `scope.name`, created when missing."""
        error = new_error()
        return self._collection(lib.CBLDatabase_CreateCollection(self._pointer(), text(name, "the collection name"),
                                                                 text(scope, "the scope name"), error), error, scope, name)

    def delete_collection(self, name: str, scope: str = DEFAULT) -> None:
        """Deletes the collection `scope.name` and its documents; a missing one is not an error."""
        error = new_error()
        if not lib.CBLDatabase_DeleteCollection(self._pointer(), text(name, "the collection name"),
                                                text(scope, "the scope name"), error):
            raise error_from(error)

    def scope_names(self) -> List[str]:
        """The names of the scopes that hold a collection (`_default` always)."""
        return json.loads(owned_result(lib.CBLDatabase_ScopeNames, self._pointer()))

    def collection_names(self, scope: str = DEFAULT) -> List[str]:
        """The names of the collections of `scope` (none for a scope without collections)."""
        return json.loads(owned_result(lib.CBLDatabase_CollectionNames, self._pointer(), text(scope, "the scope name")))

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


def open(path: Union[str, "os.PathLike[str]"], full_sync: bool = False, *, create: bool = True) -> Database:
    """Opens the database at `path` (`"data/beers"`: the file data/beers.doclite). A
    missing file is created, with its directory, as Couchbase Lite does; with
    `create=False` a missing file raises NotFoundError naming the path, and nothing is
    created. `full_sync`: sync every commit to disk."""
    path = os.fspath(path)
    if not isinstance(path, str):
        raise TypeError(f"a database path is a str or os.PathLike[str], got {type(path).__name__}")
    if path.endswith(".doclite"):
        path = path[: -len(".doclite")]
    directory, name = os.path.split(path)
    return Database(name, directory or None, full_sync, create=create)
