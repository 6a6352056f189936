//! Change listeners and live queries taking closures: calls from several committing
//! threads, a panicking closure stopped at the boundary, a listener that drops its
//! own token, no call after a token is dropped, and listeners that save documents,
//! whose calls come after they return, in order, at no depth of stack.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::TestDatabase;
use serde_json::json;

const WAIT: Duration = Duration::from_secs(10);

#[test]
fn collection_listeners_hear_every_commit_from_several_threads() -> doclite::Result<()> {
    let db = TestDatabase::new("threads");
    let hotels = db.default_collection()?;
    let heard = Arc::new(Mutex::new(Vec::new()));
    let token = hotels.add_change_listener({
        let heard = Arc::clone(&heard);
        move |change| heard.lock().unwrap().extend(change.document_ids.iter().cloned())
    })?;

    std::thread::scope(|scope| {
        for writer in 0..4 {
            let hotels = hotels.clone();
            scope.spawn(move || {
                for i in 0..25 {
                    hotels.put(&format!("w{writer}-{i}"), &json!({"i": i})).unwrap();
                }
            });
        }
    });
    let mut ids = heard.lock().unwrap().clone();
    ids.sort();
    let mut expected: Vec<String> = (0..4).flat_map(|w| (0..25).map(move |i| format!("w{w}-{i}"))).collect();
    expected.sort();
    assert_eq!(ids, expected);

    drop(token);
    hotels.put("after", &json!({}))?;
    assert_eq!(heard.lock().unwrap().len(), 100, "a removed listener is not called");
    Ok(())
}

#[test]
fn document_listeners_hear_their_document_only() -> doclite::Result<()> {
    let db = TestDatabase::new("document-listener");
    let hotels = db.default_collection()?;
    let (sender, heard) = mpsc::channel();
    let _token = hotels.add_document_change_listener("h1", move |collection, id| {
        sender.send(format!("{}/{id}", collection.name())).unwrap();
    })?;
    hotels.put("h2", &json!({}))?;
    hotels.put("h1", &json!({}))?;
    hotels.delete("h1")?;
    assert_eq!(heard.try_iter().collect::<Vec<_>>(), ["_default/h1", "_default/h1"]);
    Ok(())
}

#[test]
fn a_panicking_listener_is_stopped_at_the_boundary() -> doclite::Result<()> {
    let db = TestDatabase::new("panic");
    let hotels = db.default_collection()?;
    let calls = Arc::new(AtomicUsize::new(0));
    let _panicking = hotels.add_change_listener(|_| panic!("a listener's bug"))?;
    let _counting = hotels.add_change_listener({
        let calls = Arc::clone(&calls);
        move |_| {
            calls.fetch_add(1, Ordering::SeqCst);
        }
    })?;
    hotels.put("h1", &json!({}))?;
    hotels.put("h2", &json!({}))?;
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    assert_eq!(hotels.count()?, 2);
    Ok(())
}

#[test]
fn a_listener_may_drop_its_own_token() -> doclite::Result<()> {
    let db = TestDatabase::new("self-removal");
    let hotels = db.default_collection()?;
    let calls = Arc::new(AtomicUsize::new(0));
    let slot: Arc<Mutex<Option<doclite::ListenerToken>>> = Arc::new(Mutex::new(None));
    let token = hotels.add_change_listener({
        let (calls, slot) = (Arc::clone(&calls), Arc::clone(&slot));
        move |_| {
            calls.fetch_add(1, Ordering::SeqCst);
            let own_token = slot.lock().unwrap().take();
            drop(own_token); // frees this closure once the call returns
        }
    })?;
    *slot.lock().unwrap() = Some(token);
    hotels.put("h1", &json!({}))?;
    hotels.put("h2", &json!({}))?;
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    Ok(())
}

