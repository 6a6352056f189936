//! User closures that DocLite calls by number: the context DocLite is given for a
//! callback is the closure's number in a [`Registry`], not a pointer. DocLite may call
//! a callback just after it was replaced or cleared (a run keeps the progress handler it
//! started with; buffered notifications read their callback under a lock and call it
//! after letting the lock go): such a call finds no closure. A call already running keeps
//! its closure (an `Arc`) until it returns; the last reference is dropped through
//! [`boundary::drop_quietly`].

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::boundary;

/// The closures of one kind, by number.
pub(crate) struct Registry<T: 'static> {
    entries: Mutex<BTreeMap<usize, Arc<T>>>,
    /// The number of the next entry (never 0, never reused).
    next: AtomicUsize,
    /// What the entries are, for the report of a panic in dropping one.
    what: &'static str,
}

impl<T: 'static> Registry<T> {
    pub(crate) const fn new(what: &'static str) -> Registry<T> {
        Registry { entries: Mutex::new(BTreeMap::new()), next: AtomicUsize::new(1), what }
    }

    fn entries(&self) -> MutexGuard<'_, BTreeMap<usize, Arc<T>>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds `value`; it stays until the returned entry is dropped.
    pub(crate) fn insert(&'static self, value: T) -> Registered<T> {
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        self.entries().insert(number, Arc::new(value));
        Registered { registry: self, number }
    }

    /// The entry whose [`Registered::context`] DocLite called with, if it is still there.
    pub(crate) fn get(&self, context: *mut c_void) -> Option<Arc<T>> {
        self.entries().get(&(context as usize)).cloned()
    }

    /// Lets go of a reference taken by [`get`](Registry::get) (the last one drops the closure, quietly).
    pub(crate) fn release(&self, entry: Arc<T>) {
        boundary::drop_quietly(self.what, entry);
    }
}

/// An entry of a [`Registry`], taken out (and dropped once no call of it runs) when this is dropped.
pub(crate) struct Registered<T: 'static> {
    registry: &'static Registry<T>,
    number: usize,
}

impl<T> Registered<T> {
    /// DocLite's context for the entry's callback.
    pub(crate) fn context(&self) -> *mut c_void {
        self.number as *mut c_void
    }
}

impl<T> Drop for Registered<T> {
    fn drop(&mut self) {
        let entry = self.registry.entries().remove(&self.number);
        boundary::drop_quietly(self.registry.what, entry);
    }
}

impl<T> std::fmt::Debug for Registered<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registered").field("number", &self.number).finish()
    }
}
