//! Change listeners: Rust closures that DocLite calls, each kept alive by its
//! [`ListenerToken`] until the C API says its last call has returned.

use std::cell::RefCell;
use std::sync::Mutex;
use std::ffi::c_void;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};

use doclite_sys as sys;

use crate::collection::Collection;
use crate::error::{Error, Result};
use crate::ffi::{self, c_string, handle, loaded};
use crate::query::{Query, QueryChange, ResultSet};

/// A registered listener. Dropping the token (or [`remove`](ListenerToken::remove))
/// unregisters it and frees its closure once no call of it is running; a listener may
/// drop its own token from inside its call.
#[must_use = "dropping the token removes the listener"]
pub struct ListenerToken {
    token: *mut sys::CBLListenerToken,
    context: *mut c_void,
    free_context: unsafe fn(*mut c_void),
}

// Safety: the C API removes a listener from any thread, waiting for calls on others.
unsafe impl Send for ListenerToken {}

impl ListenerToken {
    /// Unregisters the listener (the same as dropping the token).
    pub fn remove(self) {}
}

impl Drop for ListenerToken {
    fn drop(&mut self) {
        // Safety: the token is live and removed once; Remove returns when no call runs on another thread.
        unsafe { loaded().CBLListener_Remove(self.token) };
        if !calls::free_after_call(self.context, self.free_context) {
            // Safety: no call of the listener is running, and none will start.
            unsafe { (self.free_context)(self.context) }
        }
    }
}

impl std::fmt::Debug for ListenerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListenerToken").finish_non_exhaustive()
    }
}

/// The calls running on this thread, so that a listener that drops its own token frees
/// its closure only when the call returns.
mod calls {
    use super::*;

    /// A call running on this thread: its listener's context, and how to free it once the
    /// call returns when its token was dropped inside the call.
    struct RunningCall {
        context: usize,
        free_after: Option<unsafe fn(*mut c_void)>,
    }

    thread_local! {
        static RUNNING: RefCell<Vec<RunningCall>> = const { RefCell::new(Vec::new()) };
    }

    /// Runs `call` as a call of the listener `context`, then frees the listener if its token
    /// was dropped inside the call. A panic — in the closure or in dropping what it captured —
    /// is reported on stderr, never unwound into C.
    pub(super) fn run(context: *mut c_void, call: impl FnOnce()) {
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let _ = RUNNING.try_with(|running| running.borrow_mut().push(RunningCall { context: context as usize, free_after: None }));
            let called = catch_unwind(AssertUnwindSafe(call));
            let free = RUNNING
                .try_with(|running| {
                    let mut running = running.borrow_mut();
                    let call = running.pop()?;
                    call.free_after.filter(|_| running.iter().all(|other| other.context != call.context))
                })
                .ok()
                .flatten();
            if let Some(free) = free {
                // Safety: the token is gone and this was the listener's last call on this thread.
                unsafe { free(context) }
            }
            called
        }));
        if let Err(panic) | Ok(Err(panic)) = outcome {
            report_panic("a change listener", panic);
        }
    }

    /// When a call of `context` is running on this thread, marks it to be freed when it
    /// returns (true); otherwise false.
    /// (During a thread's teardown no call can be running on it: false.)
    pub(super) fn free_after_call(context: *mut c_void, free: unsafe fn(*mut c_void)) -> bool {
        RUNNING
            .try_with(|running| {
                let mut inside = false;
                for call in running.borrow_mut().iter_mut().filter(|call| call.context == context as usize) {
                    call.free_after = Some(free);
                    inside = true;
                }
                inside
            })
            .unwrap_or(false)
    }
}

/// Reports on stderr a panic stopped at the boundary with C (write errors ignored: nothing may unwind).
pub(crate) fn report_panic(what: &str, panic: Box<dyn std::any::Any + Send>) {
    let message = panic_message(&*panic);
    let _ = writeln!(std::io::stderr(), "doclite: {what} panicked ({message}); stopped at its boundary with DocLite");
}

/// The message a panic was raised with (its `&str` or `String` payload).
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

unsafe fn free<T>(context: *mut c_void) {
    drop(Box::from_raw(context as *mut T));
}

/// Registers `context` (a boxed listener) through `add`, which returns the C token; on failure the box is freed.
fn register<T>(listener: T, add: impl FnOnce(*mut c_void, *mut sys::CBLError) -> *mut sys::CBLListenerToken) -> Result<ListenerToken> {
    let context = Box::into_raw(Box::new(listener)) as *mut c_void;
    let (token, error) = ffi::with_error(|error| add(context, error));
    if token.is_null() {
        // Safety: the library did not keep the context.
        unsafe { free::<T>(context) };
        return Err(Error::from_c(&error));
    }
    Ok(ListenerToken { token, context, free_context: free::<T> })
}

