//! [`Database`]: one open database file, its collections, transactions and queries.

use std::ffi::CString;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use doclite_sys as sys;

use crate::collection::Collection;
use crate::error::Result;
use crate::ffi::{
    self, c_string, check, handle, lib, loaded, optional_c_string, optional_handle, optional_ptr, owned_string, Handle,
};
use crate::notifications::{self, ReadyCallback};
use crate::query::{Query, QueryLanguage};
use crate::scope::Scope;

/// An open database: the file `directory/name.doclite`, holding scopes of collections.
///
/// Cloning gives another reference to the same open database; it may be used from
/// several threads at once (DocLite serializes the calls). It stays open until
/// [`close`](Database::close) or until the last reference, collection and query is dropped.
#[derive(Clone)]
pub struct Database {
    inner: Arc<Inner>,
}

/// What the clones of a [`Database`] share: its handle, and what the crate keeps for it.
struct Inner {
    handle: Handle<sys::CBLDatabase>,
    /// The ready callback of [`Database::buffer_notifications`] (`None`: not buffering).
    ready: Mutex<Option<ReadyCallback>>,
}

// Safety: the C API allows a database handle to be used from several threads at once;
// the ready callback is behind a mutex.
unsafe impl Send for Inner {}
unsafe impl Sync for Inner {}

impl Drop for Inner {
    fn drop(&mut self) {
        // The last clone (and collection) is gone, so no one can send buffered notifications
        // any more: stop buffering (listeners are called at once again), then let the
        // callback go. (The handle is released after this, with the fields.)
        let ready = self.ready.get_mut().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(ready) = ready {
            // Safety: a live handle.
            unsafe { loaded().CBLDatabase_BufferNotifications(self.handle.as_ptr(), None, std::ptr::null_mut()) };
            drop(ready);
        }
    }
}

/// A weak reference to a [`Database`], which a ready callback's registration holds (a strong
/// one would keep the database, and so the callback, for ever).
pub(crate) struct WeakDatabase(Weak<Inner>);

impl WeakDatabase {
    /// The database, if a clone of it still lives.
    pub(crate) fn upgrade(&self) -> Option<Database> {
        self.0.upgrade().map(|inner| Database { inner })
    }
}

/// How a database is opened (Couchbase Lite's `DatabaseConfiguration`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DatabaseConfiguration {
    /// The directory of the database file; `None`: the current directory.
    pub directory: Option<PathBuf>,
    /// Sync every commit to disk, so that it survives a power loss.
    pub full_sync: bool,
}

impl DatabaseConfiguration {
    /// The configuration of a database in `directory` (created when missing).
    pub fn in_directory(directory: impl AsRef<Path>) -> DatabaseConfiguration {
        DatabaseConfiguration { directory: Some(directory.as_ref().to_path_buf()), full_sync: false }
    }
}

/// A maintenance task of [`Database::perform_maintenance`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaintenanceType {
    /// Reclaim the space of deleted data.
    Compact,
    /// Rebuild every index.
    Reindex,
    /// Check the file; a damaged one fails with [`ErrorKind::CorruptData`](crate::ErrorKind::CorruptData).
    IntegrityCheck,
    /// Refresh the query planner's statistics where worthwhile.
    Optimize,
    /// Gather statistics for every index.
    FullOptimize,
}

pub(crate) fn path_string(path: &Path) -> Result<CString> {
    let text = path.to_str().ok_or_else(|| {
        crate::Error::new(crate::ErrorKind::InvalidParameter, format!("the directory {path:?} is not UTF-8"))
    })?;
    c_string(text, "the directory")
}

impl Database {
    /// Opens the database `name` (creating it when missing) as `config` says.
    pub fn open(name: &str, config: &DatabaseConfiguration) -> Result<Database> {
        let lib = lib()?;
        let name = c_string(name, "the database name")?;
        let directory = config.directory.as_deref().map(path_string).transpose()?;
        let config = sys::CBLDatabaseConfiguration { directory: optional_ptr(&directory), fullSync: config.full_sync };
        // Safety: the strings and the configuration outlive the call.
        let handle = handle(|error| unsafe { lib.CBLDatabase_Open(name.as_ptr(), &config, error) })?;
        Ok(Database { inner: Arc::new(Inner { handle, ready: Mutex::new(None) }) })
    }

