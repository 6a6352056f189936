"""Sync with a PostgreSQL server (docs/sync.md): Couchbase Lite's Replicator.

    server = "postgresql://alice:secret@db.example.com/app"
    with doclite.Replicator([db.default_collection()], server) as replicator:
        status = replicator.run()     # push and pull until caught up
"""

import enum
import json
import threading
from typing import Any, Callable, List, Optional, Sequence, Set, Union

from ._database import Database, Document
from ._errors import DocLiteError, NotOpenError, error_from, new_error, owned_result
from ._ffi import Handle, borrowed_text, c_callback, ffi, lib, owned_text, text
from ._listeners import ListenerToken, _Listener

_ACTIVITIES = ["stopped", "offline", "connecting", "idle", "busy"]
_TYPES = {"push_and_pull": 0, "push": 1, "pull": 2}


def initialize_server(server: str) -> None:
    """Creates (or checks) DocLite's schema in a PostgreSQL database, as `doclite sync init` does;
    `server` is a libpq connection string."""
    endpoint = _endpoint(server, False)
    try:
        error = new_error()
        if not lib.CBLEndpoint_InitializeServer(endpoint.pointer, error):
            raise error_from(error)
    finally:
        endpoint.release()


def _endpoint(server: Union[str, Database], create_schema: bool) -> Handle:
    """The endpoint of a connection string, or of another database."""
    error = new_error()
    if isinstance(server, str):
        pointer = lib.CBLEndpoint_CreateWithPostgreSQL(text(server, "the server"), create_schema, error)
    else:
        pointer = lib.CBLEndpoint_CreateWithLocalDB(server._pointer(), error)
    if pointer == ffi.NULL:
        raise error_from(error)
    return Handle(pointer)


def _error(error: Any) -> Optional[DocLiteError]:
    """The exception of a `CBLError` held in a struct, None for code 0."""
    if not error.code:
        return None
    copy = new_error()
    copy[0] = error
    return error_from(copy)


class ReplicatorStatus:
    """What a replicator is doing: `activity` ("stopped", "offline", "connecting", "idle",
    "busy"), `complete` (0 to 1), `document_count`, and `error` (None, or why it stopped)."""

    activity: str
    complete: float
    document_count: int
    error: Optional[DocLiteError]

    def __init__(self, status: Any) -> None:
        self.activity = _ACTIVITIES[status.activity] if status.activity < len(_ACTIVITIES) else "stopped"
        self.complete = float(status.progress.complete)
        self.document_count = int(status.progress.documentCount)
        self.error = _error(status.error)

    def __repr__(self) -> str:
        return f"ReplicatorStatus({self.activity!r}, documents={self.document_count}, error={self.error!r})"


class DocumentFlags(enum.IntFlag):
    """What a replicated revision is: `DELETED` (a deletion), `ACCESS_REMOVED` (the server no
    longer lets this user read the document)."""

    DELETED = lib.kCBLDocumentFlagsDeleted
    ACCESS_REMOVED = lib.kCBLDocumentFlagsAccessRemoved

    @classmethod
    def _of(cls, flags: int) -> "DocumentFlags":
        """The flags of a C `CBLDocumentFlags` (bits this binding does not know dropped)."""
        return cls(flags & (cls.DELETED | cls.ACCESS_REMOVED))


class ReplicatedDocument:
    """A document pushed or pulled: `id`, `flags` (`deleted` and `access_removed` read them:
    access removed, the document was purged here, or with auto-purge off only reported),
    `error` (None when it replicated)."""

    def __init__(self, document: Any, is_push: bool) -> None:
        self.id: str = borrowed_text(document.ID) or ""
        self.flags = DocumentFlags._of(document.flags)
        self.is_push = is_push
        self.scope: str = borrowed_text(document.scope) or ""
        self.collection: str = borrowed_text(document.collection) or ""
        self.error: Optional[DocLiteError] = _error(document.error)

    @property
    def deleted(self) -> bool:
        """Whether the revision is a deletion."""
        return DocumentFlags.DELETED in self.flags

    @property
    def access_removed(self) -> bool:
        """Whether the server no longer lets this user read the document."""
        return DocumentFlags.ACCESS_REMOVED in self.flags


Filter = Callable[[Document, DocumentFlags], bool]
"""A push or pull filter: (document, flags) → whether it replicates. Before a document the user
may no longer read is purged, the pull filter is asked with `ACCESS_REMOVED` and an empty
document; False keeps it."""
Resolver = Callable[[str, Optional[Document], Optional[Document]], Optional[Any]]
"""A conflict resolver: (document ID, local, remote; None when deleted) → local, remote,
a dict of merged properties, or None to delete."""


