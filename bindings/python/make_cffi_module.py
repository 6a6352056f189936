"""Writes doclite/_doclite_cffi.py, cffi's out-of-line ABI module for libdoclite:
the declarations of include/doclite.h (preprocessed with DOCLITE_CDEF) parsed once,
here at build time, so that `import doclite` loads them instead of parsing the
26 KB header on every import (about 45 ms of a 60 ms import, measured).

    python3 make_cffi_module.py PREPROCESSED_HEADER OUTPUT_PY
"""

import sys

import cffi


def main(header_path, output_path):
    builder = cffi.FFI()
    with open(header_path, encoding="utf-8") as header:
        builder.cdef(header.read())
    # The C library's allocator: predictive models return malloc'd text, CBLBlob_Content malloc'd bytes.
    builder.cdef("void* malloc(size_t size); void free(void* pointer);")
    builder.set_source("doclite._doclite_cffi", None)
    builder.emit_python_code(output_path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
