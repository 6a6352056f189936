//! [`Database`]: one open database file, its collections, transactions and queries.

use std::ffi::CString;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use doclite_sys as sys;

use crate::collection::Collection;
use crate::error::Result;
use crate::ffi::{
    self, c_string, check, handle, lib, loaded, optional_c_string, optional_handle, optional_ptr, owned_string, Handle,
};
use crate::query::{Query, QueryLanguage};

/// An open database: the file `directory/name.doclite`, holding scopes of collections.
///
/// Cloning gives another reference to the same open database; it may be used from
/// several threads at once (DocLite serializes the calls). It stays open until
/// [`close`](Database::close) or until the last reference, collection and query is dropped.
#[derive(Clone)]
pub struct Database {
    handle: Handle<sys::CBLDatabase>,
}

// Safety: the C API allows a database handle to be used from several threads at once.
unsafe impl Send for Database {}
unsafe impl Sync for Database {}

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

fn path_string(path: &Path) -> Result<CString> {
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
        Ok(Database { handle })
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

    pub(crate) fn as_ptr(&self) -> *mut sys::CBLDatabase {
        self.handle.as_ptr()
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
