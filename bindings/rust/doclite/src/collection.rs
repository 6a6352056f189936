//! [`Collection`]: the documents of one collection, its indexes and change listeners.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::de::DeserializeOwned;
use serde::Serialize;

use doclite_sys as sys;

use crate::database::Database;
use crate::document::Document;
use crate::error::{Error, ErrorKind, Result};
use crate::ffi::{self, c_string, check, handle, loaded, nul_error, optional_handle, owned_string, Handle};
use crate::index_updater::QueryIndex;
use crate::index::{
    ArrayIndexConfiguration, FullTextIndexConfiguration, PredictiveIndexConfiguration, ValueIndexConfiguration, VectorIndexConfiguration,
};
use crate::json::{self, Target};
use crate::listener::{self, CollectionChange, ListenerToken};
use crate::scope::Scope;

/// A collection of documents in a scope. Cloning gives another reference to it; it
/// may be used from several threads at once, and keeps its database open while it lives.
#[derive(Clone)]
pub struct Collection {
    handle: Handle<sys::CBLCollection>,
    database: Database,
}

// Safety: the C API allows a collection handle to be used from several threads at once.
unsafe impl Send for Collection {}
unsafe impl Sync for Collection {}

/// What a save or delete does when the document changed since it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConcurrencyControl {
    /// The call wins.
    #[default]
    LastWriteWins,
    /// The call fails with [`ErrorKind::Conflict`].
    FailOnConflict,
}

impl ConcurrencyControl {
    fn raw(self) -> sys::CBLConcurrencyControl {
        (match self {
            ConcurrencyControl::LastWriteWins => sys::kCBLConcurrencyControlLastWriteWins,
            ConcurrencyControl::FailOnConflict => sys::kCBLConcurrencyControlFailOnConflict,
        }) as sys::CBLConcurrencyControl
    }
}

impl Collection {
    pub(crate) fn new(handle: Handle<sys::CBLCollection>, database: Database) -> Collection {
        Collection { handle, database }
    }

    pub(crate) fn as_ptr(&self) -> *mut sys::CBLCollection {
        self.handle.as_ptr()
    }

    /// The database the collection belongs to.
    pub fn database(&self) -> &Database {
        &self.database
    }

    /// The collection's name.
    pub fn name(&self) -> &str {
        // Safety: the name lives as long as the handle `self` holds.
        unsafe { ffi::borrow_str(loaded().CBLCollection_Name(self.as_ptr())) }.unwrap_or_default()
    }

    /// The name of the collection's scope.
    pub fn scope_name(&self) -> &str {
        // Safety: the name lives as long as the handle `self` holds.
        unsafe { ffi::borrow_str(loaded().CBLCollection_ScopeName(self.as_ptr())) }.unwrap_or_default()
    }

    /// The collection's scope (Couchbase Lite's `Collection.scope`).
    pub fn scope(&self) -> Result<Scope> {
        // Safety: a live handle; the scope comes back +1 (NULL only for a handle that is not live).
        let handle = handle(|_| unsafe { loaded().CBLCollection_Scope(self.as_ptr()) })?;
        Ok(Scope::new(handle, self.database.clone()))
    }

    /// `scope.name`, as queries name the collection.
    pub fn full_name(&self) -> String {
        format!("{}.{}", self.scope_name(), self.name())
    }

    /// The number of documents (deleted ones not counted); [`ErrorKind::NotOpen`] when the
    /// database is closed or the collection deleted.
    pub fn count(&self) -> Result<u64> {
        // Safety: a live handle.
        let count = unsafe { loaded().CBLCollection_Count(self.as_ptr()) };
        if count == 0 {
            // DocLite counts 0 for a closed database too: a call that reports it tells.
            self.index_names()?;
        }
        Ok(count)
    }

