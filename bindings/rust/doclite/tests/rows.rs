//! Rows decoded from DocLite's blocks straight into Rust types: every kind of value the
//! same as the JSON block (`CBLResultSet_NextRowsJSON`) gives it, typed iteration with
//! its errors naming the row and the column, values borrowed from a row, enums, maps
//! with integer keys, and blocks of every size.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::ffi::{CStr, CString};

use common::TestDatabase;
use doclite::{ErrorKind, Row};
use serde::Deserialize;
use serde_json::{json, Value};

/// Documents holding one value of each kind, and the edges of each kind.
fn values() -> Vec<Value> {
    let mut deep = json!("bottom");
    for _ in 0..60 {
        deep = json!({"a": [deep]});
    }
    vec![
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(-1),
        json!(i32::MAX),
        json!(i32::MIN),
        json!(i32::MAX as i64 + 1),
        json!(i32::MIN as i64 - 1),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(u64::MAX),
        json!(1u64 << 63),
        json!(0.5),
        json!(-0.0),
        json!(3.0),
        json!(1e300),
        json!(f64::MIN_POSITIVE),
        json!(""),
        json!("plain"),
        json!("quote \" backslash \\ line\nbreak tab\t control \u{1} NUL \u{0} end"),
        json!("é ü 日本 🎉"),
        json!([]),
        json!({}),
        json!([1, "two", [3.5, null], {"four": false}]),
        json!({"b": 1, "a": {"nested": [true, {"x": "y"}]}, "": "empty key"}),
        deep,
    ]
}

/// The JSON block DocLite gives for `query` (the form the crate read before), through doclite-sys.
fn json_block_rows(directory: &std::path::Path, name: &str, query: &str) -> Vec<Vec<Value>> {
    let lib = doclite_sys::library().expect("the library loads");
    let directory = CString::new(directory.to_str().unwrap()).unwrap();
    let (name, query) = (CString::new(name).unwrap(), CString::new(query).unwrap());
    let mut error = doclite_sys::CBLError { domain: 0, code: 0, internal_info: 0 };
    let mut rows = Vec::new();
    // Safety: each handle is used while live and released once; strings outlive their calls.
    unsafe {
        let mut config: doclite_sys::CBLDatabaseConfiguration = std::mem::zeroed();
        config.directory = directory.as_ptr();
        let db = lib.CBLDatabase_Open(name.as_ptr(), &config, &mut error);
        assert!(!db.is_null(), "open: {}", error.code);
        let query = lib.CBLDatabase_CreateQuery(db, doclite_sys::kCBLN1QLLanguage as _, query.as_ptr(), std::ptr::null_mut(), &mut error);
        assert!(!query.is_null(), "query: {}", error.code);
        let results = lib.CBLQuery_Execute(query, &mut error);
        loop {
            let text = lib.CBLResultSet_NextRowsJSON(results, 7, &mut error);
            assert!(!text.is_null(), "rows: {}", error.code);
            let block: Vec<Vec<Value>> = serde_json::from_slice(CStr::from_ptr(text).to_bytes()).expect("DocLite's JSON block");
            lib.CBL_FreeString(text);
            if block.is_empty() {
                break;
            }
            rows.extend(block);
        }
        lib.CBL_Release(results as *const _);
        lib.CBL_Release(query as *const _);
        assert!(lib.CBLDatabase_Close(db, &mut error));
        lib.CBL_Release(db as *const _);
    }
    rows
}

