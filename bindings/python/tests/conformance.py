"""The query conformance corpus (../shared/conformance/cases.jsonl) run through
the Python package: the same loading, setup and comparison as the library's
own runner (Sources/DocLiteConformance), so that the results can be compared."""

import json
import os
import tempfile
import time

import doclite

MISSING = {"$missing": True}


def dataset_documents(data, name):
    """The documents of dataset `name` as (ID, properties), in insertion order."""
    with open(os.path.join(data, "datasets.json"), encoding="utf-8") as file:
        parts = json.load(file)[name]["parts"]
    documents = []
    for part in parts:
        with open(os.path.join(data, part["file"]), encoding="utf-8") as file:
            text = file.read()
        bodies = json.loads(text) if part["format"] == "json_array" else [json.loads(line) for line in text.splitlines() if line.strip()]
        if "limit" in part:
            bodies = bodies[: int(part["limit"])]
        id_field = part.get("id_field") or ("_id" if part["format"] == "jsonl_with_id" else None)
        for number, body in enumerate(bodies, start=1):
            documents.append((body.pop(id_field), body) if id_field else (format_id(part.get("id_format", "%07d"), number), body))
    return documents


def format_id(pattern, number):
    """`%07d`-style ID formats with an optional prefix."""
    percent = pattern.find("%")
    if percent < 0:
        return pattern + str(number)
    width = int("".join(c for c in pattern[percent:] if c.isdigit()) or 0)
    return pattern[:percent] + str(number).rjust(width, "0")


def resolve_now(value, now):
    if isinstance(value, dict):
        if len(value) == 1 and "$now" in value:
            return now + int(value["$now"])
        return {key: resolve_now(item, now) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve_now(item, now) for item in value]
    return value


def run(cases_file, work=None):
    """{case id: None (passed) | "failure message" | ("skipped", reason)}."""
    data = os.path.join(os.path.dirname(cases_file), "data")
    work = work or tempfile.mkdtemp(prefix="doclite-python-conformance-")
    outcomes = {}
    with open(cases_file, encoding="utf-8") as lines:
        for line in lines:
            case = json.loads(line)
            reason = skip_reason(case)
            if reason:
                outcomes[case["id"]] = ("skipped", reason)
                continue
            try:
                outcomes[case["id"]] = run_case(case, data, work)
            except doclite.DocLiteError as error:
                outcomes[case["id"]] = f"{type(error).__name__}: {error}"
    return outcomes


def skip_reason(case):
    if case.get("edition") == "enterprise":
        return "Enterprise Edition feature"
    if "TZ" in case.get("env", {}) and time.localtime().tm_gmtoff != 0:
        return "expects TZ=UTC"
    if any(document.get("_deleted") for document in case.get("docs", []) + case.get("extra_docs", [])):
        return "a deleted document that keeps its body (LiteCore KeyStore-level; no public API stores one)"
    return None


def run_case(case, data, work):
    now = int(time.time() * 1000)
    path = os.path.join(work, "case")
    remove_database(path)
    db = doclite.open(path)
    try:
        if load(case, db, data, now):   # expired documents: reopening purges them at once
            db.close()
            db = doclite.open(path)
        expect = resolve_now(case["expect"], now)
        try:
            query = db.create_query(case["query"], "sqlpp" if isinstance(case["query"], str) else "json")
            rows = [row.to_list() + [row.missing_mask] for row in query.execute(resolve_now(case.get("params"), now))]
        except doclite.InvalidQueryError as error:
            return None if "error" in expect else f"invalid query: {error}"
        if "error" in expect:
            return "expected an invalid-query error, but the query compiled"
        return compare(expect, query.columns, rows)
    finally:
        db.close()
        remove_database(path)