    /// Whether a database `name` exists in `directory` (`None`: the current directory).
    pub fn exists(name: &str, directory: Option<&Path>) -> Result<bool> {
        let lib = lib()?;
        let name = c_string(name, "the database name")?;
        let directory = directory.map(path_string).transpose()?;
        // Safety: the strings outlive the call.
        Ok(unsafe { lib.CBL_DatabaseExists(name.as_ptr(), optional_ptr(&directory)) })
    }

    /// Deletes the closed database `name` in `directory`; `false` when there is none.
    pub fn delete_named(name: &str, directory: Option<&Path>) -> Result<bool> {
        let lib = lib()?;
        let name = c_string(name, "the database name")?;
        let directory = directory.map(path_string).transpose()?;
        // Safety: the strings outlive the call.
        let (deleted, error) = ffi::with_error(|error| unsafe { lib.CBL_DeleteDatabase(name.as_ptr(), optional_ptr(&directory), error) });
        if !deleted && error.code != 0 {
            return Err(crate::Error::from_c(&error));
        }
        Ok(deleted)
    }

    /// A database on a handle the library lends for a call (`CBLConformance_Run`'s query
    /// runner), holding a reference of its own; dropping it releases that, never closing.
    ///
    /// # Safety
    /// `pointer` is a live database handle.
    pub(crate) unsafe fn borrowing(pointer: *mut sys::CBLDatabase) -> Database {
        loaded().CBL_Retain(pointer as *const _);
        let handle = Handle::from_owned(pointer).expect("a lent database handle is not NULL");
        Database { inner: Arc::new(Inner { handle, ready: Mutex::new(None) }) }
    }

    pub(crate) fn as_ptr(&self) -> *mut sys::CBLDatabase {
        self.inner.handle.as_ptr()
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        // Safety: the name lives as long as the handle `self` holds.
        unsafe { ffi::borrow_str(loaded().CBLDatabase_Name(self.as_ptr())) }.unwrap_or_default()
    }

    /// The path of the database file.
    pub fn path(&self) -> Result<PathBuf> {
        // Safety: a live handle.
        owned_string(|_| unsafe { loaded().CBLDatabase_Path(self.as_ptr()) }).map(PathBuf::from)
    }

    /// Closes the database: every later call on it, its collections and queries fails
    /// with [`ErrorKind::NotOpen`](crate::ErrorKind::NotOpen).
    pub fn close(&self) -> Result<()> {
        // Safety: a live handle.
        check(|error| unsafe { loaded().CBLDatabase_Close(self.as_ptr(), error) })
    }

    /// Closes the database and deletes its file.
    pub fn delete(&self) -> Result<()> {
        // Safety: a live handle.
        check(|error| unsafe { loaded().CBLDatabase_Delete(self.as_ptr(), error) })
    }

    /// Runs a maintenance task (not inside a transaction).
    pub fn perform_maintenance(&self, task: MaintenanceType) -> Result<()> {
        let task = match task {
            MaintenanceType::Compact => sys::kCBLMaintenanceTypeCompact,
            MaintenanceType::Reindex => sys::kCBLMaintenanceTypeReindex,
            MaintenanceType::IntegrityCheck => sys::kCBLMaintenanceTypeIntegrityCheck,
            MaintenanceType::Optimize => sys::kCBLMaintenanceTypeOptimize,
            MaintenanceType::FullOptimize => sys::kCBLMaintenanceTypeFullOptimize,
        };
        // Safety: a live handle.
        check(|error| unsafe { loaded().CBLDatabase_PerformMaintenance(self.as_ptr(), task, error) })
    }