def _document(handle: Any) -> Document:
    """A Python document of a borrowed document handle."""
    body = owned_text(lib.CBLDocument_CreateJSON(handle)) or "{}"
    revision = lib.CBLDocument_RevisionID(handle)
    return Document(borrowed_text(lib.CBLDocument_ID(handle)), json.loads(body),
                    _revision=ffi.string(revision) if revision != ffi.NULL else None, _sequence=lib.CBLDocument_Sequence(handle))


def _report(exception: Exception) -> None:
    from . import listener_error
    listener_error(exception)


def _filter_callback(function: Filter) -> Any:
    @c_callback("bool(void*, CBLDocument*, CBLDocumentFlags)")
    def callback(context: Any, document: Any, flags: int) -> bool:
        try:
            return bool(function(_document(document), DocumentFlags._of(flags)))
        except Exception as exception:   # (not into C: reported, and the document is not replicated)
            _report(exception)
            return False
    return callback


def _resolver_callback(function: Resolver) -> Any:
    @c_callback("const CBLDocument*(void*, const char*, const CBLDocument*, const CBLDocument*)")
    def callback(context: Any, document_id: Any, local: Any, remote: Any) -> Any:
        identifier = borrowed_text(document_id) or ""
        sides = [None if handle == ffi.NULL else _document(handle) for handle in (local, remote)]
        try:
            resolved = function(identifier, sides[0], sides[1])
        except Exception as exception:   # (not into C: reported, and the server's revision is kept)
            _report(exception)
            return remote
        if resolved is None:
            return ffi.NULL
        for side, handle in zip(sides, (local, remote)):
            if resolved is side and side is not None:
                return handle
        properties = resolved.properties if isinstance(resolved, Document) else resolved
        error = new_error()
        merged = lib.CBLDocument_CreateWithID(text(identifier, "the document ID"), error)
        if merged == ffi.NULL or not lib.CBLDocument_SetJSON(merged, text(json.dumps(properties), "the merge"), error):
            lib.CBL_Release(merged)
            _report(error_from(error))
            return remote
        return merged   # (+1: DocLite releases it)
    return callback