    /// The document `id`, to read or change and save; `None` when there is none (or it is deleted).
    pub fn document(&self, id: &str) -> Result<Option<Document>> {
        let id = c_string(id, "the document ID")?;
        // Safety: a live handle; the ID outlives the call.
        let handle = optional_handle(|error| unsafe { loaded().CBLCollection_GetMutableDocument(self.as_ptr(), id.as_ptr(), error) })?;
        Ok(handle.map(Document::from_handle))
    }

    /// The properties of document `id` as a `T`; `None` when there is no such document.
    pub fn get<T: DeserializeOwned>(&self, id: &str) -> Result<Option<T>> {
        let c_id = c_string(id, "the document ID")?;
        // Safety: a live handle; the ID outlives the call; the document comes back +1.
        let document = optional_handle(|error| unsafe {
            loaded().CBLCollection_GetDocument(self.as_ptr(), c_id.as_ptr(), error) as *mut sys::CBLDocument
        })?;
        document.map(|handle| Document::from_handle(handle).deserialize()).transpose()
    }

    /// Saves a document (the last write wins); `document` then has its new revision.
    pub fn save(&self, document: &mut Document) -> Result<()> {
        self.save_with_concurrency_control(document, ConcurrencyControl::LastWriteWins)
    }

    /// Saves a document; with [`ConcurrencyControl::FailOnConflict`] a document changed since
    /// it was read fails with [`ErrorKind::Conflict`].
    pub fn save_with_concurrency_control(&self, document: &mut Document, control: ConcurrencyControl) -> Result<()> {
        // Safety: live handles.
        check(|error| unsafe {
            loaded().CBLCollection_SaveDocumentWithConcurrencyControl(self.as_ptr(), document.as_ptr(), control.raw(), error)
        })
    }

    /// Saves `properties` (a serde value that serializes to a JSON object) as document `id`,
    /// replacing its properties when it exists (the last write wins, as
    /// [`save`](Collection::save)), and returns the saved document.
    ///
    /// The document is not read first: a new revision is saved over whatever revision is
    /// stored (a deleted document's tombstone included), which keeps the document's
    /// expiration. To replace a document only if no one changed it since you read it, read
    /// it ([`document`](Collection::document)), change it, and save it with
    /// [`ConcurrencyControl::FailOnConflict`].
    pub fn put<T: Serialize + ?Sized>(&self, id: &str, properties: &T) -> Result<Document> {
        let mut document = Document::with_id(id)?;
        document.set_properties(properties)?;
        self.save(&mut document)?;
        Ok(document)
    }

    /// Saves many documents, `(id, properties)`, in one transaction (or as part of the one open):
    /// on an error nothing of the call is saved, and the message names the document. The
    /// properties are checked as [`Document::set_properties`] checks them; an ID holding a
    /// line break is [`ErrorKind::BadDocumentId`], one holding NUL [`ErrorKind::InvalidParameter`].
    pub fn save_many<I, K, V>(&self, documents: I) -> Result<()>
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<str>,
        V: Serialize,
    {
        let (mut ids, mut bodies) = (String::new(), Vec::new());
        for (id, properties) in documents {
            let id = id.as_ref();
            if id.contains('\0') {
                return Err(nul_error(id, "the document ID"));
            }
            if id.contains('\n') {
                return Err(Error::new(ErrorKind::BadDocumentId, format!("the document ID {id:?} holds a line break")));
            }
            ids.push_str(id);
            ids.push('\n');
            // (The name is formatted on an error only.)
            json::write(&properties, format_args!("the properties of document {id:?}"), Target::Document, |checked| {
                serde_json::to_writer(&mut bodies, checked)
            })?;
            bodies.push(b'\n');
        }
        if ids.is_empty() {
            return Ok(());
        }
        let ids = c_string(&ids, "the document IDs")?;
        let bodies = std::ffi::CString::new(bodies)
            .map_err(|_| Error::new(ErrorKind::InvalidParameter, "a document holds a NUL byte"))?;
        // Safety: a live handle; the texts outlive the call.
        check(|error| unsafe { loaded().CBLCollection_SaveDocumentsJSON(self.as_ptr(), ids.as_ptr(), bodies.as_ptr(), error) })
    }