    /// The default collection, `_default._default`.
    pub fn default_collection(&self) -> Result<Collection> {
        // Safety: a live handle.
        let handle = handle(|error| unsafe { loaded().CBLDatabase_DefaultCollection(self.as_ptr(), error) })?;
        Ok(Collection::new(handle, self.clone()))
    }

    /// The collection `name` of `scope` (`None`: the default scope), or `None` when there is none.
    pub fn collection(&self, name: &str, scope: Option<&str>) -> Result<Option<Collection>> {
        let (name, scope) = (c_string(name, "the collection name")?, optional_c_string(scope, "the scope name")?);
        // Safety: a live handle; the strings outlive the call.
        let handle = optional_handle(|error| unsafe {
            loaded().CBLDatabase_Collection(self.as_ptr(), name.as_ptr(), optional_ptr(&scope), error)
        })?;
        Ok(handle.map(|handle| Collection::new(handle, self.clone())))
    }

    /// The collection `name` of `scope` (`None`: the default scope), created when missing.
    pub fn create_collection(&self, name: &str, scope: Option<&str>) -> Result<Collection> {
        let (name, scope) = (c_string(name, "the collection name")?, optional_c_string(scope, "the scope name")?);
        // Safety: a live handle; the strings outlive the call.
        let handle = handle(|error| unsafe {
            loaded().CBLDatabase_CreateCollection(self.as_ptr(), name.as_ptr(), optional_ptr(&scope), error)
        })?;
        Ok(Collection::new(handle, self.clone()))
    }

    /// Deletes the collection `name` of `scope` and its documents; a missing one is not an error.
    pub fn delete_collection(&self, name: &str, scope: Option<&str>) -> Result<()> {
        let (name, scope) = (c_string(name, "the collection name")?, optional_c_string(scope, "the scope name")?);
        // Safety: a live handle; the strings outlive the call.
        check(|error| unsafe { loaded().CBLDatabase_DeleteCollection(self.as_ptr(), name.as_ptr(), optional_ptr(&scope), error) })
    }

    /// The names of the collections of `scope` (`None`: the default scope).
    pub fn collection_names(&self, scope: Option<&str>) -> Result<Vec<String>> {
        let scope = optional_c_string(scope, "the scope name")?;
        // Safety: a live handle; the string outlives the call.
        let names = owned_string(|error| unsafe { loaded().CBLDatabase_CollectionNames(self.as_ptr(), optional_ptr(&scope), error) })?;
        Ok(serde_json::from_str(&names)?)
    }

    /// The names of the scopes that hold a collection.
    pub fn scope_names(&self) -> Result<Vec<String>> {
        // Safety: a live handle.
        let names = owned_string(|error| unsafe { loaded().CBLDatabase_ScopeNames(self.as_ptr(), error) })?;
        Ok(serde_json::from_str(&names)?)
    }

    /// The default scope, `_default` (Couchbase Lite's `Database.defaultScope`), which always exists.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-scopes-{}", std::process::id()));
    /// # let db = doclite::Database::open("scopes", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// db.create_collection("hotels", Some("inventory"))?;
    /// assert_eq!(db.default_scope()?.name(), "_default");
    /// let inventory = db.scope("inventory")?.expect("it holds a collection");
    /// assert_eq!(inventory.collection_names()?, ["hotels"]);
    /// let hotels = inventory.collection("hotels")?.expect("created above");
    /// assert_eq!(hotels.scope()?.name(), "inventory");
    /// assert!(db.scope("nowhere")?.is_none());
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn default_scope(&self) -> Result<Scope> {
        // Safety: a live handle; the scope comes back +1.
        let handle = handle(|error| unsafe { loaded().CBLDatabase_DefaultScope(self.as_ptr(), error) })?;
        Ok(Scope::new(handle, self.clone()))
    }

