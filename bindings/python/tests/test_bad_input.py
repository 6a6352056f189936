"""Bad input to the public API (issue 36): each case raises one exact exception type,
and nothing is stored, cut short or created. Then the pieces that were missing:
iterating a collection, scope and collection names, Row equality, context managers,
a ResultSet shared by threads, and open(create=False)."""

import io
import os
import threading

import pytest

import doclite
from doclite import DataSource, Document, Expression, QueryBuilder, SelectResult


def raises_exactly(kind, call, match=None):
    """Calls `call()`, which must raise `kind` itself (not a subclass: UnicodeEncodeError
    is a ValueError); returns the exception."""
    with pytest.raises(kind, match=match) as caught:
        call()
    assert type(caught.value) is kind, f"{type(caught.value).__name__}: {caught.value}"
    return caught.value


def under(directory, value):
    """`value` as a path inside `directory` when it is a str, else itself."""
    return os.path.join(str(directory), value) if isinstance(value, str) else value


def assert_nothing_stored(db, tmp_path):
    """The database holds no document, collection, scope or index beyond the empty default
    collection, and the directory only its file."""
    coll = db.default_collection()
    assert len(coll) == 0 and list(coll) == [] and coll.indexes() == []
    assert db.scope_names() == ["_default"] and db.collection_names() == ["_default"]
    assert sorted(name for name in os.listdir(tmp_path) if not name.startswith("test.doclite")) == []


# ---- Strings crossing the C boundary -------------------------------------------------

# (name, value, the exception it raises)
BAD_STRINGS = [
    ("None", None, TypeError),
    ("int", 42, TypeError),
    ("bytes", b"doc", TypeError),
    ("NUL", "a\x00b", ValueError),
    ("lone-surrogate", "a\ud800", UnicodeEncodeError),
]

# (name, call(db, collection, tmp_path, value), whether None is a legal value there)
STRING_ARGUMENTS = [
    ("Collection.get", lambda db, c, tmp, v: c.get(v), False),
    ("Collection[id]", lambda db, c, tmp, v: c[v], False),
    ("Collection[id] =", lambda db, c, tmp, v: c.__setitem__(v, {"n": 1}), False),
    ("id in Collection", lambda db, c, tmp, v: v in c, False),
    ("Collection.save(id=)", lambda db, c, tmp, v: c.save({"n": 1}, id=v), True),
    ("Collection.save(Document)", lambda db, c, tmp, v: c.save(Document(v, {"n": 1})), True),
    ("Collection.save_many(dict)", lambda db, c, tmp, v: c.save_many({"ok": {}, v: {"n": 1}}), False),
    ("Collection.save_many(pairs)", lambda db, c, tmp, v: c.save_many([("ok", {}), (v, {"n": 1})]), False),
    ("Collection.delete", lambda db, c, tmp, v: c.delete(v), False),
    ("del Collection[id]", lambda db, c, tmp, v: c.__delitem__(v), False),
    ("Collection.purge", lambda db, c, tmp, v: c.purge(v), False),
    ("Collection.set_expiration", lambda db, c, tmp, v: c.set_expiration(v, 0), False),
    ("Collection.add_document_change_listener", lambda db, c, tmp, v: c.add_document_change_listener(v, print), False),
    ("Database.collection(name)", lambda db, c, tmp, v: db.collection(v), False),
    ("Database.collection(scope)", lambda db, c, tmp, v: db.collection("c", scope=v), False),
    ("Database.create_collection(name)", lambda db, c, tmp, v: db.create_collection(v), False),
    ("Database.create_collection(scope)", lambda db, c, tmp, v: db.create_collection("c", scope=v), False),
    ("Database.delete_collection", lambda db, c, tmp, v: db.delete_collection(v), False),
    ("Database.collection_names", lambda db, c, tmp, v: db.collection_names(v), False),
    ("Database.query", lambda db, c, tmp, v: db.query(v), False),
    ("Database.create_query", lambda db, c, tmp, v: db.create_query(v), False),
    ("value index name", lambda db, c, tmp, v: c.create_value_index(v, "n"), False),
    ("value index expressions", lambda db, c, tmp, v: c.create_value_index("i", v), False),
    ("value index expression list", lambda db, c, tmp, v: c.create_value_index("i", ["n", v]), False),
    ("value index where", lambda db, c, tmp, v: c.create_value_index("i", "n", where=v), True),
    ("full-text index language", lambda db, c, tmp, v: c.create_full_text_index("i", "t", language=v), True),
    ("array index path", lambda db, c, tmp, v: c.create_array_index("i", v), False),
    ("array index expressions", lambda db, c, tmp, v: c.create_array_index("i", "tags", v), True),
    ("predictive index model", lambda db, c, tmp, v: c.create_predictive_index("i", v, "{'t': t}"), False),
    ("predictive index input", lambda db, c, tmp, v: c.create_predictive_index("i", "m", v), False),
    ("Collection.delete_index", lambda db, c, tmp, v: c.delete_index(v), False),
    ("register_model", lambda db, c, tmp, v: doclite.register_model(v, lambda input: None), False),
    ("unregister_model", lambda db, c, tmp, v: doclite.unregister_model(v), False),
    ("Blob content type", lambda db, c, tmp, v: doclite.Blob(v, b"x"), True),
    ("Blob.from_stream content type", lambda db, c, tmp, v: doclite.Blob.from_stream(v, io.BytesIO(b"x"), db), True),
    ("PredicateQueryBuilder where", lambda db, c, tmp, v: doclite.PredicateQueryBuilder(c, ["n"], v), False),
    ("PredicateQueryBuilder select", lambda db, c, tmp, v: doclite.PredicateQueryBuilder(c, ["n", v]), False),
    ("Database name", lambda db, c, tmp, v: doclite.Database(v, str(tmp)), False),
    ("Database directory", lambda db, c, tmp, v: doclite.Database("other", under(tmp, v)), True),
    ("open", lambda db, c, tmp, v: doclite.open(under(tmp, v)), False),
]


