//! No leaks: after a workload through every kind of handle, dropped, DocLite's count
//! of live handles is back where it started. (A test file of its own: the count is
//! process-wide, and the tests of one file run at the same time.)

mod common;

use std::sync::mpsc;
use std::time::Duration;

use common::TestDatabase;
use doclite::{DataSource, Document, Expression, QueryBuilder, SelectResult, ValueIndexConfiguration};
use serde_json::json;

fn workload() -> doclite::Result<()> {
    let db = TestDatabase::new("instances");
    let hotels = db.create_collection("hotels", Some("inventory"))?;
    let _same = db.collection("hotels", Some("inventory"))?;
    hotels.save_many((0..600).map(|i| (format!("h{i}"), json!({"i": i, "city": if i % 2 == 0 { "Paris" } else { "Lyon" }}))))?;
    let mut document = hotels.document("h1")?.expect("saved");
    document.set_json(r#"{"i": -1}"#)?;
    hotels.save(&mut document)?;
    let _copy = document.clone();
    let _new = Document::from_value(Some("fresh"), &json!({"a": 1}))?;
    hotels.create_value_index("byCity", &ValueIndexConfiguration::new(["city"]))?;

    let query = QueryBuilder::select([SelectResult::property("i")])
        .from(DataSource::collection(&hotels))
        .where_(Expression::property("city").equal_to("Paris"))
        .build()?;
    assert_eq!(query.execute()?.count(), 300);
    let mut half_read = query.execute()?;
    half_read.nth(10);
    assert!(db.create_query("SELECT nonsense(").is_err());

    let (sender, updates) = mpsc::channel();
    let live = query.add_change_listener(move |change| {
        let _ = sender.send(change.results.map(|rows| rows.count()));
    })?;
    let listener = hotels.add_change_listener(|_| {})?;
    assert_eq!(updates.recv_timeout(Duration::from_secs(10)).expect("live results")?, 300);
    hotels.put("h600", &json!({"city": "Paris"}))?;
    assert_eq!(updates.recv_timeout(Duration::from_secs(10)).expect("live results")?, 301);
    drop((live, listener));
    let transaction = db.transaction()?;
    hotels.put("h601", &json!({}))?;
    drop(transaction);
    Ok(())
}

#[test]
fn every_handle_is_released() -> doclite::Result<()> {
    let start = doclite::instance_count()?;
    workload()?;
    assert_eq!(doclite::instance_count()?, start);
    Ok(())
}
