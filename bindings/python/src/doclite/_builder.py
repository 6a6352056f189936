"""Couchbase Lite's QueryBuilder in Python style: the same classes and method
names (snake_case; `from_`, `as_`, `in_`, `and_`, `or_` where Python reserves
the word), operators where Python allows them (`==`, `<`, `+`, `&` for AND,
`|` for OR, `~` for NOT). A built query is LiteCore's JSON query, compiled
by the database of its first data source."""

import builtins
import datetime
import json
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ._query import Query, ResultSet
from ._types import JSONObject

if TYPE_CHECKING:
    from ._database import Collection, Database
    from ._listeners import ListenerToken, QueryChange

JSONForm = Any
"""A part of a query in LiteCore's JSON query language: an operation (a list such as
`["=", [".name"], "Grand"]`), a literal or a dict."""

Operand = Union["Expression", None, bool, int, float, str, Sequence[Any], Mapping[str, Any]]
"""What an Expression operator takes: another Expression, or a literal (None, a
boolean, a number, a string, a list or a dict of them)."""


def _json(value: Operand) -> JSONForm:
    """The JSON form of an Expression or a plain Python value."""
    if isinstance(value, Expression):
        return value._json
    if isinstance(value, (list, tuple)):
        return ["[]"] + [_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _json(item) for key, item in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a query cannot hold a {type(value).__name__}")


class Expression:
    """An expression of a query: `Expression.property("name") == "Grand"`.

    Comparison and arithmetic operators make expressions (`==`, `!=`, `<`, `<=`, `>`,
    `>=`, `+`, `-`, `*`, `/`, `%`, unary `-`), as do `&` (AND), `|` (OR) and `~` (NOT):
    an Expression is not a truth value, so `and`, `or`, `not` and `if` raise TypeError.
    Expressions are unhashable (`==` makes an expression)."""

    __slots__ = ("_json",)
    __hash__ = None   # type: ignore[assignment]

    def __init__(self, json_form: JSONForm) -> None:
        """The expression of `json_form`, a JSON-query expression (see Expression.value
        for a literal)."""
        self._json = json_form

    # Makers
    @staticmethod
    def property(path: str) -> "PropertyExpression":
        """The document property at `path` (`"address.city"`, `"tags[0]"`)."""
        return PropertyExpression(path)

    @staticmethod
    def all() -> "PropertyExpression":
        """The whole document."""
        return PropertyExpression("")

    @staticmethod
    def value(value: Operand) -> "Expression":
        """A literal: None, a boolean, a number, a string, a list or a dict."""
        return Expression(_json(value))

    string = int = float = boolean = value
    """Couchbase Lite's typed makers of a literal: the same as `value`."""

    @staticmethod
    def date(value: datetime.datetime) -> "Expression":
        """A date literal: `value` as its ISO-8601 UTC string with milliseconds
        (`"2024-05-01T12:00:00.000Z"`), as Couchbase Lite writes a date; a naive
        datetime is local time (as datetime.timestamp reads it)."""
        if not isinstance(value, datetime.datetime):
            raise TypeError(f"Expression.date takes a datetime.datetime, got {type(value).__name__}")
        utc = value.astimezone(datetime.timezone.utc)
        return Expression(utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z")

    @staticmethod
    def full_text_index(name: str) -> "FullTextIndexExpression":
        """The full-text index `name`, for FullTextFunction.match and rank (`.from_(alias)`
        names the data source it indexes, in a join)."""
        return FullTextIndexExpression(name)

    @staticmethod
    def parameter(name: str) -> "Expression":
        """A query parameter, set at execute() from a dict."""
        return Expression([f"${name}"])

    @staticmethod
    def not_(expression: Operand) -> "Expression":
        """NOT `expression` (also `~expression`)."""
        return Expression(["NOT", _json(expression)])

    # Operators, by Couchbase Lite's names and by Python's
    def _op(self, op: str, *others: Operand) -> "Expression":
        """The operation `op` on this expression and `others`."""
        return Expression([op, self._json, *(_json(other) for other in others)])

    def equal_to(self, other: Operand) -> "Expression":
        """This = `other` (also `==`)."""
        return self._op("=", other)

    def not_equal_to(self, other: Operand) -> "Expression":
        """This != `other` (also `!=`)."""
        return self._op("!=", other)

    def less_than(self, other: Operand) -> "Expression":
        """This < `other` (also `<`)."""
        return self._op("<", other)

    def less_than_or_equal_to(self, other: Operand) -> "Expression":
        """This <= `other` (also `<=`)."""
        return self._op("<=", other)

    def greater_than(self, other: Operand) -> "Expression":
        """This > `other` (also `>`)."""
        return self._op(">", other)

    def greater_than_or_equal_to(self, other: Operand) -> "Expression":
        """This >= `other` (also `>=`)."""
        return self._op(">=", other)

    def add(self, other: Operand) -> "Expression":
        """This + `other` (also `+`)."""
        return self._op("+", other)

    def subtract(self, other: Operand) -> "Expression":
        """This - `other` (also `-`)."""
        return self._op("-", other)

    def multiply(self, other: Operand) -> "Expression":
        """This * `other` (also `*`)."""
        return self._op("*", other)

    def divide(self, other: Operand) -> "Expression":
        """This / `other` (also `/`)."""
        return self._op("/", other)

    def modulo(self, other: Operand) -> "Expression":
        """This % `other` (also `%`)."""
        return self._op("%", other)

    def and_(self, other: Operand) -> "Expression":
        """This AND `other` (also `&`)."""
        return self._op("AND", other)

    def or_(self, other: Operand) -> "Expression":
        """This OR `other` (also `|`)."""
        return self._op("OR", other)

    def like(self, pattern: Operand) -> "Expression":
        """This LIKE `pattern` (`%` any run of characters, `_` one character)."""
        return self._op("LIKE", pattern)

    def regex(self, pattern: Operand) -> "Expression":
        """Whether this matches the regular expression `pattern` (REGEXP_LIKE)."""
        return Expression(["REGEXP_LIKE()", self._json, _json(pattern)])

    def between(self, low: Operand, high: Operand) -> "Expression":
        """This BETWEEN `low` AND `high` (both included)."""
        return self._op("BETWEEN", low, high)

    def in_(self, values: Iterable[Operand]) -> "Expression":
        """This IN `values` (a list of expressions or literals)."""
        return Expression(["IN", self._json, _json(list(values))])

    def is_valued(self) -> "Expression":
        """This IS VALUED: neither null nor MISSING."""
        return self._op("IS VALUED")

    def is_not_valued(self) -> "Expression":
        """NOT (this IS VALUED): null or MISSING."""
        return Expression(["NOT", ["IS VALUED", self._json]])

    def is_(self, other: Operand) -> "Expression":
        """This IS `other` (equal, null IS null, MISSING IS MISSING)."""
        return self._op("IS", other)

    def is_not(self, other: Operand) -> "Expression":
        """This IS NOT `other`."""
        return self._op("IS NOT", other)

    def collate(self, collation: "Collation") -> "Expression":
        """This expression compared under `collation` (Collation.unicode(), Collation.ascii())."""
        return Expression(["COLLATE", collation._options, self._json])

    __eq__ = equal_to   # type: ignore[assignment]   # (an Expression, not a bool: the point of the builder)
    __ne__ = not_equal_to   # type: ignore[assignment]
    __lt__ = less_than
    __le__ = less_than_or_equal_to
    __gt__ = greater_than
    __ge__ = greater_than_or_equal_to
    __add__ = add
    __sub__ = subtract
    __mul__ = multiply
    __truediv__ = divide
    __mod__ = modulo
    __and__ = and_
    __or__ = or_

    def __invert__(self) -> "Expression":
        """NOT this (`~`)."""
        return Expression.not_(self)

    def __neg__(self) -> "Expression":
        """-this."""
        return Expression(["-", self._json])

    def __bool__(self) -> bool:
        """Raises TypeError: an Expression is not a truth value (see the class)."""
        raise TypeError("an Expression is not a truth value: combine conditions with & and |, not 'and' and 'or'")

    def __repr__(self) -> str:
        return f"Expression({json.dumps(self._json)})"


class PropertyExpression(Expression):
    """A property, which `from_(alias)` qualifies with a data source's alias."""

    __slots__ = ("_path",)

    def __init__(self, path: str, alias: Optional[str] = None) -> None:
        """The property at `path` (`""`: the whole document) of the source `alias` (None:
        the only or first one)."""
        self._path = path
        super().__init__([f".{alias}.{path}" if alias else f".{path}"] if path or alias else ["."])

    def from_(self, alias: str) -> "PropertyExpression":
        """This property of the data source `alias` (`Expression.property("name").from_("h")`)."""
        return PropertyExpression(self._path, alias)


class FullTextIndexExpression:
    """A full-text index in a query (Expression.full_text_index): `"name"`, or
    `"alias.name"` with `from_(alias)`."""

    def __init__(self, name: str, alias: Optional[str] = None) -> None:
        """The full-text index `name` of the data source `alias` (None: the only one)."""
        self._name, self._alias = name, alias

    def from_(self, alias: str) -> "FullTextIndexExpression":
        """This index of the data source `alias`."""
        return FullTextIndexExpression(self._name, alias)

    @property
    def _json(self) -> str:
        return f"{self._alias}.{self._name}" if self._alias else self._name


class FullTextFunction:
    """Full-text search with a full-text index (Collection.create_full_text_index):
    `FullTextFunction.match("byText", "pool")`, `FullTextFunction.rank("byText")`."""

    @staticmethod
    def match(index: Union[str, FullTextIndexExpression], query: str) -> Expression:
        """Whether the document's text in `index` (its name, or Expression.full_text_index(…))
        matches the full-text `query` (`"pool AND view"`)."""
        return Expression(["MATCH()", _index(index), query])

    @staticmethod
    def rank(index: Union[str, FullTextIndexExpression]) -> Expression:
        """How well the document matched the query on `index` (for order_by: higher is better)."""
        return Expression(["RANK()", _index(index)])


def _index(index: Union[str, FullTextIndexExpression]) -> str:
    """The JSON form of a full-text index given by name or as a FullTextIndexExpression."""
    return index._json if isinstance(index, FullTextIndexExpression) else index


class Meta:
    """Document metadata: `Meta.id`, `Meta.sequence`, … (`Meta.id.from_("h")` for a source)."""

    id: PropertyExpression = PropertyExpression("_id")
    """The document ID."""
    sequence: PropertyExpression = PropertyExpression("_sequence")
    """The sequence of the document's revision."""
    is_deleted: PropertyExpression = PropertyExpression("_deleted")
    """Whether the document is deleted (a tombstone)."""
    expiration: PropertyExpression = PropertyExpression("_expiration")
    """When the document expires (milliseconds since 1970), or MISSING."""
    revision_id: PropertyExpression = PropertyExpression("_revisionID")
    """The document's revision ID."""


class Collation:
    """`Collation.unicode().ignore_case(True)`, `Collation.ascii()`."""

    def __init__(self, options: Dict[str, Union[bool, str]]) -> None:
        """The collation of LiteCore's COLLATE `options` (see the static makers)."""
        self._options = options

    @staticmethod
    def unicode() -> "Collation":
        """Unicode collation (case- and accent-sensitive until told otherwise)."""
        return Collation({"UNICODE": True})

    @staticmethod
    def ascii() -> "Collation":
        """ASCII collation: byte order (case-sensitive until told otherwise)."""
        return Collation({"UNICODE": False})

    def ignore_case(self, ignore: bool = True) -> "Collation":
        """This collation, ignoring case (or not)."""
        return Collation({**self._options, "CASE": not ignore})

    def ignore_accents(self, ignore: bool = True) -> "Collation":
        """This collation, ignoring accents (or not)."""
        return Collation({**self._options, "DIAC": not ignore})

    def locale(self, locale: str) -> "Collation":
        """This collation under the rules of `locale` (`"de"`, `"sv_SE"`)."""
        return Collation({**self._options, "LOCALE": locale})


class Function:
    """The query language's functions: `Function.lower(Expression.property("name"))`.
    `Function.call` reaches any function of the query language by name."""

    @staticmethod
    def call(name: str, *arguments: Operand) -> Expression:
        """The function `name` (`"regexp_replace"`, upper-cased) applied to `arguments`."""
        return Expression([f"{name.upper()}()", *(_json(argument) for argument in arguments)])

    @staticmethod
    def prediction(model: str, input: Operand) -> Expression:
        """The prediction of the registered model `model` for `input` (a dict of
        expressions): `PREDICTION(model, input)`."""
        return Expression(["PREDICTION()", model, _json(input)])

    # BEGIN generated by scripts/generate-builders from codegen/query-functions.tsv
    @staticmethod
    def count(a: Optional[Operand] = None) -> Expression:
        """The number of rows where `a` is valued, or of all rows when `a` is omitted (aggregate)."""
        return Expression(["COUNT()", _json(Expression.all() if a is None else a)])

    @staticmethod
    def sum(a: Operand) -> Expression:
        """The sum (aggregate)."""
        return Expression(["SUM()", _json(a)])

    @staticmethod
    def avg(a: Operand) -> Expression:
        """The average (aggregate)."""
        return Expression(["AVG()", _json(a)])

    @staticmethod
    def min(a: Operand) -> Expression:
        """The smallest value (aggregate)."""
        return Expression(["MIN()", _json(a)])

    @staticmethod
    def max(a: Operand) -> Expression:
        """The largest value (aggregate)."""
        return Expression(["MAX()", _json(a)])

    @staticmethod
    def abs(a: Operand) -> Expression:
        """The absolute value."""
        return Expression(["ABS()", _json(a)])

    @staticmethod
    def acos(a: Operand) -> Expression:
        """Arc cosine."""
        return Expression(["ACOS()", _json(a)])

    @staticmethod
    def asin(a: Operand) -> Expression:
        """Arc sine."""
        return Expression(["ASIN()", _json(a)])

    @staticmethod
    def atan(a: Operand) -> Expression:
        """Arc tangent."""
        return Expression(["ATAN()", _json(a)])

    @staticmethod
    def atan2(y: Operand, x: Operand) -> Expression:
        """The arc tangent of `y / x`."""
        return Expression(["ATAN2()", _json(y), _json(x)])

    @staticmethod
    def ceil(a: Operand) -> Expression:
        """The smallest integer not below `a`."""
        return Expression(["CEIL()", _json(a)])

    @staticmethod
    def cos(a: Operand) -> Expression:
        """Cosine."""
        return Expression(["COS()", _json(a)])

    @staticmethod
    def degrees(a: Operand) -> Expression:
        """Radians to degrees."""
        return Expression(["DEGREES()", _json(a)])

    @staticmethod
    def e() -> Expression:
        """Euler's number."""
        return Expression(["E()"])

    @staticmethod
    def exp(a: Operand) -> Expression:
        """e to the power `a`."""
        return Expression(["EXP()", _json(a)])

    @staticmethod
    def floor(a: Operand) -> Expression:
        """The largest integer not above `a`."""
        return Expression(["FLOOR()", _json(a)])

    @staticmethod
    def ln(a: Operand) -> Expression:
        """Natural logarithm."""
        return Expression(["LN()", _json(a)])

    @staticmethod
    def log(a: Operand) -> Expression:
        """Base-10 logarithm."""
        return Expression(["LOG()", _json(a)])

    @staticmethod
    def pi() -> Expression:
        """π."""
        return Expression(["PI()"])

    @staticmethod
    def power(base: Operand, exponent: Operand) -> Expression:
        """`base` to the power `exponent`."""
        return Expression(["POWER()", _json(base), _json(exponent)])

    @staticmethod
    def radians(a: Operand) -> Expression:
        """Degrees to radians."""
        return Expression(["RADIANS()", _json(a)])

    @staticmethod
    def round(a: Operand, digits: Optional[Operand] = None) -> Expression:
        """Rounded to an integer. With `digits`: rounded to `digits` decimal places."""
        return Expression(["ROUND()", _json(a), *(_json(x) for x in (digits,) if x is not None)])

    @staticmethod
    def sign(a: Operand) -> Expression:
        """-1, 0 or 1."""
        return Expression(["SIGN()", _json(a)])

    @staticmethod
    def sin(a: Operand) -> Expression:
        """Sine."""
        return Expression(["SIN()", _json(a)])

    @staticmethod
    def sqrt(a: Operand) -> Expression:
        """Square root."""
        return Expression(["SQRT()", _json(a)])

    @staticmethod
    def tan(a: Operand) -> Expression:
        """Tangent."""
        return Expression(["TAN()", _json(a)])

    @staticmethod
    def trunc(a: Operand, digits: Optional[Operand] = None) -> Expression:
        """Truncated to an integer. With `digits`: truncated to `digits` decimal places."""
        return Expression(["TRUNC()", _json(a), *(_json(x) for x in (digits,) if x is not None)])

    @staticmethod
    def contains(a: Operand, substring: Operand) -> Expression:
        """Whether string `a` contains `substring`."""
        return Expression(["CONTAINS()", _json(a), _json(substring)])

    @staticmethod
    def length(a: Operand) -> Expression:
        """The length of a string."""
        return Expression(["LENGTH()", _json(a)])

    @staticmethod
    def lower(a: Operand) -> Expression:
        """Lower case."""
        return Expression(["LOWER()", _json(a)])

    @staticmethod
    def upper(a: Operand) -> Expression:
        """Upper case."""
        return Expression(["UPPER()", _json(a)])

    @staticmethod
    def ltrim(a: Operand) -> Expression:
        """Without leading white space."""
        return Expression(["LTRIM()", _json(a)])

    @staticmethod
    def rtrim(a: Operand) -> Expression:
        """Without trailing white space."""
        return Expression(["RTRIM()", _json(a)])

    @staticmethod
    def trim(a: Operand) -> Expression:
        """Without leading and trailing white space."""
        return Expression(["TRIM()", _json(a)])

    @staticmethod
    def string_to_millis(a: Operand) -> Expression:
        """An ISO-8601 date string as milliseconds since 1970."""
        return Expression(["STR_TO_MILLIS()", _json(a)])

    @staticmethod
    def string_to_utc(a: Operand) -> Expression:
        """An ISO-8601 date string in UTC."""
        return Expression(["STR_TO_UTC()", _json(a)])

    @staticmethod
    def millis_to_string(a: Operand) -> Expression:
        """Milliseconds since 1970 as a local ISO-8601 string."""
        return Expression(["MILLIS_TO_STR()", _json(a)])

    @staticmethod
    def millis_to_utc(a: Operand) -> Expression:
        """Milliseconds since 1970 as an ISO-8601 string in UTC."""
        return Expression(["MILLIS_TO_UTC()", _json(a)])

    @staticmethod
    def euclidean_distance(a: Operand, b: Operand) -> Expression:
        """The Euclidean distance between the vectors (arrays of numbers) `a` and `b`; MISSING unless both are arrays of one length."""
        return Expression(["EUCLIDEAN_DISTANCE()", _json(a), _json(b)])

    @staticmethod
    def squared_euclidean_distance(a: Operand, b: Operand) -> Expression:
        """The square of the Euclidean distance between the vectors `a` and `b`, cheaper to compute and in the same order."""
        return Expression(["EUCLIDEAN_DISTANCE()", _json(a), _json(b), 2])

    @staticmethod
    def cosine_distance(a: Operand, b: Operand) -> Expression:
        """1 minus the cosine of the angle between the vectors `a` and `b`; MISSING unless both are arrays of one length, neither all zeros."""
        return Expression(["COSINE_DISTANCE()", _json(a), _json(b)])
    # END generated


class ArrayFunction:
    """`ArrayFunction.contains(array, value=…)`, `ArrayFunction.length(array)`."""

    # BEGIN generated by scripts/generate-builders from codegen/query-functions.tsv: ArrayFunction
    @staticmethod
    def contains(array: Operand, value: Operand) -> Expression:
        """Whether the array `array` holds `value`."""
        return Expression(["ARRAY_CONTAINS()", _json(array), _json(value)])

    @staticmethod
    def length(array: Operand) -> Expression:
        """The number of items of the array `array`."""
        return Expression(["ARRAY_LENGTH()", _json(array)])
    # END generated


class VariableExpression(Expression):
    """An array variable (ArrayExpression.variable("x")): the item of the array in a
    `satisfies` condition; ArrayExpression.variable("x.name") is a property of it."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        """The variable `name` (`"x"`, or `"x.name"` for a property of the item)."""
        self._name = name
        super().__init__([f"?{name}"])


class ArrayExpression:
    """ANY / EVERY / ANY AND EVERY over the items of an array (Couchbase Lite's
    ArrayExpression): `ArrayExpression.any(ArrayExpression.variable("like"))
    .in_(Expression.property("likes")).satisfies(ArrayExpression.variable("like") == "swimming")`."""

    @staticmethod
    def variable(name: str) -> VariableExpression:
        """The variable `name`, bound to each item by any/every/any_and_every."""
        return VariableExpression(name)

    @staticmethod
    def any(variable: Union[str, VariableExpression]) -> "ArrayExpressionIn":
        """True when some item satisfies the condition."""
        return ArrayExpressionIn("ANY", variable)

    @staticmethod
    def every(variable: Union[str, VariableExpression]) -> "ArrayExpressionIn":
        """True when every item satisfies the condition (also for an empty array)."""
        return ArrayExpressionIn("EVERY", variable)

    @staticmethod
    def any_and_every(variable: Union[str, VariableExpression]) -> "ArrayExpressionIn":
        """True when the array is not empty and every item satisfies the condition."""
        return ArrayExpressionIn("ANY AND EVERY", variable)


class ArrayExpressionIn:
    """A quantifier waiting for its array (`ArrayExpression.any(x)`): `.in_(array)`."""

    def __init__(self, quantifier: str, variable: Union[str, VariableExpression]) -> None:
        """`quantifier` ("ANY", "EVERY", "ANY AND EVERY") over the variable `variable`."""
        self._quantifier = quantifier
        self._variable = variable._name if isinstance(variable, VariableExpression) else variable

    def in_(self, array: Operand) -> "ArrayExpressionSatisfies":
        """The array whose items the variable takes."""
        return ArrayExpressionSatisfies(self._quantifier, self._variable, array)


class ArrayExpressionSatisfies:
    """A quantifier waiting for its condition: `.satisfies(condition)`."""

    def __init__(self, quantifier: str, variable: str, array: Operand) -> None:
        """`quantifier` over the items of `array`, each bound to `variable`."""
        self._quantifier, self._variable, self._array = quantifier, variable, array

    def satisfies(self, condition: Operand) -> Expression:
        """The quantified condition on each item, written with the variable."""
        return Expression([self._quantifier, self._variable, _json(self._array), _json(condition)])


class SelectResult:
    """A result column: `SelectResult.property("name")`, `SelectResult.expression(e).as_("x")`, `SelectResult.all()`."""

    def __init__(self, json_form: JSONForm, alias: Optional[str] = None) -> None:
        """The column of the JSON-query expression `json_form`, titled `alias` (None:
        the default title)."""
        self._json_form, self._alias = json_form, alias

    @staticmethod
    def property(path: str) -> "SelectResult":
        """The column of the property at `path`, titled by its last component."""
        return SelectResult(_json(Expression.property(path)))

    @staticmethod
    def expression(expression: Operand) -> "SelectResult":
        """The column of `expression`."""
        return SelectResult(_json(expression))

    @staticmethod
    def all() -> "SelectResult":
        """The whole document, in a column titled by its source."""
        return SelectResult(["."])

    def from_(self, alias: str) -> "SelectResult":
        """For `all()`: the whole document of the source `alias`."""
        return SelectResult([f".{alias}."], self._alias)

    def as_(self, alias: str) -> "SelectResult":
        """This column titled `alias`."""
        return SelectResult(self._json_form, alias)

    @builtins.property   # (the name `property` is the static method above)
    def _json(self) -> JSONForm:
        return ["AS", self._json_form, self._alias] if self._alias else self._json_form


class DataSource:
    """A collection to read: `DataSource.collection(hotels).as_("h")`, or
    `DataSource.database(db)` for its default collection under the database's name."""

    def __init__(self, database: "Database", name: str, alias: Optional[str] = None) -> None:
        """The collection `name` (`scope.collection`, or the database's name for its
        default collection) of `database`, aliased `alias`."""
        self._database, self._name, self._alias = database, name, alias

    @staticmethod
    def collection(collection: "Collection") -> "DataSource":
        """The collection `collection`."""
        return DataSource(collection.database, collection.full_name)

    @staticmethod
    def database(database: "Database") -> "DataSource":
        """The default collection of `database`, under the database's name."""
        return DataSource(database, database.name)

    def as_(self, alias: str) -> "DataSource":
        """This source under `alias` (for `Expression.property(…).from_(alias)`)."""
        return DataSource(self._database, self._name, alias)

    @builtins.property   # (the name `database` is the static method above)
    def _json(self) -> JSONObject:
        source: JSONObject = {"COLLECTION": self._name}
        if self._alias:
            source["AS"] = self._alias
        return source


class Join:
    """`Join.inner_join(DataSource…).on(condition)`, `left_outer_join`, `cross_join`."""

    def __init__(self, kind: str, source: DataSource, condition: Optional[Operand] = None) -> None:
        """The join of `kind` ("INNER", "LEFT OUTER", "CROSS") with `source` on `condition`."""
        self._kind, self._source, self._condition = kind, source, condition

    @staticmethod
    def join(source: DataSource) -> "Join":
        """An inner join with `source`; give its condition with `on`."""
        return Join("INNER", source)

    inner_join = join

    @staticmethod
    def left_join(source: DataSource) -> "Join":
        """A left outer join with `source`; give its condition with `on`."""
        return Join("LEFT OUTER", source)

    left_outer_join = left_join

    @staticmethod
    def cross_join(source: DataSource) -> "Join":
        """A cross join with `source` (no condition)."""
        return Join("CROSS", source)

    def on(self, condition: Operand) -> "Join":
        """This join on `condition`."""
        return Join(self._kind, self._source, condition)

    @property
    def _json(self) -> JSONObject:
        item: JSONObject = {**self._source._json, "JOIN": self._kind}
        if self._condition is not None:
            item["ON"] = _json(self._condition)
        return item


class Ordering:
    """`Ordering.property("name").descending()`, `Ordering.expression(e)`."""

    def __init__(self, expression: Operand, descending: bool = False) -> None:
        """An ordering by `expression`, descending or not."""
        self._expression, self._descending = expression, descending

    @staticmethod
    def property(path: str) -> "Ordering":
        """Ascending by the property at `path`."""
        return Ordering(Expression.property(path))

    @staticmethod
    def expression(expression: Operand) -> "Ordering":
        """Ascending by `expression`."""
        return Ordering(expression)

    def ascending(self) -> "Ordering":
        """This ordering, ascending."""
        return Ordering(self._expression)

    def descending(self) -> "Ordering":
        """This ordering, descending."""
        return Ordering(self._expression, True)

    @builtins.property   # (the name `property` is the static method above)
    def _json(self) -> JSONForm:
        return ["DESC", _json(self._expression)] if self._descending else _json(self._expression)


class BuiltQuery:
    """A query being built; every stage after `from_` can run (`execute`, `explain`)."""

    def __init__(self, clauses: JSONObject, database: Optional["Database"] = None) -> None:
        """The query of the JSON-query `clauses`, compiled by `database` (None until `from_`)."""
        self._clauses, self._database = clauses, database

    def _with(self, **clauses: JSONForm) -> "BuiltQuery":
        return BuiltQuery({**self._clauses, **clauses}, self._database)

    def from_(self, source: DataSource) -> "BuiltQuery":
        """The query reading `source` (required; its database compiles the query)."""
        return BuiltQuery({**self._clauses, "FROM": [source._json]}, source._database)

    def join(self, *joins: Join) -> "BuiltQuery":
        """The query with `joins` after its data source (and the joins given before)."""
        return self._with(FROM=self._clauses["FROM"] + [join._json for join in joins])

    def where(self, condition: Operand) -> "BuiltQuery":
        """The query keeping the rows where `condition` holds."""
        return self._with(WHERE=_json(condition))

    def group_by(self, *expressions: Operand) -> "BuiltQuery":
        """The query grouping rows by `expressions`."""
        return self._with(GROUP_BY=[_json(e) for e in expressions])

    def having(self, condition: Operand) -> "BuiltQuery":
        """The query keeping the groups where `condition` holds."""
        return self._with(HAVING=_json(condition))

    def order_by(self, *orderings: Ordering) -> "BuiltQuery":
        """The query sorting rows by `orderings`."""
        return self._with(ORDER_BY=[o._json for o in orderings])

    def limit(self, limit: Operand, offset: Optional[Operand] = None) -> "BuiltQuery":
        """The query giving at most `limit` rows, after skipping `offset` (an int, or an
        expression such as Expression.parameter("n"))."""
        clauses: JSONObject = {"LIMIT": _json(limit)}
        if offset is not None:
            clauses["OFFSET"] = _json(offset)
        return self._with(**clauses)

    @property
    def json(self) -> str:
        """The query in LiteCore's JSON query language."""
        return json.dumps(self._clauses)

    def query(self) -> Query:
        """The compiled Query."""
        if self._database is None:
            raise ValueError("a query needs a data source: call from_(DataSource.collection(…))")
        return Query(self._database, self._clauses, "json")   # (its JSON checked: see Query)

    def execute(self, parameters: Optional[Mapping[str, Any]] = None) -> ResultSet:
        """Compiles and runs the query with `parameters` (see Query.execute)."""
        return self.query().execute(parameters)

    def explain(self) -> str:
        """How the query runs (see Query.explain)."""
        return self.query().explain()

    def add_change_listener(self, listener: Callable[["QueryChange"], object]) -> "ListenerToken":
        """Compiles the query and makes it live (see Query.add_change_listener)."""
        return self.query().add_change_listener(listener)

    @property
    def sqlpp(self) -> str:
        """The query as SQL++ text."""
        return self.query().sqlpp


class QueryBuilder:
    """`QueryBuilder.select(SelectResult.property("name")).from_(DataSource.collection(hotels)).where(…)`."""

    @staticmethod
    def select(*results: SelectResult) -> BuiltQuery:
        """A query selecting `results` (none: the whole document); continue with `from_`."""
        return BuiltQuery({"WHAT": [result._json for result in results]})

    @staticmethod
    def select_distinct(*results: SelectResult) -> BuiltQuery:
        """As `select`, without duplicate rows (SELECT DISTINCT)."""
        return BuiltQuery({"WHAT": [result._json for result in results], "DISTINCT": True})