@pytest.mark.parametrize("call, value, kind", [
    pytest.param(call, value, kind, id=f"{name}-{value_name}")
    for name, call, none_is_legal in STRING_ARGUMENTS
    for value_name, value, kind in BAD_STRINGS if value is not None or not none_is_legal])
def test_a_bad_string_argument_raises_and_changes_nothing(db, tmp_path, call, value, kind):
    coll = db.default_collection()
    raises_exactly(kind, lambda: call(db, coll, tmp_path, value))
    assert_nothing_stored(db, tmp_path)


def test_a_nul_in_an_id_is_refused_not_cut_short(db):
    """The reproduction: both saves stored one document 'a'."""
    coll = db.default_collection()
    raises_exactly(ValueError, lambda: coll.__setitem__("a\x00b", {"v": 1}), match="NUL")
    raises_exactly(ValueError, lambda: coll.__setitem__("a\x00zzz", {"v": 2}), match="document ID")
    assert len(coll) == 0 and "a" not in coll


def test_a_nul_in_query_text_is_refused_not_cut_short(db):
    """The reproduction: the query ran as if its text ended at the NUL."""
    raises_exactly(ValueError, lambda: db.query("SELECT name FROM _\x00 WHERE garbage (("), match="query text")
    raises_exactly(ValueError, lambda: db.create_query('{"WHAT": [["._id"]]}\x00garbage', language="json"))


def test_a_lone_surrogate_error_names_the_argument(db):
    coll = db.default_collection()
    error = raises_exactly(UnicodeEncodeError, lambda: coll.get("x\ud800"))
    assert "document ID" in str(error)
    error = raises_exactly(UnicodeEncodeError, lambda: coll.__setitem__("x", {"name": "x\ud800"}))
    assert "document body" in str(error)
    assert len(coll) == 0


@pytest.mark.parametrize("id", ["a\nb", "\n", ""])
def test_an_id_of_save_many_cannot_shift_the_ids(db, id):
    """save_many sends the IDs one per line: "a\\nb" would make two IDs of one, and an
    empty last one none. Each raises as save raises for it."""
    coll = db.default_collection()
    raises_exactly(doclite.BadDocumentIDError, lambda: coll.save_many({"a": {"n": 1}, id: {"n": 2}}))
    raises_exactly(doclite.BadDocumentIDError, lambda: coll.__setitem__(id, {"n": 1}))
    assert len(coll) == 0


