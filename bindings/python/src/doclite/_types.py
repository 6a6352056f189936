"""The types of the values DocLite reads and writes, for annotations."""

from typing import Any, Dict

JSONValue = Any
"""A JSON value as json.loads gives it: None, bool, int, float, str, a list or a dict of
them (a document's properties may also hold a Blob, written as its metadata dict). Typed
Any, as json.loads's result is, so that reading a property (`doc["rooms"] + 1`,
`row["name"].upper()`) needs no cast."""

JSONObject = Dict[str, JSONValue]
"""A JSON object: a document's properties, a row as a dict, query parameters."""
