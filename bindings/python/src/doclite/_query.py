"""Queries and their rows."""

import itertools
import json
import marshal
import threading
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, Optional, Union, overload

from ._blob import json_default
from ._errors import NotOpenError, error_from, new_error, owned_result
from ._ffi import Handle, borrowed_text, c_callback, ffi, json_text, lib, libc, owned_text, present, text
from ._types import JSONObject, JSONValue

if TYPE_CHECKING:
    from ._database import Database
    from ._listeners import ListenerToken, QueryChange

_LANGUAGES = {"sqlpp": "kCBLN1QLLanguage", "json": "kCBLJSONLanguage"}

# How many SQLite steps pass between two calls of a query's progress callback: about
# a millisecond of work, so Ctrl-C lands within milliseconds and the callback costs ~0.1%.
PROGRESS_STEPS = 100_000

# What a progress callback raised on this thread (a signal handler's KeyboardInterrupt,
# or a progress handler's own exception), for the call that ran the query to raise.
_raised = threading.local()


def _stop_query(exception_type: Any, exception: BaseException, traceback: Any) -> bool:
    """cffi's onerror for _on_progress: keeps what the callback raised and stops the query."""
    _raised.exception = exception
    return False


@c_callback("bool(void*)", onerror=_stop_query)
def _on_progress(context: Any) -> bool:
    """Called by the library while a query runs. Being Python code, it lets the
    interpreter run a pending signal handler here, on the main thread: Ctrl-C raises
    KeyboardInterrupt inside it, which stops the query and is raised by the call that
    ran it. `context` is the handle of the query's _Progress, whose handler is called."""
    handler: Optional[Callable[[], object]] = ffi.from_handle(context).handler
    return handler is None or not handler()


class _Progress:
    """A query's progress handler (set_progress_handler), apart from the query so that
    the cffi handle the library calls it by makes no reference cycle."""

    __slots__ = ("handler",)

    def __init__(self) -> None:
        self.handler: Optional[Callable[[], object]] = None


def _raise_from_progress() -> None:
    """Raises what a progress callback raised during the last call into the library, if anything."""
    exception: Optional[BaseException] = getattr(_raised, "exception", None)
    if exception is not None:
        _raised.exception = None
        raise exception


