//! Sync with a PostgreSQL server or another database (docs/sync.md): Couchbase Lite's
//! replicator.

use std::ffi::{c_char, c_void};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use doclite_sys as sys;

use crate::boundary;
use crate::collection::Collection;
use crate::database::Database;
use crate::document::Document;
use crate::error::{Error, Result};
use crate::ffi::{self, c_string, handle, loaded, Handle};
use crate::listener::{self, ListenerToken};

/// Which way a replicator moves revisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReplicatorType {
    /// Both ways.
    #[default]
    PushAndPull,
    /// Local changes to the server.
    Push,
    /// Server changes to the local database.
    Pull,
}

/// What a replicator is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActivityLevel {
    /// Not running: finished, stopped, or failed (see [`ReplicatorStatus::error`]).
    Stopped,
    /// The server cannot be reached; it will try again.
    Offline,
    /// Connecting.
    Connecting,
    /// Caught up, waiting for changes (continuous).
    Idle,
    /// Moving revisions.
    Busy,
}

/// A replicator's activity, progress and error.
#[derive(Debug)]
pub struct ReplicatorStatus {
    /// What it is doing.
    pub activity: ActivityLevel,
    /// How far it got, from 0 to 1 (documents, approximate).
    pub complete: f32,
    /// Documents replicated.
    pub document_count: u64,
    /// Why it is offline or stopped, if not by request.
    pub error: Option<Error>,
}

impl ReplicatorStatus {
    pub(crate) fn from_c(status: &sys::CBLReplicatorStatus) -> ReplicatorStatus {
        let activity = match u32::from(status.activity) {
            sys::kCBLReplicatorOffline => ActivityLevel::Offline,
            sys::kCBLReplicatorConnecting => ActivityLevel::Connecting,
            sys::kCBLReplicatorIdle => ActivityLevel::Idle,
            sys::kCBLReplicatorBusy => ActivityLevel::Busy,
            _ => ActivityLevel::Stopped,
        };
        ReplicatorStatus {
            activity,
            complete: status.progress.complete,
            document_count: status.progress.documentCount,
            error: (status.error.code != 0).then(|| Error::from_c(&status.error)),
        }
    }
}

/// What a replicated revision is (Couchbase Lite's `DocumentFlags`; more may come).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct DocumentFlags {
    /// The revision is a deletion.
    pub deleted: bool,
    /// The server no longer lets this user read the document.
    pub access_removed: bool,
}

impl DocumentFlags {
    fn from_c(flags: sys::CBLDocumentFlags) -> DocumentFlags {
        DocumentFlags {
            deleted: flags & sys::kCBLDocumentFlagsDeleted != 0,
            access_removed: flags & sys::kCBLDocumentFlagsAccessRemoved != 0,
        }
    }
}

/// A document pushed or pulled.
#[derive(Debug)]
pub struct ReplicatedDocument {
    /// Its ID.
    pub id: String,
    /// A deletion, or access removed: purged here, or with
    /// [`ReplicatorOptions::disable_auto_purge`] only reported.
    pub flags: DocumentFlags,
    /// Why it did not replicate; `None` when it did.
    pub error: Option<Error>,
    /// Its scope's name.
    pub scope: String,
    /// Its collection's name.
    pub collection: String,
}

impl ReplicatedDocument {
    /// Safety: `document`'s strings are valid for the call.
    pub(crate) unsafe fn from_c(document: &sys::CBLReplicatedDocument) -> ReplicatedDocument {
        ReplicatedDocument {
            id: ffi::copy_string(document.ID).unwrap_or_default(),
            flags: DocumentFlags::from_c(document.flags),
            error: (document.error.code != 0).then(|| Error::from_c(&document.error)),
            scope: ffi::copy_string(document.scope).unwrap_or_default(),
            collection: ffi::copy_string(document.collection).unwrap_or_default(),
        }
    }
}

