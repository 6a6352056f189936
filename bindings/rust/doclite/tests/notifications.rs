//! Buffered notifications: listener calls queued while a database buffers, sent on the
//! thread that calls `send_notifications`; the ready callback's calls, lifetime (replaced,
//! stopped, dropped with the database's last clone, which stops buffering), panics, and
//! replacements racing with commits.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::{self, ThreadId};
use std::time::Duration;

use common::TestDatabase;
use doclite::{Database, DatabaseConfiguration};
use serde_json::json;

const WAIT: Duration = Duration::from_secs(10);

/// The calls a listener heard: the IDs of each change, and the thread it was called on.
type Heard = Arc<Mutex<Vec<(Vec<String>, ThreadId)>>>;

/// Stops buffering (`None` needs its type named).
fn stop_buffering(db: &Database) {
    db.buffer_notifications(None::<fn(&Database)>);
}

#[test]
fn listener_calls_are_sent_on_the_thread_that_asks() -> doclite::Result<()> {
    let db = TestDatabase::new("buffered");
    let hotels = db.default_collection()?;
    let (ready_sender, ready) = mpsc::channel();
    db.buffer_notifications(Some(move |database: &Database| {
        ready_sender.send((database.name().to_owned(), thread::current().id())).unwrap();
    }));
    let calls: Heard = Arc::default();
    let _collection = hotels.add_change_listener({
        let calls = Arc::clone(&calls);
        move |change| calls.lock().unwrap().push((change.document_ids.clone(), thread::current().id()))
    })?;
    let document_calls: Arc<Mutex<Vec<ThreadId>>> = Arc::default();
    let _document = hotels.add_document_change_listener("h2", {
        let document_calls = Arc::clone(&document_calls);
        move |_, _| document_calls.lock().unwrap().push(thread::current().id())
    })?;

    let writer = {
        let hotels = hotels.clone();
        thread::spawn(move || {
            hotels.put("h1", &json!({"name": "Grand"})).unwrap();
            hotels.put("h2", &json!({"name": "Petit"})).unwrap();
            thread::current().id()
        })
    };
    let writer = writer.join().unwrap();
    // The ready callback ran once, on the committing thread, when the queue stopped being
    // empty; no listener was called.
    assert_eq!(ready.recv_timeout(WAIT).expect("ready"), ("buffered".to_owned(), writer));
    assert!(ready.try_recv().is_err(), "once for the two commits");
    assert!(calls.lock().unwrap().is_empty() && document_calls.lock().unwrap().is_empty());

    db.send_notifications();
    let me = thread::current().id();
    assert_eq!(*calls.lock().unwrap(), [(vec!["h1".to_owned()], me), (vec!["h2".to_owned()], me)]);
    assert_eq!(*document_calls.lock().unwrap(), [me]);
    db.send_notifications(); // (nothing queued: nothing)
    assert_eq!(calls.lock().unwrap().len(), 2);

    // Again from empty: the ready callback is called again.
    hotels.put("h3", &json!({}))?;
    assert_eq!(ready.recv_timeout(WAIT).expect("ready again").1, me);
    db.send_notifications();
    assert_eq!(calls.lock().unwrap().len(), 3);

    // Stopped: listeners are called at once, on the committing thread, and ready is not.
    stop_buffering(&db);
    hotels.put("h4", &json!({}))?;
    assert_eq!(calls.lock().unwrap().last().unwrap(), &(vec!["h4".to_owned()], me));
    assert!(ready.try_recv().is_err());
    // Calls queued when buffering stops wait for send_notifications.
    db.buffer_notifications(Some(|_: &Database| {}));
    hotels.put("h5", &json!({}))?;
    stop_buffering(&db);
    assert_eq!(calls.lock().unwrap().len(), 4);
    db.send_notifications();
    assert_eq!(calls.lock().unwrap().last().unwrap().0, ["h5"]);
    Ok(())
}