#[test]
fn every_value_reads_as_the_json_block_has_it() -> doclite::Result<()> {
    let db = TestDatabase::new("row-values");
    let values = values();
    let documents = values.iter().enumerate().map(|(i, value)| (format!("d{i:03}"), json!({"v": value, "i": i})));
    db.default_collection()?.save_many(documents)?;
    // Column 1 is MISSING in every row, column 2 in none.
    let text = "SELECT v, nothing, i, [v] AS wrapped FROM _ WHERE i < 26 ORDER BY i";
    let rows = db.create_query(text)?.execute()?.all()?;
    assert_eq!(rows.len(), values.len() - 1);
    for (row, value) in rows.iter().zip(&values) {
        assert_eq!(&row.values()[0], value, "row {}", row.index());
        assert_eq!(row.get::<Value>(0)?, *value);
        // (An array made in the query holds an integer above i64::MAX as a double, as DocLite gives it.)
        assert_eq!(row.get::<Value>("wrapped")?, row.values()[3]);
        assert_eq!(row.values()[3].as_array().map(Vec::len), Some(1));
        assert_eq!(row.get_ref(1)?, None);
        assert_eq!(row.missing_mask(), 0b0010);
        assert_eq!(row.deserialize::<(Value, Value, u64, Value)>()?, (value.clone(), Value::Null, row.index() as u64, row.values()[3].clone()));
    }
    // The deepest value (120 levels) reads too.
    let deep = db.create_query("SELECT v FROM _ WHERE i = 26")?.execute()?.next().unwrap()?;
    assert_eq!(deep.get::<Value>(0)?, values[26]);
    assert_eq!(deep.values()[0], values[26]);

    let directory = db.directory().to_owned();
    drop(rows);
    db.close()?;
    let from_json = json_block_rows(&directory, "row-values", text);
    let db = doclite::Database::open("row-values", &doclite::DatabaseConfiguration::in_directory(&directory))?;
    let rows = db.create_query(text)?.execute()?.all()?;
    assert_eq!(rows.len(), from_json.len());
    for (row, json_row) in rows.iter().zip(&from_json) {
        assert_eq!(json!(row.missing_mask()), json_row[0]);
        assert_eq!(row.values(), &json_row[1..], "row {}", row.index());
    }
    Ok(())
}

#[derive(Deserialize, Debug, PartialEq)]
struct Hotel {
    name: String,
    rooms: Option<u32>,
    #[serde(default)]
    tags: Vec<String>,
}

