//! Buffered notifications' ready callback: a Rust closure DocLite calls when a buffering
//! database's queue of listener calls stops being empty
//! ([`Database::buffer_notifications`](crate::Database::buffer_notifications)).
//!
//! DocLite's context for the callback is the closure's number in a registry, not a
//! pointer: DocLite reads the callback under its lock and calls it after letting the lock
//! go, so a call may come just after the callback was replaced or buffering stopped. Such a
//! call finds no closure and does nothing; a call already running keeps its closure until
//! it returns.

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use doclite_sys as sys;

use crate::boundary;
use crate::database::{Database, WeakDatabase};

/// A ready callback, and the database it is called with.
struct Ready {
    /// Weak: the database's clones hold the callback, not the other way round.
    database: WeakDatabase,
    callback: Box<dyn Fn(&Database) + Send + Sync>,
}

/// The callbacks set, by number.
static CALLBACKS: Mutex<BTreeMap<usize, Arc<Ready>>> = Mutex::new(BTreeMap::new());

/// The number of the next callback (never 0, never reused).
static NEXT: AtomicUsize = AtomicUsize::new(1);

fn callbacks() -> MutexGuard<'static, BTreeMap<usize, Arc<Ready>>> {
    CALLBACKS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A callback in the registry, taken out (and dropped once no call of it runs) when this is dropped.
#[derive(Debug)]
pub(crate) struct ReadyCallback {
    number: usize,
}

impl ReadyCallback {
    pub(crate) fn new(database: WeakDatabase, callback: impl Fn(&Database) + Send + Sync + 'static) -> ReadyCallback {
        let number = NEXT.fetch_add(1, Ordering::Relaxed);
        callbacks().insert(number, Arc::new(Ready { database, callback: Box::new(callback) }));
        ReadyCallback { number }
    }

    /// DocLite's context for [`callback`].
    pub(crate) fn context(&self) -> *mut c_void {
        self.number as *mut c_void
    }
}

impl Drop for ReadyCallback {
    fn drop(&mut self) {
        let ready = callbacks().remove(&self.number);
        boundary::drop_quietly("dropping a notifications-ready callback", ready);
    }
}

/// The callback DocLite calls with a [`ReadyCallback::context`]: calls the closure with its
/// database, unless the closure was let go or the database's last clone dropped. A panic in
/// it is reported on stderr.
pub(crate) unsafe extern "C" fn callback(context: *mut c_void, _database: *mut sys::CBLDatabase) {
    boundary::guard("a notifications-ready callback", (), || {
        let Some(ready) = callbacks().get(&(context as usize)).cloned() else { return };
        // (Guarded apart, so that a panic never unwinds through dropping the closure.)
        boundary::guard("a notifications-ready callback", (), || {
            if let Some(database) = ready.database.upgrade() {
                (ready.callback)(&database);
                // (Dropping the last clone here stops buffering: DocLite calls this outside its locks.)
                drop(database);
            }
        });
        boundary::drop_quietly("dropping a notifications-ready callback", ready);
    })
}
