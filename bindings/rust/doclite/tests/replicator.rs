//! Sync through a PostgreSQL server the test starts (scripts/postgres-server);
//! skipped, saying why, when PostgreSQL is not installed.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use common::TestDatabase;
use doclite::{ActivityLevel, Document, DocumentFlags, ErrorKind, Replicator, ReplicatorOptions, ReplicatorType, Resolution};
use serde_json::json;

/// A private server, stopped and deleted with the value.
struct Server {
    script: PathBuf,
    directory: PathBuf,
    url: String,
}

impl Server {
    /// A server for the test `name` (tests run at once, each with its own).
    fn start(name: &str) -> Option<Server> {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../scripts/postgres-server");
        let directory = PathBuf::from(format!("/tmp/doclite-rust-pg-{}-{name}", std::process::id()));
        let output = Command::new(&script).arg("start").arg(&directory).output().expect("the server script runs");
        if output.status.code() == Some(3) {
            eprintln!("skipped: {}", String::from_utf8_lossy(&output.stderr));
            return None;
        }
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let url = String::from_utf8(output.stdout).unwrap().trim().to_string();
        Some(Server { script, directory, url })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new(&self.script).arg("stop").arg(&self.directory).output();
        let _ = std::fs::remove_dir_all(&self.directory);
    }
}

#[test]
fn two_databases_converge_through_the_server() -> doclite::Result<()> {
    let Some(server) = Server::start("converge") else { return Ok(()) };
    doclite::initialize_server(&server.url)?;
    let (a, b) = (TestDatabase::new("sync-a"), TestDatabase::new("sync-b"));
    let (a_docs, b_docs) = (a.default_collection()?, b.default_collection()?);
    a_docs.save_many((0..30).map(|i| (format!("doc-{i}"), json!({"n": i, "city": "Paris"}))))?;

    let push = ReplicatorOptions { replicator_type: ReplicatorType::Push, ..Default::default() };
    let pusher = Replicator::new(&[&a_docs], &server.url, &push)?;
    assert_eq!(pusher.pending_document_ids(&a_docs)?.len(), 30);
    assert!(pusher.is_document_pending("doc-1", &a_docs)?);
    let (pushing, pushed) = std::sync::mpsc::channel();
    let token = pusher.add_document_listener(move |is_push, documents| {
        assert!(is_push);
        pushing.send(documents.iter().filter(|d| d.error.is_none()).count()).unwrap();
    })?;
    let (reporting, statuses) = std::sync::mpsc::channel();
    let status_token = pusher.add_change_listener(move |status| {
        let _ = reporting.send(status.activity == ActivityLevel::Stopped);
    })?;
    let status = pusher.run(false)?;
    let mut documents = 0;
    while documents < 30 {
        documents += pushed.recv_timeout(std::time::Duration::from_secs(10)).expect("the pushed documents");
    }
    // (Listeners are called on the library's threads: this one's last call, the stop, may
    // come after run() has returned.)
    let mut calls = 1;
    while !statuses.recv_timeout(std::time::Duration::from_secs(10)).expect("the statuses up to the stop") {
        calls += 1;
    }
    drop((token, status_token));
    assert_eq!(status.document_count, 30);
    assert_eq!(documents, 30);
    assert!(calls >= 3, "{calls} status calls");
    assert!(pusher.pending_document_ids(&a_docs)?.is_empty());

    Replicator::new(&[&b_docs], &server.url, &ReplicatorOptions::default())?.run(false)?;
    assert_eq!(b_docs.count()?, 30);
    assert_eq!(b_docs.document("doc-7")?.expect("pulled").properties()["city"], json!("Paris"));
    Ok(())
}

#[test]
fn bad_input_is_an_error() -> doclite::Result<()> {
    let Some(server) = Server::start("bad") else { return Ok(()) };
    let bad = Replicator::new(&[], "postgresql://[bad", &ReplicatorOptions::default()).unwrap_err();
    assert_eq!((bad.kind(), bad.domain(), bad.code()), (ErrorKind::Network, 5, 4));
    let db = TestDatabase::new("sync-bad");
    let docs = db.default_collection()?;
    let none = Replicator::new(&[], &server.url, &ReplicatorOptions::default()).unwrap_err();
    assert_eq!(none.kind(), ErrorKind::InvalidParameter);
    let wrong = format!("{}password=wrong", &server.url[..server.url.find("password=").unwrap()]);
    let refused = Replicator::new(&[&docs], &wrong, &ReplicatorOptions::default())?.run(false).unwrap_err();
    assert_eq!((refused.kind(), refused.code()), (ErrorKind::Refused, 401));
    Ok(())
}

