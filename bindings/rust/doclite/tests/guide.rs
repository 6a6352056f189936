//! The QueryBuilder guide's examples (Couchbase Lite's Swift guide, with its
//! Result Sets section) written in Rust, on a small travel-sample-shaped
//! database, with the results the guide documents. The same port as the Python
//! package's `tests/test_guide.py`, test for test.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Deref;
use std::path::PathBuf;

use doclite::{
    ArrayFunction, Collation, DataSource, Database, DatabaseConfiguration, Expression, Function, Join, Meta, Ordering,
    QueryBuilder, Result, SelectResult,
};
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// The documents of every test, in the order they are saved.
fn documents() -> Vec<(&'static str, Value)> {
    vec![
        ("airline_10", json!({"type": "airline", "id": 10, "name": "40-Mile Air", "callsign": "MILE-AIR", "country": "United States", "iata": "Q5", "icao": "MLA"})),
        ("airline_17", json!({"type": "airline", "id": 17, "name": "Alaskan Airways", "callsign": "ALASKAN-AIR", "country": "United States", "iata": "AA", "icao": "AAA"})),
        ("hotel123", json!({"type": "hotel", "id": "hotel123", "name": "Hotel Ghia", "title": "Avignon", "city": "Avignon", "public_likes": ["Armani Langworth", "Elfrieda Gutkowski", "Maureen Ruecker"]})),
        ("hotel456", json!({"type": "hotel", "id": "hotel456", "name": "Hotel Deluxe", "title": "Aberdyfi", "city": "Aberdyfi", "public_likes": ["Maureen Ruecker"]})),
        ("hotel789", json!({"type": "hotel", "id": "hotel789", "name": "Auberge", "title": "Ardèche", "city": "Lyon"})),
        ("landmark_1", json!({"type": "landmark", "name": "Royal Engineers Museum", "country": "United Kingdom"})),
        ("landmark_2", json!({"type": "landmark", "name": "Engineer", "country": "France"})),
        ("landmark_3", json!({"type": "landmark", "name": "England Eagle", "country": "United Kingdom"})),
        ("landmark_4", json!({"type": "landmark", "name": "Tower Bridge", "country": "United Kingdom"})),
        ("landmark_5", json!({"type": "landmark", "name": "engineer", "country": "Canada"})),
        ("route_1", json!({"type": "route", "airlineid": "airline_10", "sourceairport": "RIX", "destinationairport": "ARN", "stops": 0, "airline": "Q5"})),
        ("route_2", json!({"type": "route", "airlineid": "airline_17", "sourceairport": "RIX", "destinationairport": "CPH", "stops": 1, "airline": "AA"})),
        ("route_3", json!({"type": "route", "airlineid": "airline_10", "sourceairport": "LHR", "destinationairport": "RIX", "stops": 0, "airline": "Q5"})),
        ("airport_1", json!({"type": "airport", "country": "France", "geo": {"alt": 400}, "tz": "Europe/Paris"})),
        ("airport_2", json!({"type": "airport", "country": "France", "geo": {"alt": 300}, "tz": "Europe/Paris"})),
        ("airport_3", json!({"type": "airport", "country": "France", "geo": {"alt": 100}, "tz": "Europe/Paris"})),
        ("airport_4", json!({"type": "airport", "country": "United States", "geo": {"alt": 456}, "tz": "America/Anchorage"})),
        ("user_1", json!({"type": "user", "first": "Armani", "last": "Langworth"})),
        ("user_2", json!({"type": "user", "first": "Bob", "username": "Armani"})),
        ("user_3", json!({"type": "user", "first": "Carol", "last": "Armand"})),
        ("gone", json!({"type": "hotel", "name": "Deleted Hotel"})),
    ]
}

/// The "travel-sample" database of one test, in a directory of its own. `finish()`
/// deletes it and reports how that went; a test that fails before then still has its
/// database deleted when this is dropped.
struct Travel {
    db: Database,
    directory: PathBuf,
    deleted: bool,
}