    /// Deletes document `id`, leaving a tombstone; `false` when there was no such document.
    pub fn delete(&self, id: &str) -> Result<bool> {
        match self.document(id)? {
            Some(document) => self.delete_document(&document, ConcurrencyControl::LastWriteWins).map(|()| true),
            None => Ok(false),
        }
    }

    /// Deletes a document read before; with [`ConcurrencyControl::FailOnConflict`] a document
    /// changed since it was read fails with [`ErrorKind::Conflict`].
    pub fn delete_document(&self, document: &Document, control: ConcurrencyControl) -> Result<()> {
        // Safety: live handles.
        check(|error| unsafe {
            loaded().CBLCollection_DeleteDocumentWithConcurrencyControl(self.as_ptr(), document.as_ptr(), control.raw(), error)
        })
    }

    /// Removes every trace of document `id`; `false` when there was no such document.
    pub fn purge(&self, id: &str) -> Result<bool> {
        let id = c_string(id, "the document ID")?;
        // Safety: a live handle; the ID outlives the call.
        let (purged, error) = ffi::with_error(|error| unsafe { loaded().CBLCollection_PurgeDocumentByID(self.as_ptr(), id.as_ptr(), error) });
        if !purged && error.code != 0 {
            return Err(Error::from_c(&error));
        }
        Ok(purged)
    }

    /// When document `id` expires (is purged); `None` for never or no such document.
    pub fn expiration(&self, id: &str) -> Result<Option<SystemTime>> {
        let id = c_string(id, "the document ID")?;
        // Safety: a live handle; the ID outlives the call.
        let (millis, error) = ffi::with_error(|error| unsafe { loaded().CBLCollection_GetDocumentExpiration(self.as_ptr(), id.as_ptr(), error) });
        match millis {
            -1 => Err(Error::from_c(&error)),
            0 => Ok(None),
            millis => u64::try_from(millis)
                .map(|millis| Some(UNIX_EPOCH + Duration::from_millis(millis)))
                .map_err(|_| Error::new(ErrorKind::Other, format!("document '{id:?}' has an expiration before 1970 ({millis} ms)"))),
        }
    }

    /// Sets when document `id` expires (`None`: never); [`ErrorKind::NotFound`] when there is no such document.
    pub fn set_expiration(&self, id: &str, expiration: Option<SystemTime>) -> Result<()> {
        let millis = match expiration {
            None => 0,
            // (A time before 1970 has passed: the earliest expiration, 1 ms, purges at once.)
            Some(time) => match time.duration_since(UNIX_EPOCH) {
                Err(_) => 1,
                Ok(since) => i64::try_from(since.as_millis().max(1)).map_err(|_| {
                    Error::new(ErrorKind::InvalidParameter, format!("the expiration {time:?} is beyond what DocLite stores"))
                })?,
            },
        };
        let id = c_string(id, "the document ID")?;
        // Safety: a live handle; the ID outlives the call.
        check(|error| unsafe { loaded().CBLCollection_SetDocumentExpiration(self.as_ptr(), id.as_ptr(), millis, error) })
    }

    /// Creates a value index; the same definition again does nothing, another one replaces it.
    pub fn create_value_index(&self, name: &str, config: &ValueIndexConfiguration) -> Result<()> {
        let name = c_string(name, "the index name")?;
        config.with_raw(|raw| {
            // Safety: a live handle; the configuration's strings outlive the call.
            check(|error| unsafe { loaded().CBLCollection_CreateValueIndex(self.as_ptr(), name.as_ptr(), raw, error) })
        })
    }

