//! Array and predictive indexes: an UNNEST query returns the same rows with an array index
//! as without, and its plan reads the index; element expressions, the JSON and builder
//! forms; a predictive index caches a Rust model's predictions (its calls counted), so that
//! queries call it for no row and a save calls it once; and the mistakes' errors.
//! (Models are registered process-wide: each test registers its own names.)

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::TestDatabase;
use doclite::{
    ArrayIndexConfiguration, DataSource, ErrorKind, Expression, Function, Meta, PredictiveIndexConfiguration, Query,
    QueryBuilder, SelectResult,
};
use serde_json::{json, Map, Value};

/// The rows of a query of an ID and one more column.
fn rows(query: &Query) -> doclite::Result<Vec<(String, Value)>> {
    query.execute()?.map(|row| row?.deserialize()).collect()
}

/// Whether the query's plan reads an array index's table instead of walking each document's array.
fn reads_array_index(query: &Query) -> doclite::Result<bool> {
    let plan = query.explain()?;
    Ok(plan.contains("USING INDEX arr") && !plan.contains("doc_each"))
}

#[test]
fn an_unnest_query_reads_an_array_index_with_the_same_rows() -> doclite::Result<()> {
    let db = TestDatabase::new("indexes-array");
    let docs = db.default_collection()?;
    docs.save_many([
        ("d1", json!({"tags": ["red", "blue"]})),
        ("d2", json!({"tags": ["green"]})),
        ("d3", json!({"tags": ["blue", "blue", "green"]})),   // two rows
        ("d4", json!({"tags": "blue"})),                      // not an array
        ("d5", json!({"name": "no tags"})),
        ("d6", json!({"tags": [["blue"], {"t": "blue"}, "Blue"]})),
    ])?;
    let query = db.create_query("SELECT META(d).id, t FROM _ AS d UNNEST d.tags AS t WHERE t = 'blue' ORDER BY META(d).id")?;
    let before = rows(&query)?;
    // (A property that is not an array, d4's, unnests as whatever DocLite makes of it: the
    // same with the index as without, which is all this test asks.)
    let arrays: Vec<_> = before.iter().filter(|(id, _)| id != "d4").cloned().collect();
    assert_eq!(arrays, [("d1".into(), json!("blue")), ("d3".into(), json!("blue")), ("d3".into(), json!("blue"))]);
    assert!(!reads_array_index(&query)?, "{}", query.explain()?);

    docs.create_array_index("byTag", &ArrayIndexConfiguration::elements("tags"))?;
    assert_eq!(docs.index_names()?, ["byTag"]);
    let query = db.create_query("SELECT META(d).id, t FROM _ AS d UNNEST d.tags AS t WHERE t = 'blue' ORDER BY META(d).id")?;
    assert!(reads_array_index(&query)?, "{}", query.explain()?);
    assert_eq!(rows(&query)?, before);

    // The index follows saves and deletes; the same definition again changes nothing.
    docs.put("d7", &json!({"tags": ["blue"]}))?;
    docs.put("d1", &json!({"tags": ["red"]}))?;
    docs.delete("d3")?;
    docs.delete("d4")?;
    docs.create_array_index("byTag", &ArrayIndexConfiguration::elements("tags"))?;
    assert_eq!(rows(&query)?, [("d7".into(), json!("blue"))]);

    // Deleted, the query walks the arrays again, with the same rows.
    docs.delete_index("byTag")?;
    assert!(docs.index_names()?.is_empty());
    let query = db.create_query("SELECT META(d).id, t FROM _ AS d UNNEST d.tags AS t WHERE t = 'blue' ORDER BY META(d).id")?;
    assert!(!reads_array_index(&query)?, "{}", query.explain()?);
    assert_eq!(rows(&query)?, [("d7".into(), json!("blue"))]);
    Ok(())
}