impl Travel {
    /// Opens "travel-sample" in a new directory named for the process and `test`, saves
    /// the documents and deletes "gone".
    fn open(test: &str) -> Result<Travel> {
        let directory = std::env::temp_dir().join(format!("doclite-rust-guide-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&directory);
        let db = Database::open("travel-sample", &DatabaseConfiguration::in_directory(&directory))?;
        let travel = Travel { db, directory, deleted: false };
        let collection = travel.db.default_collection()?;
        collection.save_many(documents())?;
        assert!(collection.delete("gone")?, "\"gone\" was saved, so it can be deleted");
        Ok(travel)
    }

    /// Deletes the database (and its directory).
    fn finish(mut self) -> Result<()> {
        self.deleted = true;
        self.db.delete()?;
        let _ = std::fs::remove_dir_all(&self.directory);
        Ok(())
    }
}

impl Deref for Travel {
    type Target = Database;
    fn deref(&self) -> &Database {
        &self.db
    }
}

impl Drop for Travel {
    fn drop(&mut self) {
        if !self.deleted {
            let _ = self.db.delete();
            let _ = std::fs::remove_dir_all(&self.directory);
        }
    }
}

/// The default collection under the database's name, as the guide's `DataSource.database(database)`.
fn source(db: &Database) -> DataSource {
    DataSource::database(db)
}

/// The IDs, sorted, of the landmarks (at most 10) that meet `condition`: the query of
/// the guide's LIKE and regex examples.
fn landmark_ids(db: &Database, condition: Expression) -> Result<Vec<String>> {
    let query = QueryBuilder::select([
        SelectResult::expression(Meta::id()),
        SelectResult::property("country"),
        SelectResult::property("name"),
    ])
    .from(source(db))
    .where_(Expression::property("type").equal_to("landmark").and(condition))
    .limit(10)
    .build()?;
    let mut ids = query.execute()?.map(|row| row?.get::<String>("id")).collect::<Result<Vec<_>>>()?;
    ids.sort();
    Ok(ids)
}

/// A value as Python's `str()` writes it: strings bare, anything else as JSON.
fn plain(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[test]
fn select_all_is_keyed_by_the_database_name() -> Result<()> {
    let travel = Travel::open("select_all")?;
    let query = QueryBuilder::select([SelectResult::all()]).from(source(&travel)).build()?;
    assert_eq!(query.column_names(), ["travel-sample"]);
    let rows = query.execute()?.all()?;
    assert_eq!(rows.len(), 20, "21 saved, one deleted");
    for row in &rows {
        assert_eq!(row.column_names(), ["travel-sample"]);
        assert_eq!(row.to_map().keys().collect::<Vec<_>>(), ["travel-sample"]);
    }
    let airline = rows
        .iter()
        .find(|row| row.get::<Value>("travel-sample").map(|doc| doc["type"] == "airline").unwrap_or(false))
        .expect("an airline row");
    assert_eq!(airline.get::<Value>("travel-sample")?["callsign"], "MILE-AIR");
    assert_eq!(airline.get::<Value>(0)?["id"], 10);
    travel.finish()
}

#[test]
fn select_properties_where_and_limit() -> Result<()> {
    let travel = Travel::open("select_properties")?;
    let query = QueryBuilder::select([
        SelectResult::expression(Meta::id()),
        SelectResult::property("type"),
        SelectResult::property("name"),
    ])
    .from(source(&travel))
    .where_(Expression::property("type").equal_to(Expression::string("hotel")))
    .build()?;
    let rows = query.execute()?.all()?;
    assert_eq!(rows[0].column_names(), ["id", "type", "name"]);
    let ids: BTreeSet<String> = rows.iter().map(|row| row.get("id")).collect::<Result<_>>()?;
    assert_eq!(ids, BTreeSet::from(["hotel123".to_owned(), "hotel456".into(), "hotel789".into()]));
    assert!(rows.iter().all(|row| row.get::<String>("type").ok().as_deref() == Some("hotel")));

    let limited = QueryBuilder::select([SelectResult::all()])
        .from(source(&travel))
        .where_(Expression::property("type").equal_to("hotel"))
        .limit(Expression::int(2))
        .build()?;
    let mut names = Vec::new();
    for row in limited.execute()? {
        names.push(row?.get::<Value>("travel-sample")?["name"].as_str().expect("a name").to_owned());
    }
    assert_eq!(names.len(), 2);
    assert!(names.iter().all(|name| ["Hotel Ghia", "Hotel Deluxe", "Auberge"].contains(&name.as_str())), "{names:?}");
    travel.finish()
}

#[test]
fn array_contains_and_in() -> Result<()> {
    let travel = Travel::open("array_contains")?;
    let query = QueryBuilder::select([
        SelectResult::expression(Meta::id()),
        SelectResult::property("name"),
        SelectResult::property("public_likes"),
    ])
    .from(source(&travel))
    .where_(
        Expression::property("type")
            .equal_to("hotel")
            .and(ArrayFunction::contains(Expression::property("public_likes"), "Armani Langworth")),
    )
    .build()?;
    let rows = query.execute()?.all()?;
    let ids: Vec<String> = rows.iter().map(|row| row.get("id")).collect::<Result<_>>()?;
    assert_eq!(ids, ["hotel123"]);
    assert_eq!(
        rows[0].get::<Vec<String>>("public_likes")?,
        ["Armani Langworth", "Elfrieda Gutkowski", "Maureen Ruecker"]
    );

    let values = [Expression::property("first"), Expression::property("last"), Expression::property("username")];
    let within = QueryBuilder::select([SelectResult::all()])
        .from(source(&travel))
        .where_(Expression::string("Armani").in_(values))
        .build()?;
    let mut firsts = BTreeSet::new();
    for row in within.execute()? {
        firsts.insert(row?.get::<Value>("travel-sample")?["first"].as_str().expect("a first name").to_owned());
    }
    assert_eq!(firsts, BTreeSet::from(["Armani".to_owned(), "Bob".to_owned()]));
    travel.finish()
}

#[test]
fn like_regex_and_collate() -> Result<()> {
    let travel = Travel::open("like_regex")?;
    assert_eq!(
        landmark_ids(&travel, Function::lower(Expression::property("name")).like("royal engineers museum"))?,
        ["landmark_1"]
    );
    assert_eq!(
        landmark_ids(&travel, Function::lower(Expression::property("name")).like("eng%e%"))?,
        ["landmark_2", "landmark_3", "landmark_5"]
    );
    assert_eq!(landmark_ids(&travel, Expression::property("name").like("eng____r"))?, ["landmark_5"]);
    assert_eq!(landmark_ids(&travel, Expression::property("name").regex("\\bEng.*e\\b"))?, ["landmark_3"]);
    assert_eq!(
        landmark_ids(
            &travel,
            Expression::property("name").collate(Collation::ascii().ignore_case(true)).equal_to("ENGINEER")
        )?,
        ["landmark_2", "landmark_5"]
    );

    let titles = QueryBuilder::select([SelectResult::property("title")])
        .from(source(&travel))
        .where_(Expression::property("type").equal_to("hotel"))
        .order_by([Ordering::expression(
            Expression::property("title").collate(Collation::unicode().ignore_accents(true).locale("en")),
        )
        .descending()])
        .build()?;
    let titles: Vec<String> = titles.execute()?.map(|row| row?.get("title")).collect::<Result<_>>()?;
    assert_eq!(titles, ["Avignon", "Ardèche", "Aberdyfi"]);
    travel.finish()
}

#[test]
fn deleted_documents_join_group_by_and_order_by() -> Result<()> {
    let travel = Travel::open("deleted_join")?;
    let deleted = QueryBuilder::select([SelectResult::expression(Meta::id())])
        .from(source(&travel))
        .where_(Meta::is_deleted())
        .build()?;
    let ids: Vec<String> = deleted.execute()?.map(|row| row?.get("id")).collect::<Result<_>>()?;
    assert_eq!(ids, ["gone"]);

    let columns = [("airline", "name"), ("airline", "callsign"), ("route", "destinationairport"), ("route", "stops"), ("route", "airline")];
    let joined = QueryBuilder::select(
        columns.iter().map(|(alias, name)| SelectResult::expression(Expression::property(name).from(alias))),
    )
    .from(source(&travel).as_("airline"))
    .join([Join::join(source(&travel).as_("route"))
        .on(Meta::id().from("airline").equal_to(Expression::property("airlineid").from("route")))])
    .where_(
        Expression::property("type")
            .from("route")
            .equal_to("route")
            .and(Expression::property("type").from("airline").equal_to("airline"))
            .and(Expression::property("sourceairport").from("route").equal_to("RIX")),
    )
    .build()?;
    let rows = joined.execute()?.all()?;
    assert_eq!(rows[0].column_names(), ["name", "callsign", "destinationairport", "stops", "airline"]);
    let mut lines: Vec<String> =
        rows.iter().map(|row| row.values().iter().map(plain).collect::<Vec<_>>().join("|")).collect();
    lines.sort();
    assert_eq!(lines, ["40-Mile Air|MILE-AIR|ARN|0|Q5", "Alaskan Airways|ALASKAN-AIR|CPH|1|AA"]);

    let grouped = QueryBuilder::select([
        SelectResult::expression(Function::count(Expression::all())),
        SelectResult::property("country"),
        SelectResult::property("tz"),
    ])
    .from(source(&travel))
    .where_(
        Expression::property("type")
            .equal_to("airport")
            .and(Expression::property("geo.alt").greater_than_or_equal_to(300)),
    )
    .group_by([Expression::property("country"), Expression::property("tz")])
    .build()?;
    let rows = grouped.execute()?.all()?;
    assert_eq!(rows[0].column_names(), ["$1", "country", "tz"]);
    let mut lines = rows
        .iter()
        .map(|row| Ok(format!("{} {} {}", row.get::<i64>("$1")?, row.get::<String>("tz")?, row.get::<String>("country")?)))
        .collect::<Result<Vec<_>>>()?;
    lines.sort();
    assert_eq!(lines, ["1 America/Anchorage United States", "2 Europe/Paris France"]);

    let ordered = QueryBuilder::select([SelectResult::expression(Meta::id()), SelectResult::property("title")])
        .from(source(&travel))
        .where_(Expression::property("type").equal_to("hotel"))
        .order_by([Ordering::property("title").ascending()])
        .limit(10)
        .build()?;
    let titles: Vec<String> = ordered.execute()?.map(|row| row?.get("title")).collect::<Result<_>>()?;
    assert_eq!(titles, ["Aberdyfi", "Ardèche", "Avignon"]);
    travel.finish()
}

#[test]
fn meta_id_alias_counts_pagination_and_parameters() -> Result<()> {
    let travel = Travel::open("meta_id")?;
    let ids = QueryBuilder::select([SelectResult::expression(Meta::id()).as_("metaId")]).from(source(&travel)).build()?;
    let rows = ids.execute()?.all()?;
    assert_eq!(rows.len(), 20);
    assert!(rows.iter().all(|row| row.column_names() == ["metaId"]));
    // The guide's Example 24: each ID reads its document back.
    let collection = travel.default_collection()?;
    for row in &rows {
        let id: String = row.get("metaId")?;
        let document = collection.document(&id)?.unwrap_or_else(|| panic!("no document {id}"));
        assert_eq!(document.id(), id);
    }
    let hotel = collection.document("hotel456")?.expect("hotel456");
    assert_eq!(hotel.properties()["city"], "Aberdyfi");

    let counts = QueryBuilder::select([SelectResult::expression(Function::count(Expression::all())).as_("mycount")])
        .from(source(&travel))
        .group_by([Expression::property("type")])
        .build()?;
    let mut counts: Vec<i64> = counts.execute()?.map(|row| row?.get("mycount")).collect::<Result<_>>()?;
    counts.sort();
    assert_eq!(counts, [2, 3, 3, 3, 4, 5]);

    let all_ids = QueryBuilder::select([SelectResult::expression(Meta::id())]).from(source(&travel));
    let everything: Vec<String> = all_ids.build()?.execute()?.map(|row| row?.get("id")).collect::<Result<_>>()?;
    let mut pages = Vec::new();
    for offset in (0..24).step_by(8) {
        let page_query = all_ids.clone().limit_offset(8, offset).build()?;
        let page: Vec<String> = page_query.execute()?.map(|row| row?.get("id")).collect::<Result<_>>()?;
        assert!(page.len() <= 8, "offset {offset}: {page:?}");
        pages.extend(page);
    }
    assert_eq!(pages, everything);
    assert_eq!(pages.len(), 20);

    let mut typed = QueryBuilder::select([SelectResult::expression(Meta::id())])
        .from(source(&travel))
        .where_(Expression::property("type").equal_to(Expression::parameter("type")))
        .order_by([Ordering::expression(Meta::id())])
        .build()?;
    typed.set_parameters(&json!({"type": "airline"}))?;
    let airlines: Vec<String> = typed.execute()?.map(|row| row?.get("id")).collect::<Result<_>>()?;
    assert_eq!(airlines, ["airline_10", "airline_17"]);
    typed.set_parameters(&json!({"type": "hotel"}))?;
    let hotels: Vec<String> = typed.execute()?.map(|row| row?.get("id")).collect::<Result<_>>()?;
    assert_eq!(hotels, ["hotel123", "hotel456", "hotel789"]);
    travel.finish()
}

/// The guide's `Hotel`, decoded from a row as its Example 29 does with `Codable`.
#[derive(Debug, Deserialize, PartialEq)]
struct Hotel {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    name: String,
    city: String,
}

#[test]
fn result_sets_read_as_the_guide_does() -> Result<()> {
    let travel = Travel::open("result_sets")?;
    // All properties: the document is the row's first (only) column.
    let all = QueryBuilder::select([SelectResult::all()])
        .from(source(&travel))
        .where_(Expression::property("type").equal_to("hotel"))
        .build()?;
    let mut hotels: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    for row in all.execute()? {
        let properties: Map<String, Value> = row?.get(0)?;
        let id = properties["id"].as_str().expect("a hotel id").to_owned();
        hotels.insert(id, properties);
    }
    assert_eq!(hotels.keys().collect::<Vec<_>>(), ["hotel123", "hotel456", "hotel789"]);
    assert_eq!(hotels["hotel456"]["city"], "Aberdyfi");

    // Specific properties: each row as a dictionary, and as JSON.
    let hotel_query = QueryBuilder::select([
        SelectResult::expression(Meta::id()).as_("metaId"),
        SelectResult::property("id"),
        SelectResult::property("name"),
        SelectResult::property("city"),
        SelectResult::property("type"),
    ])
    .from(source(&travel))
    .where_(Expression::property("type").equal_to("hotel"));
    let query = hotel_query.build()?;
    let mut decoded: BTreeMap<String, Value> = BTreeMap::new();
    let mut typed: BTreeMap<String, Hotel> = BTreeMap::new();
    for row in query.execute()? {
        let row = row?;
        assert_eq!(row.to_map().keys().collect::<Vec<_>>(), ["city", "id", "metaId", "name", "type"]);
        decoded.insert(row.get("metaId")?, serde_json::from_str(&row.to_json())?);
        typed.insert(row.get("metaId")?, row.deserialize()?);
    }
    assert_eq!(decoded.len(), 3);
    assert_eq!(decoded["hotel123"]["name"], "Hotel Ghia");
    assert_eq!(decoded["hotel789"]["city"], "Lyon");
    assert_eq!(
        typed["hotel789"],
        Hotel { id: "hotel789".into(), kind: "hotel".into(), name: "Auberge".into(), city: "Lyon".into() }
    );

    // The builder's JSON compiles to the same query.
    let same = travel.create_json_query(&hotel_query.to_json()?.to_string())?;
    assert_eq!(same.column_names(), query.column_names());
    let rows_of = |query: &doclite::Query| -> Result<Vec<Map<String, Value>>> {
        query.execute()?.map(|row| Ok(row?.to_map())).collect()
    };
    let expected = rows_of(&query)?;
    assert_eq!(expected.len(), 3);
    assert_eq!(rows_of(&same)?, expected);
    travel.finish()
}

/// The guide's Date/Time Functions (not in the Python port), on literal dates.
#[test]
fn date_time_functions() -> Result<()> {
    let travel = Travel::open("date_time")?;
    let query = QueryBuilder::select([
        SelectResult::expression(Function::string_to_millis(Expression::string("2024-01-02T03:04:05Z"))).as_("millis"),
        SelectResult::expression(Function::string_to_utc(Expression::string("2024-01-02T04:04:05+01:00"))).as_("utc"),
        SelectResult::expression(Function::millis_to_utc(Expression::int(1_704_164_645_000))).as_("fromMillis"),
        SelectResult::expression(Function::millis_to_string(Expression::int(0))).as_("local"),
    ])
    .from(source(&travel))
    .where_(Meta::id().equal_to("hotel123"))
    .build()?;
    let rows = query.execute()?.all()?;
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row.get::<i64>("millis")?, 1_704_164_645_000);
    assert_eq!(row.get::<String>("utc")?, "2024-01-02T03:04:05Z");
    assert_eq!(row.get::<String>("fromMillis")?, "2024-01-02T03:04:05Z");
    let local: String = row.get("local")?;
    assert!(local.starts_with("1970-01-01") || local.starts_with("1969-12-31"), "{local}");
    travel.finish()
}