/// A push or pull filter: `(document, flags)` → whether it replicates. A pull filter is
/// also asked, with [`DocumentFlags::access_removed`] and an empty document, before a
/// document the user may no longer read is purged; false keeps it.
pub type ReplicationFilter = Arc<dyn Fn(&Document, DocumentFlags) -> bool + Send + Sync>;

/// A conflict resolver: `(document ID, local, remote)`, a side `None` when deleted → what to
/// keep (docs/sync.md, "Conflicts"). Without one, Couchbase Lite's default decides.
pub type ConflictResolver = Arc<dyn Fn(&str, Option<&Document>, Option<&Document>) -> Resolution + Send + Sync>;

/// What a [`ConflictResolver`] keeps.
#[derive(Debug)]
pub enum Resolution {
    /// The local revision (pushed next).
    Local,
    /// The server's revision.
    Remote,
    /// A new revision with this document's properties (its ID is not used).
    Merged(Document),
    /// A deletion.
    Delete,
}

/// How a replicator runs; the default pushes and pulls once, every document, with
/// Couchbase Lite's retry defaults.
#[derive(Clone, Default)]
pub struct ReplicatorOptions {
    /// Which way revisions move.
    pub replicator_type: ReplicatorType,
    /// Keep syncing changes as they happen, until stopped.
    pub continuous: bool,
    /// Pull only documents in these channels (their `channels` property).
    pub channels: Option<Vec<String>>,
    /// Push and pull only these documents.
    pub document_ids: Option<Vec<String>>,
    /// Create (or upgrade) DocLite's schema on the server when it has none.
    pub create_schema: bool,
    /// Attempts to reach the server before stopping with the error (0: the default).
    pub max_attempts: u32,
    /// The longest wait between attempts, in seconds (0: 300).
    pub max_attempt_wait_time: u32,
    /// How often an idle continuous replicator checks the connection, in seconds (0: 300).
    pub heartbeat: u32,
    /// Keep the documents the server no longer lets this user read (they are only reported).
    pub disable_auto_purge: bool,
    /// Which local documents are pushed.
    pub push_filter: Option<ReplicationFilter>,
    /// Which pulled documents are kept.
    pub pull_filter: Option<ReplicationFilter>,
    /// How a conflict is resolved.
    pub conflict_resolver: Option<ConflictResolver>,
}

impl std::fmt::Debug for ReplicatorOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplicatorOptions")
            .field("replicator_type", &self.replicator_type)
            .field("continuous", &self.continuous)
            .field("channels", &self.channels)
            .field("document_ids", &self.document_ids)
            .field("create_schema", &self.create_schema)
            .field("max_attempts", &self.max_attempts)
            .field("max_attempt_wait_time", &self.max_attempt_wait_time)
            .field("heartbeat", &self.heartbeat)
            .field("disable_auto_purge", &self.disable_auto_purge)
            .field("push_filter", &self.push_filter.is_some())
            .field("pull_filter", &self.pull_filter.is_some())
            .field("conflict_resolver", &self.conflict_resolver.is_some())
            .finish()
    }
}

/// The filters and resolver a replicator calls, behind its C context.
struct Callbacks {
    push_filter: Option<ReplicationFilter>,
    pull_filter: Option<ReplicationFilter>,
    conflict_resolver: Option<ConflictResolver>,
}

/// A document handle lent for a callback's duration, as a [`Document`] of its own reference.
///
/// Safety: `pointer` is a live document handle (or NULL) for the call.
unsafe fn lent_document(pointer: *const sys::CBLDocument) -> Option<Document> {
    if pointer.is_null() {
        return None;
    }
    // Safety: a live handle; the reference taken here is the Document's.
    unsafe { loaded().CBL_Retain(pointer as *const _) };
    Handle::from_owned(pointer as *mut sys::CBLDocument).map(Document::from_handle)
}

