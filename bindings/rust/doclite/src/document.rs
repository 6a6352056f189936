//! [`Document`]: a JSON object with an ID and a revision, read and written through serde.

use std::ffi::CString;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use doclite_sys as sys;

use crate::blob::Blob;
use crate::error::{Error, ErrorKind, Result};
use crate::ffi::{self, c_string, check, handle, lib, loaded, optional_handle, Handle};
use crate::json::{self, Target};

/// A document: an ID, a revision and properties (a JSON object), to read, change and
/// save ([`Collection::save`](crate::Collection::save)). Properties go in and out as
/// JSON text, a [`serde_json::Map`], or any serde type.
///
/// A document belongs to one thread at a time: it is `Send`, not `Sync`.
pub struct Document {
    handle: Handle<sys::CBLDocument>,
}

// Safety: the C API lets a document handle move between threads (one user at a time).
unsafe impl Send for Document {}

impl Document {
    /// A new, empty document with an automatic ID.
    pub fn new() -> Result<Document> {
        Document::create(None)
    }

    /// A new, empty document with the ID `id` (checked when saved).
    pub fn with_id(id: &str) -> Result<Document> {
        Document::create(Some(c_string(id, "the document ID")?))
    }

    /// A new document `id` (`None`: an automatic ID) holding `properties`.
    pub fn from_value<T: Serialize + ?Sized>(id: Option<&str>, properties: &T) -> Result<Document> {
        let mut document = match id {
            Some(id) => Document::with_id(id)?,
            None => Document::new()?,
        };
        document.set_properties(properties)?;
        Ok(document)
    }

    fn create(id: Option<CString>) -> Result<Document> {
        let lib = lib()?;
        let id = id.as_ref().map_or(std::ptr::null(), |id| id.as_ptr());
        // Safety: the ID outlives the call.
        let handle = handle(|error| unsafe { lib.CBLDocument_CreateWithID(id, error) })?;
        Ok(Document { handle })
    }

    pub(crate) fn from_handle(handle: Handle<sys::CBLDocument>) -> Document {
        Document { handle }
    }

    pub(crate) fn as_ptr(&self) -> *mut sys::CBLDocument {
        self.handle.as_ptr()
    }

    /// The handle, +1, for DocLite to take.
    pub(crate) fn into_raw(self) -> *mut sys::CBLDocument {
        self.handle.into_raw()
    }

    /// The document's ID.
    pub fn id(&self) -> &str {
        // Safety: the ID lives as long as the handle `self` holds.
        unsafe { ffi::borrow_str(loaded().CBLDocument_ID(self.as_ptr())) }.unwrap_or_default()
    }

    /// The revision ID, or `None` before the first save.
    pub fn revision_id(&self) -> Option<String> {
        // Safety: valid until the document is saved, which needs `&mut self`.
        unsafe { ffi::copy_string(loaded().CBLDocument_RevisionID(self.as_ptr())) }
    }

    /// The sequence of the document's revision; 0 before the first save.
    pub fn sequence(&self) -> u64 {
        // Safety: a live handle.
        unsafe { loaded().CBLDocument_Sequence(self.as_ptr()) }
    }

    /// The properties as JSON text (`{"name":"Grand"}`).
    pub fn to_json(&self) -> String {
        // Safety: a live handle; the text is owned.
        unsafe { ffi::take_string(loaded().CBLDocument_CreateJSON(self.as_ptr())) }.unwrap_or_else(|| "{}".into())
    }

    /// The properties as a JSON object.
    pub fn properties(&self) -> Map<String, Value> {
        serde_json::from_str(&self.to_json()).unwrap_or_default()
    }

    /// The properties as a `T`.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T> {
        serde_json::from_str(&self.to_json())
            .map_err(|error| Error::new(ErrorKind::Conversion, format!("document '{}': {error}", self.id())))
    }

    /// Replaces the properties with the JSON object `json`; on an error nothing changes.
    pub fn set_json(&mut self, json: &str) -> Result<()> {
        let json = c_string(json, "the document's JSON")?;
        // Safety: a live handle; the text outlives the call.
        check(|error| unsafe { loaded().CBLDocument_SetJSON(self.as_ptr(), json.as_ptr(), error) })
    }

    /// Replaces the properties with `properties`, which must serialize to a JSON object.
    /// A number JSON cannot hold exactly — NaN, an infinity (which serde_json would write as
    /// null), an integer beyond `i64::MIN..=u64::MAX` — is an
    /// [`ErrorKind::InvalidParameter`] error naming where it is; nothing changes then.
    ///
    /// ```
    /// let mut document = doclite::Document::with_id("h1")?;
    /// let properties = std::collections::HashMap::from([("rating", f64::NAN)]);
    /// let error = document.set_properties(&properties).unwrap_err();
    /// assert_eq!(error.kind(), doclite::ErrorKind::InvalidParameter);
    /// assert_eq!(error.message(), "the document's properties at .rating: NaN is not a finite number (JSON has no NaN or infinity)");
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn set_properties<T: Serialize + ?Sized>(&mut self, properties: &T) -> Result<()> {
        let json = json::write(properties, "the document's properties", Target::Document, |checked| serde_json::to_string(checked))?;
        self.set_json(&json)
    }

    /// Sets the property `key` to a blob (its metadata dictionary); the blob's content is
    /// stored when the document is saved, in the save's transaction.
    pub fn set_blob(&mut self, key: &str, blob: &Blob) -> Result<()> {
        let key = c_string(key, "the property name")?;
        // Safety: live handles; the key outlives the call.
        check(|error| unsafe { loaded().CBLDocument_SetBlob(self.as_ptr(), key.as_ptr(), blob.as_ptr(), error) })
    }

    /// The blob in the property `key`, or `None` when that property is not a blob's metadata
    /// dictionary (or is missing). Its content is read from the database that stores it.
    pub fn blob(&self, key: &str) -> Result<Option<Blob>> {
        let key = c_string(key, "the property name")?;
        // Safety: a live handle; the key outlives the call; the blob comes back +1.
        let handle = optional_handle(|error| unsafe { loaded().CBLDocument_GetBlob(self.as_ptr(), key.as_ptr(), error) })?;
        Ok(handle.map(Blob::from_handle))
    }
}

impl Clone for Document {
    /// A separate mutable copy, with the same ID and revision.
    fn clone(&self) -> Document {
        // Safety: a live handle; the copy is returned +1.
        let copy = unsafe { loaded().CBLDocument_MutableCopy(self.as_ptr()) };
        Document { handle: Handle::from_owned(copy).expect("a copy of a live document") }
    }
}

impl std::fmt::Debug for Document {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Document")
            .field("id", &self.id())
            .field("revision_id", &self.revision_id())
            .field("properties", &self.to_json())
            .finish()
    }
}
