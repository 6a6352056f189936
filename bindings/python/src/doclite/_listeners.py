"""Change listeners and live queries: Python callables called from the
library's threads (cffi takes the GIL for them), kept alive while registered."""

import collections
import threading
import warnings
from typing import TYPE_CHECKING, Any, Callable, Deque, Dict, List, Optional, Tuple

from ._errors import DocLiteError, error_from, new_error
from ._ffi import Handle, borrowed_text, c_callback, ffi, lib, present, text

if TYPE_CHECKING:
    from ._database import Collection
    from ._query import Query, Row

_registered: Dict[int, Tuple["ListenerToken", Any]] = {}   # token pointer → (ListenerToken, C callback): alive until removed
_registered_lock = threading.Lock()


def listener_error(exception: Exception) -> None:
    """What happens to an exception a listener raises: by default a RuntimeWarning
    naming it (assign another function to doclite.listener_error to change that)."""
    warnings.warn(f"a DocLite listener raised {type(exception).__name__}: {exception}", RuntimeWarning, stacklevel=2)


class ListenerToken:
    """A registered listener; `remove()` ends it (and returns once no call of it is running).
    A context manager: `with collection.add_change_listener(f):` removes it when the block ends."""

    def __init__(self, pointer: Any, callback: Any, listener: "_Listener") -> None:
        """Keeps `callback` (the cffi callback the library calls, which calls `listener`)
        alive until `remove()`; made by the add_…_listener methods."""
        self._pointer = pointer
        self._listener = listener
        with _registered_lock:
            _registered[int(ffi.cast("uintptr_t", pointer))] = (self, callback)

    def remove(self) -> None:
        """Unregisters the listener; again, nothing. Also after its database is closed."""
        with _registered_lock:
            entry = _registered.pop(int(ffi.cast("uintptr_t", self._pointer)), None)
        self._listener.active = False   # (a call queued on this thread is dropped)
        if entry is not None:
            lib.CBLListener_Remove(self._pointer)   # (cffi releases the GIL: a running call can finish)

    def __enter__(self) -> "ListenerToken":
        """The token itself (`with collection.add_change_listener(f):`)."""
        return self

    def __exit__(self, *exception: object) -> None:
        """Removes the listener (`remove()`) when the `with` block ends."""
        self.remove()


class _Listener:
    """A listener as the library calls it: an exception it raises goes to
    doclite.listener_error instead of into C, and a call that arrives while a
    listener call runs on the same thread (a listener that saves, say) waits in that
    thread's queue until the running call returns, so that listeners that write never
    nest: no recursion, however many changes they make. A queued call of a listener
    removed meanwhile is dropped."""

    _thread = threading.local()   # .pending: the calls waiting for the one running on this thread

    def __init__(self, function: Callable[..., object]) -> None:
        self.function = function
        self.active = True

    def __call__(self, *arguments: Any) -> None:
        pending: Optional[Deque[Tuple["_Listener", Tuple[Any, ...]]]] = getattr(self._thread, "pending", None)
        if pending is not None:
            pending.append((self, arguments))
            return
        self._thread.pending = pending = collections.deque([(self, arguments)])
        try:
            while pending:
                listener, queued = pending.popleft()
                if listener.active:
                    listener._run(queued)
        finally:
            self._thread.pending = None

    def _run(self, arguments: Tuple[Any, ...]) -> None:
        try:
            self.function(*arguments)
        except Exception as exception:   # a listener's exception must reach the user, not vanish in C
            from . import listener_error as report
            report(exception)


class CollectionChange:
    """A commit's changes to one collection: `document_ids`."""

    collection: "Collection"
    """The collection the commit changed."""
    document_ids: List[str]
    """The IDs of the documents it changed (saved, deleted, purged or expired)."""

    def __init__(self, collection: "Collection", document_ids: List[str]) -> None:
        self.collection, self.document_ids = collection, document_ids


def add_collection_listener(collection: "Collection", function: Callable[[CollectionChange], object]) -> ListenerToken:
    """Registers `function` for `collection`'s changes (Collection.add_change_listener)."""
    guarded = _Listener(function)

    @c_callback("void(void*, const CBLCollectionChange*)")
    def callback(context: Any, change: Any) -> None:
        guarded(CollectionChange(collection, [ffi.string(change.docIDs[i]).decode("utf-8") for i in range(change.numDocs)]))

    error = new_error()
    pointer = lib.CBLCollection_AddChangeListener(collection._pointer(), callback, ffi.NULL, error)
    if pointer == ffi.NULL:
        raise error_from(error)
    return ListenerToken(pointer, callback, guarded)


def add_document_listener(collection: "Collection", document_id: str,
                          function: Callable[["Collection", str], object]) -> ListenerToken:
    """Registers `function` for the changes of one document (Collection.add_document_change_listener)."""
    guarded = _Listener(function)

    @c_callback("void(void*, const CBLDocumentChange*)")
    def callback(context: Any, change: Any) -> None:
        guarded(collection, present(borrowed_text(change.docID), "document ID"))

    error = new_error()
    pointer = lib.CBLCollection_AddDocumentChangeListener(collection._pointer(), text(document_id, "the document ID"),
                                                          callback, ffi.NULL, error)
    if pointer == ffi.NULL:
        raise error_from(error)
    return ListenerToken(pointer, callback, guarded)


class QueryChange:
    """A live query's new rows (`results`, a list of Row), or the `error` of its run."""

    query: "Query"
    """The live query."""
    results: Optional[List["Row"]]
    """Its rows, or None when the run failed."""
    error: Optional[DocLiteError]
    """What the run raised, or None."""

    def __init__(self, query: "Query", results: Optional[List["Row"]], error: Optional[DocLiteError]) -> None:
        self.query, self.results, self.error = query, results, error


def add_query_listener(query: "Query", function: Callable[[QueryChange], object]) -> ListenerToken:
    """Makes `query` live, `function` called with each QueryChange (Query.add_change_listener)."""
    from ._query import ResultSet
    guarded = _Listener(function)

    @c_callback("void(void*, CBLQuery*, CBLListenerToken*)")
    def callback(context: Any, query_pointer: Any, token_pointer: Any) -> None:
        error = new_error()
        results = lib.CBLQuery_CopyCurrentResults(query_pointer, token_pointer, error)
        if results == ffi.NULL:
            guarded(QueryChange(query, None, error_from(error)))
        else:
            guarded(QueryChange(query, ResultSet(query, Handle(results)).all(), None))

    error = new_error()
    pointer = lib.CBLQuery_AddChangeListener(query._pointer(), callback, ffi.NULL, error)
    if pointer == ffi.NULL:
        raise error_from(error)
    return ListenerToken(pointer, callback, guarded)