class Replicator:
    """Pushes and pulls `collections` (of one database) to and from `server`: a PostgreSQL
    server, given as a libpq connection string, or another `Database`. `type`:
    "push_and_pull", "push" or "pull"; `continuous`: keep syncing until stopped; `channels`,
    `document_ids`: narrow it; `push_filter`, `pull_filter`: (document, `DocumentFlags`) →
    whether it replicates; `conflict_resolver`: (ID, local, remote) → local, remote, merged properties or
    None; `create_schema`: make (or upgrade) DocLite's server schema when missing;
    `auto_purge`: purge the documents the server no longer lets this user read (else only
    report them). Filters and resolvers run on the library's thread. A context manager: the
    replicator is stopped and released when the block ends."""

    def __init__(self, collections: Sequence[Any], server: Union[str, Database], *, type: str = "push_and_pull", continuous: bool = False,
                 channels: Optional[Sequence[str]] = None, document_ids: Optional[Sequence[str]] = None,
                 push_filter: Optional[Filter] = None, pull_filter: Optional[Filter] = None,
                 conflict_resolver: Optional[Resolver] = None,
                 create_schema: bool = False, max_attempts: int = 0, max_attempt_wait_time: int = 0,
                 heartbeat: int = 0, auto_purge: bool = True) -> None:
        if type not in _TYPES:
            raise ValueError(f"type must be one of {', '.join(_TYPES)}, not {type!r}")
        endpoint = _endpoint(server, create_schema)
        # The C callbacks live as long as the replicator.
        self._callbacks = [_filter_callback(push_filter) if push_filter else ffi.NULL,
                           _filter_callback(pull_filter) if pull_filter else ffi.NULL,
                           _resolver_callback(conflict_resolver) if conflict_resolver else ffi.NULL]
        try:
            keep: List[Any] = []   # the C strings, alive until the replicator copied them
            entries = ffi.new("CBLReplicationCollection[]", len(collections) or 1)
            for i, collection in enumerate(collections):
                entries[i].collection = collection._pointer()
                entries[i].pushFilter, entries[i].pullFilter, entries[i].conflictResolver = self._callbacks
                for field, values in (("channelsJSON", channels), ("documentIDsJSON", document_ids)):
                    if values is not None:
                        keep.append(ffi.new("char[]", json.dumps(list(values)).encode("utf-8")))
                        setattr(entries[i], field, keep[-1])
            config = ffi.new("CBLReplicatorConfiguration*")
            config.collections, config.collectionCount, config.endpoint = entries, len(collections), endpoint.pointer
            config.replicatorType, config.continuous = _TYPES[type], continuous
            config.maxAttempts, config.maxAttemptWaitTime, config.heartbeat = max_attempts, max_attempt_wait_time, heartbeat
            config.disableAutoPurge = not auto_purge
            error = new_error()
            pointer = lib.CBLReplicator_Create(config, error)
            if pointer == ffi.NULL:
                raise error_from(error)
        finally:
            endpoint.release()
        self._handle: Optional[Handle] = Handle(pointer)
        self._collections = list(collections)
        self._tokens: List[ListenerToken] = []   # removed by close()

    def _pointer(self) -> Any:
        if self._handle is None:
            raise NotOpenError("the replicator is closed")
        return self._handle.pointer

    def start(self, reset: bool = False) -> None:
        """Starts replicating (with `reset`, from the start); it runs on a thread of its own."""
        lib.CBLReplicator_Start(self._pointer(), reset)

    def stop(self) -> None:
        """Stops it; `status.activity` is "stopped" once its current step ends."""
        lib.CBLReplicator_Stop(self._pointer())

    @property
    def status(self) -> ReplicatorStatus:
        """The current status."""
        return ReplicatorStatus(lib.CBLReplicator_Status(self._pointer()))

    def wait(self, timeout: Optional[float] = None) -> ReplicatorStatus:
        """Waits until the replicator stops (or `timeout` seconds pass), woken by its own
        announcement of the stop; the status then."""
        stopped = threading.Event()
        token = self.add_change_listener(lambda status: stopped.set() if status.activity == "stopped" else None)
        try:
            if self.status.activity != "stopped":   # (asked after the listener is in place)
                stopped.wait(timeout)
        finally:
            token.remove()
            self._tokens.remove(token)
        return self.status

    def run(self, reset: bool = False) -> ReplicatorStatus:
        """Starts, waits until it stops, and returns the status; raises its error, if any."""
        self.start(reset)
        status = self.wait()
        if status.error is not None:
            raise status.error
        return status

    def pending_document_ids(self, collection: Any) -> Set[str]:
        """The IDs the next push would send of `collection`."""
        ids: List[str] = json.loads(owned_result(lib.CBLReplicator_PendingDocumentIDs2, self._pointer(), collection._pointer()))
        return set(ids)

    def is_document_pending(self, document_id: str, collection: Any) -> bool:
        """Whether the next push would send document `document_id` of `collection`."""
        error = new_error()
        pending = bool(lib.CBLReplicator_IsDocumentPending2(self._pointer(), text(document_id, "the document ID"),
                                                            collection._pointer(), error))
        if error.code:
            raise error_from(error)
        return pending

    def add_change_listener(self, function: Callable[[ReplicatorStatus], object]) -> ListenerToken:
        """Calls `function(status)` at each change of status, on a thread of the library's,
        until the token is removed or the replicator closed."""
        guarded = _Listener(function)

        @c_callback("void(void*, CBLReplicator*, const CBLReplicatorStatus*)")
        def callback(context: Any, replicator: Any, status: Any) -> None:
            guarded(ReplicatorStatus(status))

        error = new_error()
        pointer = lib.CBLReplicator_AddChangeListener(self._pointer(), callback, ffi.NULL, error)
        if pointer == ffi.NULL:
            raise error_from(error)
        self._tokens.append(ListenerToken(pointer, callback, guarded))
        return self._tokens[-1]

    def add_document_listener(self, function: Callable[[List[ReplicatedDocument]], object]) -> ListenerToken:
        """Calls `function(documents)` with each batch of documents pushed or pulled."""
        guarded = _Listener(function)

        @c_callback("void(void*, CBLReplicator*, bool, unsigned, const CBLReplicatedDocument*)")
        def callback(context: Any, replicator: Any, is_push: bool, count: int, documents: Any) -> None:
            guarded([ReplicatedDocument(documents[i], bool(is_push)) for i in range(count)])

        error = new_error()
        pointer = lib.CBLReplicator_AddDocumentReplicationListener(self._pointer(), callback, ffi.NULL, error)
        if pointer == ffi.NULL:
            raise error_from(error)
        self._tokens.append(ListenerToken(pointer, callback, guarded))
        return self._tokens[-1]

    def close(self) -> None:
        """Stops the replicator, waits for it, removes its listeners and releases it (again: nothing)."""
        if self._handle is not None:
            self.stop()
            self.wait(timeout=60)
            for token in self._tokens:
                token.remove()
            self._handle.release()
            self._handle = None

    def __enter__(self) -> "Replicator":
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

