"""Couchbase Lite 1.x's query builder: a query given as a predicate in Apple's
format, the values to select and sort descriptors, built once and run many
times with a context dict giving the predicate's $VARIABLES."""

from typing import Any, List, Mapping, Optional, Sequence, Tuple, Union

from ._database import Collection, Database
from ._errors import error_from, new_error, owned_result
from ._ffi import Handle, c_string, ffi, json_text, lib, text
from ._query import Query, ResultSet


def _strings(items: Sequence[str]) -> Tuple[Any, List[Any]]:
    """A `const char*[]` of `items` and the buffers it points into (keep both alive)."""
    buffers = [c_string(item, "a select item or sort descriptor") for item in items]
    return ffi.new("const char*[]", buffers) if buffers else ffi.NULL, buffers


class PredicateQueryBuilder:
    """`PredicateQueryBuilder(posts, ["title", "date"], "type == 'post' AND tags CONTAINS $TAG", ["-date"])`.

    `source` is a Collection or a Database (its default collection). A select item
    is a key path (`address.city`, `tags.@count`) or an expression (`average(price)`);
    reduce functions (count, sum, min, max, average, median, stddev) aggregate the
    rows, grouped by the other items. Each row's `value` is the selected value, or the
    list of them when several are selected. Raises InvalidQueryError naming the part
    (`where: `, `select item 2: `) with `position` the byte offset within it."""

    def __init__(self, source: Union[Collection, Database], select: Sequence[str], where: str = "TRUEPREDICATE",
                 order_by: Sequence[str] = ()) -> None:
        """Compiles the predicate query over `source` (see the class); `select` and
        `order_by` are lists of strings (a str raises TypeError)."""
        if isinstance(select, str) or isinstance(order_by, str):
            raise TypeError("select and order_by are lists of strings")
        collection = source.default_collection() if isinstance(source, Database) else source
        self.database = collection.database
        select_array, select_buffers = _strings(select)
        order_array, order_buffers = _strings(order_by)
        error = new_error()
        position = ffi.new("int*")
        pointer = lib.CBLPredicateQueryBuilder_Create(collection._pointer(), select_array, len(select_buffers),
                                                      text(where, "the predicate"), order_array, len(order_buffers),
                                                      position, error)
        if pointer == ffi.NULL:
            raise error_from(error, position[0] if position[0] >= 0 else None)
        self._handle = Handle(pointer)

    def create_query(self, context: Optional[Mapping[str, Any]] = None) -> Query:
        """A Query with the context's values for the variables; a missing one raises
        InvalidQueryParameterError naming it."""
        self.database._pointer()   # (NotOpenError once the database is closed)
        error = new_error()
        pointer = lib.CBLPredicateQueryBuilder_CreateQuery(self._handle.pointer, _context_json(context), error)
        if pointer == ffi.NULL:
            raise error_from(error)
        return Query._wrap(self.database, pointer)

    def run(self, context: Optional[Mapping[str, Any]] = None) -> ResultSet:
        """Runs the query with the context's values; rows have `value`, as 1.x's."""
        return self.create_query(context).execute()

    @property
    def explanation(self) -> str:
        """How the query runs: its SQL++, the index it uses and the conditions that
        serves, a value index that would serve it, the SQL and SQLite's plan."""
        self.database._pointer()
        return owned_result(lib.CBLPredicateQueryBuilder_Explanation, self._handle.pointer)


def _context_json(context: Union[Mapping[str, Any], None]) -> Any:
    """The context as the library reads it: JSON text (checked by json_text), or NULL."""
    return ffi.NULL if context is None else json_text(dict(context), "the context")
