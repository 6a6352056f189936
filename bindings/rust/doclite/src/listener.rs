//! Change listeners: Rust closures that DocLite calls, each shared by its
//! [`ListenerToken`] and by the calls of it under way.
//!
//! DocLite calls a collection's listeners on the committing thread, before the commit
//! returns, so a listener that saves a document would be called again inside its own
//! call, one level deeper at each save, until the stack overflows. Couchbase Lite calls
//! listeners asynchronously; this crate keeps a trampoline per thread: a call that
//! arrives on a thread already running a listener of this crate is queued, its change
//! already copied, and made after the running call returns, in the order the calls
//! arrived, by the outermost call DocLite made on that thread.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use doclite_sys as sys;

use crate::boundary;
use crate::collection::Collection;
use crate::error::{Error, Result};
use crate::ffi::{self, c_string, handle, loaded};
use crate::query::{Query, QueryChange, ResultSet};
use crate::replicator::{ReplicatedDocument, Replicator, ReplicatorStatus};

/// A registered listener. Dropping the token (or [`remove`](ListenerToken::remove))
/// unregisters it, and frees its closure once no call of it is running; a listener may
/// drop its own token from inside its call. A change made before the token is dropped
/// whose call is still queued on a thread (see [`Collection::add_change_listener`]) is
/// not delivered.
#[must_use = "dropping the token removes the listener"]
pub struct ListenerToken {
    token: *mut sys::CBLListenerToken,
    /// The listener (`None` once dropped).
    registration: Option<Arc<Registration<dyn Send + Sync>>>,
}

// Safety: the C API removes a listener from any thread, waiting for calls on others.
unsafe impl Send for ListenerToken {}

impl ListenerToken {
    /// Unregisters the listener (the same as dropping the token).
    pub fn remove(self) {}
}

impl Drop for ListenerToken {
    fn drop(&mut self) {
        // Safety: the token is live and removed once; Remove returns when no call DocLite
        // makes runs on another thread, and none starts after.
        unsafe { loaded().CBLListener_Remove(self.token) };
        if let Some(registration) = self.registration.take() {
            registration.remove();
            boundary::drop_quietly("dropping a change listener", registration);
        }
    }
}

impl std::fmt::Debug for ListenerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListenerToken").finish_non_exhaustive()
    }
}

/// A registered listener, which DocLite's context points to: its token holds it, and so
/// does each call of it under way or queued.
struct Registration<L: ?Sized> {
    /// Set when the token is dropped: a call queued before then is not made.
    removed: AtomicBool,
    /// Held shared by each call while it runs, so that a token dropped on another thread
    /// waits for it (DocLite's own wait does not cover a queued call).
    calling: RwLock<()>,
    listener: L,
}

/// A listener call, its change copied, to be made on this thread.
type Call = Box<dyn FnOnce()>;

thread_local! {
    /// The registration whose listener this thread is calling (null: none).
    static CALLING: Cell<*const ()> = const { Cell::new(std::ptr::null()) };
    /// The calls waiting for the listener call running on this thread (`None`: none runs).
    static WAITING: RefCell<Option<VecDeque<Call>>> = const { RefCell::new(None) };
}

impl<L> Registration<L> {
    /// Another reference to the registration of DocLite's `context`.
    ///
    /// # Safety
    /// `context` is the pointer [`register::<L>`](register) gave DocLite, and DocLite is
    /// calling with it: its token is not dropped yet, so the token's reference is alive.
    unsafe fn from_context(context: *mut c_void) -> Arc<Registration<L>> {
        let pointer = context as *const Registration<L>;
        Arc::increment_strong_count(pointer);
        Arc::from_raw(pointer)
    }
}

impl<L: ?Sized> Registration<L> {
    /// The registration's address, as [`CALLING`] holds it.
    fn address(&self) -> *const () {
        self as *const Self as *const ()
    }

    /// Calls `call` with the listener, unless its token was dropped; a panic is reported.
    fn call(&self, call: impl FnOnce(&L)) {
        let _calling = self.calling.read().unwrap_or_else(PoisonError::into_inner);
        if self.removed.load(Ordering::Acquire) {
            return;
        }
        let outer = CALLING.with(|calling| calling.replace(self.address()));
        boundary::guard("a change listener", (), || call(&self.listener));
        CALLING.with(|calling| calling.set(outer));
    }

