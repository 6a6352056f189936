//! The updates of a lazy vector index: [`QueryIndex`] and [`IndexUpdater`].

use doclite_sys as sys;
use serde_json::Value;

use crate::error::{Error, ErrorKind, Result};
use crate::ffi::{check, loaded, optional_handle, take_string, Handle};

/// An index of a collection (Couchbase Lite's `QueryIndex`), from
/// [`Collection::index`](crate::Collection::index).
pub struct QueryIndex {
    handle: Handle<sys::CBLQueryIndex>,
}

// Safety: DocLite's handle registry is thread-safe and an index handle is immutable.
unsafe impl Send for QueryIndex {}
unsafe impl Sync for QueryIndex {}

impl QueryIndex {
    pub(crate) fn new(handle: Handle<sys::CBLQueryIndex>) -> QueryIndex {
        QueryIndex { handle }
    }

    /// The index's name.
    pub fn name(&self) -> String {
        // Safety: a live handle; the name is borrowed from it, copied here.
        let name = unsafe { loaded().CBLQueryIndex_Name(self.handle.as_ptr()) };
        if name.is_null() {
            return String::new();
        }
        // Safety: a NUL-terminated string the handle keeps.
        unsafe { std::ffi::CStr::from_ptr(name) }.to_string_lossy().into_owned()
    }

    /// The next documents, at most `limit`, whose vectors this lazy vector index lacks, in the
    /// order they were saved; `None` when every document with a value is indexed. A document
    /// saved again since it was indexed is pending again; deleted and purged ones leave the
    /// index by themselves. [`ErrorKind::InvalidParameter`] for a limit of 0,
    /// [`ErrorKind::Unsupported`] for an index that is not a lazy vector index.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-lazy-{}", std::process::id()));
    /// # let db = doclite::Database::open("lazy", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::VectorIndexConfiguration;
    /// let words = db.default_collection()?;
    /// words.put("w1", &serde_json::json!({"word": "cat"}))?;
    /// words.create_vector_index("byWord", &VectorIndexConfiguration::new("word", 2, 1).lazy(true))?;
    /// let index = words.index("byWord")?.unwrap();
    /// let mut updater = index.begin_update(10)?.unwrap();
    /// assert_eq!(updater.value(0)?, serde_json::json!("cat"));
    /// updater.set_vector(0, Some(&[3.0, 1.0]))?;   // the application's embedding of "cat"
    /// updater.finish()?;
    /// assert!(index.begin_update(10)?.is_none());
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn begin_update(&self, limit: usize) -> Result<Option<IndexUpdater>> {
        // Safety: a live handle.
        let handle = optional_handle(|error| unsafe { loaded().CBLQueryIndex_BeginUpdate(self.handle.as_ptr(), limit, error) })?;
        Ok(handle.map(|handle| {
            // Safety: a live handle.
            let count = unsafe { loaded().CBLIndexUpdater_Count(handle.as_ptr()) };
            IndexUpdater { handle, count }
        }))
    }
}

impl std::fmt::Debug for QueryIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryIndex").field("name", &self.name()).finish()
    }
}

/// A batch of documents whose vectors a lazy vector index lacks (Couchbase Lite's
/// `IndexUpdater`), from [`QueryIndex::begin_update`]: read each one's value of the index's
/// expression ([`value`](Self::value)), compute its vector and [`set_vector`](Self::set_vector)
/// it, or [`skip_vector`](Self::skip_vector) it (it comes back in a later update); then
/// [`finish`](Self::finish) writes them in one transaction. Dropped unfinished, it changes nothing.
pub struct IndexUpdater {
    handle: Handle<sys::CBLIndexUpdater>,
    count: usize,
}

// Safety: the updater's state is behind a lock in DocLite.
unsafe impl Send for IndexUpdater {}

impl IndexUpdater {
    /// The number of documents in the batch.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the batch is empty (never, as [`QueryIndex::begin_update`] gives one).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Document `index`'s value of the index's expression; [`ErrorKind::InvalidParameter`]
    /// when out of range.
    pub fn value(&self, index: usize) -> Result<Value> {
        // Safety: a live handle; the string returned is owned.
        let text = unsafe { take_string(loaded().CBLIndexUpdater_CopyValueJSON(self.handle.as_ptr(), index)) }.ok_or_else(|| {
            Error::new(ErrorKind::InvalidParameter, format!("index {index} is out of range (the updater has {} items)", self.count))
        })?;
        Ok(serde_json::from_str(&text)?)
    }

    /// Sets document `index`'s vector (copied), as many finite numbers as the index's
    /// dimensions; `None` when the document has none. [`ErrorKind::InvalidParameter`] for
    /// another length, an index out of range; [`ErrorKind::NotOpen`] once finished.
    pub fn set_vector(&mut self, index: usize, vector: Option<&[f32]>) -> Result<()> {
        let (items, count) = vector.map_or((std::ptr::null(), 0), |vector| (vector.as_ptr(), vector.len()));
        // Safety: a live handle; the vector outlives the call, which copies it.
        check(|error| unsafe { loaded().CBLIndexUpdater_SetVector(self.handle.as_ptr(), index, items, count, error) })
    }

    /// Leaves document `index` out of this update: it comes back in a later one.
    pub fn skip_vector(&mut self, index: usize) -> Result<()> {
        // Safety: a live handle.
        check(|error| unsafe { loaded().CBLIndexUpdater_SkipVector(self.handle.as_ptr(), index, error) })
    }

    /// Writes the vectors set, in one transaction (a document saved again meanwhile is left
    /// for a later update). [`ErrorKind::Unsupported`] while a document is neither set nor
    /// skipped; [`ErrorKind::NotOpen`] once finished.
    pub fn finish(&mut self) -> Result<()> {
        // Safety: a live handle.
        check(|error| unsafe { loaded().CBLIndexUpdater_Finish(self.handle.as_ptr(), error) })
    }
}

impl std::fmt::Debug for IndexUpdater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IndexUpdater").field("len", &self.count).finish()
    }
}
