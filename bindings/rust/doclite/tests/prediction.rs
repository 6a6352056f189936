//! Predictive models from Rust: a closure called by PREDICTION(), None as MISSING, a
//! panic failing the query, the closure dropped once unregistered, an unregistered
//! model's error.
//! (One test: the registry is process-wide.)

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::TestDatabase;
use doclite::ErrorKind;
use serde_json::{json, Map, Value};

#[test]
fn a_rust_closure_is_a_predictive_model() -> doclite::Result<()> {
    let db = TestDatabase::new("prediction");
    db.default_collection()?.save_many([
        ("r1", json!({"text": "great room good food"})),
        ("r2", json!({"text": "boom"})),
        ("r3", json!({"stars": 4})),
    ])?;
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    doclite::register_model("words", move |input: &Map<String, Value>| {
        counted.fetch_add(1, Ordering::SeqCst);
        let text = input.get("text")?.as_str()?;
        if text == "boom" {
            panic!("a model's bug");
        }
        Some(json!({"count": text.split(' ').count()}).as_object()?.clone())
    })?;
    let query = db.create_query("SELECT META().id, PREDICTION(words, {'text': text}, count) AS n FROM _ ORDER BY META().id")?;
    let rows = |query: &doclite::Query| -> doclite::Result<Vec<(String, Option<i64>)>> {
        query.execute()?.map(|row| row?.deserialize()).collect()
    };
    let error = rows(&query).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidQuery);
    assert!(error.message().contains("predictive model 'words' failed: panicked: a model's bug"), "{error}");
    db.default_collection()?.purge("r2")?;
    let before = calls.load(Ordering::SeqCst);
    assert_eq!(rows(&query)?, [("r1".into(), Some(4)), ("r3".into(), None)]);   // no text: MISSING
    assert_eq!(calls.load(Ordering::SeqCst) - before, 2);

    doclite::unregister_model("words")?;
    assert_eq!(Arc::strong_count(&calls), 1, "the closure is dropped once unregistered");
    let error = query.execute().and_then(|mut rows| rows.next().transpose()).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidQuery);
    assert!(error.message().contains("no predictive model named 'words'"), "{error}");
    Ok(())
}
