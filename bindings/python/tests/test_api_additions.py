"""What issue 36's parity check found the Python package lacking, now there: scopes
(CBLDatabase_Scope, CBLDatabase_DefaultScope, CBLScope_*, CBLCollection_Scope),
document expiration read back (CBLCollection_GetDocumentExpiration), deleting a
database (CBLDatabase_Delete, CBL_DeleteDatabase), a query's parameters and JSON form
(CBLQuery_CopyParameters, CBLQueryParameters_CopyJSON, CBLQuery_CopyJSON), buffered
notifications (CBLDatabase_BufferNotifications, CBLDatabase_SendNotifications), and
live queries from the QueryBuilder."""

import json
import threading

import pytest

import doclite
from doclite import DataSource, Expression, QueryBuilder, SelectResult


def test_scopes(db):
    hotels = db.create_collection("hotels", scope="inventory")
    db.create_collection("airlines", scope="inventory")
    default = db.default_scope()
    assert default.name == "_default" and default.collection_names() == ["_default"]
    assert [scope.name for scope in db.scopes()] == ["_default", "inventory"]
    inventory = db.scope("inventory")
    assert inventory is not None and inventory.database is db
    assert sorted(inventory.collection_names()) == ["airlines", "hotels"]
    assert sorted(collection.full_name for collection in inventory.collections()) == ["inventory.airlines",
                                                                                      "inventory.hotels"]
    found = inventory.collection("hotels")
    assert found is not None and found.full_name == "inventory.hotels"
    found["h1"] = {"name": "Grand"}
    assert hotels["h1"]["name"] == "Grand"
    assert inventory.collection("nope") is None and db.scope("nope") is None
    assert hotels.scope.name == "inventory" and db.default_collection().scope.name == "_default"
    assert repr(inventory) == "<doclite.Scope inventory>"
    del found, hotels, inventory, default
    db.close()
    with pytest.raises(doclite.NotOpenError):
        db.default_scope()


def test_a_scope_of_a_closed_database_is_not_open(tmp_path):
    with doclite.open(tmp_path / "db") as db:
        scope = db.default_scope()
    with pytest.raises(doclite.NotOpenError):
        scope.collection_names()


def test_document_expiration_is_read_back(db):
    hotels = db.default_collection()
    hotels["h1"] = {"name": "Grand"}
    assert hotels.get_expiration("h1") is None
    hotels.set_expiration("h1", 4102444800000)   # 2100-01-01
    assert hotels.get_expiration("h1") == 4102444800000
    hotels.set_expiration("h1", None)
    assert hotels.get_expiration("h1") is None
    assert hotels.get_expiration("nope") is None
    with pytest.raises(TypeError):
        hotels.get_expiration(None)


def test_deleting_databases(tmp_path):
    path = tmp_path / "data" / "travel"
    assert not doclite.database_exists(path)
    db = doclite.open(path)
    db.default_collection()["h1"] = {"name": "Grand"}
    assert doclite.database_exists(path) and doclite.database_exists(f"{path}.doclite")
    db.delete()
    assert not doclite.database_exists(path)
    with pytest.raises(doclite.NotOpenError):
        db.default_collection()
    db.close()   # (closed already: nothing)
    doclite.open(path).close()
    doclite.delete_database(f"{path}.doclite")
    assert not (tmp_path / "data" / "travel.doclite").exists()
    with pytest.raises(doclite.NotFoundError) as raised:
        doclite.delete_database(path)
    assert "travel.doclite" in str(raised.value)
    with pytest.raises(TypeError):
        doclite.delete_database(3)


def test_query_parameters_are_read_and_set_without_running(db):
    db.default_collection().save_many({f"d{n}": {"n": n} for n in range(5)})
    query = db.create_query("SELECT n FROM _ WHERE n >= $low ORDER BY n")
    assert query.parameters is None
    assert [row["n"] for row in query.execute({"low": 3})] == [3, 4]
    assert query.parameters == {"low": 3}
    query.parameters = {"low": 1}
    assert query.parameters == {"low": 1}
    assert [row["n"] for row in query.execute()] == [1, 2, 3, 4]
    query.parameters = None
    assert query.parameters is None
    with pytest.raises(TypeError):
        query.parameters = [("low", 1)]
    with pytest.raises(ValueError):
        query.parameters = {"low": float("nan")}
    query.close()
    with pytest.raises(doclite.NotOpenError):
        query.parameters


def test_query_json(db):
    query = db.create_query("SELECT name FROM _ WHERE type = 'hotel'")
    form = json.loads(query.json)
    assert form["WHAT"] == [[".name"]] and form["WHERE"] == ["=", [".type"], "hotel"]
    again = db.create_query(query.json, language="json")
    assert again.sqlpp == query.sqlpp