    /// Marks the token dropped, and waits for a call running on another thread.
    fn remove(&self) {
        self.removed.store(true, Ordering::Release);
        // (This thread's own call holds the lock shared: a listener may drop its own token.)
        if CALLING.with(Cell::get) != self.address() {
            drop(self.calling.write().unwrap_or_else(PoisonError::into_inner));
        }
    }
}

/// Makes a call of `registration`'s listener with `call` now or, when this thread is
/// running a listener call already, after it (see the module's documentation).
fn deliver<L: 'static>(registration: Arc<Registration<L>>, call: impl FnOnce(&L) + 'static) {
    trampoline(Box::new(move || {
        registration.call(call);
        boundary::drop_quietly("dropping a change listener", registration);
    }));
}

/// Makes `call`, then the calls queued on this thread meanwhile, in order; or queues
/// `call` when a call is running on this thread.
fn trampoline(call: Call) {
    let mut next = Some(call);
    // (Err: the thread is ending and has no queue any more; the call is made now.)
    let outermost = WAITING.try_with(|waiting| {
        let mut waiting = waiting.borrow_mut();
        match waiting.as_mut() {
            Some(queue) => queue.extend(next.take()),
            None => *waiting = Some(VecDeque::new()),
        }
    });
    while let Some(call) = next.take() {
        call();
        if outermost.is_ok() {
            next = WAITING
                .try_with(|waiting| {
                    let mut waiting = waiting.borrow_mut();
                    let next = waiting.as_mut().and_then(VecDeque::pop_front);
                    if next.is_none() {
                        *waiting = None;
                    }
                    next
                })
                .ok()
                .flatten();
        }
    }
}

/// Registers `listener` through `add`, which returns the C token.
fn register<L: Send + Sync + 'static>(
    listener: L,
    add: impl FnOnce(*mut c_void, *mut sys::CBLError) -> *mut sys::CBLListenerToken,
) -> Result<ListenerToken> {
    let registration = Arc::new(Registration { removed: AtomicBool::new(false), calling: RwLock::new(()), listener });
    let context = Arc::as_ptr(&registration) as *mut c_void;
    let (token, error) = ffi::with_error(|error| add(context, error));
    if token.is_null() {
        return Err(Error::from_c(&error));
    }
    Ok(ListenerToken { token, registration: Some(registration) })
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
    boundary::guard("a change listener", (), || {
        // Safety: DocLite calls with the context registered with this function, and a
        // change (and its IDs) valid for the call, copied here.
        let (registration, change) = unsafe { (Registration::<CollectionListener<F>>::from_context(context), &*change) };
        let document_ids: Vec<String> = (0..change.numDocs as usize)
            .map(|i| unsafe { ffi::copy_string(*change.docIDs.add(i)) }.unwrap_or_default())
            .collect();
        deliver(registration, move |listener| {
            (listener.callback)(&CollectionChange { collection: &listener.collection, document_ids });
        });
    });
}

