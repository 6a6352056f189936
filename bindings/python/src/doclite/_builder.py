"""Couchbase Lite's QueryBuilder in Python style: the same classes and method
names (snake_case; `from_`, `as_`, `in_`, `and_`, `or_` where Python reserves
the word), operators where Python allows them (`==`, `<`, `+`, `&` for AND,
`|` for OR, `~` for NOT). A built query is LiteCore's JSON query, compiled
by the database of its first data source."""

import builtins
import json

from ._query import Query


def _json(value):
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
    """An expression of a query: `Expression.property("name") == "Grand"`."""

    __slots__ = ("_json",)
    __hash__ = None

    def __init__(self, json_form):
        self._json = json_form

    # Makers
    @staticmethod
    def property(path):
        """The document property at `path` (`"address.city"`, `"tags[0]"`)."""
        return PropertyExpression(path)

    @staticmethod
    def all():
        """The whole document."""
        return PropertyExpression("")

    @staticmethod
    def value(value):
        """A literal: None, a boolean, a number, a string, a list or a dict."""
        return Expression(_json(value))

    string = int = float = boolean = value

    @staticmethod
    def parameter(name):
        """A query parameter, set at execute() from a dict."""
        return Expression([f"${name}"])

    @staticmethod
    def not_(expression):
        return Expression(["NOT", _json(expression)])

    # Operators, by Couchbase Lite's names and by Python's
    def _op(self, op, *others):
        return Expression([op, self._json, *(_json(other) for other in others)])

    def equal_to(self, other): return self._op("=", other)
    def not_equal_to(self, other): return self._op("!=", other)
    def less_than(self, other): return self._op("<", other)
    def less_than_or_equal_to(self, other): return self._op("<=", other)
    def greater_than(self, other): return self._op(">", other)
    def greater_than_or_equal_to(self, other): return self._op(">=", other)
    def add(self, other): return self._op("+", other)
    def subtract(self, other): return self._op("-", other)
    def multiply(self, other): return self._op("*", other)
    def divide(self, other): return self._op("/", other)
    def modulo(self, other): return self._op("%", other)
    def and_(self, other): return self._op("AND", other)
    def or_(self, other): return self._op("OR", other)
    def like(self, pattern): return self._op("LIKE", pattern)
    def regex(self, pattern): return Expression(["REGEXP_LIKE()", self._json, _json(pattern)])
    def between(self, low, high): return self._op("BETWEEN", low, high)
    def in_(self, values): return Expression(["IN", self._json, _json(list(values))])
    def is_valued(self): return self._op("IS VALUED")
    def is_not_valued(self): return Expression(["NOT", ["IS VALUED", self._json]])
    def is_(self, other): return self._op("IS", other)
    def is_not(self, other): return self._op("IS NOT", other)

    def collate(self, collation):
        """This expression compared under `collation` (Collation.unicode(), Collation.ascii())."""
        return Expression(["COLLATE", collation._options, self._json])

    __eq__ = equal_to
    __ne__ = not_equal_to
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

    def __invert__(self):
        return Expression.not_(self)

    def __neg__(self):
        return Expression(["-", self._json])

    def __bool__(self):
        raise TypeError("an Expression is not a truth value: combine conditions with & and |, not 'and' and 'or'")

    def __repr__(self):
        return f"Expression({json.dumps(self._json)})"


class PropertyExpression(Expression):
    """A property, which `from_(alias)` qualifies with a data source's alias."""

    __slots__ = ("_path",)

    def __init__(self, path, alias=None):
        self._path = path
        super().__init__([f".{alias}.{path}" if alias else f".{path}"] if path or alias else ["."])

    def from_(self, alias):
        return PropertyExpression(self._path, alias)


class Meta:
    """Document metadata: `Meta.id`, `Meta.sequence`, … (`Meta.id.from_("h")` for a source)."""

    id = PropertyExpression("_id")
    sequence = PropertyExpression("_sequence")
    is_deleted = PropertyExpression("_deleted")
    expiration = PropertyExpression("_expiration")
    revision_id = PropertyExpression("_revisionID")


class Collation:
    """`Collation.unicode().ignore_case(True)`, `Collation.ascii()`."""

    def __init__(self, options):
        self._options = options

    @staticmethod
    def unicode():
        return Collation({"UNICODE": True})

    @staticmethod
    def ascii():
        return Collation({"UNICODE": False})

    def ignore_case(self, ignore=True):
        return Collation({**self._options, "CASE": not ignore})

    def ignore_accents(self, ignore=True):
        return Collation({**self._options, "DIAC": not ignore})

    def locale(self, locale):
        return Collation({**self._options, "LOCALE": locale})


class _Functions(type):
    """`Function.lower(x)`, `Function.count(x)`, …: any function of the query language by name."""

    def __getattr__(cls, name):
        if name.startswith("_"):
            raise AttributeError(name)

        def call(*arguments):
            return Expression([f"{name.upper()}()", *(_json(argument) for argument in arguments)])
        call.__name__ = name
        return call


class Function(metaclass=_Functions):
    """The query language's functions: `Function.lower(Expression.property("name"))`."""


