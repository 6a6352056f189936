"""Exceptions, one class per kind of CBLError, with the library's messages."""

from typing import Any, Callable, Dict, Optional, Type

from ._ffi import ffi, lib, owned_text


class DocLiteError(Exception):
    """Any error DocLite reports: `domain` and `code` as CBLError has them, and its message."""

    domain: int
    """The error domain: 1 DocLite's own (`code` as Couchbase Lite numbers it), 2 POSIX,
    3 SQLite, 4 JSON."""
    code: int
    """The error code within `domain` (doclite.h's kCBLError… for domain 1)."""

    _code: int = 0
    """The code of an error of this class that the library did not report."""

    def __init__(self, message: str, domain: int = lib.kCBLDomain, code: Optional[int] = None) -> None:
        super().__init__(message)
        self.domain = domain
        self.code = type(self)._code if code is None else code


class NotOpenError(DocLiteError):
    """The database is closed, or the collection deleted."""

    _code = lib.kCBLErrorNotOpen


class NotFoundError(DocLiteError, KeyError):
    """No such document, collection or database."""

    _code = lib.kCBLErrorNotFound

    def __str__(self) -> str:
        """The message alone (KeyError's would quote it)."""
        return Exception.__str__(self)


class ConflictError(DocLiteError):
    """A save or delete lost to a concurrent change."""

    _code = lib.kCBLErrorConflict


class InvalidParameterError(DocLiteError, ValueError):
    """A bad argument: a bad name, ID or handle."""

    _code = lib.kCBLErrorInvalidParameter


class InvalidQueryError(DocLiteError):
    """A query (or index definition) that cannot be compiled or run; `position`
    is the byte offset of a syntax error in the query text, else None."""

    position: Optional[int]
    """The byte offset of a syntax error in the query text, or None."""

    _code = lib.kCBLErrorInvalidQuery

    def __init__(self, message: str, domain: int = lib.kCBLDomain, code: Optional[int] = None,
                 position: Optional[int] = None) -> None:
        super().__init__(message, domain, code)
        self.position = position


class InvalidQueryParameterError(DocLiteError, ValueError):
    """A parameter the query does not use, or a LIMIT/OFFSET parameter that is not an integer."""

    _code = lib.kCBLErrorInvalidQueryParam


class BadDocumentIDError(InvalidParameterError):
    """A document ID that breaks the rules (1-240 bytes, no control characters, no leading '_')."""

    _code = lib.kCBLErrorBadDocID


class InvalidJSONError(DocLiteError, ValueError):
    """Malformed JSON, or a body that is not an object."""


class BusyError(DocLiteError):
    """Another process holds the database for too long."""

    _code = lib.kCBLErrorBusy


class CorruptDataError(DocLiteError):
    """A database file DocLite did not write, or one damaged: a schema object it does
    not write (a trigger, a view, a CHECK), a damaged body or page (code 15), or a
    file that is not a DocLite database (code 20). See docs/security.md."""

    _code = lib.kCBLErrorCorruptData


class UnsupportedError(DocLiteError):
    """A request DocLite does not support (code 19), such as an array index on a nested
    path (`"a[].b"`), or does not implement yet (code 2)."""

    _code = lib.kCBLErrorUnsupported


class QueryInterruptedError(DocLiteError):
    """A query stopped while it ran: by Query.interrupt() or ResultSet.interrupt() from
    another thread, or by its progress handler (SQLite's SQLITE_INTERRUPT, code 9 of
    the SQLite domain)."""


_DOCLITE_CODES: Dict[int, Type[DocLiteError]] = {
    kind._code: kind for kind in (NotOpenError, NotFoundError, ConflictError, InvalidParameterError, CorruptDataError,
                                  BusyError, UnsupportedError, InvalidQueryError, InvalidQueryParameterError,
                                  BadDocumentIDError)
}
_DOCLITE_CODES.update({   # (the codes a class shares with its own)
    lib.kCBLErrorNotADatabaseFile: CorruptDataError,
    lib.kCBLErrorUnimplemented: UnsupportedError,
    lib.kCBLErrorMissingIndex: InvalidQueryError,
})


def error_from(error: Any, position: Optional[int] = None) -> DocLiteError:
    """The exception for a filled-in `CBLError*`."""
    message = owned_text(lib.CBLError_Message(error)) or "unknown error"
    domain: int = error.domain
    code: int = error.code
    if domain == lib.kCBLDomain:
        kind = _DOCLITE_CODES.get(code, DocLiteError)
        if kind is InvalidQueryError:
            return InvalidQueryError(message, domain, code, position)
        return kind(message, domain, code)
    if domain == lib.kCBLFleeceDomain:
        return InvalidJSONError(message, domain, code)
    if domain == lib.kCBLSQLiteDomain and code == lib.kCBLSQLiteErrorInterrupted:
        return QueryInterruptedError(message, domain, code)
    return DocLiteError(message, domain, code)


def new_error() -> Any:
    """A zeroed `CBLError*` for one call."""
    return ffi.new("CBLError*")


def owned_result(function: Callable[..., Any], *arguments: Any) -> str:
    """The owned string `function(*arguments, error)` returns, or its error raised."""
    error = new_error()
    result = owned_text(function(*arguments, error))
    if result is None:
        raise error_from(error)
    return result