#[test]
fn filters_and_a_conflict_resolver() -> doclite::Result<()> {
    let Some(server) = Server::start("filters") else { return Ok(()) };
    doclite::initialize_server(&server.url)?;
    let (a, b) = (TestDatabase::new("filters-a"), TestDatabase::new("filters-b"));
    let (a_docs, b_docs) = (a.default_collection()?, b.default_collection()?);
    a_docs.save_many([("keep", json!({"v": 1})), ("skip", json!({"v": 2})), ("shared", json!({"by": "a"}))])?;
    let push = ReplicatorOptions {
        replicator_type: ReplicatorType::Push,
        push_filter: Some(Arc::new(|document: &Document, flags: DocumentFlags| !flags.deleted && document.id() != "skip")),
        ..Default::default()
    };
    Replicator::new(&[&a_docs], &server.url, &push)?.run(false)?;

    b_docs.save_many([("shared", json!({"by": "b"}))])?;
    let conflicts = Arc::new(AtomicUsize::new(0));
    let counter = conflicts.clone();
    let resolving = ReplicatorOptions {
        pull_filter: Some(Arc::new(|document: &Document, _| document.properties().get("v") != Some(&json!(1)))),
        conflict_resolver: Some(Arc::new(move |id: &str, local: Option<&Document>, remote: Option<&Document>| {
            counter.fetch_add(1, Ordering::SeqCst);
            assert_eq!((id, local.is_some(), remote.is_some()), ("shared", true, true));
            Resolution::Merged(Document::from_value(None, &json!({"merged": true})).expect("a document"))
        })),
        ..Default::default()
    };
    Replicator::new(&[&b_docs], &server.url, &resolving)?.run(false)?;
    assert_eq!(conflicts.load(Ordering::SeqCst), 1);
    assert!(b_docs.document("keep")?.is_none(), "the pull filter kept it out");
    assert!(b_docs.document("skip")?.is_none(), "the push filter kept it on A");
    assert_eq!(b_docs.document("shared")?.expect("resolved").properties()["merged"], json!(true));
    Replicator::new(&[&a_docs], &server.url, &ReplicatorOptions::default())?.run(false)?;
    assert_eq!(a_docs.document("shared")?.expect("pulled").properties()["merged"], json!(true));
    Ok(())
}

#[test]
fn a_revoked_channel_asks_the_pull_filter_then_purges() -> doclite::Result<()> {
    let Some(server) = Server::start("revoked") else { return Ok(()) };
    doclite::initialize_server(&server.url)?;
    let psql = |sql: &str| assert!(Command::new("psql").arg(&server.url).arg("-qc").arg(sql).status().expect("psql runs").success());
    psql("CREATE ROLE reader LOGIN PASSWORD 'pw'; GRANT doclite_sync TO reader; INSERT INTO doclite.channel_access VALUES ('reader', 'team')");
    let reader_url = format!("{} user=reader password=pw", server.url);
    let (owner, reader) = (TestDatabase::new("revoked-owner"), TestDatabase::new("revoked-reader"));
    let (owner_docs, reader_docs) = (owner.default_collection()?, reader.default_collection()?);
    owner_docs.save_many([("plan", json!({"channels": "team"}))])?;
    Replicator::new(&[&owner_docs], &server.url, &ReplicatorOptions::default())?.run(false)?;
    Replicator::new(&[&reader_docs], &reader_url, &ReplicatorOptions::default())?.run(false)?;
    assert!(reader_docs.document("plan")?.is_some());

    psql("DELETE FROM doclite.channel_access WHERE role = 'reader'");
    let asked = Arc::new(Mutex::new(Vec::new()));
    let record = asked.clone();
    let keeping = ReplicatorOptions {
        pull_filter: Some(Arc::new(move |document: &Document, flags| {
            record.lock().unwrap().push((document.id().to_string(), flags));
            !flags.access_removed
        })),
        ..Default::default()
    };
    Replicator::new(&[&reader_docs], &reader_url, &keeping)?.run(false)?;
    let mut removed = DocumentFlags::default();
    removed.access_removed = true;
    assert_eq!(*asked.lock().unwrap(), [("plan".to_string(), removed)]);
    assert!(reader_docs.document("plan")?.is_some(), "the pull filter kept it");

    // (A kept document stays, as in Couchbase Lite: granted and revoked again, it is purged.)
    psql("INSERT INTO doclite.channel_access VALUES ('reader', 'team')");
    Replicator::new(&[&reader_docs], &reader_url, &ReplicatorOptions::default())?.run(false)?;
    psql("DELETE FROM doclite.channel_access WHERE role = 'reader'");
    let purging = Replicator::new(&[&reader_docs], &reader_url, &ReplicatorOptions::default())?;
    let (report, reported) = std::sync::mpsc::channel();
    let _token = purging.add_document_listener(move |_, documents| {
        report.send(documents.iter().map(|d| (d.id.clone(), d.flags)).collect::<Vec<_>>()).unwrap();
    })?;
    purging.run(false)?;
    assert!(reader_docs.document("plan")?.is_none(), "purged");
    let reported = reported.recv_timeout(std::time::Duration::from_secs(10)).expect("the purge reported");
    assert_eq!(reported, [("plan".to_string(), removed)]);
    Ok(())
}

#[test]
fn two_databases_sync_without_a_server() -> doclite::Result<()> {
    let (a, b) = (TestDatabase::new("local-a"), TestDatabase::new("local-b"));
    let (a_docs, b_docs) = (a.default_collection()?, b.default_collection()?);
    a_docs.save_many([("memo", json!({"from": "a"}))])?;
    b_docs.save_many([("note", json!({"from": "b"}))])?;
    let replicator = Replicator::with_database(&[&a_docs], &b, &ReplicatorOptions::default())?;
    let removed = Arc::new(AtomicUsize::new(0));
    let counter = removed.clone();
    let _token = replicator.add_document_listener(move |_, documents| {
        counter.fetch_add(documents.iter().filter(|d| d.flags.access_removed).count(), Ordering::SeqCst);
    })?;
    replicator.run(false)?;
    assert_eq!((a_docs.count()?, b_docs.count()?), (2, 2));
    assert_eq!(b_docs.document("memo")?.expect("pushed").properties()["from"], json!("a"));
    assert_eq!(removed.load(Ordering::SeqCst), 0);
    Ok(())
}
