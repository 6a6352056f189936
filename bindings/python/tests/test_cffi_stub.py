"""src/doclite/_doclite_cffi.pyi, the types of the cffi module, is what
`make_cffi_module.py --stub` writes from include/doclite.h today: a header change
that would leave the typed library stale fails here (regenerate it with the command
in the message)."""

import os
import shutil
import subprocess
import sys

import pytest

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # bindings/python
HEADER = os.path.join(PROJECT, "..", "..", "include", "doclite.h")
STUB = os.path.join(PROJECT, "src", "doclite", "_doclite_cffi.pyi")

sys.path.insert(0, PROJECT)
from make_cffi_module import stub_text  # noqa: E402   (the build's script, beside the tests)


def test_the_stub_is_the_headers():
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not os.path.isfile(HEADER) or compiler is None:
        pytest.skip("no header (an installed copy) or no C compiler to preprocess it: the stub check did not run")
    preprocessed = subprocess.run([compiler, "-E", "-P", "-nostdinc", "-I", os.path.join(PROJECT, "cdef"), "-DDOCLITE_CDEF",
                                   HEADER], capture_output=True, text=True, check=True).stdout
    with open(STUB, encoding="utf-8") as stub:
        assert stub.read() == stub_text(preprocessed), (
            "src/doclite/_doclite_cffi.pyi is out of date: run, in bindings/python, "
            "cc -E -P -nostdinc -Icdef -DDOCLITE_CDEF ../../include/doclite.h -o /tmp/cdef.h && "
            "python3 make_cffi_module.py --stub /tmp/cdef.h src/doclite/_doclite_cffi.pyi")


def test_the_stub_lists_every_function_with_its_argument_count():
    with open(STUB, encoding="utf-8") as stub:
        text = stub.read()
    assert "    def CBLDatabase_Open(self, a0: Any, a1: Any, a2: Any, /) -> Any: ..." in text
    assert "    def CBLDatabase_Close(self, a0: Any, a1: Any, /) -> bool: ..." in text
    assert "    kCBLErrorNotFound: int" in text
