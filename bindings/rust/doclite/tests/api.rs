//! The safe API: documents through serde, collections, queries in the three front
//! ends, rows, transactions, indexes, and the errors that misuse the type system
//! cannot stop (bad input, closed databases) gives.

mod common;

use std::time::{Duration, SystemTime};

use common::TestDatabase;
use doclite::{
    Blob, ConcurrencyControl, DataSource, Document, ErrorKind, Expression, FullTextIndexConfiguration, MaintenanceType,
    Ordering, QueryBuilder, SelectResult, ValueIndexConfiguration,
};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Hotel {
    name: String,
    city: String,
    rooms: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rating: Option<f64>,
}

fn hotel(name: &str, city: &str, rooms: u32) -> Hotel {
    Hotel { name: name.into(), city: city.into(), rooms, rating: None }
}

#[test]
fn documents_go_in_and_out_through_serde() -> doclite::Result<()> {
    let db = TestDatabase::new("serde");
    let hotels = db.create_collection("hotels", Some("inventory"))?;
    assert_eq!(hotels.full_name(), "inventory.hotels");

    let saved = hotels.put("h1", &hotel("Grand", "Paris", 120))?;
    assert_eq!((saved.id(), saved.sequence()), ("h1", 1));
    let first_revision = saved.revision_id().expect("a saved document has a revision");
    assert_eq!(hotels.get::<Hotel>("h1")?, Some(hotel("Grand", "Paris", 120)));
    assert_eq!(hotels.get::<Hotel>("nobody")?, None);

    let mut document = hotels.document("h1")?.expect("saved above");
    let mut changed: Hotel = document.deserialize()?;
    changed.rating = Some(4.5);
    document.set_properties(&changed)?;
    hotels.save(&mut document)?;
    assert_ne!(document.revision_id(), Some(first_revision));
    assert_eq!(document.properties()["rating"], json!(4.5));
    assert_eq!(hotels.count()?, 1);

    let mut automatic = Document::from_value(None, &json!({"name": "Nameless"}))?;
    hotels.save(&mut automatic)?;
    assert!(!automatic.id().is_empty() && automatic.id() != "h1");
    assert_eq!(hotels.count()?, 2);

    // A document that does not fit the type is an error naming it.
    let error = hotels.get::<Hotel>(automatic.id()).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Conversion);
    assert!(error.message().contains("missing field `city`"), "{error}");
    Ok(())
}

#[test]
fn bad_documents_are_errors_and_change_nothing() -> doclite::Result<()> {
    let db = TestDatabase::new("bad-documents");
    let hotels = db.default_collection()?;
    let mut document = Document::with_id("h1")?;
    document.set_json(r#"{"name": "Grand"}"#)?;

    assert_eq!(document.set_json("{not json").unwrap_err().kind(), ErrorKind::InvalidJson);
    assert_eq!(document.set_json("[1, 2]").unwrap_err().kind(), ErrorKind::InvalidJson);
    assert_eq!(document.set_properties(&42).unwrap_err().kind(), ErrorKind::InvalidJson);
    assert_eq!(document.to_json(), r#"{"name":"Grand"}"#);

    assert_eq!(Document::with_id("a\0b").unwrap_err().kind(), ErrorKind::InvalidParameter);
    let mut reserved = Document::with_id("_reserved")?;
    assert_eq!(hotels.save(&mut reserved).unwrap_err().kind(), ErrorKind::BadDocumentId);

    // One bad body in a batch: nothing of the call is saved, and the message says which.
    let error = hotels.save_many([("a", json!({"n": 1})), ("b", json!([2])), ("c", json!({"n": 3}))]).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidJson);
    assert!(error.message().contains("document 2"), "{error}");
    assert_eq!(hotels.save_many([("x\ny", json!({}))]).unwrap_err().kind(), ErrorKind::BadDocumentId);
    assert_eq!(hotels.count()?, 0);
    Ok(())
}

#[test]
fn deleting_purging_and_expiring() -> doclite::Result<()> {
    let db = TestDatabase::new("lifecycle");
    let hotels = db.default_collection()?;
    hotels.save_many((1..=4).map(|i| (format!("h{i}"), hotel("H", "X", i))))?;

    assert!(hotels.delete("h1")?);
    assert!(!hotels.delete("h1")?);
    assert!(hotels.purge("h2")?);
    assert!(!hotels.purge("h2")?);
    assert_eq!(hotels.count()?, 2);

    assert_eq!(hotels.expiration("h3")?, None);
    let later = SystemTime::now() + Duration::from_secs(3600);
    hotels.set_expiration("h3", Some(later))?;
    let read = hotels.expiration("h3")?.expect("set above");
    assert!(read.duration_since(later).unwrap_or_else(|e| e.duration()) < Duration::from_millis(1));
    hotels.set_expiration("h3", None)?;
    assert_eq!(hotels.expiration("h3")?, None);
    assert_eq!(hotels.set_expiration("nobody", Some(later)).unwrap_err().kind(), ErrorKind::NotFound);
    let beyond = std::time::UNIX_EPOCH + Duration::from_secs(1 << 60);   // more milliseconds than an i64 holds
    assert_eq!(hotels.set_expiration("h3", Some(beyond)).unwrap_err().kind(), ErrorKind::InvalidParameter);
    Ok(())
}

#[test]
fn put_saves_a_new_revision_without_reading_the_old_one() -> doclite::Result<()> {
    let db = TestDatabase::new("put");
    let hotels = db.default_collection()?;
    let first = hotels.put("h1", &hotel("Grand", "Paris", 1))?;
    let first_revision = first.revision_id().unwrap();
    assert!(first_revision.starts_with("1-"), "{first_revision}");
    let later = SystemTime::now() + Duration::from_secs(3600);
    hotels.set_expiration("h1", Some(later))?;

    // Over a stored revision: the next generation, its properties replaced, its expiration kept.
    let second = hotels.put("h1", &hotel("Grand", "Paris", 2))?;
    let second_revision = second.revision_id().unwrap();
    assert!(second_revision.starts_with("2-"), "{second_revision}");
    assert!(second.sequence() > first.sequence());
    assert_eq!(hotels.get::<Hotel>("h1")?.unwrap().rooms, 2);
    assert!(hotels.expiration("h1")?.is_some());
    assert_eq!(hotels.count()?, 1);

    // A document read before the put is now in conflict with it.
    let mut stale = first;
    stale.set_properties(&hotel("Grand", "Paris", 9))?;
    let error = hotels.save_with_concurrency_control(&mut stale, ConcurrencyControl::FailOnConflict).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Conflict);
    assert_eq!(hotels.get::<Hotel>("h1")?.unwrap().rooms, 2);

    // Over a tombstone: the document lives again.
    assert!(hotels.delete("h1")?);
    assert_eq!(hotels.get::<Hotel>("h1")?, None);
    let revived = hotels.put("h1", &hotel("Grand", "Paris", 3))?;
    assert!(revived.revision_id().unwrap().starts_with("4-"), "{:?}", revived.revision_id());
    assert_eq!(hotels.get::<Hotel>("h1")?.unwrap().rooms, 3);
    assert_eq!(hotels.count()?, 1);
    Ok(())
}

