//! Buffered notifications' ready callback: a Rust closure DocLite calls when a buffering
//! database's queue of listener calls stops being empty
//! ([`Database::buffer_notifications`](crate::Database::buffer_notifications)), kept in a
//! [`Registry`]: DocLite reads the callback under its lock and calls it after letting the
//! lock go, so a call may come just after the callback was replaced or buffering stopped.
//! Such a call finds no closure and does nothing.

use std::ffi::c_void;

use doclite_sys as sys;

use crate::boundary;
use crate::database::{Database, WeakDatabase};
use crate::registry::{Registered, Registry};

/// A ready callback, and the database it is called with.
pub(crate) struct Ready {
    /// Weak: the database's clones hold the callback, not the other way round.
    database: WeakDatabase,
    callback: Box<dyn Fn(&Database) + Send + Sync>,
}

static CALLBACKS: Registry<Ready> = Registry::new("dropping a notifications-ready callback");

/// A callback in the registry, taken out (and dropped once no call of it runs) when this is dropped.
pub(crate) type ReadyCallback = Registered<Ready>;

/// Registers `callback` for `database`; its [`context`](Registered::context) is what
/// DocLite calls [`callback`] with.
pub(crate) fn register(database: WeakDatabase, callback: impl Fn(&Database) + Send + Sync + 'static) -> ReadyCallback {
    CALLBACKS.insert(Ready { database, callback: Box::new(callback) })
}

/// The callback DocLite calls with a [`ReadyCallback`]'s context: calls the closure with its
/// database, unless the closure was let go or the database's last clone dropped. A panic in
/// it is reported on stderr.
pub(crate) unsafe extern "C" fn callback(context: *mut c_void, _database: *mut sys::CBLDatabase) {
    boundary::guard("a notifications-ready callback", (), || {
        let Some(ready) = CALLBACKS.get(context) else { return };
        // (Guarded apart, so that a panic never unwinds through dropping the closure.)
        boundary::guard("a notifications-ready callback", (), || {
            if let Some(database) = ready.database.upgrade() {
                (ready.callback)(&database);
                // (Dropping the last clone here stops buffering: DocLite calls this outside its locks.)
                drop(database);
            }
        });
        CALLBACKS.release(ready);
    })
}
