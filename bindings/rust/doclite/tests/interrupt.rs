//! Stopping queries: `Query::interrupt` from another thread, a progress handler that
//! says stop, one that panics, and the handler's lifetime (kept while set, dropped when
//! replaced, cleared or dropped with its query).

mod common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::TestDatabase;
use doclite::{ErrorKind, Query};
use serde_json::json;

/// 300 documents, and a query over 300³ = 27 million joined rows: long enough to stop.
fn long_query(db: &TestDatabase) -> doclite::Result<Query> {
    db.default_collection()?.save_many((0..300).map(|n| (format!("d{n:03}"), json!({"n": n}))))?;
    db.create_query("SELECT COUNT(*) AS n FROM _ AS a JOIN _ AS b ON a.n >= 0 JOIN _ AS c ON c.n >= b.n - 1000")
}

/// The first row's count, or the error of the run.
fn run(query: &Query) -> doclite::Result<i64> {
    query.execute()?.next().expect("a row")?.get("n")
}

#[test]
fn a_query_is_interrupted_from_another_thread() -> doclite::Result<()> {
    let db = TestDatabase::new("interrupt");
    let query = long_query(&db)?;
    let done = AtomicBool::new(false);
    let started = Instant::now();
    let outcome = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            // (Again until the run ends: an interrupt stops only runs in progress.)
            while !done.load(Ordering::SeqCst) {
                query.interrupt();
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let outcome = run(&query);
        done.store(true, Ordering::SeqCst);
        outcome
    });
    let error = outcome.expect_err("the run is interrupted");
    assert_eq!(error.kind(), ErrorKind::Interrupted, "{error}");
    assert_eq!((error.domain(), error.code()), (3, 9));   // kCBLSQLiteDomain, kCBLSQLiteErrorInterrupted
    assert!(started.elapsed() < Duration::from_secs(20), "stopped soon after: {:?}", started.elapsed());

    // Later runs are not affected.
    let short = db.create_query("SELECT COUNT(*) AS n FROM _")?;
    short.interrupt();
    assert_eq!(run(&short)?, 300);
    Ok(())
}

#[test]
fn a_progress_handler_stops_the_run_when_it_returns_false() -> doclite::Result<()> {
    let db = TestDatabase::new("progress-stop");
    let mut query = long_query(&db)?;
    let calls = Arc::new(AtomicUsize::new(0));
    query.set_progress_handler(1000, {
        let calls = Arc::clone(&calls);
        move || calls.fetch_add(1, Ordering::SeqCst) + 1 < 3
    })?;
    assert_eq!(run(&query).unwrap_err().kind(), ErrorKind::Interrupted);
    assert_eq!(calls.load(Ordering::SeqCst), 3);

    // Without it, the query runs to its end (a small one here).
    query.clear_progress_handler()?;
    let mut small = db.create_query("SELECT COUNT(*) AS n FROM _ AS a JOIN _ AS b ON a.n >= b.n")?;
    small.set_progress_handler(1000, || true)?;
    assert_eq!(run(&small)?, 300 * 301 / 2);
    Ok(())
}

#[test]
fn a_panicking_progress_handler_stops_the_run_and_the_process_lives() -> doclite::Result<()> {
    let db = TestDatabase::new("progress-panic");
    let mut query = long_query(&db)?;
    query.set_progress_handler(1000, || panic!("a progress handler's bug"))?;
    assert_eq!(run(&query).unwrap_err().kind(), ErrorKind::Interrupted);
    // Again: the handler is kept, and panics again.
    assert_eq!(run(&query).unwrap_err().kind(), ErrorKind::Interrupted);
    Ok(())
}

#[test]
fn a_progress_handler_lives_while_the_query_holds_it() -> doclite::Result<()> {
    let db = TestDatabase::new("progress-lifetime");
    db.default_collection()?.save_many((0..50).map(|n| (format!("d{n}"), json!({"n": n}))))?;
    let mut query = db.create_query("SELECT COUNT(*) AS n FROM _ AS a JOIN _ AS b ON a.n >= b.n")?;
    let handler = |calls: &Arc<AtomicUsize>| {
        let calls = Arc::clone(calls);
        move || {
            calls.fetch_add(1, Ordering::SeqCst);
            true
        }
    };
    let (first, second) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    query.set_progress_handler(10, handler(&first))?;
    let rows = query.execute()?;   // (a run keeps calling the handler it started with)
    assert!(first.load(Ordering::SeqCst) > 0);
    assert_eq!(Arc::strong_count(&first), 2, "kept while set");
    query.set_progress_handler(10, handler(&second))?;
    assert_eq!(Arc::strong_count(&first), 1, "dropped when replaced");
    assert_eq!(rows.count(), 1);
    assert_eq!(run(&query)?, 50 * 51 / 2);
    assert!(second.load(Ordering::SeqCst) > 0);
    query.clear_progress_handler()?;
    assert_eq!(Arc::strong_count(&second), 1, "dropped when cleared");
    query.set_progress_handler(10, handler(&first))?;
    drop(query);
    assert_eq!(Arc::strong_count(&first), 1, "dropped with the query");
    Ok(())
}
