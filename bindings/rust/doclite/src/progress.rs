//! Progress handlers: Rust closures that a query's runs call as they work
//! ([`Query::set_progress_handler`](crate::Query::set_progress_handler)), kept in a
//! [`Registry`]: a run started while a handler was set calls it until the run ends — a
//! live query's run too, on DocLite's thread — possibly after the query let the handler
//! go. Such a call finds no handler and lets the run go on.

use std::ffi::c_void;
use std::sync::{Mutex, TryLockError};

use crate::boundary;
use crate::registry::{Registered, Registry};

/// A handler, called one call at a time.
type Handler = Mutex<Box<dyn FnMut() -> bool + Send>>;

static HANDLERS: Registry<Handler> = Registry::new("dropping a query's progress handler");

/// A handler in the registry, taken out (and dropped once no call runs) when this is dropped.
pub(crate) type ProgressHandler = Registered<Handler>;

/// Registers `handler`; its [`context`](Registered::context) is what DocLite calls [`callback`] with.
pub(crate) fn register(handler: impl FnMut() -> bool + Send + 'static) -> ProgressHandler {
    HANDLERS.insert(Mutex::new(Box::new(handler)))
}

/// The callback DocLite calls with a [`ProgressHandler`]'s context: the handler's answer
/// (true: go on), false after a panic in it (reported on stderr). A call while the handler
/// runs on another thread, or inside itself, goes on without calling it.
pub(crate) unsafe extern "C" fn callback(context: *mut c_void) -> bool {
    boundary::guard("a query's progress handler", false, || {
        let Some(handler) = HANDLERS.get(context) else { return true };
        // (Guarded apart, so that a panic never unwinds through dropping the handler.)
        let go_on = boundary::guard("a query's progress handler", false, || match handler.try_lock() {
            Ok(mut call) => (*call)(),
            Err(TryLockError::Poisoned(poisoned)) => (*poisoned.into_inner())(),
            Err(TryLockError::WouldBlock) => true,
        });
        HANDLERS.release(handler);
        go_on
    })
}
