//! No leaks: after a workload through every kind of handle, dropped, DocLite's count
//! of live handles is back where it started. (A test file of its own: the count is
//! process-wide, and the tests of one file run at the same time.)

mod common;

use std::io::{Read, Seek, SeekFrom};
use std::sync::mpsc;
use std::time::Duration;

use common::TestDatabase;
use doclite::{Blob, DataSource, Document, Expression, QueryBuilder, SelectResult, ValueIndexConfiguration};
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
    // A listener's save, whose calls are queued until the listener returns.
    let chained = hotels.add_change_listener(|change| {
        if change.document_ids[0] == "h602" {
            change.collection.put("h603", &json!({})).unwrap();
        }
    })?;
    hotels.put("h602", &json!({"city": "Paris"}))?;
    drop((live, listener, chained));
    let mut counting = db.create_query("SELECT COUNT(*) FROM inventory.hotels")?;
    counting.set_progress_handler(100, || true)?;
    assert_eq!(counting.execute()?.count(), 1);
    // Scopes, a query's parameters read back, interrupters (outliving their result set).
    let inventory = db.scope("inventory")?.expect("it holds hotels");
    assert_eq!(inventory.collections()?.len(), 1);
    assert_eq!(hotels.scope()?.name(), db.scopes()?[1].name());
    assert_eq!(db.default_scope()?.collection("_default")?.expect("there").count()?, 0);
    counting.set_parameters(&json!({}))?;
    assert!(counting.parameters()?.is_some());
    let mut stopped = query.execute()?;
    let interrupter = stopped.interrupter();
    interrupter.clone().interrupt();
    assert!(stopped.next().expect("an error").is_err());
    drop(stopped);
    drop(interrupter);
    // Buffered notifications, sent and left queued.
    db.buffer_notifications(Some(|database: &doclite::Database| database.send_notifications()));
    let buffered = hotels.add_change_listener(|_| {})?;
    hotels.put("h604", &json!({}))?;
    db.buffer_notifications(Some(|_: &doclite::Database| {}));
    hotels.put("h605", &json!({}))?;
    drop(buffered);
    let transaction = db.transaction()?;
    hotels.put("h601", &json!({}))?;
    drop(transaction);
    blobs(&db)
}

/// Blobs, their read streams and write streams (consumed, discarded after a failed read).
fn blobs(db: &doclite::Database) -> doclite::Result<()> {
    let photos = db.create_collection("photos", None)?;
    let mut document = Document::with_id("p")?;
    document.set_blob("photo", &Blob::new(Some("image/jpeg"), b"wheel")?)?;
    photos.save(&mut document)?;
    let photo = document.blob("photo")?.expect("set");
    let _copy = photo.clone();
    let mut stream = photo.open_stream()?;
    stream.seek(SeekFrom::End(-2)).expect("a seek");
    assert!(stream.seek(SeekFrom::Current(-10)).is_err());
    let streamed = Blob::from_reader(db, None, std::io::repeat(1).take(200_000))?;
    db.save_blob(&streamed)?;
    let found = db.get_blob(&streamed.properties())?.expect("saved");
    let _half_read = found.open_stream()?.read(&mut [0; 10]);
    let failing = std::io::repeat(1).take(100_000).chain(FailingRead);
    assert!(Blob::from_reader(db, None, failing).is_err());
    assert!(db.get_blob(&json!({"@type": "blob"})).is_err());
    drop(stream);
    db.perform_maintenance(doclite::MaintenanceType::Compact)
}

struct FailingRead;

impl Read for FailingRead {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::new(std::io::ErrorKind::Other, "broken"))
    }
}

#[test]
fn every_handle_is_released() -> doclite::Result<()> {
    let start = doclite::instance_count()?;
    workload()?;
    assert_eq!(doclite::instance_count()?, start);
    Ok(())
}
