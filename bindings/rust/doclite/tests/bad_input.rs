//! Bad input at the boundary with C: each is an error of one kind, and nothing is stored,
//! cut short or rounded. A string holding NUL given to any call (where C would end it);
//! IDs that would shift `save_many`'s lines; NaN and infinity (which serde_json writes as
//! null) and integers DocLite would read as doubles, in documents, query parameters and
//! literals; a parameter the query does not use.

mod common;

use std::collections::HashMap;
use std::path::Path;

use common::TestDatabase;
use doclite::{
    ArrayIndexConfiguration, Blob, Collection, DataSource, Database, DatabaseConfiguration, Document, ErrorKind,
    Expression, FullTextIndexConfiguration, PredicateQueryBuilder, PredictiveIndexConfiguration, QueryBuilder,
    SelectResult, ValueIndexConfiguration,
};
use serde::Serialize;
use serde_json::{json, Value};

/// The database holds nothing but the empty default collection, and its directory only its file.
fn assert_nothing_stored(db: &TestDatabase) -> doclite::Result<()> {
    let collection = db.default_collection()?;
    assert_eq!(collection.count()?, 0);
    assert!(collection.index_names()?.is_empty());
    assert_eq!(db.scope_names()?, ["_default"]);
    let files: Vec<_> = std::fs::read_dir(db.directory()).expect("the directory").map(|entry| entry.unwrap().file_name()).collect();
    assert!(files.iter().all(|name| name.to_string_lossy().starts_with("nul.doclite")), "{files:?}");
    Ok(())
}

type Call = fn(&Database, &Collection, &Path, &str) -> doclite::Result<()>;