#[test]
fn live_query_results_are_sent_on_the_thread_that_asks() -> doclite::Result<()> {
    let db = TestDatabase::new("buffered-live");
    let hotels = db.default_collection()?;
    hotels.put("h1", &json!({"name": "Grand"}))?;
    let (ready_sender, ready) = mpsc::channel();
    db.buffer_notifications(Some(move |_: &Database| ready_sender.send(thread::current().id()).unwrap()));
    let query = db.create_query("SELECT COUNT(*) FROM _")?;
    let (results_sender, results) = mpsc::channel();
    let _live = query.add_change_listener(move |change| {
        let count = change.results.and_then(|mut rows| rows.next().expect("a row")?.get::<i64>(0));
        results_sender.send((count, thread::current().id())).unwrap();
    })?;
    let me = thread::current().id();
    for expected in [1, 2] {
        // The live query's run calls ready (on the thread it runs on); the results wait.
        ready.recv_timeout(WAIT).expect("ready");
        assert!(results.try_recv().is_err());
        db.send_notifications();
        let (count, thread) = results.try_recv().expect("sent");
        assert_eq!((count?, thread), (expected, me));
        hotels.put("h2", &json!({"name": "Petit"}))?;
    }
    Ok(())
}

#[test]
fn a_ready_callback_may_send_at_once() -> doclite::Result<()> {
    let db = TestDatabase::new("send-from-ready");
    let hotels = db.default_collection()?;
    db.buffer_notifications(Some(|database: &Database| database.send_notifications()));
    let heard = Arc::new(AtomicUsize::new(0));
    let _token = hotels.add_change_listener({
        let heard = Arc::clone(&heard);
        move |_| {
            heard.fetch_add(1, Ordering::SeqCst);
        }
    })?;
    hotels.put("h1", &json!({}))?;
    assert_eq!(heard.load(Ordering::SeqCst), 1, "sent by the ready callback, inside the commit's call");
    hotels.put("h2", &json!({}))?;
    assert_eq!(heard.load(Ordering::SeqCst), 2);
    Ok(())
}

#[test]
fn calls_sent_from_inside_a_listener_come_after_it_returns() -> doclite::Result<()> {
    let db = TestDatabase::new("send-inside");
    let hotels = db.default_collection()?;
    db.buffer_notifications(Some(|_: &Database| {}));
    let events = Arc::new(Mutex::new(Vec::new()));
    let _token = hotels.add_change_listener({
        let events = Arc::clone(&events);
        move |change| {
            let id = &change.document_ids[0];
            events.lock().unwrap().push(format!("enter {id}"));
            if id == "a" {
                change.collection.put("b", &json!({})).unwrap(); // queued by the buffering database
                change.collection.database().send_notifications(); // its call waits for this one
            }
            events.lock().unwrap().push(format!("leave {id}"));
        }
    })?;
    hotels.put("a", &json!({}))?;
    assert!(events.lock().unwrap().is_empty());
    db.send_notifications();
    assert_eq!(*events.lock().unwrap(), ["enter a", "leave a", "enter b", "leave b"]);
    Ok(())
}

#[test]
fn a_panicking_ready_callback_leaves_the_calls_queued() -> doclite::Result<()> {
    let db = TestDatabase::new("ready-panic");
    let hotels = db.default_collection()?;
    db.buffer_notifications(Some(|_: &Database| panic!("a ready callback's bug")));
    let heard = Arc::new(AtomicUsize::new(0));
    let _token = hotels.add_change_listener({
        let heard = Arc::clone(&heard);
        move |_| {
            heard.fetch_add(1, Ordering::SeqCst);
        }
    })?;
    hotels.put("h1", &json!({}))?; // the panic stops at the boundary: the commit returns
    hotels.put("h2", &json!({}))?;
    assert_eq!(heard.load(Ordering::SeqCst), 0);
    db.send_notifications();
    assert_eq!(heard.load(Ordering::SeqCst), 2);
    assert_eq!(hotels.count()?, 2);
    Ok(())
}

/// A ready callback holding `counter` (whose strong count tells whether it is kept).
fn holding(counter: &Arc<()>) -> impl Fn(&Database) + Send + Sync + 'static {
    let counter = Arc::clone(counter);
    move |_| {
        let _keep = &counter;
    }
}

