//! Stopping queries: `Query::interrupt` from another thread, one run stopped by its result
//! set's `Interrupter`, a progress handler that says stop, one that panics, and the
//! handler's lifetime (kept while set, dropped when replaced, cleared or dropped with its query).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::TestDatabase;
use doclite::{ErrorKind, Interrupter, Query};
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
    let mut query = long_query(&db)?;
    let (running, run_started) = std::sync::mpsc::channel();
    query.set_progress_handler(1000, move || {
        let _ = running.send(());   // (the run is under way)
        true
    })?;
    let query = &query;
    let started = Instant::now();
    let outcome = std::thread::scope(|scope| {
        scope.spawn(move || {
            run_started.recv().unwrap();
            query.interrupt();
        });
        run(query)
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

/// The same join as `long_query`'s, its 27 million rows streamed rather than counted (a
/// run's first row is computed by `execute`: COUNT(*) would do all its work there, before a
/// result set, and so an interrupter, exists).
fn many_rows(db: &TestDatabase) -> doclite::Result<Query> {
    db.default_collection()?.save_many((0..300).map(|n| (format!("d{n:03}"), json!({"n": n}))))?;
    db.create_query("SELECT a.n AS n FROM _ AS a JOIN _ AS b ON a.n >= 0 JOIN _ AS c ON c.n >= b.n - 1000")
}

#[test]
fn one_run_is_interrupted_from_another_thread() -> doclite::Result<()> {
    let db = TestDatabase::new("interrupt-one-run");
    let query = many_rows(&db)?;
    let mut stopped = query.execute()?;
    let mut other = query.execute()?; // another run of the same query, at the same time
    let interrupter = stopped.interrupter();
    let started = Instant::now();
    let (reading, read_some) = std::sync::mpsc::channel();
    let stopper = std::thread::spawn(move || {
        read_some.recv().unwrap();
        interrupter.interrupt();
    });
    let mut read = 0_usize;
    let error = loop {
        match stopped.next().expect("stopped before its last row") {
            Ok(_) if read == 10_000 => {
                read += 1;
                reading.send(()).unwrap();   // (the other thread interrupts the run while it reads)
            }
            Ok(_) => read += 1,
            Err(error) => break error,
        }
    };
    stopper.join().unwrap();
    assert_eq!(error.kind(), ErrorKind::Interrupted, "{error}");
    assert_eq!((error.domain(), error.code()), (3, 9));   // kCBLSQLiteDomain, kCBLSQLiteErrorInterrupted
    assert!(read < 27_000_000, "stopped early: {read} rows");
    assert!(stopped.next().is_none(), "the iteration ends with the error");
    assert!(started.elapsed() < Duration::from_secs(20), "stopped soon after: {:?}", started.elapsed());

    // The other run reads on, and so does a run started afterwards.
    let rows: Vec<i64> = other.by_ref().take(2000).map(|row| row?.get("n")).collect::<doclite::Result<_>>()?;
    assert_eq!(rows.len(), 2000);
    let mut later = query.execute()?;
    assert!(later.next().expect("a row").is_ok());
    Ok(())
}

#[test]
fn an_interrupted_run_fails_at_its_next_read() -> doclite::Result<()> {
    let db = TestDatabase::new("interrupt-read");
    db.default_collection()?.save_many((0..1500).map(|n| (format!("d{n:04}"), json!({"n": n}))))?;
    let query = db.create_query("SELECT n FROM _ ORDER BY n")?;

    // Before the first read.
    let mut rows = query.execute()?;
    rows.interrupter().interrupt();
    assert_eq!(rows.next().expect("an error").unwrap_err().kind(), ErrorKind::Interrupted);

    // Between two blocks of rows (512 each): the block read is given, the next read fails.
    let mut rows = query.execute()?;
    assert_eq!(rows.next().expect("a row")?.get::<i64>(0)?, 0);
    rows.interrupter().interrupt();
    let read: Vec<doclite::Result<doclite::Row>> = rows.collect();
    assert_eq!(read.len(), 512);
    assert!(read[..511].iter().all(Result::is_ok));
    assert_eq!(read[511].as_ref().unwrap_err().kind(), ErrorKind::Interrupted);

    // Through rows::<T>().
    let mut numbers = query.execute()?.rows::<(i64,)>();
    let interrupter = numbers.interrupter();
    assert_eq!(numbers.next().expect("a row")?, (0,));
    interrupter.interrupt();
    assert_eq!(numbers.find_map(Result::err).expect("an error").kind(), ErrorKind::Interrupted);

    // A run whose rows were all read is over: interrupting it changes nothing.
    let mut small = db.create_query("SELECT n FROM _ WHERE n < 3")?.execute()?;
    let interrupter = small.interrupter();
    assert_eq!(small.by_ref().take(3).filter(Result::is_ok).count(), 3);
    interrupter.interrupt();
    assert!(small.next().is_none());
    Ok(())
}

#[test]
fn an_interrupter_is_shared_and_outlives_its_result_set() -> doclite::Result<()> {
    fn shareable<T: Send + Sync + Clone + std::fmt::Debug>(_: &T) {}
    let db = TestDatabase::new("interrupter-lifetime");
    db.default_collection()?.save_many((0..10).map(|n| (format!("d{n}"), json!({"n": n}))))?;
    let query = db.create_query("SELECT n FROM _")?;
    let rows = query.execute()?;
    let interrupter: Interrupter = rows.interrupter();
    shareable(&interrupter);
    let copy = interrupter.clone();
    drop(rows);
    drop(query);
    // The run's handle is still held: interrupting it is harmless, from any thread.
    std::thread::scope(|scope| {
        scope.spawn(|| copy.interrupt());
        scope.spawn(|| interrupter.interrupt());
    });
    assert_eq!(format!("{interrupter:?}"), "Interrupter { .. }");
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