class Query:
    """A compiled query; `execute()` runs it with parameters from a dict. A context manager:
    `with db.create_query(…) as query:` releases it when the block ends (`close()`); the
    ResultSets it gave stay readable."""

    database: "Database"
    """The database the query reads."""
    columns: List[str]
    """The titles of the result columns, in order (`row["title"]`)."""

    def __init__(self, database: "Database", query: Union[str, Mapping[str, Any]], language: str = "sqlpp") -> None:
        """Compiles `query` (see Database.create_query) for `database`. Text holding U+0000
        raises ValueError; a JSON query given as a dict is checked as a document is."""
        if language not in _LANGUAGES:
            raise ValueError(f"unknown query language {language!r} (sqlpp or json)")
        if language == "json" and not isinstance(query, str):
            query_text = json_text(query, "the JSON query")
        else:
            query_text = text(query, "the query text")
        error = new_error()
        position = ffi.new("int*")
        pointer = lib.CBLDatabase_CreateQuery(database._pointer(), getattr(lib, _LANGUAGES[language]), query_text,
                                              position, error)
        if pointer == ffi.NULL:
            raise error_from(error, position[0] if position[0] >= 0 else None)
        self._adopt(database, pointer)

    @classmethod
    def _wrap(cls, database: "Database", pointer: Any) -> "Query":
        """The Query of a query handle the library returned (+1)."""
        query = cls.__new__(cls)
        query._adopt(database, pointer)
        return query

    def _adopt(self, database: "Database", pointer: Any) -> None:
        """Makes this the Query of `pointer`, a query handle the library returned (+1)."""
        self.database = database
        self._handle: Optional[Handle] = Handle(pointer)
        self.columns = [present(borrowed_text(lib.CBLQuery_ColumnName(pointer, i)), "column name")
                        for i in range(lib.CBLQuery_ColumnCount(pointer))]
        self._progress = _Progress()
        self._progress_context = ffi.new_handle(self._progress)   # (alive with the query, which its runs keep)
        self.set_progress_handler(None)

    def _pointer(self) -> Any:
        """The query's handle for a call; NotOpenError once it or its database is closed."""
        if self._handle is None:
            raise NotOpenError("the query is closed")
        self.database._pointer()
        return self._handle.pointer

    def close(self) -> None:
        """Releases the query (again: nothing); its methods then raise NotOpenError. Its
        ResultSets and a live query's listener keep what they need."""
        if self._handle is not None:
            self._handle.release()
            self._handle = None

    def __enter__(self) -> "Query":
        """The query itself (`with db.create_query(…) as query:`)."""
        return self

    def __exit__(self, *exception: object) -> None:
        """Releases the query (`close()`) when the `with` block ends."""
        self.close()

    def execute(self, parameters: Optional[Mapping[str, Any]] = None) -> "ResultSet":
        """Runs the query; its rows, read as they are iterated. `parameters` replace the
        query's (without them it runs with those set before, as Couchbase Lite's).
        Ctrl-C while it runs raises KeyboardInterrupt within milliseconds."""
        error = new_error()
        if parameters is not None:
            if not lib.CBLQuery_SetParameters(self._pointer(), _parameters_text(parameters), error):
                raise error_from(error)
        results = lib.CBLQuery_Execute(self._pointer(), error)
        _raise_from_progress()
        if results == ffi.NULL:
            raise error_from(error)
        return ResultSet(self, Handle(results))

    def interrupt(self) -> None:
        """Stops every run of the query in progress, from any thread (sqlite3's
        Connection.interrupt for one query): the execute() or iteration working on it
        raises QueryInterruptedError, and so do those runs' later reads. Later runs are
        not affected; a closed query has nothing to stop."""
        handle = self._handle
        if handle is not None:
            lib.CBLQuery_Interrupt(handle.pointer)

    def set_progress_handler(self, handler: Optional[Callable[[], object]], n: int = PROGRESS_STEPS) -> None:
        """Calls `handler()` every `n` SQLite steps while a run of the query works, on the
        thread running it, as sqlite3's Connection.set_progress_handler: a true result
        stops the run with QueryInterruptedError, and an exception it raises stops the
        run and is raised in its place. None removes it (Ctrl-C still stops the query).
        Applies to runs started later."""
        if handler is not None and not callable(handler):
            raise TypeError(f"a progress handler is callable, got {type(handler).__name__}")
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"a progress handler's step count is a positive int, got {n!r}")
        error = new_error()
        if not lib.CBLQuery_SetProgressHandler(self._pointer(), n, _on_progress, self._progress_context, error):
            raise error_from(error)
        self._progress.handler = handler

    def explain(self) -> str:
        """The SQL, SQLite's plan, the JSON query and its SQL++."""
        return owned_result(lib.CBLQuery_Explain, self._pointer())

    def add_change_listener(self, listener: Callable[["QueryChange"], object]) -> "ListenerToken":
        """Makes the query live: `listener(QueryChange)` gets its rows now and again
        after each commit that changes them (or a change of its `parameters`), from a
        query thread; returns a ListenerToken."""
        from ._listeners import add_query_listener
        return add_query_listener(self, listener)

    @property
    def sqlpp(self) -> str:
        """The query as SQL++ text."""
        return owned_result(lib.CBLQuery_CopySQLPP, self._pointer())

    @property
    def json(self) -> str:
        """The query as LiteCore's JSON query text (which `Database.create_query(…,
        language="json")` reads back), whatever language it was written in."""
        return present(owned_text(lib.CBLQuery_CopyJSON(self._pointer())), "query JSON")

    @property
    def parameters(self) -> Optional[JSONObject]:
        """The query's parameters, as the last `execute(parameters)` or assignment set
        them (a new dict), or None when it has none. Assigning a dict sets them without
        running the query, as Couchbase Lite's `query.parameters = …`: the next
        `execute()` runs with them, and a live query runs again with them. Assigning
        None clears them (a parameter left unset is MISSING)."""
        parameters = lib.CBLQuery_CopyParameters(self._pointer())
        if parameters == ffi.NULL:
            return None
        try:
            body = present(owned_text(lib.CBLQueryParameters_CopyJSON(parameters)), "query parameters")
        finally:
            lib.CBL_Release(parameters)
        values: JSONObject = json.loads(body)
        return values

    @parameters.setter
    def parameters(self, parameters: Optional[Mapping[str, Any]]) -> None:
        error = new_error()
        body = ffi.NULL if parameters is None else _parameters_text(parameters)
        if not lib.CBLQuery_SetParameters(self._pointer(), body, error):
            raise error_from(error)