/// Runs `filter` of the callbacks at `context` on a lent document.
///
/// Safety: `context` is the replicator's `Callbacks`; `document` is lent for the call.
unsafe fn filter(context: *mut c_void, document: *mut sys::CBLDocument, flags: sys::CBLDocumentFlags,
                 which: fn(&Callbacks) -> Option<&ReplicationFilter>) -> bool {
    boundary::guard("a replication filter", false, || {
        // Safety: as the caller promises.
        let callbacks = unsafe { &*(context as *const Callbacks) };
        let (Some(filter), Some(document)) = (which(callbacks), unsafe { lent_document(document) }) else { return true };
        filter(&document, DocumentFlags::from_c(flags))
    })
}

unsafe extern "C" fn push_filter(context: *mut c_void, document: *mut sys::CBLDocument, flags: sys::CBLDocumentFlags) -> bool {
    // Safety: DocLite calls with the replicator's context and a lent document.
    unsafe { filter(context, document, flags, |callbacks| callbacks.push_filter.as_ref()) }
}

unsafe extern "C" fn pull_filter(context: *mut c_void, document: *mut sys::CBLDocument, flags: sys::CBLDocumentFlags) -> bool {
    // Safety: DocLite calls with the replicator's context and a lent document.
    unsafe { filter(context, document, flags, |callbacks| callbacks.pull_filter.as_ref()) }
}

unsafe extern "C" fn resolve(context: *mut c_void, id: *const c_char, local: *const sys::CBLDocument,
                             remote: *const sys::CBLDocument) -> *const sys::CBLDocument {
    // (A panic keeps the server's revision.)
    boundary::guard("a conflict resolver", remote, || {
        // Safety: DocLite calls with the replicator's context, an ID and documents lent for the call.
        let callbacks = unsafe { &*(context as *const Callbacks) };
        let Some(resolver) = callbacks.conflict_resolver.as_ref() else { return remote };
        let id = unsafe { ffi::borrow_str(id) }.unwrap_or_default();
        let (local_document, remote_document) = unsafe { (lent_document(local), lent_document(remote)) };
        match resolver(id, local_document.as_ref(), remote_document.as_ref()) {
            Resolution::Local => local,
            Resolution::Remote => remote,
            Resolution::Merged(document) => document.into_raw(),   // (+1: DocLite releases it)
            Resolution::Delete => std::ptr::null(),
        }
    })
}

/// A PostgreSQL server, by libpq connection string.
fn endpoint(server: &str, create_schema: bool) -> Result<Handle<sys::CBLEndpoint>> {
    let server = c_string(server, "the server")?;
    // Safety: the string outlives the call.
    handle(|error| unsafe { loaded().CBLEndpoint_CreateWithPostgreSQL(server.as_ptr(), create_schema, error) })
}

/// Creates (or checks) DocLite's schema in a PostgreSQL database, as `doclite sync init` does.
pub fn initialize_server(server: &str) -> Result<()> {
    ffi::lib()?;
    let endpoint = endpoint(server, false)?;
    // Safety: a live endpoint handle.
    ffi::check(|error| unsafe { loaded().CBLEndpoint_InitializeServer(endpoint.as_ptr(), error) })
}

/// Pushes and pulls collections of one database to and from a PostgreSQL server or
/// another database (docs/sync.md). Dropping it stops it and waits for it to stop.
pub struct Replicator {
    handle: Handle<sys::CBLReplicator>,
    _collections: Vec<Collection>,
    /// The filters and resolver (the C context): freed after the handle, once stopped.
    callbacks: Option<Box<Callbacks>>,
}

// Safety: the C API allows a replicator handle to be used from several threads at once.
unsafe impl Send for Replicator {}
unsafe impl Sync for Replicator {}