def remove_database(path):
    """Deletes the database file `path`.doclite and its WAL files, if there."""
    for suffix in (".doclite", ".doclite-wal", ".doclite-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def load(case, db, data, now):
    """Loads the case's documents and applies its setup; True when an expiration is already past."""
    collection = db.default_collection()
    documents = [] if case.get("dataset", "inline") == "inline" else dataset_documents(data, case["dataset"])
    for document in case.get("docs", []) + case.get("extra_docs", []):
        document = dict(document)
        documents.append((document.pop("_id"), document))
    for index in case.get("indexes", []):   # before the documents: the index's triggers fill it
        collection.create_full_text_index(index["name"], index["expressions"], where=index.get("where"),
                                          ignore_accents=index.get("ignore_diacritics", False),
                                          language=index.get("language"), expression_language="json")
    collection.save_many(documents)
    expired = False
    for step in case.get("setup", []):
        step = resolve_now(step, now)
        if step["op"] == "delete":
            collection.delete(step["id"])
        elif step["op"] == "purge":
            collection.purge(step["id"])
        elif step["op"] == "set_expiration":
            expired = expired or step["expiration"] <= now
            collection.set_expiration(step["id"], step["expiration"])
        else:
            raise ValueError(f"unknown setup op {step['op']!r}")
    return expired


def compare(expect, columns, rows):
    """None when the rows (values, None for MISSING, then the MISSING mask) meet `expect`, else why not."""
    ordered = expect.get("ordered", False)
    masks = [row[-1] for row in rows]
    rendered = [[MISSING if mask >> i & 1 and i < 63 else value for i, value in enumerate(row[:-1])]
                for row, mask in zip(rows, masks)]

    def matches(expected, actual):
        if expected is None and actual == MISSING and expect.get("null_matches_missing"):
            return True
        if isinstance(expected, bool) or isinstance(actual, bool):
            return type(expected) is type(actual) and expected == actual
        if isinstance(expected, list) and isinstance(actual, list):
            return len(expected) == len(actual) and all(map(matches, expected, actual))
        if isinstance(expected, dict) and isinstance(actual, dict):
            if not expect.get("subset_dicts") and len(expected) != len(actual):
                return False
            return all(key in actual and matches(value, actual[key]) for key, value in expected.items())
        if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
            if isinstance(expected, int) and isinstance(actual, int) or not expect.get("approx"):
                return expected == actual
            return expected == actual or abs(expected - actual) <= 1e-12 * max(abs(expected), abs(actual))
        return expected == actual

    def row_matches(expected, actual):
        if not (isinstance(expected, list) and isinstance(actual, list)):
            return matches(expected, actual)
        if "check_columns" in expect:
            return all(i < len(expected) and i < len(actual) and matches(expected[i], actual[i]) for i in expect["check_columns"])
        return len(expected) == len(actual) and all(map(matches, expected, actual))

    def same_list(expected, actual, match):
        if len(expected) != len(actual):
            return False
        if ordered:
            return all(map(match, expected, actual))
        remaining = list(actual)
        for item in expected:
            index = next((i for i, candidate in enumerate(remaining) if match(item, candidate)), None)
            if index is None:
                return False
            del remaining[index]
        return True

    if "count" in expect and int(expect["count"]) != len(rows):
        return f"expected {int(expect['count'])} rows, got {len(rows)}"
    if "columns" in expect and expect["columns"] != columns:
        return f"expected columns {expect['columns']}, got {columns}"
    for index, name in expect.get("columns_at", {}).items():
        actual = columns[int(index)] if int(index) < len(columns) else None
        if actual != name:
            return f"expected column {index} named {name!r}, got {actual!r}"
    if "ids" in expect:
        actual = [row[0] if row else MISSING for row in rendered]
        if not same_list(expect["ids"], actual, matches):
            return f"expected ids {expect['ids']}, got {actual}"
    if "rows" in expect:
        actual = rendered[: len(expect["rows"])] if expect.get("rows_prefix_only") else rendered
        if not same_list(expect["rows"], actual, row_matches):
            return f"expected rows {expect['rows']}, got {actual}"
    if "missing_mask" in expect and [int(m) for m in expect["missing_mask"]] != masks:
        return f"expected missing masks {expect['missing_mask']}, got {masks}"
    if "types" in expect:
        def type_name(value):
            if value == MISSING: return "missing"
            if value is None: return "null"
            if isinstance(value, bool): return "boolean"
            if isinstance(value, (int, float)): return "number"
            return {str: "string", list: "array", dict: "object"}[type(value)]
        actual = [[type_name(value) for value in row] for row in rendered]
        if expect["types"] != actual:
            return f"expected types {expect['types']}, got {actual}"
    return None