def _parameters_text(parameters: Mapping[str, Any]) -> bytes:
    """Query parameters as the JSON text the library reads (a Blob as its metadata),
    checked as a document's properties are (see Collection.save)."""
    if not isinstance(parameters, Mapping):
        raise TypeError(f"query parameters are a dict, got {type(parameters).__name__}")
    return json_text(parameters, "the query parameters", json_default())


class ResultSet:
    """The rows of one run of a query, an iterator of Row; rows cross from the
    library `block` at a time. As any iterator (a file, an sqlite3 cursor), it is
    read once: iterated again it gives nothing. Threads may share one: each row goes
    to one of them. Reading it once its database is closed raises NotOpenError (a
    for loop: at its next block)."""

    block: int = 512
    """How many rows cross from the library at a time."""

    def __init__(self, query: Query, handle: Optional[Handle]) -> None:
        """The rows of `handle`, a run of `query` (made by Query.execute)."""
        self.query = query
        self._handle = handle
        self._rows: Iterator["Row"] = iter(())   # (the rest of the block next() is reading)
        self._lock = threading.Lock()   # (one reader at a time: no row given twice or lost)

    def __iter__(self) -> Iterator["Row"]:
        """The rows not read yet, a block at a time: no Python frame per row (the
        library's block in marshal form, marshal.loads, then Row objects made by map)."""
        return itertools.chain.from_iterable(iter(self._next_block, None))

    def __next__(self) -> "Row":
        with self._lock:
            self.query.database._pointer()   # (NotOpenError once the database is closed)
            row = next(self._rows, None)
            if row is None:
                self._rows = iter(self._read_block() or ())
                row = next(self._rows, None)
        if row is None:
            raise StopIteration
        return row

    def _next_block(self) -> Optional[List["Row"]]:
        """The rows of the next block (after any left by next()), None after the last."""
        with self._lock:
            rest = list(self._rows)
            if rest:
                self._rows = iter(())
                return rest
            return self._read_block()

    def _read_block(self) -> Optional[List["Row"]]:
        """Reads the next block of rows from the library, under the lock; None after the last."""
        self.query.database._pointer()   # (NotOpenError once the database is closed)
        if self._handle is None:
            return None
        error = new_error()
        length = ffi.new("size_t*")
        block = lib.CBLResultSet_NextRowsMarshal(self._handle.pointer, self.block, length, error)
        _raise_from_progress()
        if block == ffi.NULL:
            raise error_from(error)
        try:
            rows = marshal.loads(ffi.buffer(block, length[0]))   # (no text to parse: see CBLResultSet_NextRowsMarshal)
        finally:
            libc.free(block)
        if len(rows) < self.block:   # the last block: let the result set go
            self._handle.release()
            self._handle = None
        return list(map(Row, itertools.repeat(self.query.columns), rows)) or None

    def all(self) -> List["Row"]:
        """Every remaining row."""
        return list(self)

    def interrupt(self) -> None:
        """Stops this run from any thread: the iteration reading it now raises
        QueryInterruptedError, and so does every later read of rows not yet taken."""
        handle = self._handle
        if handle is not None:
            lib.CBLResultSet_Interrupt(handle.pointer)