#[test]
fn a_panic_in_dropping_a_self_removed_listener_stays_at_the_boundary() -> doclite::Result<()> {
    struct PanicsWhenDropped;
    impl Drop for PanicsWhenDropped {
        fn drop(&mut self) {
            panic!("dropping what the listener captured");
        }
    }
    let db = TestDatabase::new("drop-panic");
    let hotels = db.default_collection()?;
    let slot: Arc<Mutex<Option<doclite::ListenerToken>>> = Arc::new(Mutex::new(None));
    let captured = PanicsWhenDropped;
    let token = hotels.add_change_listener({
        let slot = Arc::clone(&slot);
        move |_| {
            let _keep = &captured;
            let own_token = slot.lock().unwrap().take();
            drop(own_token); // the closure, and `captured`, are dropped when this call returns
        }
    })?;
    *slot.lock().unwrap() = Some(token);
    hotels.put("h1", &json!({}))?; // would abort the process if the panic unwound into C
    hotels.put("h2", &json!({}))?;
    assert_eq!(hotels.count()?, 2);
    Ok(())
}

#[test]
fn live_queries_deliver_the_rows_now_and_after_each_change() -> doclite::Result<()> {
    let db = TestDatabase::new("live");
    let hotels = db.default_collection()?;
    hotels.put("h1", &json!({"name": "Grand", "city": "Paris"}))?;
    let mut query = db.create_query("SELECT name FROM _ WHERE city = $city ORDER BY name")?;
    query.set_parameters(&json!({"city": "Paris"}))?;

    let (sender, updates) = mpsc::channel();
    let token = query.add_change_listener(move |change| {
        let names: doclite::Result<Vec<String>> = change.results.and_then(|rows| rows.map(|row| row?.get(0)).collect());
        sender.send(names).unwrap();
    })?;
    assert_eq!(updates.recv_timeout(WAIT).expect("the first results")?, ["Grand"]);

    // Saves from another thread reach the listener's thread.
    let writer = hotels.clone();
    std::thread::spawn(move || writer.put("h2", &json!({"name": "Alpha", "city": "Paris"})).unwrap()).join().unwrap();
    assert_eq!(updates.recv_timeout(WAIT).expect("the new results")?, ["Alpha", "Grand"]);
    hotels.put("h3", &json!({"name": "Lyon Inn", "city": "Lyon"}))?;
    query.set_parameters(&json!({"city": "Lyon"}))?;
    let mut latest = updates.recv_timeout(WAIT).expect("results for the new parameters")?;
    while latest != ["Lyon Inn"] {
        latest = updates.recv_timeout(WAIT).expect("results for the new parameters")?;
    }

    drop(token);
    hotels.put("h4", &json!({"name": "Late", "city": "Lyon"}))?;
    // A listener added now hears the run after that save, which would have called the
    // dropped one first.
    let (sender, later) = mpsc::channel();
    let _later = query.add_change_listener(move |change| {
        let names: doclite::Result<Vec<String>> = change.results.and_then(|rows| rows.map(|row| row?.get(0)).collect());
        sender.send(names).unwrap();
    })?;
    while later.recv_timeout(WAIT).expect("the rows after the save")? != ["Late", "Lyon Inn"] {}
    assert!(updates.try_recv().is_err(), "no call after the token is dropped");
    Ok(())
}

#[test]
fn tokens_removed_from_other_threads_while_commits_run() -> doclite::Result<()> {
    let db = TestDatabase::new("removal-race");
    let hotels = db.default_collection()?;
    let calls = Arc::new(AtomicUsize::new(0));
    std::thread::scope(|scope| {
        let writer = hotels.clone();
        scope.spawn(move || {
            for i in 0..200 {
                writer.put(&format!("h{i}"), &json!({"i": i})).unwrap();
            }
        });
        for _ in 0..50 {
            let calls = Arc::clone(&calls);
            let token = hotels
                .add_change_listener(move |_| {
                    calls.fetch_add(1, Ordering::SeqCst);
                    std::thread::yield_now();
                })
                .unwrap();
            // Dropped on another thread than the one calling it: waits for the running call.
            scope.spawn(move || drop(token));
        }
    });
    assert_eq!(hotels.count()?, 200);
    Ok(())
}

/// Saves document `d{i + 1}` for each change of `d{i}` up to `last`, from inside the listener.
fn chain(hotels: &doclite::Collection, last: usize, heard: &Arc<Mutex<Vec<String>>>) -> doclite::Result<doclite::ListenerToken> {
    let heard = Arc::clone(heard);
    hotels.add_change_listener(move |change| {
        for id in &change.document_ids {
            heard.lock().unwrap().push(id.clone());
            let i: usize = id[1..].parse().unwrap();
            if i < last {
                change.collection.put(&format!("d{}", i + 1), &json!({"i": i + 1})).unwrap();
            }
        }
    })
}