    /// The scope `name`, or `None` when it holds no collection (a scope exists while it holds
    /// one; `_default` always): Couchbase Lite's `Database.scope(name)`.
    pub fn scope(&self, name: &str) -> Result<Option<Scope>> {
        let name = c_string(name, "the scope name")?;
        // Safety: a live handle; the name outlives the call; the scope comes back +1.
        let handle = optional_handle(|error| unsafe { loaded().CBLDatabase_Scope(self.as_ptr(), name.as_ptr(), error) })?;
        Ok(handle.map(|handle| Scope::new(handle, self.clone())))
    }

    /// The scopes that hold a collection (`_default` always), by name.
    pub fn scopes(&self) -> Result<Vec<Scope>> {
        let mut scopes = Vec::new();
        for name in self.scope_names()? {
            // (A scope whose last collection was deleted meanwhile is left out.)
            scopes.extend(self.scope(&name)?);
        }
        Ok(scopes)
    }

    /// Begins a transaction (Couchbase Lite's batch), or joins the one this thread has
    /// open. Every save and delete of this thread belongs to it until the guard
    /// commits; dropping the guard uncommitted rolls it back.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-transaction-{}", std::process::id()));
    /// # let db = doclite::Database::open("transaction", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// let hotels = db.create_collection("hotels", None)?;
    /// let transaction = db.transaction()?;
    /// hotels.put("h1", &serde_json::json!({"name": "Grand"}))?;
    /// drop(transaction);                      // rolled back
    /// assert!(hotels.document("h1")?.is_none());
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn transaction(&self) -> Result<Transaction<'_>> {
        // Safety: a live handle.
        check(|error| unsafe { loaded().CBLDatabase_BeginTransaction(self.as_ptr(), error) })?;
        Ok(Transaction { database: self, open: true, _thread_bound: PhantomData })
    }

    /// Runs `work` in a transaction: committed when it returns `Ok`, rolled back when it
    /// returns `Err` or panics (Couchbase Lite's `inBatch`).
    pub fn in_batch<T, E: From<crate::Error>>(&self, work: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        let transaction = self.transaction()?;
        let value = work()?;
        transaction.commit()?;
        Ok(value)
    }

    /// Buffers the database's notifications (Couchbase Lite's `bufferNotifications`):
    /// instead of calling its collection, document and live-query listeners on the threads
    /// that commit (or run live queries), DocLite queues the calls and calls `ready` when the
    /// queue stops being empty; [`send_notifications`](Database::send_notifications) then
    /// makes them, in order, on the thread that calls it — a GUI's or an async runtime's.
    ///
    /// `ready(database)` runs on the committing (or querying) thread, once per time the queue
    /// stops being empty: it should only arrange for `send_notifications` to be called (send
    /// a message to the thread that will), though it may call it itself. It must be
    /// `Send + Sync`: two threads may call it at once. A panic in it is stopped at the
    /// boundary with DocLite and reported on stderr; the calls stay queued.
    ///
    /// `None` stops buffering: listeners are called at once again (calls already queued wait
    /// for `send_notifications`). The callback is kept until it is replaced, buffering is
    /// stopped, or the last clone of the database (and of its collections) is dropped, which
    /// stops buffering too; then it is dropped, once no call of it runs. It applies to this
    /// open database (all its clones), not to another [`open`](Database::open) of the same file.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-buffer-{}", std::process::id()));
    /// # let db = doclite::Database::open("buffer", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use std::sync::mpsc;
    /// let (wake, woken) = mpsc::channel();
    /// db.buffer_notifications(Some(move |_: &doclite::Database| { let _ = wake.send(()); }));
    /// let hotels = db.default_collection()?;
    /// let heard = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    /// let _token = hotels.add_change_listener({
    ///     let heard = heard.clone();
    ///     move |change| heard.lock().unwrap().push(std::thread::current().id())
    /// })?;
    /// let writer = hotels.clone();
    /// std::thread::spawn(move || writer.put("h1", &serde_json::json!({}))).join().unwrap()?;
    /// assert!(heard.lock().unwrap().is_empty());      // queued, not called on the writer's thread
    /// woken.recv().unwrap();                           // the ready callback ran
    /// db.send_notifications();                         // the listener runs now, on this thread
    /// assert_eq!(*heard.lock().unwrap(), [std::thread::current().id()]);
    /// db.buffer_notifications(None::<fn(&doclite::Database)>);   // stop buffering
    /// # drop(_token);
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn buffer_notifications<F>(&self, ready: Option<F>)
    where
        F: Fn(&Database) + Send + Sync + 'static,
    {
        let lib = loaded();
        // (Held across the C call, so that two threads setting callbacks at once leave
        // DocLite calling the one kept here.)
        let mut current = self.inner.ready.lock().unwrap_or_else(PoisonError::into_inner);
        let replaced = match ready {
            Some(ready) => {
                let callback = notifications::register(WeakDatabase(Arc::downgrade(&self.inner)), ready);
                // Safety: a live handle; the context is the callback's number, never a pointer
                // to freed memory (DocLite may call the callback it replaces a little later).
                unsafe { lib.CBLDatabase_BufferNotifications(self.as_ptr(), Some(notifications::callback), callback.context()) };
                current.replace(callback)
            }
            None => {
                // Safety: a live handle.
                unsafe { lib.CBLDatabase_BufferNotifications(self.as_ptr(), None, std::ptr::null_mut()) };
                current.take()
            }
        };
        drop(current);
        drop(replaced);
    }

    /// Makes the listener calls queued while the database buffers notifications (see
    /// [`buffer_notifications`](Database::buffer_notifications)), in order, on this thread;
    /// nothing when none is queued. Called from inside a listener, the calls it makes come
    /// after that listener returns, as for a change the listener makes
    /// (see [`Collection::add_change_listener`]).
    pub fn send_notifications(&self) {
        // Safety: a live handle; the listeners DocLite calls are the crate's, each guarded.
        unsafe { loaded().CBLDatabase_SendNotifications(self.as_ptr()) }
    }

    /// Compiles a query in SQL++ for Mobile: `SELECT name FROM hotels WHERE city = $city`.
    pub fn create_query(&self, sqlpp: &str) -> Result<Query> {
        Query::new(self, QueryLanguage::SqlPlusPlus, sqlpp)
    }

    /// Compiles a query in LiteCore's JSON query language:
    /// `{"WHAT": [[".name"]], "FROM": [{"COLLECTION": "hotels"}]}`.
    pub fn create_json_query(&self, json: &str) -> Result<Query> {
        Query::new(self, QueryLanguage::Json, json)
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database").field("name", &self.name()).finish()
    }
}