class Row:
    """One result row: by index (`row[0]`) or column title (`row["name"]`); a
    MISSING column reads as None by index and is absent by title.

    A Row equals another with the same column titles and values (MISSING columns
    alike), and a Mapping equal to its `to_dict()`, so `rows == [{"name": "Grand"}]`
    holds; never a list or tuple (as sqlite3.Row: compare `to_list()`). Rows are
    unhashable, as the dicts and lists they hold and equal."""

    __slots__ = ("_columns", "_values")
    __hash__ = None   # type: ignore[assignment]

    _columns: List[str]
    _values: List[Any]

    def __init__(self, columns: List[str], values: List[Any]) -> None:
        """A row of `columns` (the query's titles) and `values`: the bitmask of the
        MISSING columns, then the column values (as CBLResultSet_NextRowsJSON gives them)."""
        # values[0] is the bitmask of MISSING columns (CBLResultSet_NextRowsJSON).
        self._columns, self._values = columns, values

    def _is_missing(self, index: int) -> bool:
        """Whether column `index` is MISSING."""
        return bool(index < 63 and self._values[0] >> index & 1)

    @overload
    def __getitem__(self, key: int) -> JSONValue: ...
    @overload
    def __getitem__(self, key: str) -> JSONValue: ...

    def __getitem__(self, key: Any) -> JSONValue:
        """The value of column `key`: an int index (negative from the end; MISSING reads
        as None; IndexError out of range) or a column title (KeyError when there is
        none or it is MISSING)."""
        if key.__class__ is int and 0 <= key < len(self._columns):   # (the common case first)
            return self._values[key + 1]
        if isinstance(key, int):
            if not -len(self._columns) <= key < 0:
                raise IndexError(key)
            return self._values[key + len(self._columns) + 1]
        index = self._columns.index(key) if key in self._columns else -1
        if index < 0 or self._is_missing(index):
            raise KeyError(key)
        return self._values[index + 1]

    def get(self, key: Union[int, str], default: Any = None) -> JSONValue:
        """The value of column `key` (an index or a title), or `default` where `row[key]`
        raises (no such column, or a MISSING one by title)."""
        try:
            return self[key]
        except (KeyError, IndexError):
            return default

    def __len__(self) -> int:
        """The number of columns (MISSING ones included)."""
        return len(self._columns)

    def __eq__(self, other: object) -> bool:
        """Whether `other` is a Row with the same columns and values, or a Mapping of the
        present columns' values."""
        if isinstance(other, Row):
            return self._columns == other._columns and self._values == other._values
        if isinstance(other, Mapping):
            return self.to_dict() == other
        return NotImplemented

    def keys(self) -> List[str]:
        """The titles of the columns that are not MISSING."""
        return [c for i, c in enumerate(self._columns) if not self._is_missing(i)]

    def to_dict(self) -> JSONObject:
        """The row as a dict of its present columns."""
        return {c: self._values[i + 1] for i, c in enumerate(self._columns) if not self._is_missing(i)}

    @property
    def missing_mask(self) -> int:
        """The bitmask of the row's MISSING columns (bit i: column i, as LiteCore's missingColumns)."""
        mask: int = self._values[0]
        return mask

    def to_list(self) -> List[Any]:
        """The values in column order, MISSING as None."""
        return self._values[1:]

    @property
    def value(self) -> JSONValue:
        """Couchbase Lite 1.x's `CBLQueryRow.value`: the single value of a one-column row,
        else the list of values (MISSING as None)."""
        return self._values[1] if len(self._columns) == 1 else self._values[1:]

    def to_json(self) -> str:
        """The row as the JSON text of `to_dict()`."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    def __repr__(self) -> str:
        return f"Row({self.to_dict()!r})"