#[test]
fn a_listener_that_saves_a_document_for_each_change_sees_every_change_in_order() -> doclite::Result<()> {
    // Called inside its own call, the listener would nest 10,000 calls deep: far past the stack.
    const LAST: usize = 10_000;
    let db = TestDatabase::new("chain");
    let hotels = db.default_collection()?;
    let heard = Arc::new(Mutex::new(Vec::new()));
    let _token = chain(&hotels, LAST, &heard)?;
    hotels.put("d0", &json!({"i": 0}))?;   // returns once the chain has run
    let expected: Vec<String> = (0..=LAST).map(|i| format!("d{i}")).collect();
    assert!(*heard.lock().unwrap() == expected, "the changes are heard once each, in order");
    assert_eq!(hotels.count()?, LAST as u64 + 1);
    Ok(())
}

#[test]
fn a_change_made_inside_a_listener_is_delivered_after_it_returns() -> doclite::Result<()> {
    let db = TestDatabase::new("after-return");
    let hotels = db.default_collection()?;
    let events = Arc::new(Mutex::new(Vec::new()));
    let _token = hotels.add_change_listener({
        let events = Arc::clone(&events);
        move |change| {
            let id = &change.document_ids[0];
            events.lock().unwrap().push(format!("enter {id}"));
            if id == "a" {
                change.collection.put("b", &json!({})).unwrap();
                change.collection.put("c", &json!({})).unwrap();
            }
            events.lock().unwrap().push(format!("leave {id}"));
        }
    })?;
    hotels.put("a", &json!({}))?;
    assert_eq!(*events.lock().unwrap(), ["enter a", "leave a", "enter b", "leave b", "enter c", "leave c"]);
    Ok(())
}

#[test]
fn a_queued_call_of_a_removed_listener_is_not_made() -> doclite::Result<()> {
    let db = TestDatabase::new("queued-removal");
    let hotels = db.default_collection()?;
    let calls = Arc::new(AtomicUsize::new(0));
    let removed: Arc<Mutex<Option<doclite::ListenerToken>>> = Arc::new(Mutex::new(None));
    // The first listener saves a document, which queues a call of the second, then removes the second.
    let _first = hotels.add_change_listener({
        let removed = Arc::clone(&removed);
        move |change| {
            if change.document_ids[0] == "a" {
                change.collection.put("b", &json!({})).unwrap();
                drop(removed.lock().unwrap().take());
            }
        }
    })?;
    let second = hotels.add_change_listener({
        let calls = Arc::clone(&calls);
        move |_| {
            calls.fetch_add(1, Ordering::SeqCst);
        }
    })?;
    *removed.lock().unwrap() = Some(second);
    hotels.put("a", &json!({}))?;
    // Not for "a" (DocLite calls the first listener first, and the second is removed when
    // its turn would come), nor for "b", queued before the removal.
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    assert!(removed.lock().unwrap().is_none());
    Ok(())
}

#[test]
fn a_live_query_listener_that_saves_sees_the_collection_listener_after_it() -> doclite::Result<()> {
    let db = TestDatabase::new("live-saves");
    let hotels = db.default_collection()?;
    let heard = Arc::new(Mutex::new(Vec::new()));
    let _chain = chain(&hotels, 100, &heard)?;
    let query = db.create_query("SELECT COUNT(*) FROM _")?;
    let (sender, counts) = mpsc::channel();
    let started = Arc::new(AtomicUsize::new(0));
    let _live = query.add_change_listener({
        let (writer, started) = (hotels.clone(), Arc::clone(&started));
        move |change| {
            // Its first call starts the chain on the live query's thread, inside this call.
            if started.fetch_add(1, Ordering::SeqCst) == 0 {
                writer.put("d0", &json!({})).unwrap();
            }
            let _ = sender.send(change.results.and_then(|mut rows| rows.next().unwrap()?.get::<i64>(0)));
        }
    })?;
    while counts.recv_timeout(WAIT).expect("live results")? != 101 {}
    assert_eq!(heard.lock().unwrap().len(), 101);
    Ok(())
}