#[test]
fn a_conflicting_save_fails_when_asked_to() -> doclite::Result<()> {
    let db = TestDatabase::new("conflict");
    let hotels = db.default_collection()?;
    hotels.put("h1", &hotel("Grand", "Paris", 1))?;
    let mut mine = hotels.document("h1")?.unwrap();
    let mut theirs = hotels.document("h1")?.unwrap();
    theirs.set_properties(&hotel("Grand", "Paris", 2))?;
    hotels.save(&mut theirs)?;

    mine.set_properties(&hotel("Grand", "Paris", 3))?;
    let error = hotels.save_with_concurrency_control(&mut mine, ConcurrencyControl::FailOnConflict).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Conflict);
    assert_eq!(hotels.get::<Hotel>("h1")?.unwrap().rooms, 2);
    hotels.save(&mut mine)?; // last write wins
    assert_eq!(hotels.get::<Hotel>("h1")?.unwrap().rooms, 3);
    Ok(())
}

#[test]
fn collections_and_scopes() -> doclite::Result<()> {
    let db = TestDatabase::new("collections");
    db.create_collection("hotels", Some("inventory"))?;
    db.create_collection("cities", Some("inventory"))?;
    assert_eq!(db.collection_names(Some("inventory"))?, ["cities", "hotels"]);
    assert_eq!(db.scope_names()?, ["_default", "inventory"]);
    assert!(db.collection("nothing", None)?.is_none());
    db.delete_collection("cities", Some("inventory"))?;
    assert!(db.collection("cities", Some("inventory"))?.is_none());
    assert_eq!(db.create_collection("bad name!", None).unwrap_err().kind(), ErrorKind::InvalidParameter);
    assert!(db.path()?.ends_with("collections.doclite"));
    assert_eq!(db.name(), "collections");
    Ok(())
}

