"""Queries and their rows."""

import json
from typing import Any, Callable, Dict, List, Mapping, Optional, Union

from ._blob import json_default
from ._errors import error_from, new_error, owned_result
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
        self._adopt(database, pointer)

    @classmethod
    def _wrap(cls, database, pointer):
        """The Query of a query handle the library returned (+1)."""
        query = cls.__new__(cls)
        query._adopt(database, pointer)
        return query

    def _adopt(self, database, pointer):
        self.database = database
        self._handle = Handle(pointer)
        self.columns = [borrowed_text(lib.CBLQuery_ColumnName(pointer, i))
                        for i in range(lib.CBLQuery_ColumnCount(pointer))]

    def execute(self, parameters: Optional[Mapping[str, Any]] = None) -> "ResultSet":
        """Runs the query; its rows, read as they are iterated. `parameters` replace the
        query's (without them it runs with those set before, as Couchbase Lite's)."""
        error = new_error()
        if parameters is not None:
            body = json.dumps(parameters, allow_nan=False, default=json_default())   # (a Blob as its metadata)
            if not lib.CBLQuery_SetParameters(self._handle.pointer, text(body), error):
                raise error_from(error)
        results = lib.CBLQuery_Execute(self._handle.pointer, error)
        if results == ffi.NULL:
            raise error_from(error)
        return ResultSet(self, Handle(results))

    def explain(self) -> str:
        """The SQL, SQLite's plan, the JSON query and its SQL++."""
        return owned_result(lib.CBLQuery_Explain, self._handle.pointer)

    def add_change_listener(self, listener: Callable[[Any], None]) -> Any:
        """Makes the query live: `listener(QueryChange)` gets its rows now and again
        after each commit that changes them, from a query thread; returns a ListenerToken."""
        from ._listeners import add_query_listener
        return add_query_listener(self, listener)

    @property
    def sqlpp(self) -> str:
        """The query as SQL++ text."""
        return owned_result(lib.CBLQuery_CopySQLPP, self._handle.pointer)


class ResultSet:
    """The rows of one run of a query, an iterator of Row; rows cross from the
    library `block` at a time."""

    block = 512

    def __init__(self, query, handle):
        self.query = query
        self._handle = handle
        self._rows = iter(())

    def __iter__(self):
        return self

    def __next__(self):
        row = next(self._rows, None)
        if row is None:
            if self._handle is None:
                raise StopIteration
            error = new_error()
            text = owned_text(lib.CBLResultSet_NextRowsJSON(self._handle.pointer, self.block, error))
            if text is None:
                raise error_from(error)
            rows = json.loads(text)
            if len(rows) < self.block:   # the last block: let the result set go
                self._handle.release()
                self._handle = None
            if not rows:
                raise StopIteration
            columns = self.query.columns
            self._rows = (Row(columns, values) for values in rows)
            row = next(self._rows)
        return row

    def all(self) -> List["Row"]:
        """Every remaining row."""
        return list(self)


class Row:
    """One result row: by index (`row[0]`) or column title (`row["name"]`); a
    MISSING column reads as None by index and is absent by title."""

    __slots__ = ("_columns", "_values")

    def __init__(self, columns, values):
        # values[0] is the bitmask of MISSING columns (CBLResultSet_NextRowsJSON).
        self._columns, self._values = columns, values

    def _is_missing(self, index):
        return index < 63 and self._values[0] >> index & 1

    def __getitem__(self, key):
        if isinstance(key, int):
            if key < 0:
                key += len(self._columns)
            if not 0 <= key < len(self._columns):
                raise IndexError(key)
            return self._values[key + 1]
        index = self._columns.index(key) if key in self._columns else -1
        if index < 0 or self._is_missing(index):
            raise KeyError(key)
        return self._values[index + 1]

    def get(self, key: Union[int, str], default: Any = None) -> Any:
        try:
            return self[key]
        except (KeyError, IndexError):
            return default

    def __len__(self):
        return len(self._columns)

    def keys(self) -> List[str]:
        """The titles of the columns that are not MISSING."""
        return [c for i, c in enumerate(self._columns) if not self._is_missing(i)]

    def to_dict(self) -> Dict[str, Any]:
        """The row as a dict of its present columns."""
        return {c: self._values[i + 1] for i, c in enumerate(self._columns) if not self._is_missing(i)}

    @property
    def missing_mask(self) -> int:
        """The bitmask of the row's MISSING columns (bit i: column i, as LiteCore's missingColumns)."""
        return self._values[0]

    def to_list(self) -> List[Any]:
        """The values in column order, MISSING as None."""
        return self._values[1:]

    @property
    def value(self) -> Any:
        """Couchbase Lite 1.x's `CBLQueryRow.value`: the single value of a one-column row,
        else the list of values (MISSING as None)."""
        return self._values[1] if len(self._columns) == 1 else self._values[1:]

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    def __repr__(self):
        return f"Row({self.to_dict()!r})"
