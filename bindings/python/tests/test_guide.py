"""The QueryBuilder guide's examples (Couchbase Lite's Swift guide, with its
Result Sets section) written in Python, on a small travel-sample-shaped
database, with the results the guide documents."""

import json

import pytest

import doclite
from doclite import ArrayFunction, Collation, DataSource, Expression, Function, Join, Meta, Ordering, QueryBuilder, SelectResult

DOCUMENTS = {
    "airline_10": {"type": "airline", "id": 10, "name": "40-Mile Air", "callsign": "MILE-AIR", "country": "United States", "iata": "Q5", "icao": "MLA"},
    "airline_17": {"type": "airline", "id": 17, "name": "Alaskan Airways", "callsign": "ALASKAN-AIR", "country": "United States", "iata": "AA", "icao": "AAA"},
    "hotel123": {"type": "hotel", "id": "hotel123", "name": "Hotel Ghia", "title": "Avignon", "city": "Avignon", "public_likes": ["Armani Langworth", "Elfrieda Gutkowski", "Maureen Ruecker"]},
    "hotel456": {"type": "hotel", "id": "hotel456", "name": "Hotel Deluxe", "title": "Aberdyfi", "city": "Aberdyfi", "public_likes": ["Maureen Ruecker"]},
    "hotel789": {"type": "hotel", "id": "hotel789", "name": "Auberge", "title": "Ardèche", "city": "Lyon"},
    "landmark_1": {"type": "landmark", "name": "Royal Engineers Museum", "country": "United Kingdom"},
    "landmark_2": {"type": "landmark", "name": "Engineer", "country": "France"},
    "landmark_3": {"type": "landmark", "name": "England Eagle", "country": "United Kingdom"},
    "landmark_4": {"type": "landmark", "name": "Tower Bridge", "country": "United Kingdom"},
    "landmark_5": {"type": "landmark", "name": "engineer", "country": "Canada"},
    "route_1": {"type": "route", "airlineid": "airline_10", "sourceairport": "RIX", "destinationairport": "ARN", "stops": 0, "airline": "Q5"},
    "route_2": {"type": "route", "airlineid": "airline_17", "sourceairport": "RIX", "destinationairport": "CPH", "stops": 1, "airline": "AA"},
    "route_3": {"type": "route", "airlineid": "airline_10", "sourceairport": "LHR", "destinationairport": "RIX", "stops": 0, "airline": "Q5"},
    "airport_1": {"type": "airport", "country": "France", "geo": {"alt": 400}, "tz": "Europe/Paris"},
    "airport_2": {"type": "airport", "country": "France", "geo": {"alt": 300}, "tz": "Europe/Paris"},
    "airport_3": {"type": "airport", "country": "France", "geo": {"alt": 100}, "tz": "Europe/Paris"},
    "airport_4": {"type": "airport", "country": "United States", "geo": {"alt": 456}, "tz": "America/Anchorage"},
    "user_1": {"type": "user", "first": "Armani", "last": "Langworth"},
    "user_2": {"type": "user", "first": "Bob", "username": "Armani"},
    "user_3": {"type": "user", "first": "Carol", "last": "Armand"},
    "gone": {"type": "hotel", "name": "Deleted Hotel"},
}


@pytest.fixture
def travel(tmp_path):
    with doclite.open(tmp_path / "travel-sample") as database:
        collection = database.default_collection()
        collection.save_many(DOCUMENTS)
        collection.delete("gone")
        yield database


def landmark_ids(travel, condition):
    query = (QueryBuilder.select(SelectResult.expression(Meta.id), SelectResult.property("country"), SelectResult.property("name"))
             .from_(DataSource.database(travel))
             .where((Expression.property("type") == "landmark") & condition)
             .limit(10))
    return sorted(row["id"] for row in query.execute())


def test_select_all_is_keyed_by_the_database_name(travel):
    rows = QueryBuilder.select(SelectResult.all()).from_(DataSource.database(travel)).execute().all()
    assert len(rows) == 20   # 21 saved, one deleted
    assert all(row.keys() == ["travel-sample"] for row in rows)
    airline = next(row for row in rows if row["travel-sample"]["type"] == "airline")
    assert airline["travel-sample"]["callsign"] == "MILE-AIR" and airline[0]["id"] == 10


