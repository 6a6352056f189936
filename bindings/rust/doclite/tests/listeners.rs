//! Change listeners and live queries taking closures: calls from several committing
//! threads, a panicking closure stopped at the boundary, a listener that drops its
//! own token, and no call after a token is dropped.

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
    assert_eq!(hotels.count(), 2);
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
    assert_eq!(hotels.count(), 2);
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
    std::thread::sleep(Duration::from_millis(800));
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
    assert_eq!(hotels.count(), 200);
    Ok(())
}