/// An open transaction ([`Database::transaction`]): [`commit`](Transaction::commit)
/// ends it; dropping it otherwise rolls it back. It belongs to the thread that began
/// it, as DocLite requires, so it is neither `Send` nor `Sync`:
///
/// ```compile_fail
/// # fn check(db: &doclite::Database) -> doclite::Result<()> {
/// let transaction = db.transaction()?;
/// std::thread::scope(|scope| {
///     scope.spawn(move || transaction.commit()); // error: a Transaction cannot be sent to another thread
/// });
/// # Ok(()) }
/// ```
#[must_use = "a transaction is rolled back when dropped: call commit()"]
pub struct Transaction<'db> {
    database: &'db Database,
    open: bool,
    _thread_bound: PhantomData<*const ()>,
}

impl Transaction<'_> {
    /// Commits (if this is the outermost transaction and no inner one rolled back).
    pub fn commit(mut self) -> Result<()> {
        self.end(true)
    }

    /// Rolls back.
    pub fn rollback(mut self) -> Result<()> {
        self.end(false)
    }

    fn end(&mut self, commit: bool) -> Result<()> {
        self.open = false;
        // Safety: the database outlives the guard; this thread began the transaction.
        check(|error| unsafe { loaded().CBLDatabase_EndTransaction(self.database.as_ptr(), commit, error) })
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        if self.open {
            // A rollback that fails leaves nothing to undo: the database is closed.
            let _ = self.end(false);
        }
    }
}