#[test]
fn the_ready_callback_lives_while_the_database_holds_it() -> doclite::Result<()> {
    let test = TestDatabase::new("ready-lifetime");
    let (first, second) = (Arc::new(()), Arc::new(()));
    test.buffer_notifications(Some(holding(&first)));
    assert_eq!(Arc::strong_count(&first), 2, "kept while set");
    test.buffer_notifications(Some(holding(&second)));
    assert_eq!(Arc::strong_count(&first), 1, "dropped when replaced");
    stop_buffering(&test);
    assert_eq!(Arc::strong_count(&second), 1, "dropped when buffering stops");

    // Another open database, whose clones and collections go.
    let db = Database::open("other", &DatabaseConfiguration::in_directory(test.directory()))?;
    let third = Arc::new(());
    db.clone().buffer_notifications(Some(holding(&third)));
    let hotels = db.default_collection()?;
    hotels.put("h1", &json!({}))?;
    let query = db.create_query("SELECT COUNT(*) FROM _")?;
    drop(db);
    assert_eq!(Arc::strong_count(&third), 2, "kept while a collection holds the database");
    drop(hotels);
    assert_eq!(Arc::strong_count(&third), 1, "dropped with the database's last clone");
    // Which stopped buffering: the query (alive, and its database with it) is called at once.
    let (sender, results) = mpsc::channel();
    let _live = query.add_change_listener(move |change| {
        let _ = sender.send(change.results.and_then(|mut rows| rows.next().expect("a row")?.get::<i64>(0)));
    })?;
    assert_eq!(results.recv_timeout(WAIT).expect("not buffered")?, 1);
    Ok(())
}

#[test]
fn ready_callbacks_replaced_while_commits_run() -> doclite::Result<()> {
    // DocLite may call a callback just after it was replaced: the crate's registry makes such
    // a call find nothing, and every closure is dropped once no call of it runs.
    const DOCUMENTS: usize = 300;
    let db = TestDatabase::new("ready-race");
    let hotels = db.default_collection()?;
    let heard = Arc::new(Mutex::new(Vec::new()));
    let _token = hotels.add_change_listener({
        let heard = Arc::clone(&heard);
        move |change| heard.lock().unwrap().extend(change.document_ids.iter().cloned())
    })?;
    let counters: Vec<Arc<AtomicUsize>> = (0..100).map(|_| Arc::new(AtomicUsize::new(0))).collect();
    let counting = |counter: &Arc<AtomicUsize>| {
        let counter = Arc::clone(counter);
        move |database: &Database| {
            counter.fetch_add(1, Ordering::SeqCst);
            database.send_notifications();
        }
    };
    db.buffer_notifications(Some(counting(&counters[0])));
    thread::scope(|scope| {
        let writer = hotels.clone();
        scope.spawn(move || {
            for i in 0..DOCUMENTS {
                writer.put(&format!("h{i:03}"), &json!({"i": i})).unwrap();
            }
        });
        let (database, counters, counting) = (db.db.clone(), &counters, &counting);
        scope.spawn(move || {
            for counter in &counters[1..] {
                database.buffer_notifications(Some(counting(counter)));
                thread::yield_now();
            }
        });
        for _ in 0..50 {
            db.send_notifications();
            thread::yield_now();
        }
    });
    // The callback set last is the one called (and it sends at once).
    let last = counters.last().unwrap().load(Ordering::SeqCst);
    hotels.put("last", &json!({}))?;
    assert_eq!(counters.last().unwrap().load(Ordering::SeqCst), last + 1);
    stop_buffering(&db);
    db.send_notifications();
    let mut ids = heard.lock().unwrap().clone();
    ids.sort();
    let expected: Vec<String> = (0..DOCUMENTS).map(|i| format!("h{i:03}")).chain(["last".to_owned()]).collect();
    assert_eq!(ids, expected, "every change heard once");
    assert!(counters.iter().all(|counter| Arc::strong_count(counter) == 1), "every callback dropped");
    Ok(())
}