impl Replicator {
    /// A replicator of `collections` with the server `server` (a libpq connection string,
    /// `postgresql://alice:secret@host/app`); it starts with [`start`](Self::start) or [`run`](Self::run).
    pub fn new(collections: &[&Collection], server: &str, options: &ReplicatorOptions) -> Result<Replicator> {
        ffi::lib()?;
        Replicator::with_endpoint(collections, endpoint(server, options.create_schema)?, options)
    }

    /// A replicator keeping `collections` in sync with the same collections of `other`, another
    /// database (two files on one device), with no server.
    pub fn with_database(collections: &[&Collection], other: &Database, options: &ReplicatorOptions) -> Result<Replicator> {
        // Safety: a live database handle.
        let endpoint = handle(|error| unsafe { loaded().CBLEndpoint_CreateWithLocalDB(other.as_ptr(), error) })?;
        Replicator::with_endpoint(collections, endpoint, options)
    }

    fn with_endpoint(collections: &[&Collection], endpoint: Handle<sys::CBLEndpoint>, options: &ReplicatorOptions) -> Result<Replicator> {
        let json = |values: &Option<Vec<String>>| -> Result<Option<std::ffi::CString>> {
            values.as_ref().map(|values| c_string(&serde_json::to_string(values)?, "the list")).transpose()
        };
        let (channels, document_ids) = (json(&options.channels)?, json(&options.document_ids)?);
        let callbacks = Box::new(Callbacks {
            push_filter: options.push_filter.clone(),
            pull_filter: options.pull_filter.clone(),
            conflict_resolver: options.conflict_resolver.clone(),
        });
        let entries: Vec<sys::CBLReplicationCollection> = collections
            .iter()
            .map(|collection| sys::CBLReplicationCollection {
                collection: collection.as_ptr(),
                conflictResolver: options.conflict_resolver.as_ref().map(|_| resolve as _),
                pushFilter: options.push_filter.as_ref().map(|_| push_filter as _),
                pullFilter: options.pull_filter.as_ref().map(|_| pull_filter as _),
                channelsJSON: ffi::optional_ptr(&channels),
                documentIDsJSON: ffi::optional_ptr(&document_ids),
            })
            .collect();
        let config = sys::CBLReplicatorConfiguration {
            collections: entries.as_ptr() as *mut sys::CBLReplicationCollection,
            collectionCount: entries.len(),
            endpoint: endpoint.as_ptr(),
            replicatorType: match options.replicator_type {
                ReplicatorType::PushAndPull => sys::kCBLReplicatorTypePushAndPull,
                ReplicatorType::Push => sys::kCBLReplicatorTypePush,
                ReplicatorType::Pull => sys::kCBLReplicatorTypePull,
            } as u8,
            continuous: options.continuous,
            maxAttempts: options.max_attempts,
            maxAttemptWaitTime: options.max_attempt_wait_time,
            heartbeat: options.heartbeat,
            disableAutoPurge: options.disable_auto_purge,
            context: &*callbacks as *const Callbacks as *mut c_void,
        };
        // Safety: the configuration and what it points to outlive the call, which copies them;
        // the context lives in the Replicator, freed only once the replicator stopped.
        let handle = handle(|error| unsafe { loaded().CBLReplicator_Create(&config, error) })?;
        Ok(Replicator { handle, _collections: collections.iter().map(|c| (*c).clone()).collect(), callbacks: Some(callbacks) })
    }

    pub(crate) fn as_ptr(&self) -> *mut sys::CBLReplicator {
        self.handle.as_ptr()
    }

    /// Starts replicating on a thread of the library's; with `reset`, from the start.
    pub fn start(&self, reset: bool) {
        // Safety: a live replicator handle.
        unsafe { loaded().CBLReplicator_Start(self.as_ptr(), reset) }
    }

    /// Stops it; the status is [`ActivityLevel::Stopped`] once its current step ends.
    pub fn stop(&self) {
        // Safety: a live replicator handle.
        unsafe { loaded().CBLReplicator_Stop(self.as_ptr()) }
    }