def test_nul_and_long_digit_runs_inside_json_are_data(db):
    """Strings inside JSON cross as escapes: U+0000 is kept, and a long run of digits in a
    string is no integer."""
    coll = db.default_collection()
    properties = {"s": "a\x00b", "a\x00b": 1, "digits": "12345678901234567890123456789", "n": 2 ** 64 - 1}
    coll["d"] = properties
    assert coll["d"].properties == properties
    rows = db.query("SELECT s FROM _ WHERE s = $s", {"s": "a\x00b"}).all()
    assert rows == [{"s": "a\x00b"}]


# ---- Wrong types -----------------------------------------------------------------------

WRONG_TYPES = [
    ("save(int)", lambda db, c: c.save(42)),
    ("save(list)", lambda db, c: c.save([1, 2])),
    ("save(str)", lambda db, c: c.save('{"n": 1}')),
    ("Collection[id] = list", lambda db, c: c.__setitem__("d", [1])),
    ("an object in the properties", lambda db, c: c.__setitem__("d", {"o": object()})),
    ("a tuple key in the properties", lambda db, c: c.__setitem__("d", {(1, 2): 1})),
    ("save_many of a non-dict body", lambda db, c: c.save_many([("d", "body")])),
    ("query parameters as a list", lambda db, c: db.query("SELECT META().id FROM _ WHERE n = $n", [1])),
    ("a set as a query parameter", lambda db, c: db.query("SELECT META().id FROM _ WHERE n = $n", {"n": {1}})),
    ("get_blob(str)", lambda db, c: db.get_blob("sha1-x")),
    ("save_blob(bytes)", lambda db, c: db.save_blob(b"x")),
    ("Blob(str data)", lambda db, c: doclite.Blob("text/plain", "text")),
    ("Document.set_blob(bytes)", lambda db, c: Document("d").set_blob("b", b"x")),
    ("register_model(non-callable)", lambda db, c: doclite.register_model("m", 42)),
    ("PredicateQueryBuilder(select=str)", lambda db, c: doclite.PredicateQueryBuilder(c, "n")),
    ("open(bytes)", lambda db, c: doclite.open(b"data/x")),
    ("open(None)", lambda db, c: doclite.open(None)),
]


@pytest.mark.parametrize("call", [pytest.param(call, id=name) for name, call in WRONG_TYPES])
def test_a_wrong_type_raises_type_error(db, tmp_path, call):
    coll = db.default_collection()
    raises_exactly(TypeError, lambda: call(db, coll))
    assert_nothing_stored(db, tmp_path)


# ---- Values JSON cannot carry exactly ---------------------------------------------------

# (name, call(db, collection, value)): each sends `value` to the library as JSON.
JSON_SENDERS = [
    ("save", lambda db, c, v: c.save({"v": v})),
    ("Collection[id] = nested", lambda db, c, v: c.__setitem__("d", {"a": [1, {"v": v}]})),
    ("save(Document)", lambda db, c, v: c.save(Document("d", {"v": v}))),
    ("save_many", lambda db, c, v: c.save_many({"ok": {"v": 1}, "d": {"v": v}})),
    ("query parameters", lambda db, c, v: db.query("SELECT META().id FROM _ WHERE v = $v", {"v": v})),
    ("Query.execute parameters", lambda db, c, v: db.create_query("SELECT META().id FROM _ WHERE v IN $v").execute({"v": [v]})),
    ("JSON query", lambda db, c, v: db.create_query({"WHAT": [["._id"]], "WHERE": ["=", [".v"], v]}, language="json")),
    ("query builder literal", lambda db, c, v: QueryBuilder.select(SelectResult.expression(Expression.value(v)))
     .from_(DataSource.collection(c)).execute()),
    ("get_blob metadata", lambda db, c, v: db.get_blob({"@type": "blob", "digest": "sha1-x", "length": v})),
    ("predicate context", lambda db, c, v: doclite.PredicateQueryBuilder(c, ["v"], "v == $V").run({"V": v})),
    ("index condition", lambda db, c, v: c.create_full_text_index("i", [[".t"]], where=["=", [".v"], v],
                                                                  expression_language="json")),
    ("index expressions", lambda db, c, v: c.create_full_text_index("i", [["+", [".t"], v]], expression_language="json")),
    ("prediction input", lambda db, c, v: c.create_predictive_index("i", "m", {"x": v}, expression_language="json")),
]

