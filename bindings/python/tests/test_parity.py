"""API parity (issue 36): every function include/doclite.h exports has its Python and
its Rust counterpart, or a documented reason in tests/parity_exemptions.py.

A function counts as reached by the Python package when src/doclite/*.py uses it as
`lib.NAME` (the loaded library, imported under any of the names `lib`, `_lib`), and by
the Rust binding when bindings/rust's crates (doclite, and doclite-sys's own code, whose
declarations bindgen generates at build time) call it, `.NAME(`, outside comments.
The header's CBL_REFCOUNTED typed retain/release functions are static inline, not
exported (the bindings call CBL_Retain / CBL_Release), so they are not listed."""

import ast
import glob
import os
import re

import pytest

from parity_exemptions import PYTHON, RUST

TESTS = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(TESTS, "..", "src", "doclite")
HEADER = os.path.join(TESTS, "..", "..", "..", "include", "doclite.h")
RUST_SOURCES = [os.path.join(TESTS, "..", "..", "rust", crate, "src") for crate in ("doclite", "doclite-sys")]

# The Python modules that hold the library as a name (`lib`, or `_lib` where it is imported privately).
LIBRARY_NAMES = {"lib", "_lib"}


def header_functions(text):
    """The names of the functions a C header declares (`CBL…(` after a return type),
    comments, preprocessor lines and CBL_REFCOUNTED's inline functions left out."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", text, flags=re.M)   # (with continuation lines)
    text = re.sub(r"\bCBL_REFCOUNTED\s*\([^)]*\)", "", text)
    names = set()
    for statement in re.split(r"[;{}]", text):
        statement = statement.strip()
        if not statement or re.match(r"typedef\b", statement):   # (function-pointer types name no function)
            continue
        call = re.search(r"([A-Za-z_]\w*)\s*\(", statement)
        if call and call.group(1).startswith("CBL") and re.fullmatch(r"[A-Za-z_][\w\s*]*", statement[:call.start(1)]):
            names.add(call.group(1))
    return names


def python_references():
    """The library functions the Python package's modules use (`lib.NAME`)."""
    names = set()
    for path in glob.glob(os.path.join(PACKAGE, "*.py")):
        with open(path, encoding="utf-8") as source:
            tree = ast.parse(source.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in LIBRARY_NAMES:
                names.add(node.attr)
    return names


def rust_sources():
    """The Rust binding's source text, line comments (and so doc comments) removed."""
    paths = [path for directory in RUST_SOURCES for path in glob.glob(os.path.join(directory, "*.rs"))]
    texts = []
    for path in sorted(paths):
        with open(path, encoding="utf-8") as source:
            texts.append(re.sub(r"//[^\n]*", "", source.read()))
    return "\n".join(texts)


def rust_references(functions):
    """Which of `functions` the Rust binding calls (`.NAME(`)."""
    text = rust_sources()
    return {name for name in functions if re.search(r"\.\s*" + re.escape(name) + r"\s*\(", text)}


@pytest.fixture(scope="module")
def functions():
    if not os.path.isfile(HEADER):
        pytest.skip(f"no header at {os.path.normpath(HEADER)} (a source checkout has it): the parity check did not run")
    with open(HEADER, encoding="utf-8") as header:
        return header_functions(header.read())


@pytest.fixture(scope="module")
def rust(functions):
    if not all(os.path.isdir(directory) for directory in RUST_SOURCES):
        pytest.skip("no Rust binding next to the Python package: the Rust half of the parity check did not run")
    return rust_references(functions)


def test_the_header_is_read(functions):
    assert len(functions) > 200
    assert {"CBLDatabase_Open", "CBLBlob_CreateWithData", "CBLListener_Remove", "CBL_Release"} <= functions
    assert not {"CBLDatabase_Retain", "CBLQuery_Release"} & functions   # (CBL_REFCOUNTED's inline functions)
    assert "CBLCollectionChangeListener" not in functions   # (a function-pointer type)


def test_the_exemptions_give_reasons():
    for binding, table in (("Python", PYTHON), ("Rust", RUST)):
        for name, reason in table.items():
            assert isinstance(reason, str) and len(reason) > 20, f"{binding} exemption of {name}: no reason given"


def test_python_reaches_every_function(functions):
    missing = sorted(functions - python_references() - set(PYTHON))
    assert not missing, ("C functions the Python package neither calls (lib.NAME in src/doclite) nor exempts "
                         "(tests/parity_exemptions.py's PYTHON, with the reason): " + ", ".join(missing))


def test_rust_reaches_every_function(functions, rust):
    missing = sorted(functions - rust - set(RUST))
    assert not missing, ("C functions the Rust binding neither calls (.NAME( in bindings/rust/*/src) nor exempts "
                         "(tests/parity_exemptions.py's RUST, with the reason): " + ", ".join(missing))


def test_no_stale_python_exemption(functions):
    called = sorted(set(PYTHON) & python_references())
    assert not called, "exempted from the Python package, which calls them now (remove them): " + ", ".join(called)
    gone = sorted(set(PYTHON) - functions)
    assert not gone, "exempted from the Python package, but no longer in the header (remove them): " + ", ".join(gone)


def test_no_stale_rust_exemption(functions, rust):
    called = sorted(set(RUST) & rust)
    assert not called, "exempted from the Rust binding, which calls them now (remove them): " + ", ".join(called)
    gone = sorted(set(RUST) - functions)
    assert not gone, "exempted from the Rust binding, but no longer in the header (remove them): " + ", ".join(gone)


def test_the_python_package_calls_only_declared_functions(functions):
    # (a misspelt or removed function would fail only when its line runs)
    unknown = sorted(name for name in python_references() - functions if name.startswith("CBL"))
    assert not unknown, "the Python package calls functions the header does not declare: " + ", ".join(unknown)