#[test]
fn scopes_hold_collections() -> doclite::Result<()> {
    let db = TestDatabase::new("scopes");
    let hotels = db.create_collection("hotels", Some("inventory"))?;
    db.create_collection("cities", Some("inventory"))?;
    let default = db.default_scope()?;
    assert_eq!(default.name(), "_default");
    assert_eq!(default.collection_names()?, ["_default"]);
    assert_eq!(default.collection("_default")?.expect("always there").full_name(), "_default._default");

    let inventory = db.scope("inventory")?.expect("it holds collections");
    assert_eq!(inventory.name(), "inventory");
    assert_eq!(inventory.collection_names()?, ["cities", "hotels"]);
    let found = inventory.collection("hotels")?.expect("created above");
    found.put("h1", &hotel("Grand", "Paris", 120))?;
    assert_eq!(hotels.get::<Hotel>("h1")?.expect("the same collection").name, "Grand");
    assert!(inventory.collection("cars")?.is_none());
    let names: Vec<String> = inventory.collections()?.iter().map(|c| c.full_name()).collect();
    assert_eq!(names, ["inventory.cities", "inventory.hotels"]);
    let scopes: Vec<String> = db.scopes()?.iter().map(|scope| scope.name().to_owned()).collect();
    assert_eq!(scopes, ["_default", "inventory"]);

    // A collection's scope, from either way of reaching the collection.
    assert_eq!(hotels.scope()?.name(), "inventory");
    assert_eq!(db.default_collection()?.scope()?.name(), "_default");
    assert_eq!(found.scope()?.database().name(), "scopes");
    assert_eq!(format!("{inventory:?}"), r#"Scope { name: "inventory" }"#);

    // A scope exists while it holds a collection; the Scope value stays usable.
    assert!(db.scope("nowhere")?.is_none());
    db.delete_collection("cities", Some("inventory"))?;
    db.delete_collection("hotels", Some("inventory"))?;
    assert!(db.scope("inventory")?.is_none());
    assert!(inventory.collection_names()?.is_empty());
    assert!(inventory.collection("hotels")?.is_none());
    assert_eq!(db.scope("in\0ventory").unwrap_err().kind(), ErrorKind::InvalidParameter);
    assert_eq!(default.collection("a\0b").unwrap_err().kind(), ErrorKind::InvalidParameter);

    // A scope keeps its database open for its collections: the database value may go.
    let scope = { let db = db.db.clone(); db.default_scope()? };
    scope.collection("_default")?.expect("there").put("kept", &json!({}))?;
    Ok(())
}

#[test]
fn a_query_gives_its_parameters_back() -> doclite::Result<()> {
    let db = TestDatabase::new("read-parameters");
    db.default_collection()?.put("h1", &hotel("Grand", "Paris", 120))?;
    let mut query = db.create_query("SELECT name FROM _ WHERE city = $city AND rooms >= $min AND $tags IS NOT NULL")?;
    assert_eq!(query.parameters()?, None);
    let parameters = json!({"city": "Paris", "min": 100, "tags": ["a", {"b": 1.5, "c": null, "d": true}]});
    query.set_parameters(&parameters)?;
    assert_eq!(query.parameters()?.map(serde_json::Value::Object), Some(parameters.clone()));
    // (Reading them changes nothing: the query runs with them.)
    assert_eq!(query.execute()?.count(), 1);
    assert_eq!(query.parameters()?.map(serde_json::Value::Object), Some(parameters));
    // Wide and exact numbers come back as they went in.
    query.set_parameters(&json!({"city": "x", "min": i64::MIN, "tags": [f64::MAX, 0.1, u32::MAX]}))?;
    let back = query.parameters()?.expect("set");
    assert_eq!(back["min"].as_i64(), Some(i64::MIN));
    assert_eq!(back["tags"], json!([f64::MAX, 0.1, u32::MAX]));
    // Empty, then cleared.
    query.set_parameters(&json!({}))?;
    assert_eq!(query.parameters()?, Some(serde_json::Map::new()));
    query.clear_parameters()?;
    assert_eq!(query.parameters()?, None);
    // A failed set keeps the parameters before it.
    query.set_parameters(&json!({"city": "Lyon"}))?;
    assert!(query.set_parameters(&std::collections::HashMap::from([("min", f64::NAN)])).is_err());
    assert_eq!(query.parameters()?.expect("kept")["city"], "Lyon");
    // A built query's too.
    let mut built = QueryBuilder::select([SelectResult::property("name")])
        .from(DataSource::collection(&db.default_collection()?))
        .where_(Expression::property("city").equal_to(Expression::parameter("city")))
        .build()?;
    built.set_parameters(&json!({"city": "Paris"}))?;
    assert_eq!(built.parameters()?.expect("set")["city"], "Paris");
    Ok(())
}

#[test]
fn date_literals_are_iso_8601_strings_with_milliseconds() -> doclite::Result<()> {
    let cases = [
        (0, "1970-01-01T00:00:00.000Z"),
        (1, "1970-01-01T00:00:00.001Z"),
        (999, "1970-01-01T00:00:00.999Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-1000, "1969-12-31T23:59:59.000Z"),
        (-1001, "1969-12-31T23:59:58.999Z"),
        (1_704_897_074_000, "2024-01-10T14:31:14.000Z"),
        (1_704_897_074_123, "2024-01-10T14:31:14.123Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (951_868_799_999, "2000-02-29T23:59:59.999Z"),
        (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),   // (2100 is not a leap year)
        (-2_208_988_800_000, "1900-01-01T00:00:00.000Z"),
        (-12_219_292_800_000, "1582-10-15T00:00:00.000Z"),
        (-12_219_292_800_001, "1582-10-14T23:59:59.999Z"),   // (proleptic: no Julian days)
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ];
    for (millis, text) in cases {
        assert_eq!(Expression::date(millis).to_json()?, json!(text), "{millis}");
    }
    for millis in [-62_167_219_200_001, 253_402_300_800_000, i64::MIN, i64::MAX] {
        let error = Expression::date(millis).to_json().unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidQuery, "{millis}");
        assert!(error.message().contains("outside the years 0000 to 9999"), "{error}");
    }
    // Every day of four centuries (a whole leap cycle, 1600-01-01 to 1999-12-31): each string
    // names the day after the one before.
    let first_day = -135_140;   // 1600-01-01
    let mut previous: Option<(i64, usize, u32)> = None;
    for day in first_day..first_day + 146_097 {
        let text = Expression::date(day * 86_400_000).to_json()?;
        let text = text.as_str().expect("a string");
        assert!(text.ends_with("T00:00:00.000Z"), "{text}");
        let date = (text[..4].parse().unwrap(), text[5..7].parse().unwrap(), text[8..10].parse().unwrap());
        let expected = match previous {
            None => (1600, 1, 1),
            Some((y, m, d)) => {
                let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
                let length = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
                if d < length { (y, m, d + 1) } else if m < 12 { (y, m + 1, 1) } else { (y + 1, 1, 1) }
            }
        };
        assert_eq!(date, expected, "{text}");
        previous = Some(date);
    }
    assert_eq!(previous, Some((1999, 12, 31)));
    // Times of day, to the millisecond.
    for time in (0..86_400_000).step_by(21_601) {
        let text = Expression::date(time).to_json()?;
        let clock = &text.as_str().expect("a string")[11..23];
        let part = |range: std::ops::Range<usize>| clock[range].parse::<i64>().unwrap();
        assert_eq!(((part(0..2) * 60 + part(3..5)) * 60 + part(6..8)) * 1000 + part(9..12), time, "{text}");
    }
    Ok(())
}

/// The string DocLite's own `CBLQueryExpression_Date` writes for `millis`, read from the
/// JSON of a query selecting it (`["CONCAT()", date, ""]`); `None` when it fails to build.
fn c_date(millis: i64) -> Option<String> {
    use doclite_sys as sys;
    let lib = sys::library().expect("the library loads");
    let directory = std::env::temp_dir().join(format!("doclite-rust-{}-c-date", std::process::id()));
    let directory = std::ffi::CString::new(directory.to_str().expect("UTF-8")).unwrap();
    let config = sys::CBLDatabaseConfiguration { directory: directory.as_ptr(), fullSync: false };
    let mut error = sys::CBLError { domain: 0, code: 0, internal_info: 0 };
    // Safety: the handles are made, used and released here; the JSON is owned and freed.
    unsafe {
        let db = lib.CBLDatabase_Open(b"cdate\0".as_ptr().cast(), &config, &mut error);
        assert!(!db.is_null(), "the database opens");
        let collection = lib.CBLDatabase_DefaultCollection(db, &mut error);
        let builder = lib.CBLQueryBuilder_New();
        lib.CBLQueryBuilder_Select(builder, lib.CBLQuerySelectResult_Expression(lib.CBLQueryExpression_Date(millis)));
        lib.CBLQueryBuilder_From(builder, lib.CBLQueryDataSource_Collection(collection));
        let query = lib.CBLQueryBuilder_Build(builder, &mut error);
        let text = (!query.is_null()).then(|| {
            let json = lib.CBLQuery_CopyJSON(query);
            let value: serde_json::Value = serde_json::from_str(std::ffi::CStr::from_ptr(json).to_str().unwrap()).unwrap();
            lib.CBL_FreeString(json);
            lib.CBL_Release(query as *const _);
            value["WHAT"][0][1].as_str().expect("the date").to_owned()
        });
        lib.CBL_Release(builder as *const _);
        lib.CBL_Release(collection as *const _);
        assert!(lib.CBLDatabase_Delete(db, &mut error));
        lib.CBL_Release(db as *const _);
        let _ = std::fs::remove_dir(std::path::Path::new(directory.to_str().unwrap()));
        text
    }
}

#[test]
fn date_literals_are_the_c_functions_and_read_back_by_the_date_functions() -> doclite::Result<()> {
    // Whole seconds from 1583 (DocLite's CBLQueryExpression_Date counts days before the
    // Gregorian calendar's start as Julian ones, and writes some milliseconds one less:
    // 999 ms as .998, through a double) to 9999.
    let seconds = [0, 1, -1, 59, 86_399, 1_704_897_074, 951_782_400, -2_208_988_800, -12_212_553_600, 253_402_300_799];
    for second in seconds {
        let millis = second * 1000;
        assert_eq!(Some(Expression::date(millis).to_json()?.as_str().expect("a string").to_owned()), c_date(millis), "{millis}");
    }
    // Both refuse the years beyond 9999.
    assert_eq!(c_date(253_402_300_800_000), None);
    assert!(Expression::date(253_402_300_800_000).to_json().is_err());

    // The query's date functions read each literal back as its milliseconds.
    let db = TestDatabase::new("date-literals");
    db.default_collection()?.put("one", &json!({}))?;
    let moments = [0, 999, -1, 1_704_897_074_123, 951_782_400_000, -2_208_988_800_001, 4_107_542_399_999, 253_402_300_799_999];
    let query = QueryBuilder::select(moments.iter().enumerate().map(|(index, &millis)| {
        SelectResult::expression(doclite::Function::string_to_millis(Expression::date(millis))).as_(&format!("m{index}"))
    }))
    .from(DataSource::collection(&db.default_collection()?))
    .build()?;
    let row = query.execute()?.next().expect("a row")?;
    let read: Vec<i64> = row.deserialize()?;
    assert_eq!(read, moments);
    // Compared with stored dates as strings, they sort as the dates do.
    let events = db.create_collection("events", None)?;
    for (id, millis) in [("early", 1_000_000_000_000_i64), ("late", 1_800_000_000_000)] {
        events.put(id, &json!({"at": Expression::date(millis).to_json()?}))?;
    }
    let after = QueryBuilder::select([SelectResult::expression(doclite::Meta::id())])
        .from(DataSource::collection(&events))
        .where_(Expression::property("at").greater_than(Expression::date(1_704_897_074_000)))
        .build()?;
    let ids: Vec<String> = after.execute()?.map(|row| row?.get(0)).collect::<doclite::Result<_>>()?;
    assert_eq!(ids, ["late"]);
    // A date beyond the years a date string holds is a mistake reported by build().
    let error = QueryBuilder::select([SelectResult::expression(Expression::date(i64::MAX)).as_("d")])
        .from(DataSource::collection(&events))
        .build()
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidQuery);
    Ok(())
}

#[test]
fn string_literals_are_literals_in_results_groupings_and_orderings() -> doclite::Result<()> {
    // LiteCore reads a bare string there as a property path: the builder writes the literal
    // as DocLite does, ["CONCAT()", text, ""].
    let db = TestDatabase::new("string-literals");
    let hotels = db.default_collection()?;
    hotels.save_many([("h1", json!({"name": "name-property", "city": "Paris"})), ("h2", json!({"name": "other", "city": "Lyon"}))])?;
    let query = QueryBuilder::select([
        SelectResult::expression(Expression::string("name")),
        SelectResult::expression(Expression::date(0)),
        SelectResult::expression(Expression::string("city")).as_("aliased"),
        SelectResult::expression(Expression::property("city")),
    ])
    .from(DataSource::collection(&hotels))
    .group_by([Expression::string("name"), Expression::property("city")])
    .order_by([Ordering::expression(Expression::string("name")).descending(), Ordering::property("city")])
    .build()?;
    let rows: Vec<(String, String, String, String)> = query.execute()?.rows().collect::<doclite::Result<_>>()?;
    assert_eq!(rows, [
        ("name".to_owned(), "1970-01-01T00:00:00.000Z".to_owned(), "city".to_owned(), "Lyon".to_owned()),
        ("name".to_owned(), "1970-01-01T00:00:00.000Z".to_owned(), "city".to_owned(), "Paris".to_owned()),
    ]);
    let json = QueryBuilder::select([SelectResult::expression(Expression::string("name"))])
        .from(DataSource::collection(&hotels))
        .to_json()?;
    assert_eq!(json["WHAT"], json!([["CONCAT()", "name", ""]]));
    Ok(())
}

#[test]
fn the_distance_functions_of_the_builders_table_run() -> doclite::Result<()> {
    // EUCLIDEAN_DISTANCE and COSINE_DISTANCE came to every surface from codegen/query-functions.tsv.
    let db = TestDatabase::new("distances");
    let points = db.default_collection()?;
    points.save_many([("far", json!({"v": [10, 10]})), ("near", json!({"v": [1, 1]})), ("axis", json!({"v": [0, 3]}))])?;
    let distance = doclite::Function::euclidean_distance(Expression::property("v"), Expression::value(&[0, 0]));
    let query = QueryBuilder::select([SelectResult::expression(doclite::Meta::id()), SelectResult::expression(distance.clone())])
        .from(DataSource::collection(&points))
        .order_by([Ordering::expression(distance)])
        .build()?;
    let rows: Vec<(String, f64)> = query.execute()?.rows().collect::<doclite::Result<_>>()?;
    assert_eq!(rows, [("near".to_owned(), 2f64.sqrt()), ("axis".to_owned(), 3.0), ("far".to_owned(), 200f64.sqrt())]);
    let cosine = doclite::Function::cosine_distance(Expression::property("v"), Expression::value(&[1, 1]));
    let query = QueryBuilder::select([SelectResult::expression(doclite::Meta::id())])
        .from(DataSource::collection(&points))
        .order_by([Ordering::expression(cosine), Ordering::expression(doclite::Meta::id())])
        .build()?;
    let ids: Vec<(String,)> = query.execute()?.rows().collect::<doclite::Result<_>>()?;
    assert_eq!(ids, [("far".to_owned(),), ("near".to_owned(),), ("axis".to_owned(),)]);
    Ok(())
}

#[test]
fn the_three_front_ends_give_the_same_rows() -> doclite::Result<()> {
    let db = TestDatabase::new("front-ends");
    let hotels = db.create_collection("hotels", None)?;
    hotels.save_many([("h1", hotel("Grand", "Paris", 120)), ("h2", hotel("Inn", "Lyon", 8)), ("h3", hotel("Ritz", "Paris", 90))])?;

    let sqlpp = db.create_query("SELECT name, rooms FROM hotels WHERE city = $city ORDER BY rooms")?;
    let json = db.create_json_query(
        r#"{"WHAT": [[".name"], [".rooms"]], "FROM": [{"COLLECTION": "_default.hotels"}],
            "WHERE": ["=", [".city"], ["$city"]], "ORDER_BY": [[".rooms"]]}"#,
    )?;
    let built = QueryBuilder::select([SelectResult::property("name"), SelectResult::property("rooms")])
        .from(DataSource::collection(&hotels))
        .where_(Expression::property("city").equal_to(Expression::parameter("city")))
        .order_by([doclite::Ordering::property("rooms")])
        .build()?;
    for mut query in [sqlpp, json, built] {
        assert_eq!(query.column_names(), ["name", "rooms"]);
        query.set_parameters(&json!({"city": "Paris"}))?;
        let rows: Vec<(String, u32)> =
            query.execute()?.map(|row| row.and_then(|row| row.deserialize())).collect::<doclite::Result<_>>()?;
        assert_eq!(rows, [("Ritz".to_owned(), 90), ("Grand".to_owned(), 120)].map(|(n, r)| (n, r)));
        let again = db.create_query(&query.sqlpp()?)?;
        assert_eq!(again.json()?, db.create_query(&query.sqlpp()?)?.json()?);
        assert!(query.explain()?.contains("SELECT"), "{}", query.explain()?);
    }
    Ok(())
}

