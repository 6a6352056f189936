"""Change listeners and live queries: Python callables called from the
library's threads (cffi takes the GIL for them), kept alive while registered."""

import threading
import warnings
from typing import Any

from ._errors import error_from, new_error
from ._ffi import Handle, borrowed_text, ffi, lib, text

_registered = {}   # token pointer → (ListenerToken, C callback): alive until removed
_registered_lock = threading.Lock()


def listener_error(exception: Exception) -> None:
    """What happens to an exception a listener raises: by default a RuntimeWarning
    naming it (assign another function to doclite.listener_error to change that)."""
    warnings.warn(f"a DocLite listener raised {type(exception).__name__}: {exception}", RuntimeWarning, stacklevel=2)


class ListenerToken:
    """A registered listener; `remove()` ends it (and returns once no call of it is running).
    A context manager: `with collection.add_change_listener(f):` removes it when the block ends."""

    def __init__(self, pointer, callback):
        self._pointer = pointer
        with _registered_lock:
            _registered[int(ffi.cast("uintptr_t", pointer))] = (self, callback)

    def remove(self) -> None:
        """Unregisters the listener; again, nothing. Also after its database is closed."""
        with _registered_lock:
            entry = _registered.pop(int(ffi.cast("uintptr_t", self._pointer)), None)
        if entry is not None:
            lib.CBLListener_Remove(self._pointer)   # (cffi releases the GIL: a running call can finish)

    def __enter__(self) -> "ListenerToken":
        return self

    def __exit__(self, *exception: Any) -> None:
        self.remove()


def _guarded(function):
    def call(*arguments):
        try:
            function(*arguments)
        except Exception as exception:   # a listener's exception must reach the user, not vanish in C
            from . import listener_error as report
            report(exception)
    return call


class CollectionChange:
    """A commit's changes to one collection: `document_ids`."""

    def __init__(self, collection, document_ids):
        self.collection, self.document_ids = collection, document_ids


def add_collection_listener(collection, function):
    guarded = _guarded(function)

    @ffi.callback("void(void*, const CBLCollectionChange*)")
    def callback(context, change):
        guarded(CollectionChange(collection, [borrowed_text(change.docIDs[i]) for i in range(change.numDocs)]))

    error = new_error()
    pointer = lib.CBLCollection_AddChangeListener(collection._pointer(), callback, ffi.NULL, error)
    if pointer == ffi.NULL:
        raise error_from(error)
    return ListenerToken(pointer, callback)


def add_document_listener(collection, document_id, function):
    guarded = _guarded(function)

    @ffi.callback("void(void*, const CBLDocumentChange*)")
    def callback(context, change):
        guarded(collection, borrowed_text(change.docID))

    error = new_error()
    pointer = lib.CBLCollection_AddDocumentChangeListener(collection._pointer(), text(document_id, "the document ID"),
                                                          callback, ffi.NULL, error)
    if pointer == ffi.NULL:
        raise error_from(error)
    return ListenerToken(pointer, callback)


class QueryChange:
    """A live query's new rows (`results`, a list of Row), or the `error` of its run."""

    def __init__(self, query, results, error):
        self.query, self.results, self.error = query, results, error


def add_query_listener(query, function):
    from ._query import ResultSet
    guarded = _guarded(function)

    @ffi.callback("void(void*, CBLQuery*, CBLListenerToken*)")
    def callback(context, query_pointer, token_pointer):
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
    return ListenerToken(pointer, callback)