BAD_VALUES = [
    pytest.param(2 ** 64, OverflowError, id="2**64"),
    pytest.param(-2 ** 63 - 1, OverflowError, id="-2**63-1"),
    pytest.param(2 ** 70, OverflowError, id="2**70"),
    pytest.param(-2 ** 70, OverflowError, id="-2**70"),
    pytest.param(float("nan"), ValueError, id="NaN"),
    pytest.param(float("inf"), ValueError, id="inf"),
    pytest.param(float("-inf"), ValueError, id="-inf"),
    pytest.param("x\ud800", UnicodeEncodeError, id="lone-surrogate"),
]


@pytest.mark.parametrize("value, kind", BAD_VALUES)
@pytest.mark.parametrize("call", [pytest.param(call, id=name) for name, call in JSON_SENDERS])
def test_a_value_json_cannot_carry_exactly_raises_and_changes_nothing(db, tmp_path, call, value, kind):
    coll = db.default_collection()
    raises_exactly(kind, lambda: call(db, coll, value))
    assert_nothing_stored(db, tmp_path)


def test_a_huge_integer_is_never_stored_as_a_float(db):
    """The reproduction: 2**70 was stored as 1.1805916207174113e+21."""
    coll = db.default_collection()
    error = raises_exactly(OverflowError, lambda: coll.__setitem__("big", {"a": {"b": [0, 2 ** 70]}}))
    assert ".a.b[1]" in str(error)
    raises_exactly(OverflowError, lambda: db.query("SELECT META().id FROM _ WHERE v = $v", {"v": 2 ** 70}))
    assert len(coll) == 0


@pytest.mark.parametrize("value", [0, -1, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, -2 ** 63, 10 ** 18, True])
def test_every_64_bit_integer_is_kept_exactly(db, value):
    coll = db.default_collection()
    coll["n"] = {"v": value, "list": [value]}
    assert coll["n"].properties == {"v": value, "list": [value]} and type(coll["n"]["v"]) is type(value)
    assert db.query("SELECT v FROM _").all()[0]["v"] == value
    db.query("SELECT META().id FROM _ WHERE v = $v", {"v": value}).all()   # (accepted)


def test_a_model_returning_a_huge_integer_fails_the_query(db):
    coll = db.default_collection()
    coll["d"] = {"t": "x"}
    doclite.register_model("huge", lambda input: {"v": 2 ** 70})
    try:
        with pytest.raises(doclite.InvalidQueryError, match="OverflowError"):
            db.query("SELECT PREDICTION(huge, {'t': t}, v) FROM _").all()
    finally:
        doclite.unregister_model("huge")


# ---- None as a document ID ----------------------------------------------------------------

def test_none_is_no_document_id_but_save_without_one_makes_one(db):
    """The reproduction: `c[None] = …` saved under a random ID."""
    coll = db.default_collection()
    raises_exactly(TypeError, lambda: coll.__setitem__(None, {"n": 1}))
    assert len(coll) == 0
    made = coll.save({"n": 1})
    document = Document(None, {"n": 2})
    coll.save(document)
    assert document.id not in (None, made.id) and coll[document.id]["n"] == 2 and len(coll) == 2


# ---- A closed database, collection or query ----------------------------------------------