/// Every call taking a string that crosses into C, given `bad`.
const STRING_ARGUMENTS: &[(&str, Call)] = &[
    ("Database::open name", |_, _, dir, bad| Database::open(bad, &DatabaseConfiguration::in_directory(dir)).map(drop)),
    ("Database::open directory", |_, _, dir, bad| Database::open("x", &DatabaseConfiguration::in_directory(dir.join(bad))).map(drop)),
    ("Database::exists name", |_, _, dir, bad| Database::exists(bad, Some(dir)).map(drop)),
    ("Database::exists directory", |_, _, dir, bad| Database::exists("x", Some(&dir.join(bad))).map(drop)),
    ("Database::delete_named name", |_, _, dir, bad| Database::delete_named(bad, Some(dir)).map(drop)),
    ("Database::collection name", |db, _, _, bad| db.collection(bad, None).map(drop)),
    ("Database::collection scope", |db, _, _, bad| db.collection("c", Some(bad)).map(drop)),
    ("Database::create_collection name", |db, _, _, bad| db.create_collection(bad, None).map(drop)),
    ("Database::create_collection scope", |db, _, _, bad| db.create_collection("c", Some(bad)).map(drop)),
    ("Database::delete_collection", |db, _, _, bad| db.delete_collection(bad, None)),
    ("Database::collection_names", |db, _, _, bad| db.collection_names(Some(bad)).map(drop)),
    ("Database::create_query", |db, _, _, bad| db.create_query(&format!("SELECT * FROM _ {bad}")).map(drop)),
    ("Database::create_json_query", |db, _, _, bad| db.create_json_query(&format!(r#"{{"WHAT": [1]}}{bad}"#)).map(drop)),
    ("Database::get_blob_json", |db, _, _, bad| db.get_blob_json(&format!(r#"{{"@type": "blob"}}{bad}"#)).map(drop)),
    ("Collection::document", |_, c, _, bad| c.document(bad).map(drop)),
    ("Collection::get", |_, c, _, bad| c.get::<Value>(bad).map(drop)),
    ("Collection::put", |_, c, _, bad| c.put(bad, &json!({"n": 1})).map(drop)),
    ("Collection::save_many", |_, c, _, bad| c.save_many([("ok", json!({})), (bad, json!({"n": 1}))])),
    ("Collection::delete", |_, c, _, bad| c.delete(bad).map(drop)),
    ("Collection::purge", |_, c, _, bad| c.purge(bad).map(drop)),
    ("Collection::expiration", |_, c, _, bad| c.expiration(bad).map(drop)),
    ("Collection::set_expiration", |_, c, _, bad| c.set_expiration(bad, None)),
    ("Collection::add_document_change_listener", |_, c, _, bad| c.add_document_change_listener(bad, |_, _| {}).map(drop)),
    ("Collection::delete_index", |_, c, _, bad| c.delete_index(bad)),
    ("value index name", |_, c, _, bad| c.create_value_index(bad, &ValueIndexConfiguration::new(["n"]))),
    ("value index expression", |_, c, _, bad| c.create_value_index("i", &ValueIndexConfiguration::new(["n", bad]))),
    ("value index JSON", |_, c, _, bad| c.create_value_index("i", &ValueIndexConfiguration::json(&format!("[[\".n\"]]{bad}")))),
    ("value index condition", |_, c, _, bad| c.create_value_index("i", &ValueIndexConfiguration::new(["n"]).where_(bad))),
    ("full-text index expression", |_, c, _, bad| c.create_full_text_index("i", &FullTextIndexConfiguration::new([bad]))),
    ("full-text index language", |_, c, _, bad| c.create_full_text_index("i", &FullTextIndexConfiguration::new(["t"]).language(bad))),
    ("array index path", |_, c, _, bad| c.create_array_index("i", &ArrayIndexConfiguration::elements(bad))),
    ("array index expression", |_, c, _, bad| c.create_array_index("i", &ArrayIndexConfiguration::new("tags", [bad]))),
    ("predictive index model", |_, c, _, bad| c.create_predictive_index("i", &PredictiveIndexConfiguration::new(bad, "{'t': t}"))),
    ("predictive index input", |_, c, _, bad| c.create_predictive_index("i", &PredictiveIndexConfiguration::new("m", bad))),
    ("Document::with_id", |_, _, _, bad| Document::with_id(bad).map(drop)),
    ("Document::from_value", |_, _, _, bad| Document::from_value(Some(bad), &json!({})).map(drop)),
    ("Document::set_json", |_, _, _, bad| Document::new()?.set_json(&format!("{{}}{bad}"))),
    ("Document::set_blob key", |_, _, _, bad| Document::new()?.set_blob(bad, &Blob::new(None, b"x")?)),
    ("Document::blob key", |_, _, _, bad| Document::new()?.blob(bad).map(drop)),
    ("Blob::new content type", |_, _, _, bad| Blob::new(Some(bad), b"x").map(drop)),
    ("Blob::from_reader content type", |db, _, _, bad| Blob::from_reader(db, Some(bad), &b"x"[..]).map(drop)),
    ("register_model", |_, _, _, bad| doclite::register_model(bad, |_| None)),
    ("unregister_model", |_, _, _, bad| doclite::unregister_model(bad)),
    ("PredicateQueryBuilder select", |_, c, _, bad| PredicateQueryBuilder::new(c, &["n", bad], "n > 1", &[] as &[&str]).map(drop)),
    ("PredicateQueryBuilder predicate", |_, c, _, bad| PredicateQueryBuilder::new(c, &["n"], bad, &[] as &[&str]).map(drop)),
    ("PredicateQueryBuilder order", |_, c, _, bad| PredicateQueryBuilder::new(c, &["n"], "n > 1", &[bad]).map(drop)),
    ("Query::set_parameters name", |db, _, _, bad| {
        db.create_query("SELECT n FROM _ WHERE n = $n")?.set_parameters(&HashMap::from([(bad, 1)]))
    }),
];

#[test]
fn a_string_holding_nul_is_an_invalid_parameter_everywhere() -> doclite::Result<()> {
    let db = TestDatabase::new("nul");
    let collection = db.default_collection()?;
    for bad in ["a\0b", "\0", "ok\0"] {
        for (call, run) in STRING_ARGUMENTS {
            let error = run(&db, &collection, db.directory(), bad).expect_err(call);
            assert_eq!(error.kind(), ErrorKind::InvalidParameter, "{call} with {bad:?}: {error}");
            assert!(error.message().contains("NUL"), "{call}: {error}");
        }
    }
    assert_nothing_stored(&db)
}

#[test]
fn save_many_refuses_an_id_that_would_shift_the_lines() -> doclite::Result<()> {
    let db = TestDatabase::new("ids");
    let hotels = db.default_collection()?;
    for (id, kind) in [
        ("a\nb", ErrorKind::BadDocumentId),
        ("\n", ErrorKind::BadDocumentId),
        ("a\rb", ErrorKind::BadDocumentId),
        ("", ErrorKind::BadDocumentId),
        ("a\0b", ErrorKind::InvalidParameter),
    ] {
        let error = hotels.save_many([("first", json!({})), (id, json!({"n": 1})), ("last", json!({}))]).unwrap_err();
        assert_eq!(error.kind(), kind, "{id:?}: {error}");
    }
    assert_eq!(hotels.count()?, 0);
    Ok(())
}

#[derive(Serialize)]
struct Rated {
    name: &'static str,
    scores: Vec<f64>,
}

#[test]
fn nan_and_infinity_are_errors_in_documents() -> doclite::Result<()> {
    let db = TestDatabase::new("nan-documents");
    let hotels = db.default_collection()?;
    for (value, text) in [(f64::NAN, "NaN"), (f64::INFINITY, "inf"), (f64::NEG_INFINITY, "-inf")] {
        let rated = Rated { name: "Grand", scores: vec![4.5, value] };
        let expected = format!("at .scores[1]: {text} is not a finite number");
        for (call, result) in [
            ("put", hotels.put("h1", &rated).map(drop)),
            ("save_many", hotels.save_many([("h1", &rated)])),
            ("from_value", Document::from_value(Some("h1"), &rated).map(drop)),
            ("put of a map", hotels.put("h1", &HashMap::from([("rating", value)])).map(drop)),
            ("put of an f32", hotels.put("h1", &HashMap::from([("rating", value as f32)])).map(drop)),
        ] {
            let error = result.unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidParameter, "{call}: {error}");
            assert!(error.message().contains(if call.starts_with("put of") { "at .rating: " } else { &expected }), "{call}: {error}");
        }
    }
    let error = hotels.save_many([("h1", HashMap::from([("n", 1.0)])), ("h2", HashMap::from([("n", f64::NAN)]))]).unwrap_err();
    assert!(error.message().starts_with("the properties of document \"h2\" at .n: NaN"), "{error}");
    let mut document = hotels.put("h3", &json!({"n": 1}))?;
    assert!(document.set_properties(&HashMap::from([("n", f64::NAN)])).is_err());
    assert_eq!(document.to_json(), r#"{"n":1}"#, "nothing changed");
    assert_eq!(hotels.count()?, 1);
    Ok(())
}

#[test]
fn nan_and_infinity_are_errors_in_query_parameters_and_literals() -> doclite::Result<()> {
    let db = TestDatabase::new("nan-queries");
    let hotels = db.default_collection()?;
    let mut query = db.create_query("SELECT META().id FROM _ WHERE rating = $rating")?;
    for value in [f64::NAN, f64::INFINITY] {
        let error = query.set_parameters(&HashMap::from([("rating", value)])).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidParameter, "{error}");
        assert!(error.message().starts_with("the query parameters at .rating: "), "{error}");
        let builder = PredicateQueryBuilder::new(&hotels, &["rating"], "rating == $R", &[] as &[&str])?;
        assert_eq!(builder.create_query(&HashMap::from([("R", value)])).unwrap_err().kind(), ErrorKind::InvalidParameter);
        let error = QueryBuilder::select([SelectResult::expression(Expression::value(&[1.0, value]))])
            .from(DataSource::collection(&hotels))
            .build()
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidQuery, "a builder mistake, reported by build()");
        assert!(error.message().contains("a literal at [1]: "), "{error}");
    }
    Ok(())
}

#[test]
fn integers_round_trip_or_are_errors_never_doubles() -> doclite::Result<()> {
    let db = TestDatabase::new("integers");
    let numbers = db.default_collection()?;
    let above = i64::MAX as u64 + 1;
    // Documents keep every integer from i64::MIN to u64::MAX.
    for (id, value) in [("min", json!(i64::MIN)), ("max", json!(i64::MAX)), ("above", json!(above)), ("umax", json!(u64::MAX))] {
        numbers.put(id, &json!({"n": value}))?;
        assert_eq!(numbers.get::<Value>(id)?, Some(json!({"n": value})), "{id}");
    }
    numbers.save_many([("many", HashMap::from([("n", u64::MAX)]))])?;
    assert_eq!(numbers.get::<HashMap<String, u64>>("many")?.unwrap()["n"], u64::MAX);
    let rows: Vec<(String, Value)> = db.create_query("SELECT META().id, n FROM _ ORDER BY META().id")?
        .execute()?
        .map(|row| row?.deserialize())
        .collect::<doclite::Result<_>>()?;
    assert!(rows.contains(&("umax".into(), json!(u64::MAX))) && rows.contains(&("above".into(), json!(above))), "{rows:?}");
    // Wider integers are errors.
    for (what, result) in [
        ("u128", numbers.put("wide", &HashMap::from([("n", u128::from(u64::MAX) + 1)])).map(drop)),
        ("i128", numbers.put("wide", &HashMap::from([("n", i128::from(i64::MIN) - 1)])).map(drop)),
    ] {
        let error = result.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidParameter, "{what}: {error}");
        assert!(error.message().contains("is wider than a document keeps"), "{what}: {error}");
    }
    assert!(numbers.get::<Value>("wide")?.is_none());

    // A query keeps an i64 exactly, and reads a wider parameter or literal as a double: an error.
    let mut query = db.create_query("SELECT $n AS n FROM _ LIMIT 1")?;
    query.set_parameters(&json!({"n": i64::MIN}))?;
    assert_eq!(query.execute()?.next().unwrap()?.get::<i64>(0)?, i64::MIN);
    query.set_parameters(&json!({"n": i64::MAX}))?;
    assert_eq!(query.execute()?.next().unwrap()?.get::<i64>(0)?, i64::MAX);
    let error = query.set_parameters(&json!({"n": above})).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidParameter);
    assert!(error.message().contains("the integer 9223372036854775808 is wider than a query keeps exactly"), "{error}");
    let builder = PredicateQueryBuilder::new(&numbers, &["n"], "n == $N", &[] as &[&str])?;
    assert_eq!(builder.create_query(&json!({"N": u64::MAX})).unwrap_err().kind(), ErrorKind::InvalidParameter);
    let literal = QueryBuilder::select([SelectResult::expression(Expression::value(&u64::MAX))]).from(DataSource::collection(&numbers));
    assert_eq!(literal.build().unwrap_err().kind(), ErrorKind::InvalidQuery);
    Ok(())
}

#[test]
fn a_parameter_the_query_does_not_use_is_an_error_naming_it() -> doclite::Result<()> {
    let db = TestDatabase::new("unused-parameter");
    db.default_collection()?.put("h1", &json!({"rooms": 10}))?;
    let mut query = db.create_query("SELECT META().id FROM _ WHERE rooms >= $min")?;
    query.set_parameters(&json!({"min": 5, "mx": 20}))?;
    let error = query.execute().map(drop).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidQueryParameter);
    assert!(error.message().contains("unknown query parameter 'mx'"), "{error}");

    // A live query reports it to its listener.
    let (sender, results) = std::sync::mpsc::channel();
    let _token = query.add_change_listener(move |change| {
        let _ = sender.send(change.results.map(|rows| rows.count()).map_err(|error| error.kind()));
    })?;
    assert_eq!(results.recv_timeout(std::time::Duration::from_secs(10)).expect("a call"), Err(ErrorKind::InvalidQueryParameter));
    query.set_parameters(&json!({"min": 5}))?;
    assert_eq!(query.execute()?.count(), 1);
    Ok(())
}
