"""The C library and its declarations: cffi in ABI mode over libdoclite.so,
declared from include/doclite.h as the build preprocessed it (_doclite_cdef.h)."""

import os
import weakref

import cffi

_here = os.path.dirname(os.path.abspath(__file__))

ffi = cffi.FFI()
with open(os.path.join(_here, "_doclite_cdef.h"), encoding="utf-8") as _header:
    ffi.cdef(_header.read())
# DOCLITE_LIBRARY names another build of the library (the tests of a CMake build use it).
lib = ffi.dlopen(os.environ.get("DOCLITE_LIBRARY") or os.path.join(_here, "libdoclite.so"))
# The C library's allocator: predictive models return malloc'd text, CBLBlob_Content malloc'd bytes.
ffi.cdef("void* malloc(size_t size); void free(void* pointer);")
libc = ffi.dlopen(None)


def text(value):
    """A Python string as UTF-8 bytes for a `const char*` argument (None stays NULL)."""
    if value is None:
        return ffi.NULL
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value.encode("utf-8")


def c_string(value):
    """A Python string as a `char[]` for a struct field (keep it alive while the struct is used)."""
    return ffi.NULL if value is None else ffi.new("char[]", text(value))


def owned_text(pointer):
    """A `char*` the library returned as owned: decoded, then freed."""
    if pointer == ffi.NULL:
        return None
    try:
        return ffi.string(pointer).decode("utf-8")
    finally:
        lib.CBL_FreeString(pointer)


def borrowed_text(pointer):
    """A `const char*` the library keeps: decoded."""
    return None if pointer == ffi.NULL else ffi.string(pointer).decode("utf-8")


class Handle:
    """One reference to a library handle, released when closed or collected."""

    __slots__ = ("pointer", "_finalizer", "__weakref__")

    def __init__(self, pointer):
        self.pointer = pointer
        self._finalizer = weakref.finalize(self, lib.CBL_Release, pointer)

    def release(self):
        self._finalizer()
