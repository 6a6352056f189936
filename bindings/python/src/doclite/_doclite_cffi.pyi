# The type of _doclite_cffi, the out-of-line cffi module that the package build makes
# from include/doclite.h (make_cffi_module.py); it is not in the source tree. Its one
# name is a cffi.FFI, whose C declarations mypy cannot see: Any, as cffi's own `lib`.
from typing import Any

ffi: Any
