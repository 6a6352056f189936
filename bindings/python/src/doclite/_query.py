"""Queries and their rows."""

import json

from ._errors import error_from, new_error
from ._ffi import Handle, borrowed_text, ffi, lib, owned_text, text

_LANGUAGES = {"sqlpp": "kCBLN1QLLanguage", "json": "kCBLJSONLanguage"}


class Query:
    """A compiled query; `execute()` runs it with parameters from a dict."""

    def __init__(self, database, query, language="sqlpp"):
        if language not in _LANGUAGES:
            raise ValueError(f"unknown query language {language!r} (sqlpp or json)")
        if language == "json" and not isinstance(query, str):
            query = json.dumps(query)
        error = new_error()
        position = ffi.new("int*")
        pointer = lib.CBLDatabase_CreateQuery(database._pointer(), getattr(lib, _LANGUAGES[language]), text(query),
                                              position, error)
        if pointer == ffi.NULL:
            raise error_from(error, position[0] if position[0] >= 0 else None)
        self.database = database
        self._handle = Handle(pointer)
        self.columns = [borrowed_text(lib.CBLQuery_ColumnName(pointer, i))
                        for i in range(lib.CBLQuery_ColumnCount(pointer))]

    def execute(self, parameters=None):
        """Runs the query; its rows, read as they are iterated."""
        error = new_error()
        body = None if parameters is None else json.dumps(parameters, allow_nan=False)
        if not lib.CBLQuery_SetParameters(self._handle.pointer, text(body), error):
            raise error_from(error)
        results = lib.CBLQuery_Execute(self._handle.pointer, error)
        if results == ffi.NULL:
            raise error_from(error)
        return ResultSet(self, Handle(results))

    def explain(self):
        """The SQL, SQLite's plan, the JSON query and its SQL++."""
        error = new_error()
        plan = owned_text(lib.CBLQuery_Explain(self._handle.pointer, error))
        if plan is None:
            raise error_from(error)
        return plan

    @property
    def sqlpp(self):
        """The query as SQL++ text."""
        error = new_error()
        result = owned_text(lib.CBLQuery_CopySQLPP(self._handle.pointer, error))
        if result is None:
            raise error_from(error)
        return result


class ResultSet:
    """The rows of one run of a query, an iterator of Row."""

    def __init__(self, query, handle):
        self.query = query
        self._handle = handle

    def __iter__(self):
        return self

    def __next__(self):
        error = new_error()
        if not lib.CBLResultSet_Next(self._handle.pointer, error):
            self._handle.release()
            if error.code:
                raise error_from(error)
            raise StopIteration
        values = json.loads(owned_text(lib.CBLResultSet_CreateRowArrayJSON(self._handle.pointer)))
        missing = {i for i in range(len(values)) if lib.CBLResultSet_TypeAtIndex(self._handle.pointer, i) == lib.kCBLValueMissing}
        return Row(self.query.columns, values, missing)

    def all(self):
        """Every remaining row."""
        return list(self)


class Row:
    """One result row: by index (`row[0]`) or column title (`row["name"]`); a
    MISSING column reads as None by index and is absent by title."""

    __slots__ = ("_columns", "_values", "_missing")

    def __init__(self, columns, values, missing):
        self._columns, self._values, self._missing = columns, values, missing

    def __getitem__(self, key):
        if isinstance(key, int):
            return self._values[key]
        index = self._columns.index(key) if key in self._columns else -1
        if index < 0 or index in self._missing:
            raise KeyError(key)
        return self._values[index]

    def get(self, key, default=None):
        try:
            return self[key]
        except (KeyError, IndexError):
            return default

    def __len__(self):
        return len(self._values)

    def keys(self):
        return [c for i, c in enumerate(self._columns) if i not in self._missing]

    def to_dict(self):
        """The row as a dict of its present columns."""
        return {c: self._values[i] for i, c in enumerate(self._columns) if i not in self._missing}

    def to_list(self):
        return list(self._values)

    def to_json(self):
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    def __repr__(self):
        return f"Row({self.to_dict()!r})"