    /// The current status.
    pub fn status(&self) -> ReplicatorStatus {
        // Safety: a live replicator handle.
        ReplicatorStatus::from_c(&unsafe { loaded().CBLReplicator_Status(self.as_ptr()) })
    }

    /// Waits until it stops (or `timeout` passes), woken by its own announcement of the
    /// stop; the status then.
    pub fn wait(&self, timeout: Option<Duration>) -> ReplicatorStatus {
        let stopped = Arc::new((Mutex::new(false), Condvar::new()));
        let signal = Arc::clone(&stopped);
        let _token = self.add_change_listener(move |status| {
            if status.activity == ActivityLevel::Stopped {
                let (flag, condvar) = &*signal;
                *flag.lock().unwrap_or_else(PoisonError::into_inner) = true;
                condvar.notify_all();
            }
        });
        // (Asked after the listener is in place, and not under its lock: a stop before
        // then shows here, a stop after sets the flag.)
        let status = self.status();
        if status.activity == ActivityLevel::Stopped {
            return status;
        }
        let deadline = timeout.map(|timeout| Instant::now() + timeout);
        let (flag, condvar) = &*stopped;
        let mut flag = flag.lock().unwrap_or_else(PoisonError::into_inner);
        while !*flag {
            flag = match deadline {
                None => condvar.wait(flag).unwrap_or_else(PoisonError::into_inner),
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        break;
                    }
                    condvar.wait_timeout(flag, left).unwrap_or_else(PoisonError::into_inner).0
                }
            };
        }
        drop(flag);
        self.status()
    }

    /// Starts, waits until it stops, and returns the status, or the error it stopped with.
    pub fn run(&self, reset: bool) -> Result<ReplicatorStatus> {
        self.start(reset);
        let mut status = self.wait(None);
        match status.error.take() {
            Some(error) => Err(error),
            None => Ok(status),
        }
    }

    /// The IDs the next push would send of `collection`.
    pub fn pending_document_ids(&self, collection: &Collection) -> Result<Vec<String>> {
        // Safety: live handles.
        let json = ffi::owned_string(|error| unsafe {
            loaded().CBLReplicator_PendingDocumentIDs2(self.as_ptr(), collection.as_ptr(), error)
        })?;
        Ok(serde_json::from_str(&json)?)
    }

    /// Whether the next push would send document `id` of `collection`.
    pub fn is_document_pending(&self, id: &str, collection: &Collection) -> Result<bool> {
        let id = c_string(id, "the document ID")?;
        // Safety: live handles; the ID outlives the call.
        let (pending, error) = ffi::with_error(|error| unsafe {
            loaded().CBLReplicator_IsDocumentPending2(self.as_ptr(), id.as_ptr(), collection.as_ptr(), error)
        });
        if error.code != 0 {
            return Err(Error::from_c(&error));
        }
        Ok(pending)
    }

    /// Calls `callback` at each change of status, on a thread of the library's.
    pub fn add_change_listener<F>(&self, callback: F) -> Result<ListenerToken>
    where
        F: Fn(&ReplicatorStatus) + Send + Sync + 'static,
    {
        listener::add_replicator_listener(self, callback)
    }

    /// Calls `callback(is_push, documents)` with each batch of documents pushed or pulled.
    pub fn add_document_listener<F>(&self, callback: F) -> Result<ListenerToken>
    where
        F: Fn(bool, &[ReplicatedDocument]) + Send + Sync + 'static,
    {
        listener::add_document_replication_listener(self, callback)
    }
}

impl Drop for Replicator {
    fn drop(&mut self) {
        self.stop();
        if self.wait(Some(Duration::from_secs(60))).activity != ActivityLevel::Stopped {
            // (Still running: its thread may yet call the filters, which must outlive it.)
            std::mem::forget(self.callbacks.take());
        }
    }
}

impl std::fmt::Debug for Replicator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replicator").field("status", &self.status()).finish()
    }
}