class ArrayFunction:
    """`ArrayFunction.contains(array, value=…)`, `ArrayFunction.length(array)`."""

    @staticmethod
    def contains(array, value):
        return Expression(["ARRAY_CONTAINS()", _json(array), _json(value)])

    @staticmethod
    def length(array):
        return Expression(["ARRAY_LENGTH()", _json(array)])


class SelectResult:
    """A result column: `SelectResult.property("name")`, `SelectResult.expression(e).as_("x")`, `SelectResult.all()`."""

    def __init__(self, json_form, alias=None):
        self._json_form, self._alias = json_form, alias

    @staticmethod
    def property(path):
        return SelectResult(_json(Expression.property(path)))

    @staticmethod
    def expression(expression):
        return SelectResult(_json(expression))

    @staticmethod
    def all():
        return SelectResult(["."])

    def from_(self, alias):
        """For `all()`: the whole document of the source `alias`."""
        return SelectResult([f".{alias}."], self._alias)

    def as_(self, alias):
        return SelectResult(self._json_form, alias)

    @builtins.property   # (the name `property` is the static method above)
    def _json(self):
        return ["AS", self._json_form, self._alias] if self._alias else self._json_form


class DataSource:
    """A collection to read: `DataSource.collection(hotels).as_("h")`, or
    `DataSource.database(db)` for its default collection under the database's name."""

    def __init__(self, database, name, alias=None):
        self.database, self._name, self._alias = database, name, alias

    @staticmethod
    def collection(collection):
        return DataSource(collection.database, collection.full_name)

    @staticmethod
    def database(database):
        return DataSource(database, database.name)

    def as_(self, alias):
        return DataSource(self.database, self._name, alias)

    @property
    def _json(self):
        source = {"COLLECTION": self._name}
        if self._alias:
            source["AS"] = self._alias
        return source


class Join:
    """`Join.inner_join(DataSource…).on(condition)`, `left_outer_join`, `cross_join`."""

    def __init__(self, kind, source, condition=None):
        self._kind, self._source, self._condition = kind, source, condition

    @staticmethod
    def join(source): return Join("INNER", source)
    inner_join = join

    @staticmethod
    def left_join(source): return Join("LEFT OUTER", source)
    left_outer_join = left_join

    @staticmethod
    def cross_join(source): return Join("CROSS", source)

    def on(self, condition):
        return Join(self._kind, self._source, condition)

    @property
    def _json(self):
        item = {**self._source._json, "JOIN": self._kind}
        if self._condition is not None:
            item["ON"] = _json(self._condition)
        return item


class Ordering:
    """`Ordering.property("name").descending()`, `Ordering.expression(e)`."""

    def __init__(self, expression, descending=False):
        self._expression, self._descending = expression, descending

    @staticmethod
    def property(path):
        return Ordering(Expression.property(path))

    @staticmethod
    def expression(expression):
        return Ordering(expression)

    def ascending(self):
        return Ordering(self._expression)

    def descending(self):
        return Ordering(self._expression, True)

    @builtins.property
    def _json(self):
        return ["DESC", _json(self._expression)] if self._descending else _json(self._expression)


class BuiltQuery:
    """A query being built; every stage after `from_` can run (`execute`, `explain`)."""

    def __init__(self, clauses, database=None):
        self._clauses, self._database = clauses, database

    def _with(self, **clauses):
        return BuiltQuery({**self._clauses, **clauses}, self._database)

    def from_(self, source):
        return BuiltQuery({**self._clauses, "FROM": [source._json]}, source.database)

    def join(self, *joins):
        return self._with(FROM=self._clauses["FROM"] + [join._json for join in joins])

    def where(self, condition): return self._with(WHERE=_json(condition))
    def group_by(self, *expressions): return self._with(GROUP_BY=[_json(e) for e in expressions])
    def having(self, condition): return self._with(HAVING=_json(condition))
    def order_by(self, *orderings): return self._with(ORDER_BY=[o._json for o in orderings])

    def limit(self, limit, offset=None):
        clauses = {"LIMIT": _json(limit)}
        if offset is not None:
            clauses["OFFSET"] = _json(offset)
        return self._with(**clauses)

    @property
    def json(self):
        """The query in LiteCore's JSON query language."""
        return json.dumps(self._clauses)

    def query(self):
        """The compiled Query."""
        if self._database is None:
            raise ValueError("a query needs a data source: call from_(DataSource.collection(…))")
        return Query(self._database, self._clauses, "json")   # (its JSON checked: see Query)

    def execute(self, parameters=None): return self.query().execute(parameters)
    def explain(self): return self.query().explain()

    @property
    def sqlpp(self): return self.query().sqlpp


class QueryBuilder:
    """`QueryBuilder.select(SelectResult.property("name")).from_(DataSource.collection(hotels)).where(…)`."""

    @staticmethod
    def select(*results):
        return BuiltQuery({"WHAT": [result._json for result in results]})

    @staticmethod
    def select_distinct(*results):
        return BuiltQuery({"WHAT": [result._json for result in results], "DISTINCT": True})