#[test]
fn rows_deserialize_straight_into_types() -> doclite::Result<()> {
    let db = TestDatabase::new("typed-rows");
    db.default_collection()?.save_many([
        ("h1", json!({"name": "Grand", "rooms": 120, "tags": ["spa", "bar"]})),
        ("h2", json!({"name": "Inn", "rooms": null})),
        ("h3", json!({"name": "Ritz", "rooms": "many"})),
        ("h4", json!({"name": "Shed", "rooms": 2})),
    ])?;
    let query = db.create_query("SELECT name, rooms, tags FROM _ ORDER BY META().id")?;
    assert_eq!(query.execute()?.rows::<Hotel>().column_names(), ["name", "rooms", "tags"]);
    let read: Vec<doclite::Result<Hotel>> = query.execute()?.rows().collect();
    assert_eq!(read.len(), 4);
    assert_eq!(read[0], Ok(Hotel { name: "Grand".into(), rooms: Some(120), tags: vec!["spa".into(), "bar".into()] }));
    // MISSING tags left out of the map (the default), null rooms as None.
    assert_eq!(read[1], Ok(Hotel { name: "Inn".into(), rooms: None, tags: vec![] }));
    let error = read[2].as_ref().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Conversion);
    assert_eq!(error.message(), r#"row 2: column "rooms": invalid type: string "many", expected u32"#);
    // The rows after one that did not fit read on.
    assert_eq!(read[3], Ok(Hotel { name: "Shed".into(), rooms: Some(2), tags: vec![] }));

    // Tuples by position, MISSING as null.
    let tuples: Vec<(String, Option<u32>, Option<Vec<String>>)> =
        query.execute()?.rows().filter(|row| row.is_ok()).collect::<doclite::Result<_>>()?;
    assert_eq!(tuples[1], ("Inn".into(), None, None));
    let short = query.execute()?.rows::<(String, Value)>().next().unwrap().unwrap_err();
    assert_eq!(short.message(), "row 0: invalid length 3, expected 2 elements in sequence");
    let long = query.execute()?.rows::<(String, Value, Value, Value)>().next().unwrap().unwrap_err();
    assert_eq!(long.message(), "row 0: invalid length 3, expected a tuple of size 4");
    // Maps and vectors of values; a struct's missing field.
    let map = query.execute()?.rows::<BTreeMap<String, Value>>().nth(1).unwrap()?;
    assert_eq!(map, BTreeMap::from([("name".to_owned(), json!("Inn")), ("rooms".to_owned(), Value::Null)]));
    let vector = query.execute()?.rows::<Vec<Value>>().nth(1).unwrap()?;
    assert_eq!(vector, [json!("Inn"), Value::Null, Value::Null]);
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)] // (read for its error)
    struct NeedsTags {
        tags: Vec<String>,
    }
    let missing = query.execute()?.rows::<NeedsTags>().nth(1).unwrap().unwrap_err();
    assert_eq!(missing.message(), "row 1: missing field `tags`");
    // An error inside a column's value names that column.
    let nested = query.execute()?.rows::<(String, Option<u32>, Vec<u8>)>().next().unwrap().unwrap_err();
    assert!(nested.message().starts_with(r#"row 0: column "tags": invalid type: string "spa""#), "{nested}");
    Ok(())
}

#[test]
fn values_borrow_from_their_row() -> doclite::Result<()> {
    let db = TestDatabase::new("borrowed");
    db.default_collection()?.save_many([("a", json!({"name": "Grand \"Hôtel\"", "tags": ["x", "y"]}))])?;
    let row = db.create_query("SELECT name, tags FROM _")?.execute()?.next().unwrap()?;
    let name: &str = row.get(0)?;
    assert_eq!(name, "Grand \"Hôtel\"");
    let tags: Vec<&str> = row.get("tags")?;
    assert_eq!(tags, ["x", "y"]);
    #[derive(Deserialize)]
    struct Borrowed<'r> {
        name: &'r str,
    }
    assert_eq!(row.deserialize::<Borrowed>()?.name, "Grand \"Hôtel\"");
    let (first, _): (&str, Value) = row.deserialize()?;
    assert_eq!(first, name);
    Ok(())
}

#[derive(Deserialize, Debug, PartialEq)]
enum Kind {
    Hotel,
    Inn(u32),
    Chain { brand: String },
    Pair(i64, i64),
}