    /// Creates a full-text index (searched with MATCH(), ranked with RANK()).
    pub fn create_full_text_index(&self, name: &str, config: &FullTextIndexConfiguration) -> Result<()> {
        let name = c_string(name, "the index name")?;
        config.with_raw(|raw| {
            // Safety: a live handle; the configuration's strings outlive the call.
            check(|error| unsafe { loaded().CBLCollection_CreateFullTextIndex(self.as_ptr(), name.as_ptr(), raw, error) })
        })
    }

    /// Creates an array index: queries that `UNNEST` its path read it. The same definition
    /// again does nothing, another one replaces it; a nested path (`"a[].b"`) is
    /// [`ErrorKind::Unsupported`].
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-create-array-{}", std::process::id()));
    /// # let db = doclite::Database::open("createarray", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::{ArrayIndexConfiguration, ErrorKind};
    /// let hotels = db.default_collection()?;
    /// hotels.create_array_index("byTag", &ArrayIndexConfiguration::elements("tags"))?;
    /// let nested = hotels.create_array_index("byPhone", &ArrayIndexConfiguration::elements("contacts[].phones"));
    /// assert_eq!(nested.unwrap_err().kind(), ErrorKind::Unsupported);
    /// assert_eq!(hotels.index_names()?, ["byTag"]);
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn create_array_index(&self, name: &str, config: &ArrayIndexConfiguration) -> Result<()> {
        let name = c_string(name, "the index name")?;
        config.with_raw(|raw| {
            // Safety: a live handle; the configuration's strings outlive the call.
            check(|error| unsafe { loaded().CBLCollection_CreateArrayIndex(self.as_ptr(), name.as_ptr(), raw, error) })
        })
    }

    /// Creates a predictive index, calling its model for every document now (and then as
    /// documents are saved): queries calling `PREDICTION()` with its model and input read the
    /// cached predictions. The same definition again does nothing, another one replaces it.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-create-predictive-{}", std::process::id()));
    /// # let db = doclite::Database::open("createpredictive", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::PredictiveIndexConfiguration;
    /// use serde_json::{json, Map, Value};
    /// doclite::register_model("length", |input: &Map<String, Value>| {
    ///     Some(json!({"length": input.get("text")?.as_str()?.len()}).as_object()?.clone())
    /// })?;
    /// let notes = db.default_collection()?;
    /// notes.put("n1", &json!({"text": "hello"}))?;
    /// notes.create_predictive_index("byLength", &PredictiveIndexConfiguration::new("length", "{'text': text}"))?;
    /// let query = db.create_query("SELECT PREDICTION(length, {'text': text}, length) FROM _")?;
    /// assert_eq!(query.execute()?.next().unwrap()?.get::<i64>(0)?, 5);
    /// # doclite::unregister_model("length")?;
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn create_predictive_index(&self, name: &str, config: &PredictiveIndexConfiguration) -> Result<()> {
        let name = c_string(name, "the index name")?;
        config.with_raw(|raw| {
            // Safety: a live handle; the configuration's strings outlive the call.
            check(|error| unsafe { loaded().CBLCollection_CreatePredictiveIndex(self.as_ptr(), name.as_ptr(), raw, error) })
        })
    }

    /// Creates a vector index: `APPROX_VECTOR_DISTANCE()` of its expression reads it. The same
    /// definition again does nothing, another one replaces it; a configuration out of Couchbase
    /// Lite's limits is [`ErrorKind::InvalidParameter`].
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-create-vector-{}", std::process::id()));
    /// # let db = doclite::Database::open("createvector", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::{ErrorKind, VectorIndexConfiguration};
    /// let docs = db.default_collection()?;
    /// docs.create_vector_index("byVector", &VectorIndexConfiguration::new("vector", 3, 8))?;
    /// let too_wide = docs.create_vector_index("wide", &VectorIndexConfiguration::new("vector", 5000, 8));
    /// assert_eq!(too_wide.unwrap_err().kind(), ErrorKind::InvalidParameter);
    /// assert_eq!(docs.index_names()?, ["byVector"]);
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn create_vector_index(&self, name: &str, config: &VectorIndexConfiguration) -> Result<()> {
        let name = c_string(name, "the index name")?;
        config.with_raw(|raw| {
            // Safety: a live handle; the configuration's string and encoding outlive the call.
            check(|error| unsafe { loaded().CBLCollection_CreateVectorIndex(self.as_ptr(), name.as_ptr(), raw, error) })
        })
    }

