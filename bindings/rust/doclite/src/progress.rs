//! Progress handlers: Rust closures that a query's runs call as they work
//! ([`Query::set_progress_handler`](crate::Query::set_progress_handler)).
//!
//! DocLite's context for the callback is the handler's number in a registry, not a
//! pointer: a run started while a handler was set calls it until the run ends — a live
//! query's run too, on DocLite's thread — possibly after the query let the handler go.
//! Such a call finds no handler and lets the run go on.

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};

use crate::boundary;

/// A handler, called one call at a time.
type Handler = Mutex<Box<dyn FnMut() -> bool + Send>>;

/// The handlers set, by number.
static HANDLERS: Mutex<BTreeMap<usize, Arc<Handler>>> = Mutex::new(BTreeMap::new());

/// The number of the next handler (never 0, never reused).
static NEXT: AtomicUsize = AtomicUsize::new(1);

fn handlers() -> MutexGuard<'static, BTreeMap<usize, Arc<Handler>>> {
    HANDLERS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A handler in the registry, taken out (and dropped once no call runs) when this is dropped.
#[derive(Debug)]
pub(crate) struct ProgressHandler {
    number: usize,
}

impl ProgressHandler {
    pub(crate) fn new(handler: impl FnMut() -> bool + Send + 'static) -> ProgressHandler {
        let number = NEXT.fetch_add(1, Ordering::Relaxed);
        handlers().insert(number, Arc::new(Mutex::new(Box::new(handler))));
        ProgressHandler { number }
    }

    /// DocLite's context for [`callback`].
    pub(crate) fn context(&self) -> *mut c_void {
        self.number as *mut c_void
    }
}

impl Drop for ProgressHandler {
    fn drop(&mut self) {
        let handler = handlers().remove(&self.number);
        boundary::drop_quietly("dropping a query's progress handler", handler);
    }
}

/// The callback DocLite calls with a [`ProgressHandler::context`]: the handler's answer
/// (true: go on), false after a panic in it (reported on stderr). A call while the handler
/// runs on another thread, or inside itself, goes on without calling it.
pub(crate) unsafe extern "C" fn callback(context: *mut c_void) -> bool {
    boundary::guard("a query's progress handler", false, || {
        let Some(handler) = handlers().get(&(context as usize)).cloned() else { return true };
        // (Guarded apart, so that a panic never unwinds through dropping the handler.)
        let go_on = boundary::guard("a query's progress handler", false, || match handler.try_lock() {
            Ok(mut call) => (*call)(),
            Err(TryLockError::Poisoned(poisoned)) => (*poisoned.into_inner())(),
            Err(TryLockError::WouldBlock) => true,
        });
        boundary::drop_quietly("dropping a query's progress handler", handler);
        go_on
    })
}