#[test]
fn an_array_index_on_element_expressions_in_each_language() -> doclite::Result<()> {
    let db = TestDatabase::new("indexes-array-expressions");
    let people = db.create_collection("people", None)?;
    people.save_many([
        ("p1", json!({"contacts": [{"type": "home", "city": "Paris"}, {"type": "work", "city": "Lyon"}]})),
        ("p2", json!({"contacts": [{"type": "work", "city": "Nice"}]})),
        ("p3", json!({"contacts": [{"type": "home", "city": "Lille"}, {"type": "home", "city": "Brest"}]})),
        ("p4", json!({"contacts": []})),
    ])?;
    let sql = "SELECT META(d).id, c.city FROM people AS d UNNEST d.contacts AS c WHERE c.type = 'home' ORDER BY META(d).id, c.city";
    let expected: Vec<(String, Value)> =
        vec![("p1".into(), json!("Paris")), ("p3".into(), json!("Brest")), ("p3".into(), json!("Lille"))];
    assert_eq!(rows(&db.create_query(sql)?)?, expected);

    let configurations = [
        ArrayIndexConfiguration::new("contacts", ["type", "city"]),
        ArrayIndexConfiguration::json("contacts", r#"[[".type"], [".city"]]"#),
        ArrayIndexConfiguration::expressions("contacts", [Expression::property("type"), Expression::property("city")]),
    ];
    for config in &configurations {
        people.create_array_index("byContact", config)?;   // each replaces the one before
        assert_eq!(people.index_names()?, ["byContact"]);
        let query = db.create_query(sql)?;
        assert!(reads_array_index(&query)?, "{config:?}: {}", query.explain()?);
        assert_eq!(rows(&query)?, expected, "{config:?}");
    }

    // The same UNNEST in the JSON query language reads it too.
    let json_query = db.create_json_query(
        &json!({
            "WHAT": [["_.", ["META()", "d"], "id"], [".c.city"]],
            "FROM": [{"COLLECTION": "people", "AS": "d"}, {"UNNEST": [".d.contacts"], "AS": "c"}],
            "WHERE": ["=", [".c.type"], "home"],
            "ORDER_BY": [["_.", ["META()", "d"], "id"], [".c.city"]],
        })
        .to_string(),
    )?;
    assert!(reads_array_index(&json_query)?, "{}", json_query.explain()?);
    assert_eq!(rows(&json_query)?, expected);

    // No expressions in the builder's form: an index of the elements themselves.
    people.create_array_index("byContactElement", &ArrayIndexConfiguration::expressions("contacts", []))?;
    assert_eq!(people.index_names()?, ["byContact", "byContactElement"]);
    Ok(())
}

#[test]
fn a_predictive_index_caches_a_rust_model() -> doclite::Result<()> {
    let db = TestDatabase::new("indexes-predictive");
    let reviews = db.default_collection()?;
    reviews.save_many([
        ("r1", json!({"text": "good food"})),
        ("r2", json!({"text": "cold room"})),
        ("r3", json!({"stars": 4})),   // no text: the model predicts nothing
    ])?;
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    doclite::register_model("indexesSentiment", move |input: &Map<String, Value>| {
        counted.fetch_add(1, Ordering::SeqCst);
        let text = input.get("text")?.as_str()?;
        let label = if text.contains("good") { "positive" } else { "negative" };
        Some(json!({"label": label, "length": text.len()}).as_object()?.clone())
    })?;
    let sql = "SELECT META().id, PREDICTION(indexesSentiment, {'text': text}, label) AS label FROM _ \
               WHERE PREDICTION(indexesSentiment, {'text': text}, label) IS VALUED ORDER BY META().id";
    let expected: Vec<(String, Value)> = vec![("r1".into(), json!("positive")), ("r2".into(), json!("negative"))];

    // Without the index, each row calls the model.
    assert_eq!(rows(&db.create_query(sql)?)?, expected);
    assert!(calls.load(Ordering::SeqCst) >= 3);

    calls.store(0, Ordering::SeqCst);
    let config = PredictiveIndexConfiguration::new("indexesSentiment", "{'text': text}").properties(["label"]);
    reviews.create_predictive_index("bySentiment", &config)?;
    assert_eq!(calls.load(Ordering::SeqCst), 3, "the model is called for every document as the index is built");
    assert_eq!(reviews.index_names()?, ["bySentiment"]);

    let query = db.create_query(sql)?;
    assert!(query.explain()?.contains("JOIN pred"), "{}", query.explain()?);
    assert_eq!(rows(&query)?, expected);
    assert_eq!(calls.load(Ordering::SeqCst), 3, "the query reads the cache and calls the model for no row");

    // A save calls the model once; the query then has the new row, still without calling it.
    reviews.put("r4", &json!({"text": "good view"}))?;
    assert_eq!(calls.load(Ordering::SeqCst), 4);
    let with_r4: Vec<(String, Value)> = expected.iter().cloned().chain([("r4".into(), json!("positive"))]).collect();
    assert_eq!(rows(&query)?, with_r4);
    assert_eq!(calls.load(Ordering::SeqCst), 4);

    // The same query built with the QueryBuilder reads the same cache.
    let input = || Expression::dictionary([("text", Expression::property("text"))]);
    let built = QueryBuilder::select([
        SelectResult::expression(Meta::id()),
        SelectResult::expression(Function::prediction_property("indexesSentiment", input(), "label")).as_("label"),
    ])
    .from(DataSource::collection(&reviews))
    .where_(Function::prediction_property("indexesSentiment", input(), "label").equal_to("positive"))
    .order_by([doclite::Ordering::expression(Meta::id())])
    .build()?;
    assert_eq!(rows(&built)?, [("r1".into(), json!("positive")), ("r4".into(), json!("positive"))]);
    assert_eq!(calls.load(Ordering::SeqCst), 4);

    // The same definition again does not rebuild it; the JSON and builder forms of it are the same index.
    reviews.create_predictive_index("bySentiment", &config)?;
    reviews.create_predictive_index(
        "bySentiment",
        &PredictiveIndexConfiguration::json("indexesSentiment", r#"{"text": [".text"]}"#).properties(["label"]),
    )?;
    reviews.create_predictive_index(
        "bySentiment",
        &PredictiveIndexConfiguration::expression("indexesSentiment", input()).properties(["label"]),
    )?;
    assert_eq!(calls.load(Ordering::SeqCst), 4);
    assert_eq!(rows(&query)?, with_r4);
    assert_eq!(calls.load(Ordering::SeqCst), 4);

    // While the model is unregistered, a save (which needs a prediction) fails; without the index it succeeds.
    doclite::unregister_model("indexesSentiment")?;
    let error = reviews.put("r5", &json!({"text": "good"})).unwrap_err();
    assert!(error.message().contains("indexesSentiment"), "{error:?}");
    reviews.delete_index("bySentiment")?;
    reviews.put("r5", &json!({"text": "good"}))?;
    assert_eq!(Arc::strong_count(&calls), 1, "the closure is dropped once unregistered and unused");
    Ok(())
}

#[test]
fn index_mistakes_are_errors_of_their_kind() -> doclite::Result<()> {
    let db = TestDatabase::new("indexes-mistakes");
    let docs = db.default_collection()?;
    docs.put("d1", &json!({"text": "a", "contacts": [{"phones": ["1"]}]}))?;
    doclite::register_model("indexesEcho", |input: &Map<String, Value>| Some(input.clone()))?;

    let nested = docs.create_array_index("byPhone", &ArrayIndexConfiguration::elements("contacts[].phones")).unwrap_err();
    assert_eq!((nested.kind(), nested.domain(), nested.code()), (ErrorKind::Unsupported, 1, 19), "{nested}");
    let empty = docs.create_array_index("byNothing", &ArrayIndexConfiguration::elements("")).unwrap_err();
    assert_eq!(empty.kind(), ErrorKind::InvalidParameter, "{empty}");
    let syntax = docs.create_array_index("byType", &ArrayIndexConfiguration::new("contacts", ["type +"])).unwrap_err();
    assert_eq!((syntax.kind(), syntax.code()), (ErrorKind::InvalidQuery, 23), "{syntax}");
    let json = docs.create_array_index("byType", &ArrayIndexConfiguration::json("contacts", "[[")).unwrap_err();
    assert_eq!(json.kind(), ErrorKind::InvalidQuery, "{json}");
    let nul = docs.create_array_index("byType", &ArrayIndexConfiguration::elements("con\0tacts")).unwrap_err();
    assert_eq!((nul.kind(), nul.domain()), (ErrorKind::InvalidParameter, 0), "{nul}");
    let built = ArrayIndexConfiguration::expressions("contacts", [Expression::double(f64::NAN)]);
    assert_eq!(docs.create_array_index("byType", &built).unwrap_err().kind(), ErrorKind::InvalidQuery);

    let predictive = |properties: &[&str]| {
        PredictiveIndexConfiguration::new("indexesEcho", "{'text': text}").properties(properties.iter().copied())
    };
    for bad in [&["[oops"][..], &[""][..], &["label", "a..b"][..]] {
        let error = docs.create_predictive_index("byEcho", &predictive(bad)).unwrap_err();
        assert_eq!((error.kind(), error.code()), (ErrorKind::InvalidQuery, 23), "{bad:?}: {error}");
    }
    let missing = docs
        .create_predictive_index("byEcho", &PredictiveIndexConfiguration::new("indexesNoSuchModel", "{'text': text}"))
        .unwrap_err();
    assert_eq!(missing.kind(), ErrorKind::InvalidQuery);
    assert!(missing.message().contains("indexesNoSuchModel"), "{missing}");
    let two = docs.create_predictive_index("byEcho", &PredictiveIndexConfiguration::new("indexesEcho", "text, stars")).unwrap_err();
    assert_eq!(two.kind(), ErrorKind::InvalidQuery, "{two}");
    let unnamed = docs.create_predictive_index("byEcho", &PredictiveIndexConfiguration::new("", "{'text': text}")).unwrap_err();
    assert_eq!(unnamed.kind(), ErrorKind::InvalidParameter, "{unnamed}");
    let infinite = Expression::dictionary([("x", Expression::double(f64::INFINITY))]);
    let built = PredictiveIndexConfiguration::expression("indexesEcho", infinite);
    assert_eq!(docs.create_predictive_index("byEcho", &built).unwrap_err().kind(), ErrorKind::InvalidQuery);

    assert!(docs.index_names()?.is_empty(), "no mistake leaves an index behind");
    doclite::unregister_model("indexesEcho")?;
    Ok(())
}