/// A commit's changes to a collection ([`Collection::add_change_listener`]).
#[derive(Debug)]
pub struct CollectionChange<'a> {
    /// The collection.
    pub collection: &'a Collection,
    /// The IDs of the documents the commit changed.
    pub document_ids: Vec<String>,
}

struct CollectionListener<F> {
    collection: Collection,
    callback: F,
}

unsafe extern "C" fn collection_changed<F>(context: *mut c_void, change: *const sys::CBLCollectionChange)
where
    F: Fn(&CollectionChange<'_>) + Send + Sync + 'static,
{
    calls::run(context, || {
        // Safety: the context is the listener registered with this function, alive while called;
        // the change and its IDs are valid for the call.
        let (listener, change) = unsafe { (&*(context as *const CollectionListener<F>), &*change) };
        let document_ids = (0..change.numDocs as usize)
            .map(|i| unsafe { ffi::copy_string(*change.docIDs.add(i)) }.unwrap_or_default())
            .collect();
        (listener.callback)(&CollectionChange { collection: &listener.collection, document_ids });
    });
}

pub(crate) fn add_collection_listener<F>(collection: &Collection, callback: F) -> Result<ListenerToken>
where
    F: Fn(&CollectionChange<'_>) + Send + Sync + 'static,
{
    let listener = CollectionListener { collection: collection.clone(), callback };
    register(listener, |context, error| unsafe {
        // Safety: a live collection; the context lives until the token is removed.
        loaded().CBLCollection_AddChangeListener(collection.as_ptr(), Some(collection_changed::<F>), context, error)
    })
}

unsafe extern "C" fn document_changed<F>(context: *mut c_void, change: *const sys::CBLDocumentChange)
where
    F: Fn(&Collection, &str) + Send + Sync + 'static,
{
    calls::run(context, || {
        // Safety: as in collection_changed.
        let (listener, change) = unsafe { (&*(context as *const CollectionListener<F>), &*change) };
        let id = unsafe { ffi::copy_string(change.docID) }.unwrap_or_default();
        (listener.callback)(&listener.collection, &id);
    });
}

pub(crate) fn add_document_listener<F>(collection: &Collection, id: &str, callback: F) -> Result<ListenerToken>
where
    F: Fn(&Collection, &str) + Send + Sync + 'static,
{
    let id = c_string(id, "the document ID")?;
    let listener = CollectionListener { collection: collection.clone(), callback };
    register(listener, |context, error| unsafe {
        // Safety: a live collection; the ID outlives the call; the context lives until the token is removed.
        loaded().CBLCollection_AddDocumentChangeListener(collection.as_ptr(), id.as_ptr(), Some(document_changed::<F>), context, error)
    })
}

/// A live query's listener. DocLite calls it one call at a time per token; the mutex
/// keeps the `FnMut` exclusive even if that promise were broken.
struct QueryListener<F> {
    query: Query,
    callback: Mutex<F>,
}

unsafe extern "C" fn query_changed<F>(context: *mut c_void, query: *mut sys::CBLQuery, token: *mut sys::CBLListenerToken)
where
    F: FnMut(QueryChange<'_>) + Send + 'static,
{
    calls::run(context, || {
        // Safety: the context is the listener registered with this function; calls do not overlap.
        let listener = unsafe { &*(context as *const QueryListener<F>) };
        // Safety: `query` and `token` are borrowed for the call; the result set comes back +1.
        let results = handle(|error| unsafe { loaded().CBLQuery_CopyCurrentResults(query, token, error) })
            .map(|results| ResultSet::new(results, &listener.query));
        let mut callback = listener.callback.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        (*callback)(QueryChange { query: &listener.query, results });
    });
}

pub(crate) fn add_query_listener<F>(query: &Query, callback: F) -> Result<ListenerToken>
where
    F: FnMut(QueryChange<'_>) + Send + 'static,
{
    let listener = QueryListener { query: query.share(), callback: Mutex::new(callback) };
    register(listener, |context, error| unsafe {
        // Safety: a live query; the context lives until the token is removed.
        loaded().CBLQuery_AddChangeListener(query.as_ptr(), Some(query_changed::<F>), context, error)
    })
}