#[derive(Deserialize, Debug, PartialEq)]
struct NameAndRooms {
    name: String,
    rooms: Option<u32>,
}

#[test]
fn rows_read_by_index_and_name_with_missing_apart_from_null() -> doclite::Result<()> {
    let db = TestDatabase::new("rows");
    let hotels = db.default_collection()?;
    hotels.save_many([("h1", json!({"name": "Grand", "rooms": 120, "tags": ["spa"]})), ("h2", json!({"name": "Inn", "rooms": null}))])?;
    let query = db.create_query("SELECT name, rooms, tags, rooms * 2 FROM _ ORDER BY name")?;
    assert_eq!(query.column_names(), ["name", "rooms", "tags", "$1"]);
    let rows = query.execute()?.all()?;
    assert_eq!(rows.len(), 2);

    let grand = &rows[0];
    assert_eq!(grand.get::<String>("name")?, "Grand");
    assert_eq!(grand.get::<i64>(1)?, 120);
    assert_eq!(grand.get::<Vec<String>>("tags")?, ["spa"]);
    assert_eq!(grand.get::<i64>("$1")?, 240);
    assert_eq!(grand.to_map()["tags"], json!(["spa"]));

    let inn = &rows[1];
    assert!(!inn.is_missing("rooms")? && inn.get_ref("rooms")? == Some(&serde_json::Value::Null));
    assert!(inn.is_missing("tags")? && inn.get_ref("tags")?.is_none());
    assert_eq!(inn.missing_mask(), 0b0100); // rooms * 2 is null: null, not MISSING, in arithmetic
    assert_eq!(inn.get::<Option<Vec<String>>>("tags")?, None);
    let error = inn.get::<Vec<String>>("tags").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Conversion);
    assert!(error.message().contains("\"tags\" is MISSING"), "{error}");
    assert_eq!(inn.get::<String>(7).unwrap_err().kind(), ErrorKind::InvalidColumn);
    assert_eq!(inn.get::<String>("nope").unwrap_err().kind(), ErrorKind::InvalidColumn);
    assert_eq!(inn.deserialize::<NameAndRooms>()?, NameAndRooms { name: "Inn".into(), rooms: None });
    assert!(!inn.to_map().contains_key("tags"));
    Ok(())
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)] // (read for its errors)
struct Rooms {
    name: String,
    rooms: u32,
}