#[test]
fn enums_maps_and_numbers_read_as_serde_json_reads_them() -> doclite::Result<()> {
    let db = TestDatabase::new("row-kinds");
    db.default_collection()?.save_many([
        ("a", json!({"kind": "Hotel", "rooms": {"1": "single", "2": "double"}, "n": u64::MAX, "m": i64::MIN, "x": 2})),
        ("b", json!({"kind": {"Inn": 8}, "rooms": {"10": "suite"}, "n": 0, "m": -5, "x": 2.5})),
        ("c", json!({"kind": {"Chain": {"brand": "Ibis"}}, "rooms": {}, "n": 1, "m": 0, "x": -1})),
        ("d", json!({"kind": {"Pair": [1, -2]}, "rooms": {"lobby": "hall"}, "n": 7, "m": 1, "x": 1e10})),
        ("e", json!({"kind": {"Inn": 1, "Hotel": null}, "rooms": null, "n": -1, "m": 1.5, "x": "text"})),
    ])?;
    let query = db.create_query("SELECT kind, rooms, n, m, x FROM _ ORDER BY META().id")?;
    let rows = query.execute()?.all()?;
    let kinds: Vec<doclite::Result<Kind>> = rows.iter().map(|row| row.get("kind")).collect();
    assert_eq!(kinds[..4], [Ok(Kind::Hotel), Ok(Kind::Inn(8)), Ok(Kind::Chain { brand: "Ibis".into() }), Ok(Kind::Pair(1, -2))]);
    let not_single = kinds[4].as_ref().unwrap_err().message();
    assert!(not_single.ends_with("invalid value: map, expected map with a single key"), "{not_single}");
    let number = rows[0].get::<Kind>("n").unwrap_err();
    assert!(number.message().ends_with("invalid type: integer `18446744073709551615`, expected string or map"), "{number}");
    assert_eq!(rows[0].get::<Kind>("kind")?, Kind::Hotel);
    assert!(rows[0].get::<Option<Kind>>("kind")?.is_some());

    // Integer keys from the strings that hold integers; other strings stay strings.
    let rooms: HashMap<u32, String> = rows[0].get("rooms")?;
    assert_eq!(rooms, HashMap::from([(1, "single".to_owned()), (2, "double".to_owned())]));
    assert!(rows[3].get::<HashMap<u32, String>>("rooms").is_err());
    assert_eq!(rows[4].get::<Option<HashMap<u32, String>>>("rooms")?, None);

    // The full ranges, and numbers into the widths that hold them.
    assert_eq!(rows[0].get::<u64>("n")?, u64::MAX);
    assert_eq!(rows[0].get::<i64>("m")?, i64::MIN);
    assert_eq!(rows[0].get::<i128>("n")?, u64::MAX as i128);
    assert!(rows[0].get::<i64>("n").unwrap_err().message().contains("invalid value: integer `18446744073709551615`"));
    assert!(rows[4].get::<u8>("n").unwrap_err().message().contains("invalid value: integer `-1`, expected u8"));
    assert_eq!(rows[1].get::<i8>("m")?, -5);
    assert_eq!(rows[0].get::<f64>("x")?, 2.0);
    assert_eq!(rows[3].get::<f64>("x")?, 1e10);
    assert!(rows[1].get::<i64>("x").unwrap_err().message().contains("invalid type: floating point `2.5`, expected i64"));
    assert_eq!(rows[4].get::<String>("x")?, "text");
    assert_eq!(rows[4].get::<Value>("x")?, json!("text"));
    Ok(())
}

#[test]
fn rows_of_every_block_size_read_in_order() -> doclite::Result<()> {
    let db = TestDatabase::new("typed-blocks");
    let numbers = db.default_collection()?;
    numbers.save_many((0..1500).map(|i| (format!("n{i:05}"), json!({"i": i, "s": format!("#{i}")}))))?;
    for limit in [0, 1, 511, 512, 513, 1024, 1500] {
        let query = db.create_query(&format!("SELECT i, s FROM _ ORDER BY i LIMIT {limit}"))?;
        let typed: Vec<(u32, String)> = query.execute()?.rows().collect::<doclite::Result<_>>()?;
        assert_eq!(typed, (0..limit).map(|i| (i, format!("#{i}"))).collect::<Vec<_>>());
        let rows: Vec<Row> = query.execute()?.all()?;
        assert_eq!(rows.iter().map(Row::index).collect::<Vec<_>>(), (0..limit as usize).collect::<Vec<_>>());
        assert!(rows.iter().all(|row| row.get::<u32>(0).ok() == Some(row.index() as u32)));
    }
    Ok(())
}

#[test]
fn rows_are_values_that_outlive_their_blocks_reader() -> doclite::Result<()> {
    fn shared<T: Send + Sync + Clone + PartialEq + std::fmt::Debug>() {}
    shared::<Row>();
    let db = TestDatabase::new("row-values-shared");
    db.default_collection()?.save_many((0..600).map(|i| (format!("n{i:05}"), json!({"i": i}))))?;
    let rows = db.create_query("SELECT i FROM _ ORDER BY i")?.execute()?.all()?;
    let (first, last) = (rows[0].clone(), rows[599].clone());
    drop(rows);
    let read = std::thread::spawn(move || (first.get::<i64>(0), last.get::<i64>("i"), first.to_json()));
    let (first, last, json) = read.join().unwrap();
    assert_eq!((first?, last?, json.as_str()), (0, 599, r#"{"i":0}"#));
    Ok(())
}
