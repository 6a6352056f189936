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

from doclite import ArrayFunction, DataSource, Expression, Function, Meta, Ordering, QueryBuilder, SelectResult

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
        declared = set(re.findall(r"\b(CBLQuery(?:Array)?Function_\w+)\(", header.read()))
    assert declared == {generator.c_name(row) for row in TABLE}


def test_swift_names_every_function_by_the_rule():
    with open(os.path.join(ROOT, "Sources", "DocLite", "Query", "Builder", "Function+Catalog.swift")) as source:
        declared = re.findall(r"public static func (\w+)\(([^)]*)\)", source.read())
    expected = []
    for row in TABLE:   # Function.round(_:digits:), Function.atan2(y:x:), Function.euclideanDistance(between:and:)
        labels = [row["labels"][a] for a in row["arguments"]]
        assert labels[1:] == [label for label in labels[1:] if label != "_"], f"{row['name']}: only the first argument is unlabelled"
        expected.append((generator.lower_camel(row["overloads"] or row["name"]), labels))
    assert [(name, [p.split(":")[0].split()[0] for p in parameters.split(", ") if p]) for name, parameters in declared] == expected


def test_python_and_rust_name_every_function_by_the_rule():
    with open(os.path.join(ROOT, "bindings", "rust", "doclite", "src", "builder.rs")) as source:
        rust = set(re.findall(r"^\s+(\w+) => \"", source.read(), re.MULTILINE))
    assert {generator.snake(row["name"]) for row in TABLE} <= rust
    for kind, extra in ((Function, {"call", "prediction"}), (ArrayFunction, set())):
        python = {name for name in vars(kind) if not name.startswith("_")}
        rows = [row for row in TABLE if row["class"] == kind.__name__]
        assert {generator.snake(row["overloads"] or row["name"]) for row in rows} | extra == python


@pytest.mark.parametrize("row", TABLE, ids=[row["name"] for row in TABLE])
def test_python_builds_each_function_of_the_table(row):
    arguments = [Expression.property(name) for name in row["arguments"]]
    method = getattr({"Function": Function, "ArrayFunction": ArrayFunction}[row["class"]],
                     generator.snake(row["overloads"] or row["name"]))
    expected = [f"{row['query']}()", *(["." + name] for name in row["arguments"]), *map(int, row["constants"])]
    assert method(*arguments)._json == expected


def test_an_unknown_function_is_an_error_naming_the_way_to_any_function():
    with pytest.raises(AttributeError):
        Function.millis_to_str(Expression.property("t"))   # (the query language's name: not the builder's)
    assert Function.call("millis_to_str", Expression.property("t"))._json == ["MILLIS_TO_STR()", [".t"]]


def test_a_function_added_to_the_table_runs(db):
    """EUCLIDEAN_DISTANCE and COSINE_DISTANCE came to every surface from the table alone."""
    collection = db.default_collection()
    collection.save_many({"far": {"v": [10, 10]}, "near": {"v": [1, 1]}, "axis": {"v": [0, 3]}})
    distance = Function.euclidean_distance(Expression.property("v"), [0, 0])
    query = (QueryBuilder.select(SelectResult.expression(Meta.id), SelectResult.expression(distance).as_("d"))
             .from_(DataSource.collection(collection)).order_by(Ordering.expression(distance)))
    rows = [(row["id"], row["d"]) for row in query.execute()]
    assert rows == [("near", pytest.approx(2 ** 0.5)), ("axis", 3.0), ("far", pytest.approx(200 ** 0.5))]
    cosine = Function.cosine_distance(Expression.property("v"), [1, 1])
    assert [row["id"] for row in QueryBuilder.select(SelectResult.expression(Meta.id)).from_(
        DataSource.collection(collection)).order_by(Ordering.expression(cosine), Ordering.expression(Meta.id)).execute()
    ] == ["far", "near", "axis"]