pub(crate) fn add_collection_listener<F>(collection: &Collection, callback: F) -> Result<ListenerToken>
where
    F: Fn(&CollectionChange<'_>) + Send + Sync + 'static,
{
    let listener = CollectionListener { collection: collection.clone(), callback };
    register(listener, |context, error| unsafe {
        // Safety: a live collection; the context lives until the token is dropped.
        loaded().CBLCollection_AddChangeListener(collection.as_ptr(), Some(collection_changed::<F>), context, error)
    })
}

unsafe extern "C" fn document_changed<F>(context: *mut c_void, change: *const sys::CBLDocumentChange)
where
    F: Fn(&Collection, &str) + Send + Sync + 'static,
{
    boundary::guard("a change listener", (), || {
        // Safety: as in collection_changed.
        let (registration, change) = unsafe { (Registration::<CollectionListener<F>>::from_context(context), &*change) };
        let id = unsafe { ffi::copy_string(change.docID) }.unwrap_or_default();
        deliver(registration, move |listener| (listener.callback)(&listener.collection, &id));
    });
}

pub(crate) fn add_document_listener<F>(collection: &Collection, id: &str, callback: F) -> Result<ListenerToken>
where
    F: Fn(&Collection, &str) + Send + Sync + 'static,
{
    let id = c_string(id, "the document ID")?;
    let listener = CollectionListener { collection: collection.clone(), callback };
    register(listener, |context, error| unsafe {
        // Safety: a live collection; the ID outlives the call; the context lives until the token is dropped.
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
    boundary::guard("a change listener", (), || {
        // Safety: DocLite calls with the context registered with this function.
        let registration = unsafe { Registration::<QueryListener<F>>::from_context(context) };
        // The rows now, copied for the call. Safety: `query` and `token` are borrowed for
        // this call; the result set comes back +1.
        let results = handle(|error| unsafe { loaded().CBLQuery_CopyCurrentResults(query, token, error) });
        deliver(registration, move |listener| {
            let results = results.map(|results| ResultSet::new(results, &listener.query));
            let mut callback = listener.callback.lock().unwrap_or_else(PoisonError::into_inner);
            (*callback)(QueryChange { query: &listener.query, results });
        });
    });
}

pub(crate) fn add_query_listener<F>(query: &Query, callback: F) -> Result<ListenerToken>
where
    F: FnMut(QueryChange<'_>) + Send + 'static,
{
    let listener = QueryListener { query: query.share(), callback: Mutex::new(callback) };
    register(listener, |context, error| unsafe {
        // Safety: a live query; the context lives until the token is dropped.
        loaded().CBLQuery_AddChangeListener(query.as_ptr(), Some(query_changed::<F>), context, error)
    })
}

/// A replicator's listener, with the replicator it reports on.
struct ReplicatorListener<F> {
    callback: F,
}

unsafe extern "C" fn replicator_changed<F>(context: *mut c_void, _replicator: *mut sys::CBLReplicator,
                                           status: *const sys::CBLReplicatorStatus)
where
    F: Fn(&ReplicatorStatus) + Send + Sync + 'static,
{
    boundary::guard("a replicator listener", (), || {
        // Safety: DocLite calls with the context registered with this function and a status borrowed for the call.
        let (registration, status) = unsafe { (Registration::<ReplicatorListener<F>>::from_context(context), ReplicatorStatus::from_c(&*status)) };
        deliver(registration, move |listener| (listener.callback)(&status));
    });
}

pub(crate) fn add_replicator_listener<F>(replicator: &Replicator, callback: F) -> Result<ListenerToken>
where
    F: Fn(&ReplicatorStatus) + Send + Sync + 'static,
{
    register(ReplicatorListener { callback }, |context, error| unsafe {
        // Safety: a live replicator; the context lives until the token is dropped.
        loaded().CBLReplicator_AddChangeListener(replicator.as_ptr(), Some(replicator_changed::<F>), context, error)
    })
}

unsafe extern "C" fn documents_replicated<F>(context: *mut c_void, _replicator: *mut sys::CBLReplicator, is_push: bool,
                                             count: std::os::raw::c_uint, documents: *const sys::CBLReplicatedDocument)
where
    F: Fn(bool, &[ReplicatedDocument]) + Send + Sync + 'static,
{
    boundary::guard("a replicator listener", (), || {
        // Safety: as in replicator_changed; `documents` holds `count` entries borrowed for the call.
        let registration = unsafe { Registration::<ReplicatorListener<F>>::from_context(context) };
        let documents: Vec<ReplicatedDocument> = (0..count as usize)
            .map(|i| unsafe { ReplicatedDocument::from_c(&*documents.add(i)) })
            .collect();
        deliver(registration, move |listener| (listener.callback)(is_push, &documents));
    });
}

pub(crate) fn add_document_replication_listener<F>(replicator: &Replicator, callback: F) -> Result<ListenerToken>
where
    F: Fn(bool, &[ReplicatedDocument]) + Send + Sync + 'static,
{
    register(ReplicatorListener { callback }, |context, error| unsafe {
        // Safety: a live replicator; the context lives until the token is dropped.
        loaded().CBLReplicator_AddDocumentReplicationListener(replicator.as_ptr(), Some(documents_replicated::<F>), context, error)
    })
}