#[test]
fn a_row_that_does_not_deserialize_is_named_with_its_column() -> doclite::Result<()> {
    let db = TestDatabase::new("row-errors");
    db.default_collection()?.save_many([
        ("h1", json!({"name": "Grand", "rooms": 120})),
        ("h2", json!({"name": "Inn", "rooms": 8})),
        ("h3", json!({"name": "Ritz", "rooms": "many"})),
        ("h4", json!({"name": "Shed"})),
    ])?;
    let query = db.create_query("SELECT name, rooms FROM _ ORDER BY META().id")?;
    let rows = query.execute()?.all()?;
    assert_eq!(rows.iter().map(doclite::Row::index).collect::<Vec<_>>(), [0, 1, 2, 3]);
    let message = |result: doclite::Result<Rooms>| result.unwrap_err().message().to_owned();
    assert_eq!(message(rows[2].deserialize()), r#"row 2: column "rooms": invalid type: string "many", expected u32"#);
    assert_eq!(message(rows[3].deserialize()), "row 3: missing field `rooms`");
    let tuple = rows[2].deserialize::<(String, u32)>().unwrap_err();
    assert_eq!(tuple.kind(), ErrorKind::Conversion);
    assert!(tuple.message().starts_with(r#"row 2: column "rooms": invalid type"#), "{tuple}");
    let error = rows[2].get::<u32>("rooms").unwrap_err();
    assert!(error.message().starts_with(r#"row 2: column "rooms" is not convertible: invalid type"#), "{error}");
    // The rows that fit read as before.
    let read: Vec<(String, u32)> = query.execute()?.take(2).map(|row| row?.deserialize()).collect::<doclite::Result<_>>()?;
    assert_eq!(read, [("Grand".to_owned(), 120), ("Inn".to_owned(), 8)]);
    Ok(())
}

/// Rows own their values and share the column titles: they outlive the query and its result set.
fn names_of(db: &doclite::Database) -> doclite::Result<Vec<doclite::Row>> {
    db.create_query("SELECT name FROM _ ORDER BY name")?.execute()?.all()
}

#[test]
fn rows_outlive_their_query() -> doclite::Result<()> {
    let db = TestDatabase::new("rows-outlive");
    db.default_collection()?.save_many([("a", json!({"name": "Inn"})), ("b", json!({"name": "Grand"}))])?;
    let rows = names_of(&db)?;
    assert_eq!(rows.iter().map(|row| row.get::<String>("name")).collect::<doclite::Result<Vec<_>>>()?, ["Grand", "Inn"]);
    Ok(())
}

#[test]
fn many_rows_arrive_in_order_across_blocks() -> doclite::Result<()> {
    let db = TestDatabase::new("blocks");
    let numbers = db.default_collection()?;
    numbers.save_many((0..2000).map(|i| (format!("n{i:05}"), json!({"i": i}))))?;
    let query = db.create_query("SELECT i FROM _ ORDER BY i")?;
    let read: Vec<i64> = query.execute()?.map(|row| row?.get(0)).collect::<doclite::Result<_>>()?;
    assert_eq!(read, (0..2000).collect::<Vec<i64>>());
    // A result set dropped half-read releases its rows.
    let mut rows = query.execute()?;
    assert_eq!(rows.nth(600).transpose()?.map(|row| row.get::<i64>(0)).transpose()?, Some(600));
    Ok(())
}

#[test]
fn query_mistakes_are_errors_with_their_place() -> doclite::Result<()> {
    let db = TestDatabase::new("query-errors");
    let error = db.create_query("SELECT name FROM _ WHERE").unwrap_err();
    assert_eq!((error.kind(), error.position()), (ErrorKind::InvalidQuery, Some(24)));
    assert!(error.message().contains("SQL++ syntax error"), "{error}");
    let error = db.create_query("SELECT name FROM nowhere").unwrap_err();
    assert_eq!((error.kind(), error.position()), (ErrorKind::InvalidQuery, None));
    assert_eq!(db.create_json_query(r#"{"WHAT": [["NOSUCH()"]]}"#).unwrap_err().kind(), ErrorKind::InvalidQuery);

    let mut query = db.create_query("SELECT name FROM _ WHERE rooms > $min")?;
    let error = query.set_parameters(&json!(["not", "named"])).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidQueryParameter);
    let unused = query.set_parameters(&json!({"max": 1})).and_then(|()| query.execute().map(drop));
    assert_eq!(unused.unwrap_err().kind(), ErrorKind::InvalidQueryParameter);

    // Builder mistakes surface when the query is built, as InvalidQuery.
    let hotels = db.default_collection()?;
    let error = QueryBuilder::select([SelectResult::expression(Expression::int(1).from("h"))])
        .from(DataSource::collection(&hotels))
        .build()
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidQuery);
    assert!(error.message().contains("from(\"h\")"), "{error}");
    let error = QueryBuilder::select([SelectResult::expression(Expression::double(f64::NAN))])
        .from(DataSource::collection(&hotels))
        .build()
        .unwrap_err();
    assert!(error.message().contains("not a finite number"), "{error}");
    assert_eq!(Expression::negated(Expression::property("a").equal_to(1)).to_json()?, json!(["NOT", ["=", [".a"], 1]]));
    Ok(())
}

#[test]
fn a_closed_database_fails_every_call_with_not_open() -> doclite::Result<()> {
    let db = TestDatabase::new("closed");
    let hotels = db.default_collection()?;
    let other = db.create_collection("others", Some("inventory"))?;
    hotels.put("h1", &hotel("Grand", "Paris", 1))?;
    let document = hotels.document("h1")?.expect("saved above");
    let mut query = db.create_query("SELECT name FROM _")?;
    let mut rows = query.execute()?;
    let blob = Blob::new(None, b"content")?;
    let inventory = db.scope("inventory")?.expect("it holds a collection");
    db.close()?;
    let none = |result: doclite::Result<()>| result.unwrap_err();
    let errors: Vec<(&str, doclite::Error)> = vec![
        ("count", hotels.count().unwrap_err()),
        ("count of an empty collection", other.count().unwrap_err()),
        ("document", hotels.document("h1").unwrap_err()),
        ("get", none(hotels.get::<Hotel>("h1").map(drop))),
        ("put", hotels.put("h2", &hotel("Inn", "Lyon", 2)).unwrap_err()),
        ("save", none(hotels.save(&mut Document::with_id("h3")?))),
        ("save_many", none(hotels.save_many([("h4", hotel("Inn", "Lyon", 2))]))),
        ("delete", none(hotels.delete("h1").map(drop))),
        ("delete_document", none(hotels.delete_document(&document, ConcurrencyControl::LastWriteWins))),
        ("purge", none(hotels.purge("h1").map(drop))),
        ("expiration", none(hotels.expiration("h1").map(drop))),
        ("set_expiration", none(hotels.set_expiration("h1", None))),
        ("create_value_index", none(hotels.create_value_index("i", &ValueIndexConfiguration::new(["name"])))),
        ("delete_index", none(hotels.delete_index("i"))),
        ("index_names", none(hotels.index_names().map(drop))),
        ("add_change_listener", none(hotels.add_change_listener(|_| {}).map(drop))),
        ("add_document_change_listener", none(hotels.add_document_change_listener("h1", |_, _| {}).map(drop))),
        ("execute", none(query.execute().map(drop))),
        ("a result set's rows", rows.next().expect("an error, not the end").unwrap_err()),
        ("explain", none(query.explain().map(drop))),
        ("add a query listener", none(query.add_change_listener(|_| {}).map(drop))),
        ("create_query", none(db.create_query("SELECT 1 FROM _").map(drop))),
        ("create_json_query", none(db.create_json_query(r#"{"WHAT": [1]}"#).map(drop))),
        ("transaction", none(db.transaction().map(drop))),
        ("in_batch", none(db.in_batch(|| Ok::<_, doclite::Error>(())))),
        ("path", none(db.path().map(drop))),
        ("default_collection", none(db.default_collection().map(drop))),
        ("collection", none(db.collection("others", Some("inventory")).map(drop))),
        ("create_collection", none(db.create_collection("more", None).map(drop))),
        ("delete_collection", none(db.delete_collection("others", Some("inventory")))),
        ("collection_names", none(db.collection_names(None).map(drop))),
        ("scope_names", none(db.scope_names().map(drop))),
        ("default_scope", none(db.default_scope().map(drop))),
        ("scope", none(db.scope("inventory").map(drop))),
        ("scopes", none(db.scopes().map(drop))),
        ("a scope's collection_names", none(inventory.collection_names().map(drop))),
        ("a scope's collection", none(inventory.collection("others").map(drop))),
        ("a scope's collections", none(inventory.collections().map(drop))),
        ("perform_maintenance", none(db.perform_maintenance(MaintenanceType::Compact))),
        ("save_blob", none(db.save_blob(&blob))),
        ("get_blob", none(db.get_blob(&blob.properties()).map(drop))),
        ("Blob::from_reader", none(Blob::from_reader(&db, None, &b"content"[..]).map(drop))),
    ];
    for (call, error) in errors {
        assert_eq!(error.kind(), ErrorKind::NotOpen, "{call}: {error}");
    }
    query.set_parameters(&json!({}))?; // (kept for a run, which then fails as above)
    assert_eq!(query.parameters()?, Some(serde_json::Map::new()));
    // What names the database's parts still answers.
    assert_eq!((inventory.name(), other.scope()?.name()), ("inventory", "inventory"));
    Ok(())
}

#[test]
fn transactions_commit_or_roll_back() -> doclite::Result<()> {
    let db = TestDatabase::new("transactions");
    let hotels = db.default_collection()?;

    let transaction = db.transaction()?;
    hotels.put("kept", &hotel("A", "X", 1))?;
    transaction.commit()?;
    let transaction = db.transaction()?;
    hotels.put("dropped", &hotel("B", "X", 2))?;
    drop(transaction);
    let transaction = db.transaction()?;
    hotels.put("rolled-back", &hotel("C", "X", 3))?;
    transaction.rollback()?;

    let failed: Result<(), doclite::Error> = db.in_batch(|| {
        hotels.put("in-failed-batch", &hotel("D", "X", 4))?;
        Err(doclite::Error::from(serde_json::from_str::<Hotel>("{").unwrap_err()))
    });
    assert_eq!(failed.unwrap_err().kind(), ErrorKind::Conversion);
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _: doclite::Result<()> = db.in_batch(|| {
            hotels.put("in-panicked-batch", &hotel("E", "X", 5))?;
            panic!("a panic inside a batch");
        });
    }));
    assert!(panicked.is_err());
    let count = db.in_batch(|| {
        hotels.put("in-batch", &hotel("F", "X", 6))?;
        hotels.count()
    })?;
    assert_eq!(count, 2);

    let ids: Vec<String> =
        db.create_query("SELECT META().id FROM _ ORDER BY META().id")?.execute()?.map(|r| r?.get(0)).collect::<doclite::Result<_>>()?;
    assert_eq!(ids, ["in-batch", "kept"]);
    Ok(())
}

#[test]
fn a_transaction_belongs_to_its_thread() -> doclite::Result<()> {
    let db = TestDatabase::new("transaction-thread");
    let hotels = db.default_collection()?;
    let transaction = db.transaction()?;
    hotels.put("mine", &hotel("A", "X", 1))?;
    // Another thread waits for the transaction, then sees only what was committed.
    let other = std::thread::scope(|scope| {
        let (writing, write) = std::sync::mpsc::channel();
        let waiting = scope.spawn(move || {
            writing.send(()).unwrap();
            hotels.put("theirs", &hotel("B", "X", 2)).and_then(|_| hotels.count())
        });
        write.recv().unwrap();
        transaction.commit().map(|()| waiting.join().unwrap())
    })?;
    assert_eq!(other?, 2);
    Ok(())
}

#[test]
fn indexes_are_created_listed_used_and_deleted() -> doclite::Result<()> {
    let db = TestDatabase::new("indexes");
    let hotels = db.default_collection()?;
    hotels.save_many([
        ("h1", json!({"name": "Grand", "city": "Paris", "description": "a quiet hotel with a pool"})),
        ("h2", json!({"name": "Inn", "city": "Lyon", "description": "rooms near the station"})),
    ])?;
    hotels.create_value_index("byCity", &ValueIndexConfiguration::new(["city"]))?;
    hotels.create_value_index("byName", &ValueIndexConfiguration::expressions([doclite::Function::lower(Expression::property("name"))]))?;
    hotels.create_full_text_index("byDescription", &FullTextIndexConfiguration::new(["description"]).language("en"))?;
    assert_eq!(hotels.index_names()?, ["byCity", "byDescription", "byName"]);

    let by_city = db.create_query("SELECT name FROM _ WHERE city = 'Lyon'")?;
    assert!(by_city.explain()?.contains("USING INDEX"), "{}", by_city.explain()?);
    let search = db.create_query("SELECT name FROM _ WHERE MATCH(byDescription, 'pools') ORDER BY RANK(byDescription)")?;
    let names: Vec<String> = search.execute()?.map(|row| row?.get(0)).collect::<doclite::Result<_>>()?;
    assert_eq!(names, ["Grand"]);

    let error = hotels.create_value_index("bad", &ValueIndexConfiguration::new(["name +"])).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidQuery);
    hotels.delete_index("byCity")?;
    assert_eq!(hotels.index_names()?, ["byDescription", "byName"]);
    db.perform_maintenance(MaintenanceType::Reindex)?;
    db.perform_maintenance(MaintenanceType::IntegrityCheck)?;
    Ok(())
}

#[test]
fn databases_are_found_and_deleted_by_name() -> doclite::Result<()> {
    let db = TestDatabase::new("named");
    let directory = db.directory().to_path_buf();
    assert!(doclite::Database::exists("named", Some(&directory))?);
    db.close()?;
    assert!(doclite::Database::delete_named("named", Some(&directory))?);
    assert!(!doclite::Database::exists("named", Some(&directory))?);
    assert!(!doclite::Database::delete_named("named", Some(&directory))?);
    Ok(())
}
