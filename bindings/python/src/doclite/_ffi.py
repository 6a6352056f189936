"""The C library and its declarations: cffi in ABI mode over libdoclite.so, declared
by _doclite_cffi, the out-of-line module the package build made from include/doclite.h
(make_cffi_module.py), so that no header is parsed at import."""

import json
import os
import weakref
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Tuple, TypeVar

from ._doclite_cffi import ffi as ffi   # (typed by _doclite_cffi.pyi: the module is made at build time)

if TYPE_CHECKING:
    from ._doclite_cffi import Library   # (the stub's alone: the library's functions, typed)

_here = os.path.dirname(os.path.abspath(__file__))

# DOCLITE_LIBRARY names another build of the library (the tests of a CMake build use it).
lib: "Library" = ffi.dlopen(os.environ.get("DOCLITE_LIBRARY") or os.path.join(_here, "libdoclite.so"))
# The C library's allocator (malloc, free): predictive models return malloc'd text,
# CBLBlob_Content malloc'd bytes.
libc: Any = ffi.dlopen(None)


def text(value: object, what: str = "a string argument", optional: bool = False) -> Any:
    """A Python string as NUL-terminated UTF-8 bytes for a `const char*` argument; None
    is NULL where the argument is `optional`. The library reads up to the first NUL, so
    a string holding U+0000 raises ValueError instead of being cut short there; a lone
    surrogate (no UTF-8 form) raises UnicodeEncodeError. `what` names the argument in
    the messages ("document ID", "query text")."""
    if value is None and optional:
        return ffi.NULL
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {type(value).__name__}")
    if "\0" in value:
        raise ValueError(f"{what} must not contain a NUL character (U+0000): {value[:80]!r}")
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise UnicodeEncodeError(error.encoding, error.object, error.start, error.end,
                                 f"{what} holds a lone surrogate, which has no UTF-8 form") from None


def c_string(value: object, what: str = "a string argument", optional: bool = False) -> Any:
    """A Python string as a `char[]` for a struct field, checked as `text` checks it
    (keep it alive while the struct is used)."""
    encoded = text(value, what, optional)
    return ffi.new("char[]", encoded) if isinstance(encoded, bytes) else encoded


# Every integer outside [-2**63, 2**64-1] has 19 digits or more: a JSON text without a run
# of 19 digits has none. Found as 19 zeros once each digit is a zero and any other byte a
# space (bytes.translate: several times faster than a regular expression).
_DIGITS_AS_ZEROS = bytes(ord("0") if byte in b"0123456789" else ord(" ") for byte in range(256))
_NINETEEN_DIGITS = b"0" * 19
_INTEGER_RANGE = range(-2 ** 63, 2 ** 64)
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))   # (made once: json.dumps makes one per call given options)


def json_text(value: Any, what: str, default: Optional[Callable[[Any], Any]] = None) -> bytes:
    """`value` as the UTF-8 JSON text the library reads, for a `const char*` argument.
    What the library cannot keep exactly raises: NaN and infinities ValueError (JSON has
    none), an integer outside [-2**63, 2**64-1] OverflowError (the library would keep an
    inexact double), as sqlite3 does for its parameters, and a lone surrogate
    UnicodeEncodeError; `what` names the value in the messages. `default` as json.dumps's,
    called only for a value that holds what JSON does not (a Blob). (U+0000 in a string is
    written as the escape \\u0000, which the library reads.)"""
    try:
        body = _ENCODER.encode(value)
    except TypeError:
        if default is None:
            raise
        body = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"), default=default).encode(value)
    encoded: bytes = text(body, what)
    if _NINETEEN_DIGITS in encoded.translate(_DIGITS_AS_ZEROS):   # (rare: then look for the integer itself)
        path = _wide_integer(value, "")
        if path is not None:
            raise OverflowError(f"{what}: the integer at {path or 'the top level'} does not fit in 64 bits "
                                f"(DocLite keeps integers from -2**63 to 2**64-1)")
    return encoded


def _wide_integer(value: Any, path: str) -> Optional[str]:
    """The path (`.a[2]`) of the first integer in `value` outside _INTEGER_RANGE, or None."""
    if isinstance(value, int):
        return None if value in _INTEGER_RANGE else path
    items: Iterator[Tuple[str, Any]]
    if isinstance(value, dict):
        items = ((f"{path}.{key}", item) for key, item in value.items())
    elif isinstance(value, (list, tuple)):
        items = ((f"{path}[{index}]", item) for index, item in enumerate(value))
    else:
        return None
    for item_path, item in items:
        found = _wide_integer(item, item_path)
        if found is not None:
            return found
    return None


def owned_text(pointer: Any) -> Optional[str]:
    """A `char*` the library returned as owned: decoded, then freed."""
    if pointer == ffi.NULL:
        return None
    try:
        decoded: str = ffi.string(pointer).decode("utf-8")
        return decoded
    finally:
        lib.CBL_FreeString(pointer)


def borrowed_text(pointer: Any) -> Optional[str]:
    """A `const char*` the library keeps: decoded."""
    if pointer == ffi.NULL:
        return None
    decoded: str = ffi.string(pointer).decode("utf-8")
    return decoded


_Function = TypeVar("_Function", bound=Callable[..., Any])


def c_callback(signature: str, **options: Any) -> Callable[[_Function], _Function]:
    """`ffi.callback(signature, **options)`, the decorator making a Python function a C
    function pointer (keep it alive while the library may call it), typed for mypy as
    keeping the function's type: cffi's callback is callable from Python as the function is."""
    decorator: Callable[[_Function], _Function] = ffi.callback(signature, **options)
    return decorator


def present(value: Optional[str], what: str) -> str:
    """`value`, text the library gives for every live handle (a name, a digest), which
    is None only for a bad handle: RuntimeError naming `what` then."""
    if value is None:
        raise RuntimeError(f"DocLite gave no {what}")
    return value


class Handle:
    """One reference to a library handle, released when closed or collected."""

    __slots__ = ("pointer", "_finalizer", "__weakref__")

    def __init__(self, pointer: Any) -> None:
        self.pointer: Any = pointer
        self._finalizer = weakref.finalize(self, lib.CBL_Release, pointer)

    def release(self) -> None:
        """Releases the reference now (again: nothing)."""
        self._finalizer()