def test_select_properties_where_and_limit(travel):
    query = (QueryBuilder.select(SelectResult.expression(Meta.id), SelectResult.property("type"), SelectResult.property("name"))
             .from_(DataSource.database(travel)).where(Expression.property("type").equal_to(Expression.string("hotel"))))
    rows = query.execute().all()
    assert rows[0].keys() == ["id", "type", "name"]
    assert {row["id"] for row in rows} == {"hotel123", "hotel456", "hotel789"}
    limited = (QueryBuilder.select(SelectResult.all()).from_(DataSource.database(travel))
               .where(Expression.property("type") == "hotel").limit(Expression.int(2)))
    names = [row["travel-sample"]["name"] for row in limited.execute()]
    assert len(names) == 2 and set(names) <= {"Hotel Ghia", "Hotel Deluxe", "Auberge"}


def test_array_contains_and_in(travel):
    query = (QueryBuilder.select(SelectResult.expression(Meta.id), SelectResult.property("name"), SelectResult.property("public_likes"))
             .from_(DataSource.database(travel))
             .where((Expression.property("type") == "hotel")
                    & ArrayFunction.contains(Expression.property("public_likes"), value="Armani Langworth")))
    rows = query.execute().all()
    assert [row["id"] for row in rows] == ["hotel123"]
    assert rows[0]["public_likes"] == ["Armani Langworth", "Elfrieda Gutkowski", "Maureen Ruecker"]
    values = [Expression.property("first"), Expression.property("last"), Expression.property("username")]
    within = QueryBuilder.select(SelectResult.all()).from_(DataSource.database(travel)).where(Expression.string("Armani").in_(values))
    assert {row["travel-sample"]["first"] for row in within.execute()} == {"Armani", "Bob"}


def test_like_regex_and_collate(travel):
    assert landmark_ids(travel, Function.lower(Expression.property("name")).like("royal engineers museum")) == ["landmark_1"]
    assert landmark_ids(travel, Function.lower(Expression.property("name")).like("eng%e%")) == ["landmark_2", "landmark_3", "landmark_5"]
    assert landmark_ids(travel, Expression.property("name").like("eng____r")) == ["landmark_5"]
    assert landmark_ids(travel, Expression.property("name").regex("\\bEng.*e\\b")) == ["landmark_3"]
    assert landmark_ids(travel, Expression.property("name").collate(Collation.ascii().ignore_case(True)) == "ENGINEER") == ["landmark_2", "landmark_5"]
    titles = (QueryBuilder.select(SelectResult.property("title")).from_(DataSource.database(travel))
              .where(Expression.property("type") == "hotel")
              .order_by(Ordering.expression(Expression.property("title").collate(Collation.unicode().ignore_accents(True).locale("en"))).descending()))
    assert [row["title"] for row in titles.execute()] == ["Avignon", "Ardèche", "Aberdyfi"]