def _closed_calls():
    """(name, call(objects)) for every method, run on objects made before the close."""
    c = "collection"
    return [
        ("len(Collection)", lambda o: len(o[c])),
        ("iter(Collection)", lambda o: iter(o[c])),
        ("Collection.ids", lambda o: o[c].ids()),
        ("Collection.keys", lambda o: o[c].keys()),
        ("Collection.get", lambda o: o[c].get("d")),
        ("Collection[id]", lambda o: o[c]["d"]),
        ("id in Collection", lambda o: "d" in o[c]),
        ("Collection[id] =", lambda o: o[c].__setitem__("e", {})),
        ("Collection.save", lambda o: o[c].save({"n": 1})),
        ("Collection.save_many", lambda o: o[c].save_many({"e": {}})),
        ("Collection.delete", lambda o: o[c].delete("d")),
        ("del Collection[id]", lambda o: o[c].__delitem__("d")),
        ("Collection.purge", lambda o: o[c].purge("d")),
        ("Collection.set_expiration", lambda o: o[c].set_expiration("d", 0)),
        ("Collection.add_change_listener", lambda o: o[c].add_change_listener(print)),
        ("Collection.add_document_change_listener", lambda o: o[c].add_document_change_listener("d", print)),
        ("Collection.create_value_index", lambda o: o[c].create_value_index("i", "n")),
        ("Collection.create_full_text_index", lambda o: o[c].create_full_text_index("i", "n")),
        ("Collection.create_array_index", lambda o: o[c].create_array_index("i", "tags")),
        ("Collection.create_predictive_index", lambda o: o[c].create_predictive_index("i", "m", "{'n': n}")),
        ("Collection.indexes", lambda o: o[c].indexes()),
        ("Collection.delete_index", lambda o: o[c].delete_index("i")),
        ("Document.get_blob", lambda o: o["document"].get_blob("photo")),
        ("Database.path", lambda o: o["db"].path),
        ("Database.default_collection", lambda o: o["db"].default_collection()),
        ("Database.collection", lambda o: o["db"].collection("x")),
        ("Database.create_collection", lambda o: o["db"].create_collection("x")),
        ("Database.delete_collection", lambda o: o["db"].delete_collection("x")),
        ("Database.scope_names", lambda o: o["db"].scope_names()),
        ("Database.collection_names", lambda o: o["db"].collection_names()),
        ("Database.batch", lambda o: o["db"].batch().__enter__()),
        ("Database.save_blob", lambda o: o["db"].save_blob(doclite.Blob(None, b"x"))),
        ("Database.get_blob", lambda o: o["db"].get_blob(o["document"]["photo"])),
        ("Database.perform_maintenance", lambda o: o["db"].perform_maintenance(doclite.MaintenanceType.COMPACT)),
        ("Database.create_query", lambda o: o["db"].create_query("SELECT n FROM _")),
        ("Database.query", lambda o: o["db"].query("SELECT n FROM _")),
        ("Blob.from_stream", lambda o: doclite.Blob.from_stream(None, io.BytesIO(b"x"), o["db"])),
        ("Query.execute", lambda o: o["query"].execute()),
        ("Query.execute(parameters)", lambda o: o["query"].execute({"max": 1})),
        ("Query.explain", lambda o: o["query"].explain()),
        ("Query.sqlpp", lambda o: o["query"].sqlpp),
        ("Query.add_change_listener", lambda o: o["query"].add_change_listener(print)),
        ("next(fresh ResultSet)", lambda o: next(o["fresh"])),
        ("next(partly read ResultSet)", lambda o: next(o["partial"])),
        ("ResultSet.all", lambda o: o["fresh"].all()),
        ("PredicateQueryBuilder.run", lambda o: o["predicate"].run()),
        ("PredicateQueryBuilder.create_query", lambda o: o["predicate"].create_query()),
        ("PredicateQueryBuilder.explanation", lambda o: o["predicate"].explanation),
        ("PredicateQueryBuilder()", lambda o: doclite.PredicateQueryBuilder(o[c], ["n"])),
        ("QueryBuilder execute", lambda o: QueryBuilder.select(SelectResult.property("n"))
         .from_(DataSource.collection(o[c])).execute()),
    ]


@pytest.fixture
def objects(db):
    """A collection, a document, a query, result sets and a predicate builder, then the database closed."""
    collection = db.default_collection()
    collection.save_many({f"d{i:04d}": {"n": i} for i in range(600)})
    collection.save(Document("d", {"n": 1}).set_blob("photo", doclite.Blob("image/png", b"png")))
    document = collection["d"]   # (its photo a metadata dict, read from the database)
    query = db.create_query("SELECT n FROM _ WHERE n < $max")
    query.execute({"max": 1000})
    partial = query.execute()
    next(partial)
    objects = {"db": db, "collection": collection, "document": document, "query": query, "fresh": query.execute(),
               "partial": partial, "predicate": doclite.PredicateQueryBuilder(collection, ["n"])}
    db.close()
    yield objects
    objects.clear()   # (the db fixture counts the handles left: none)


@pytest.mark.parametrize("call", [pytest.param(call, id=name) for name, call in _closed_calls()])
def test_every_method_raises_not_open_after_the_close(objects, call):
    """The reproduction: len() of a collection of a closed database was 0. Raised by
    the package or by the library, the error has doclite.h's kCBLErrorNotOpen."""
    error = raises_exactly(doclite.NotOpenError, lambda: call(objects))
    assert (error.domain, error.code) == (1, 6)