    /// The index `name` (Couchbase Lite's `index(withName:)`), `None` when there is none.
    pub fn index(&self, name: &str) -> Result<Option<QueryIndex>> {
        let name = c_string(name, "the index name")?;
        // Safety: a live handle; the name outlives the call.
        let handle = optional_handle(|error| unsafe { loaded().CBLCollection_GetIndex(self.as_ptr(), name.as_ptr(), error) })?;
        Ok(handle.map(QueryIndex::new))
    }

    /// Deletes index `name`; a missing index is not an error.
    pub fn delete_index(&self, name: &str) -> Result<()> {
        let name = c_string(name, "the index name")?;
        // Safety: a live handle; the name outlives the call.
        check(|error| unsafe { loaded().CBLCollection_DeleteIndex(self.as_ptr(), name.as_ptr(), error) })
    }

    /// The names of the collection's indexes.
    pub fn index_names(&self) -> Result<Vec<String>> {
        // Safety: a live handle.
        let names = owned_string(|error| unsafe { loaded().CBLCollection_GetIndexNames(self.as_ptr(), error) })?;
        Ok(serde_json::from_str(&names)?)
    }

    /// Calls `listener` after each commit that changes the collection, on the committing
    /// thread, until the token is dropped or removed.
    ///
    /// A change made inside a listener is delivered after that listener returns: a call
    /// that arrives on a thread already running a listener of this crate (a save made by
    /// a listener, say) is queued, and made once the running call has returned, in the
    /// order the calls arrived — so a listener that saves documents never nests, however
    /// long the chain of saves. The save inside the listener returns before its listeners
    /// have heard of it; the outermost save returns once every queued call was made.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-listener-{}", std::process::id()));
    /// # let db = doclite::Database::open("listener", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use std::sync::{Arc, Mutex};
    /// let counters = db.default_collection()?;
    /// let heard = Arc::new(Mutex::new(Vec::new()));
    /// let token = counters.add_change_listener({
    ///     let heard = Arc::clone(&heard);
    ///     move |change| {
    ///         let id = &change.document_ids[0];
    ///         heard.lock().unwrap().push(id.clone());
    ///         if id == "first" {
    ///             change.collection.put("second", &serde_json::json!({})).unwrap();   // heard after this call
    ///             heard.lock().unwrap().push("first done".into());
    ///         }
    ///     }
    /// })?;
    /// counters.put("first", &serde_json::json!({}))?;
    /// assert_eq!(*heard.lock().unwrap(), ["first", "first done", "second"]);
    /// # drop(token);
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn add_change_listener<F>(&self, listener: F) -> Result<ListenerToken>
    where
        F: Fn(&CollectionChange) + Send + Sync + 'static,
    {
        listener::add_collection_listener(self, listener)
    }

    /// Calls `listener` with the collection and the ID after each commit that changes document
    /// `id`; a change made inside a listener is delivered after that listener returns (see
    /// [`add_change_listener`](Collection::add_change_listener)).
    pub fn add_document_change_listener<F>(&self, id: &str, listener: F) -> Result<ListenerToken>
    where
        F: Fn(&Collection, &str) + Send + Sync + 'static,
    {
        listener::add_document_listener(self, id, listener)
    }
}

impl std::fmt::Debug for Collection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Collection").field("scope", &self.scope_name()).field("name", &self.name()).finish()
    }
}