def test_deleted_documents_join_group_by_and_order_by(travel):
    deleted = QueryBuilder.select(SelectResult.expression(Meta.id)).from_(DataSource.database(travel)).where(Meta.is_deleted)
    assert [row["id"] for row in deleted.execute()] == ["gone"]
    joined = (QueryBuilder.select(*(SelectResult.expression(Expression.property(name).from_(alias)) for alias, name in
                                    [("airline", "name"), ("airline", "callsign"), ("route", "destinationairport"),
                                     ("route", "stops"), ("route", "airline")]))
              .from_(DataSource.database(travel).as_("airline"))
              .join(Join.join(DataSource.database(travel).as_("route"))
                    .on(Meta.id.from_("airline") == Expression.property("airlineid").from_("route")))
              .where((Expression.property("type").from_("route") == "route") & (Expression.property("type").from_("airline") == "airline")
                     & (Expression.property("sourceairport").from_("route") == "RIX")))
    rows = joined.execute().all()
    assert rows[0].keys() == ["name", "callsign", "destinationairport", "stops", "airline"]
    assert sorted("|".join(str(value) for value in row.to_list()) for row in rows) == [
        "40-Mile Air|MILE-AIR|ARN|0|Q5", "Alaskan Airways|ALASKAN-AIR|CPH|1|AA"]
    grouped = (QueryBuilder.select(SelectResult.expression(Function.count(Expression.all())), SelectResult.property("country"),
                                   SelectResult.property("tz"))
               .from_(DataSource.database(travel))
               .where((Expression.property("type") == "airport") & (Expression.property("geo.alt") >= 300))
               .group_by(Expression.property("country"), Expression.property("tz")))
    rows = grouped.execute().all()
    assert rows[0].keys() == ["$1", "country", "tz"]
    assert sorted(f"{row['$1']} {row['tz']} {row['country']}" for row in rows) == [
        "1 America/Anchorage United States", "2 Europe/Paris France"]
    ordered = (QueryBuilder.select(SelectResult.expression(Meta.id), SelectResult.property("title")).from_(DataSource.database(travel))
               .where(Expression.property("type") == "hotel").order_by(Ordering.property("title").ascending()).limit(10))
    assert [row["title"] for row in ordered.execute()] == ["Aberdyfi", "Ardèche", "Avignon"]


def test_meta_id_alias_counts_pagination_and_parameters(travel):
    ids = QueryBuilder.select(SelectResult.expression(Meta.id).as_("metaId")).from_(DataSource.database(travel))
    rows = ids.execute().all()
    assert len(rows) == 20 and all(row.keys() == ["metaId"] for row in rows)
    collection = travel.default_collection()
    assert all(collection[row["metaId"]].id == row["metaId"] for row in rows)
    counts = (QueryBuilder.select(SelectResult.expression(Function.count(Expression.all())).as_("mycount"))
              .from_(DataSource.database(travel)).group_by(Expression.property("type")))
    assert sorted(row["mycount"] for row in counts.execute()) == [2, 3, 3, 3, 4, 5]
    everything = [row["id"] for row in QueryBuilder.select(SelectResult.expression(Meta.id)).from_(DataSource.database(travel)).execute()]
    pages = []
    for offset in range(0, 24, 8):
        page = [row["id"] for row in QueryBuilder.select(SelectResult.expression(Meta.id)).from_(DataSource.database(travel))
                .limit(8, offset=offset).execute()]
        assert len(page) <= 8
        pages += page
    assert pages == everything and len(pages) == 20
    typed = (QueryBuilder.select(SelectResult.expression(Meta.id)).from_(DataSource.database(travel))
             .where(Expression.property("type") == Expression.parameter("type")).order_by(Ordering.expression(Meta.id)))
    assert [row["id"] for row in typed.execute({"type": "airline"})] == ["airline_10", "airline_17"]
    assert [row["id"] for row in typed.execute({"type": "hotel"})] == ["hotel123", "hotel456", "hotel789"]


def test_result_sets_read_as_the_guide_does(travel):
    hotels = {}
    for row in QueryBuilder.select(SelectResult.all()).from_(DataSource.database(travel)).where(Expression.property("type") == "hotel").execute():
        properties = row[0]
        hotels[properties["id"]] = properties
    assert sorted(hotels) == ["hotel123", "hotel456", "hotel789"] and hotels["hotel456"]["city"] == "Aberdyfi"
    hotel_query = (QueryBuilder.select(SelectResult.expression(Meta.id).as_("metaId"), SelectResult.property("id"),
                                       SelectResult.property("name"), SelectResult.property("city"), SelectResult.property("type"))
                   .from_(DataSource.database(travel)).where(Expression.property("type") == "hotel"))
    decoded = {}
    for row in hotel_query.execute():
        assert sorted(row.to_dict()) == ["city", "id", "metaId", "name", "type"]
        decoded[row["metaId"]] = json.loads(row.to_json())
    assert decoded["hotel123"]["name"] == "Hotel Ghia" and decoded["hotel789"]["city"] == "Lyon" and len(decoded) == 3
    same = travel.create_query(hotel_query.json, language="json")
    assert [row.to_json() for row in same.execute()] == [row.to_json() for row in hotel_query.execute()]