def test_a_closed_query_raises_not_open_and_its_results_stay_readable(db):
    coll = db.default_collection()
    coll.save_many({f"d{i:04d}": {"n": i} for i in range(600)})   # (more than a block of rows)
    with db.create_query("SELECT n FROM _ ORDER BY n") as query:
        rows = query.execute()
        assert next(rows)["n"] == 0
    for call in (query.execute, query.explain, lambda: query.sqlpp, lambda: query.add_change_listener(print)):
        raises_exactly(doclite.NotOpenError, call)
    assert [row["n"] for row in rows] == list(range(1, 600))
    query.close()   # (again: nothing)


# ---- The new pieces -----------------------------------------------------------------------

def test_iterating_a_collection_gives_its_ids_in_order(db):
    odd = db.create_collection("h-1", scope="in%v")   # (names SQL++ must quote)
    assert list(odd) == [] and odd.ids() == []
    ids = [f"k{i}" for i in range(1100)]   # (several blocks of rows)
    odd.save_many({id: {"i": n} for n, id in enumerate(ids)})
    odd.delete("k5")
    assert list(odd) == sorted(set(ids) - {"k5"}) == odd.ids() == odd.keys()
    assert len(odd) == len(odd.ids()) == 1099
    for id in odd:   # deleting while iterating reads on
        del odd[id]
    assert len(odd) == 0 and list(db.default_collection()) == []


def test_scope_and_collection_names(db):
    assert db.scope_names() == ["_default"] and db.collection_names() == ["_default"]
    db.create_collection("hotels", scope="inventory")
    db.create_collection("cities", scope="inventory")
    assert db.scope_names() == ["_default", "inventory"]
    assert sorted(db.collection_names("inventory")) == ["cities", "hotels"]
    assert db.collection_names("none") == []
    db.delete_collection("hotels", scope="inventory")
    assert db.collection_names("inventory") == ["cities"]


def test_rows_compare_as_sqlite3_rows_and_as_dicts(db):
    coll = db.default_collection()
    coll.save_many({"a": {"n": 1, "tags": ["x"]}, "b": {"n": 2}})
    query = "SELECT META().id, n, tags FROM _ ORDER BY META().id"
    first, second = db.query(query).all(), db.query(query).all()
    assert first == second and first[0] != first[1]
    assert first == [{"id": "a", "n": 1, "tags": ["x"]}, {"id": "b", "n": 2}]   # MISSING: absent
    assert first[1] != {"id": "b", "n": 2, "tags": None}
    assert first[0] != ["a", 1, ["x"]] and first[0].to_list() == ["a", 1, ["x"]]
    assert first[0] != db.query("SELECT META().id AS other, n, tags FROM _ ORDER BY META().id").all()[0]
    with pytest.raises(TypeError):
        hash(first[0])


def test_a_listener_token_removes_its_listener_when_the_block_ends(db):
    coll = db.default_collection()
    seen = []
    with coll.add_change_listener(lambda change: seen.extend(change.document_ids)) as token:
        coll["a"] = {}
    coll["b"] = {}
    assert seen == ["a"]
    token.remove()   # (again: nothing)


def test_a_result_set_shared_by_four_threads_gives_each_row_once(db):
    coll = db.default_collection()
    count = 5000   # (ten blocks of rows)
    coll.save_many({f"d{i:05d}": {"n": i} for i in range(count)})
    rows = db.query("SELECT n FROM _")
    taken, start = [[] for _ in range(4)], threading.Barrier(4)

    def read(into):
        start.wait()
        for row in rows:
            into.append(row["n"])

    threads = [threading.Thread(target=read, args=(into,)) for into in taken]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = [n for into in taken for n in into]
    assert sorted(every) == list(range(count))
    assert list(rows) == []   # read once, as any iterator


def test_open_with_create_false_never_creates(tmp_path):
    missing = tmp_path / "missing" / "dir" / "db"
    error = raises_exactly(doclite.NotFoundError, lambda: doclite.open(missing, create=False))
    assert str(missing) + ".doclite" in str(error)
    assert (error.domain, error.code) == (1, 7)   # kCBLErrorNotFound
    raises_exactly(doclite.NotFoundError, lambda: doclite.Database("db", str(tmp_path), create=False))
    assert os.listdir(tmp_path) == []
    with doclite.open(missing) as db:   # the default: created, with its directory
        db.default_collection()["a"] = {}
    with doclite.open(missing, create=False) as db:
        assert db.default_collection()["a"].properties == {}
