"""One table for the builders' functions (issue 39): codegen/query-functions.tsv lists
them, scripts/generate-builders writes the Python and Rust lists from it, and this
test holds every surface to it and to the naming rule: C `CBLQueryFunction_Name`,
Swift `Function.name` (labelled overloads), Python `Function.snake_name` (optional
arguments for overloads), Rust `Function::snake_name`."""

import importlib.machinery
import importlib.util
import os
import re
import subprocess
import sys

import pytest

from doclite import Expression, Function

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
GENERATOR = os.path.join(ROOT, "scripts", "generate-builders")

if not os.path.exists(GENERATOR):
    pytest.skip("scripts/generate-builders is not beside the package (an installed copy)", allow_module_level=True)


def _generator():
    loader = importlib.machinery.SourceFileLoader("generate_builders", GENERATOR)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


generator = _generator()
TABLE = generator.rows()


def test_the_generated_lists_are_up_to_date():
    result = subprocess.run([sys.executable, GENERATOR, "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_c_declares_every_function_of_the_table_and_no_other():
    with open(os.path.join(ROOT, "include", "doclite.h")) as header:
        declared = set(re.findall(r"\bCBLQueryFunction_(\w+)\(", header.read()))
    assert declared == {row["name"] for row in TABLE}


def test_swift_names_every_function_by_the_rule():
    with open(os.path.join(ROOT, "Sources", "DocLite", "Query", "Builder", "Function.swift")) as source:
        text = source.read()
    function = text[:text.index("class ArrayFunction")]   # (Function's own methods)
    declared = set(re.findall(r"public static func (\w+)\(", function))
    expected = {generator.lower_camel(row["overloads"] or row["name"]) for row in TABLE}
    assert declared == expected   # (prediction, of another shape, is in an extension below)
    for row in TABLE:
        if row["overloads"]:   # the labelled overload: round(_:digits:)
            label = row["arguments"][-1]
            name = generator.lower_camel(row["overloads"])
            assert re.search(rf"public static func {name}\([^)]*\b{label}: ", function), f"Function.{name}(_:{label}:)"


@pytest.mark.parametrize("row", TABLE, ids=[row["name"] for row in TABLE])
def test_python_builds_each_function_of_the_table(row):
    arguments = [Expression.property(name) for name in row["arguments"]]
    method = getattr(Function, generator.snake(row["overloads"] or row["name"]))
    assert method(*arguments)._json == [f"{row['query']}()", *(["." + name] for name in row["arguments"])]


def test_an_unknown_function_is_an_error_naming_the_way_to_any_function():
    with pytest.raises(AttributeError):
        Function.millis_to_str(Expression.property("t"))   # (the query language's name: not the builder's)
    assert Function.call("millis_to_str", Expression.property("t"))._json == ["MILLIS_TO_STR()", [".t"]]
