//! No panic crosses into DocLite or aborts at the boundary: panics whose payload panics
//! again when dropped, and closures whose captures panic when dropped, in listeners,
//! predictive models, progress handlers and notifications-ready callbacks. Each scenario runs in a child process (this
//! test binary running that test alone), so that an abort shows as its exit status; the
//! parent checks that it ended well and reported the panics on stderr.

mod common;

use std::collections::HashMap;
use std::process::Command;

use common::TestDatabase;
use doclite::ErrorKind;
use serde_json::{json, Map, Value};

/// Set in the child process, which runs the scenario.
const CHILD: &str = "DOCLITE_BOUNDARY_SCENARIO";

/// Panics when dropped (outside an unwinding, where Rust would abort whatever the crate does).
struct PanicsWhenDropped(&'static str);

impl Drop for PanicsWhenDropped {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            panic!("{}", self.0);
        }
    }
}

/// In the parent: runs test `name` alone in a child process that runs `scenario`, asserts
/// that it succeeded, and returns its stderr. In the child: runs `scenario`, and `None`.
fn in_child(name: &str, scenario: impl FnOnce() -> doclite::Result<()>) -> Option<String> {
    if std::env::var_os(CHILD).is_some() {
        scenario().expect("the scenario runs");
        return None;
    }
    let output = Command::new(std::env::current_exe().expect("the test binary"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, name)
        .output()
        .expect("the child runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "the child process ended with {}:\n{stderr}", output.status);
    Some(stderr)
}

#[test]
fn a_listener_panic_whose_payload_panics_when_dropped() {
    let stderr = in_child("a_listener_panic_whose_payload_panics_when_dropped", || {
        let db = TestDatabase::new("boundary-payload");
        let hotels = db.default_collection()?;
        let _token = hotels.add_change_listener(|_| std::panic::panic_any(PanicsWhenDropped("the payload's drop")))?;
        hotels.put("h1", &json!({}))?;
        hotels.put("h2", &json!({}))?;
        assert_eq!(hotels.count()?, 2);
        Ok(())
    });
    if let Some(stderr) = stderr {
        assert!(stderr.contains("doclite: a change listener panicked (a panic)"), "{stderr}");
    }
}

#[test]
fn a_model_whose_capture_panics_when_dropped_is_unregistered() {
    let stderr = in_child("a_model_whose_capture_panics_when_dropped_is_unregistered", || {
        let db = TestDatabase::new("boundary-model");
        db.default_collection()?.put("r1", &json!({"text": "good"}))?;
        let captured = PanicsWhenDropped("dropping what the model captured");
        doclite::register_model("echo", move |input: &Map<String, Value>| {
            let _keep = &captured;
            Some(input.clone())
        })?;
        let query = db.create_query("SELECT PREDICTION(echo, {'text': text}, text) FROM _")?;
        assert_eq!(query.execute()?.next().expect("a row")?.get::<String>(0)?, "good");
        doclite::unregister_model("echo")?;   // drops the closure, and what it captured
        // Replacing a model drops the one it replaces the same way.
        let captured = PanicsWhenDropped("dropping the replaced model");
        doclite::register_model("echo", move |_: &Map<String, Value>| {
            let _keep = &captured;
            None
        })?;
        doclite::register_model("echo", |_: &Map<String, Value>| None)?;
        doclite::unregister_model("echo")
    });
    if let Some(stderr) = stderr {
        assert!(stderr.contains("doclite: dropping a predictive model panicked (dropping what the model captured)"), "{stderr}");
        assert!(stderr.contains("doclite: dropping a predictive model panicked (dropping the replaced model)"), "{stderr}");
    }
}

#[test]
fn a_model_panic_whose_payload_panics_when_dropped() {
    let stderr = in_child("a_model_panic_whose_payload_panics_when_dropped", || {
        let db = TestDatabase::new("boundary-model-payload");
        db.default_collection()?.put("r1", &json!({"text": "good"}))?;
        doclite::register_model("bomb", |_: &Map<String, Value>| std::panic::panic_any(PanicsWhenDropped("the payload's drop")))?;
        let query = db.create_query("SELECT PREDICTION(bomb, {'text': text}) FROM _")?;
        let error = query.execute().and_then(|mut rows| rows.next().transpose()).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidQuery);
        assert!(error.message().contains("predictive model 'bomb' failed: panicked: a panic"), "{error}");
        doclite::unregister_model("bomb")
    });
    if let Some(stderr) = stderr {
        assert!(stderr.contains("the payload's drop"), "the second panic happened: {stderr}");
    }
}

#[test]
fn progress_handlers_whose_captures_panic_when_dropped() {
    let stderr = in_child("progress_handlers_whose_captures_panic_when_dropped", || {
        let db = TestDatabase::new("boundary-progress");
        db.default_collection()?.save_many((0..20).map(|n| (format!("d{n}"), HashMap::from([("n", n)]))))?;
        let mut query = db.create_query("SELECT COUNT(*) FROM _ AS a JOIN _ AS b ON a.n >= b.n")?;
        for what in ["replaced", "cleared", "dropped with the query"] {
            let captured = PanicsWhenDropped(what);
            query.set_progress_handler(10, move || {
                let _keep = &captured;
                true
            })?;
            assert_eq!(query.execute()?.next().expect("a row")?.get::<i64>(0)?, 210);
            match what {
                "replaced" => query.set_progress_handler(10, || true)?,
                "cleared" => query.clear_progress_handler()?,
                _ => drop(std::mem::replace(&mut query, db.create_query("SELECT 1 FROM _")?)),
            }
        }
        // A handler panicking with a payload that panics again stops its run.
        let mut query = db.create_query("SELECT COUNT(*) FROM _ AS a JOIN _ AS b ON a.n >= b.n")?;
        query.set_progress_handler(10, || std::panic::panic_any(PanicsWhenDropped("the payload's drop")))?;
        assert_eq!(query.execute().map(drop).unwrap_err().kind(), ErrorKind::Interrupted);
        Ok(())
    });
    if let Some(stderr) = stderr {
        for what in ["replaced", "cleared", "dropped with the query"] {
            assert!(stderr.contains(&format!("doclite: dropping a query's progress handler panicked ({what})")), "{stderr}");
        }
        assert!(stderr.contains("doclite: a query's progress handler panicked (a panic)"), "{stderr}");
    }
}

#[test]
fn ready_callbacks_whose_panics_and_captures_panic_when_dropped() {
    let stderr = in_child("ready_callbacks_whose_panics_and_captures_panic_when_dropped", || {
        let db = TestDatabase::new("boundary-ready");
        let hotels = db.default_collection()?;
        let heard = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let _token = hotels.add_change_listener({
            let heard = std::sync::Arc::clone(&heard);
            move |_| {
                heard.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        })?;
        // A ready callback panicking with a payload that panics again: the commit returns.
        db.buffer_notifications(Some(|_: &doclite::Database| std::panic::panic_any(PanicsWhenDropped("the payload's drop"))));
        hotels.put("h1", &json!({}))?;
        db.send_notifications();
        assert_eq!(heard.load(std::sync::atomic::Ordering::SeqCst), 1);
        // Callbacks whose captures panic when dropped: replaced, stopped, and with the last clone.
        for what in ["replaced", "stopped", "dropped with the database"] {
            let other = doclite::Database::open("other", &doclite::DatabaseConfiguration::in_directory(db.directory()))?;
            let captured = PanicsWhenDropped(what);
            other.buffer_notifications(Some(move |_: &doclite::Database| {
                let _keep = &captured;
            }));
            match what {
                "replaced" => other.buffer_notifications(Some(|_: &doclite::Database| {})),
                "stopped" => other.buffer_notifications(None::<fn(&doclite::Database)>),
                _ => {}
            }
            drop(other);
        }
        Ok(())
    });
    if let Some(stderr) = stderr {
        assert!(stderr.contains("doclite: a notifications-ready callback panicked (a panic)"), "{stderr}");
        assert!(stderr.contains("the payload's drop"), "the second panic happened: {stderr}");
        for what in ["replaced", "stopped", "dropped with the database"] {
            assert!(stderr.contains(&format!("doclite: dropping a notifications-ready callback panicked ({what})")), "{stderr}");
        }
    }
}