def test_buffered_notifications_are_sent_on_the_thread_that_asks(db):
    hotels = db.default_collection()
    ready, calls = [], []
    db.buffer_notifications(ready.append)
    with hotels.add_change_listener(lambda change: calls.append((change.document_ids, threading.get_ident()))):
        hotels["h1"] = {"name": "Grand"}
        hotels["h2"] = {"name": "Petit"}
        assert ready == [db] and calls == []   # (ready once: when the queue stopped being empty)
        db.send_notifications()
        assert calls == [(["h1"], threading.get_ident()), (["h2"], threading.get_ident())]
        db.send_notifications()   # (nothing queued: nothing)
        db.buffer_notifications(None)   # stops buffering: listeners are called at once again
        hotels["h3"] = {"name": "Bristol"}
        assert calls[-1][0] == ["h3"] and ready == [db]
    with pytest.raises(TypeError):
        db.buffer_notifications("not callable")


def test_a_ready_callback_that_raises_is_reported(db):
    def ready(database):
        raise RuntimeError("ready failed")
    db.buffer_notifications(ready)
    with db.default_collection().add_change_listener(lambda change: None):
        with pytest.warns(RuntimeWarning, match="ready failed"):
            db.default_collection()["h1"] = {}
        db.send_notifications()
    db.buffer_notifications(None)


def test_a_built_query_is_made_live(db):
    hotels = db.default_collection()
    hotels["h1"] = {"name": "Grand", "city": "Paris"}
    changes, seen = [], threading.Event()

    def listener(change):
        changes.append(sorted(row["name"] for row in change.results))
        if "Petit" in changes[-1]:
            seen.set()

    built = (QueryBuilder.select(SelectResult.property("name")).from_(DataSource.database(db))
             .where(Expression.property("city") == "Paris"))
    with built.add_change_listener(listener):
        hotels["h2"] = {"name": "Petit", "city": "Paris"}
        assert seen.wait(10)
    assert changes[-1] == ["Grand", "Petit"]


def test_builder_array_expressions(db):
    from doclite import ArrayExpression
    people = db.default_collection()
    people.save_many({"p1": {"likes": ["swimming", "chess"]}, "p2": {"likes": ["chess"]}, "p3": {"likes": []},
                      "p4": {"likes": [{"name": "golf"}]}})
    like = ArrayExpression.variable("like")

    def ids(condition):
        built = (QueryBuilder.select(SelectResult.expression(doclite.Meta.id)).from_(DataSource.database(db))
                 .where(condition).order_by(doclite.Ordering.expression(doclite.Meta.id)))
        return [row[0] for row in built.execute()]

    likes = Expression.property("likes")
    assert ids(ArrayExpression.any(like).in_(likes).satisfies(like == "swimming")) == ["p1"]
    assert ids(ArrayExpression.every("like").in_(likes).satisfies(like == "chess")) == ["p2", "p3"]
    assert ids(ArrayExpression.any_and_every(like).in_(likes).satisfies(like == "chess")) == ["p2"]
    assert ids(ArrayExpression.any(like).in_(likes).satisfies(ArrayExpression.variable("like.name") == "golf")) == ["p4"]
    query = ArrayExpression.any(like).in_(likes).satisfies(like == "chess")
    assert query._json == ["ANY", "like", [".likes"], ["=", ["?like"], "chess"]]


def test_builder_full_text_functions(db):
    from doclite import FullTextFunction
    notes = db.default_collection()
    notes.save_many({"n1": {"text": "a pool with a view"}, "n2": {"text": "a view"}, "n3": {"text": "pool pool pool"}})
    notes.create_full_text_index("byText", ["text"])
    built = (QueryBuilder.select(SelectResult.expression(doclite.Meta.id)).from_(DataSource.database(db))
             .where(FullTextFunction.match("byText", "pool"))
             .order_by(doclite.Ordering.expression(FullTextFunction.rank("byText")).descending()))
    assert [row[0] for row in built.execute()] == ["n3", "n1"]
    aliased = (QueryBuilder.select(SelectResult.expression(doclite.Meta.id.from_("n"))).from_(DataSource.database(db).as_("n"))
               .where(FullTextFunction.match(Expression.full_text_index("byText").from_("n"), "view")))
    assert sorted(row[0] for row in aliased.execute()) == ["n1", "n2"]


def test_builder_date_literal(db):
    import datetime
    events = db.default_collection()
    events["e1"] = {"at": "2024-05-01T12:00:00.250Z"}
    moment = datetime.datetime(2024, 5, 1, 14, 0, 0, 250000, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    assert Expression.date(moment)._json == "2024-05-01T12:00:00.250Z"
    built = (QueryBuilder.select(SelectResult.expression(doclite.Meta.id)).from_(DataSource.database(db))
             .where(Expression.property("at") == Expression.date(moment)))
    assert [row[0] for row in built.execute()] == ["e1"]
    with pytest.raises(TypeError):
        Expression.date("2024-05-01")
