//! The 1.x query builder from Rust: the wiki page's examples with the results it
//! describes, contexts, and mistakes reported with their part and place.

mod common;

use common::TestDatabase;
use doclite::{ErrorKind, PredicateQueryBuilder};
use serde_json::{json, Value};

/// The blog of the wiki page, in a database named for the test.
fn blog(test: &str) -> TestDatabase {
    let db = TestDatabase::new(test);
    db.default_collection()
        .unwrap()
        .save_many([
            ("p1", json!({"type": "post", "title": "Introducing CBLQueryBuilder", "author": "Jens Alfke", "date": "2014-12-11", "body": "Yo",
                          "tags": ["couchbase lite", "iOS", "queries", "views", "API"]})),
            ("p2", json!({"type": "post", "title": "Views", "author": "Jens Alfke", "date": "2014-10-01", "body": "Map", "tags": ["views", "iOS"]})),
            ("p3", json!({"type": "post", "title": "Replication", "author": "Traun", "date": "2015-01-20", "body": "Sync", "tags": ["sync"]})),
            ("b1", json!({"type": "book", "title": "A", "price": 10})),
            ("b2", json!({"type": "book", "title": "B", "price": 25.5})),
        ])
        .unwrap();
    db
}

fn values(builder: &PredicateQueryBuilder, context: Value) -> doclite::Result<Vec<Value>> {
    let query = builder.create_query(&context)?;
    query.execute()?.map(|row| row.map(|row| row.value())).collect()
}

#[test]
fn the_tag_query_of_the_wiki_page() -> doclite::Result<()> {
    let db = blog("tag-query");
    let posts = db.default_collection()?;
    let builder = PredicateQueryBuilder::new(&posts, &["title", "body", "author", "date"],
                                             "type == 'post' and tags contains $TAG", &["-date"])?;
    assert_eq!(values(&builder, json!({"TAG": "iOS"}))?, [
        json!(["Introducing CBLQueryBuilder", "Yo", "Jens Alfke", "2014-12-11"]),
        json!(["Views", "Map", "Jens Alfke", "2014-10-01"]),
    ]);
    let error = values(&builder, json!({})).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidQueryParameter);
    assert!(error.message().contains("$TAG"), "{error}");
    assert!(builder.explanation()?.contains("variables: $TAG"));
    Ok(())
}

#[test]
fn the_average_of_the_wiki_page() -> doclite::Result<()> {
    let db = blog("average");
    let builder = PredicateQueryBuilder::new(&db.default_collection()?, &["average(price)"], "type == 'book'", &[] as &[&str])?;
    assert_eq!(values(&builder, Value::Null)?, [json!(17.75)]);   // one item selected: the row's value is it
    Ok(())
}

#[test]
fn mistakes_name_their_part_and_place() -> doclite::Result<()> {
    let db = blog("mistakes");
    let posts = db.default_collection()?;
    let error = PredicateQueryBuilder::new(&posts, &["title"], "type ==", &[] as &[&str]).err().expect("a syntax error");
    assert_eq!((error.kind(), error.position()), (ErrorKind::InvalidQuery, Some(7)));
    assert!(error.message().starts_with("where: "), "{error}");
    let error = PredicateQueryBuilder::new(&posts, &["title"], "TRUEPREDICATE", &["-nosuch("]).err().expect("a bad sort descriptor");
    assert!(error.message().starts_with("sort descriptor 1: "), "{error}");
    let builder = PredicateQueryBuilder::new(&posts, &["title"], "TRUEPREDICATE", &[] as &[&str])?;
    assert_eq!(builder.create_query(&json!([1])).err().map(|e| e.kind()), Some(ErrorKind::InvalidQueryParameter));
    Ok(())
}
