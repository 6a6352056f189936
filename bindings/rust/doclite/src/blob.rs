//! [`Blob`]: binary content that documents refer to, and [`BlobReader`], a stream over it.

use std::ffi::c_void;
use std::io::{self, Read, Seek, SeekFrom};
use std::ptr::NonNull;

use serde_json::{Map, Value};

use doclite_sys as sys;

use crate::database::Database;
use crate::error::{Error, ErrorKind, Result};
use crate::ffi::{self, c_string, check, handle, lib, loaded, optional_c_string, optional_ptr, Handle};
use crate::json::{self, Target};

/// The size of the pieces [`Blob::from_reader`] reads and hands to DocLite.
const WRITE_CHUNK: usize = 64 * 1024;

/// The most one call into the library reads (its result is a C `int`; DocLite reads at most 1 GiB a call).
const MAX_READ: usize = 1 << 30;

/// Binary content (an image, a file) that documents refer to: Couchbase Lite's blob.
///
/// The content is stored in the database once per digest, outside the document, whose
/// properties hold the blob's metadata dictionary
/// `{"@type": "blob", "content_type": …, "digest": "sha1-…", "length": …}`; queries return
/// that dictionary, and [`Database::get_blob`] turns it back into a blob. A new blob's content
/// is stored when a document holding it is saved ([`Document::set_blob`](crate::Document::set_blob)),
/// in the save's transaction, or by [`Database::save_blob`]. Compaction
/// ([`MaintenanceType::Compact`](crate::MaintenanceType::Compact)) deletes content no document
/// refers to.
///
/// A blob is immutable: it is `Send + Sync`, and cloning it gives another reference to the
/// same blob. Two blobs are equal when their contents are (their digests are).
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-blob-{}", std::process::id()));
/// # let db = doclite::Database::open("blob", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// use std::io::{Read, Seek, SeekFrom};
/// use doclite::{Blob, Document};
///
/// let photos = db.create_collection("photos", None)?;
/// let mut document = Document::with_id("p1")?;
/// document.set_blob("photo", &Blob::new(Some("image/jpeg"), b"four wheels and a roof")?)?;
/// photos.save(&mut document)?;
///
/// // The document holds the metadata; the database holds the content.
/// let properties = photos.document("p1")?.expect("saved").properties();
/// assert_eq!(properties["photo"]["digest"], "sha1-xftqzQ+qIexl7XBuoZpLmGoVv0I=");
/// let photo = db.get_blob(&properties["photo"])?.expect("stored");
/// assert_eq!((photo.length(), photo.content_type()), (22, Some("image/jpeg")));
/// assert_eq!(photo.content()?, b"four wheels and a roof");
///
/// // Large content: a stream in, a stream out.
/// let big = Blob::from_reader(&db, None, std::io::repeat(b'x').take(3_000_000))?;
/// db.save_blob(&big)?;
/// let mut stream = big.open_stream()?;
/// stream.seek(SeekFrom::End(-4))?;
/// let mut tail = Vec::new();
/// stream.read_to_end(&mut tail)?;
/// assert_eq!(tail, b"xxxx");
/// # drop(stream);
/// # db.delete()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Blob {
    handle: Handle<sys::CBLBlob>,
}

// Safety: a blob handle is immutable (its content, type and digest never change) and
// DocLite's handle registry is thread-safe, so a blob may be used from several threads.
unsafe impl Send for Blob {}
unsafe impl Sync for Blob {}

impl Blob {
    /// A new blob holding a copy of `data`, with the MIME type `content_type` (optional).
    /// Its content is stored when a document holding it is saved, or by [`Database::save_blob`].
    pub fn new(content_type: Option<&str>, data: &[u8]) -> Result<Blob> {
        let lib = lib()?;
        let content_type = optional_c_string(content_type, "the content type")?;
        // Safety: the type and the data outlive the call; DocLite copies the data.
        let handle = handle(|error| unsafe {
            lib.CBLBlob_CreateWithData(optional_ptr(&content_type), data.as_ptr() as *const c_void, data.len(), error)
        })?;
        Ok(Blob { handle })
    }

    /// A new blob holding what `reader` gives until its end, with the MIME type
    /// `content_type` (optional), for content too large to hold in memory: it is read in
    /// pieces into a file DocLite stages for `db` (which must be open), never whole.
    /// A failing reader is an error of kind [`ErrorKind::Io`], and what was staged is discarded.
    pub fn from_reader<R: Read>(db: &Database, content_type: Option<&str>, mut reader: R) -> Result<Blob> {
        let content_type = optional_c_string(content_type, "the content type")?;
        // Safety: a live database handle; the writer comes back +1, closed or consumed by `Writer`.
        let (pointer, error) = ffi::with_error(|error| unsafe { loaded().CBLBlobWriter_Create(db.as_ptr(), error) });
        let writer = Writer(NonNull::new(pointer).ok_or_else(|| Error::from_c(&error))?);
        let mut buffer = vec![0u8; WRITE_CHUNK];
        loop {
            let count = match reader.read(&mut buffer) {
                Ok(0) => break,
                Ok(count) => count,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(Error::new(ErrorKind::Io, format!("reading the blob's content failed: {error}"))),
            };
            // Safety: a live writer; the buffer holds `count` bytes.
            check(|error| unsafe {
                loaded().CBLBlobWriter_Write(writer.as_ptr(), buffer.as_ptr() as *const c_void, count, error)
            })?;
        }
        let writer = writer.into_raw();
        // Safety: the writer is live and consumed by the call (also when it fails); the type outlives it.
        let handle = handle(|error| unsafe { loaded().CBLBlob_CreateWithStream(optional_ptr(&content_type), writer, error) })?;
        Ok(Blob { handle })
    }

    pub(crate) fn from_handle(handle: Handle<sys::CBLBlob>) -> Blob {
        Blob { handle }
    }

    pub(crate) fn as_ptr(&self) -> *mut sys::CBLBlob {
        self.handle.as_ptr()
    }

    /// The content's length in bytes.
    pub fn length(&self) -> u64 {
        // Safety: a live handle.
        unsafe { loaded().CBLBlob_Length(self.as_ptr()) }
    }

    /// The MIME type given when the blob was made, if any.
    pub fn content_type(&self) -> Option<&str> {
        // Safety: the type lives as long as the handle `self` holds.
        unsafe { ffi::borrow_str(loaded().CBLBlob_ContentType(self.as_ptr())) }
    }

    /// The content's digest: `sha1-` and the Base64 of its SHA-1 (`sha1-qvTGHdzF6KLavt4PO0gs2a6pQ00=`).
    pub fn digest(&self) -> &str {
        // Safety: the digest lives as long as the handle `self` holds.
        unsafe { ffi::borrow_str(loaded().CBLBlob_Digest(self.as_ptr())) }.unwrap_or_default()
    }

    /// The whole content, read into memory. An error when the database that stores the blob
    /// is closed ([`ErrorKind::NotOpen`]) or does not hold its content; for large content,
    /// [`open_stream`](Blob::open_stream) reads it in pieces.
    pub fn content(&self) -> Result<Vec<u8>> {
        let mut length: usize = 0;
        // Safety: a live handle; the content comes back in memory from malloc, or NULL.
        let (pointer, error) = ffi::with_error(|error| unsafe { loaded().CBLBlob_Content(self.as_ptr(), &mut length, error) });
        if pointer.is_null() {
            return Err(Error::from_c(&error));
        }
        // Safety: DocLite returned `length` bytes at `pointer`, freed here once, after the copy.
        unsafe {
            let content = std::slice::from_raw_parts(pointer as *const u8, length).to_vec();
            libc::free(pointer);
            Ok(content)
        }
    }

    /// A stream over the content ([`Read`] and [`Seek`]), for content too large to read whole.
    /// A stored blob's stream keeps a read snapshot of its database until it is dropped.
    pub fn open_stream(&self) -> Result<BlobReader> {
        // Safety: a live handle; the stream comes back +1, closed by BlobReader's Drop.
        let (pointer, error) = ffi::with_error(|error| unsafe { loaded().CBLBlob_OpenContentStream(self.as_ptr(), error) });
        let stream = NonNull::new(pointer).ok_or_else(|| Error::from_c(&error))?;
        Ok(BlobReader { stream, length: self.length() })
    }

    /// The metadata dictionary as JSON text, as a document's properties hold it:
    /// `{"@type":"blob","content_type":"text/plain","digest":"sha1-…","length":5}`.
    pub fn to_json(&self) -> String {
        // Safety: a live handle; the text is owned.
        unsafe { ffi::take_string(loaded().CBLBlob_CreateJSON(self.as_ptr())) }.unwrap_or_else(|| "{}".into())
    }

    /// The metadata dictionary, as a document's properties and query rows hold it. To refer
    /// to the blob from deeper inside a document's properties, put this dictionary there
    /// after [`Database::save_blob`] (a document's save stores only the blobs set with
    /// [`Document::set_blob`](crate::Document::set_blob)).
    pub fn properties(&self) -> Map<String, Value> {
        serde_json::from_str(&self.to_json()).unwrap_or_default()
    }
}

impl PartialEq for Blob {
    /// Whether the two contents are the same (the digests are).
    fn eq(&self, other: &Blob) -> bool {
        // Safety: live handles.
        unsafe { loaded().CBLBlob_Equals(self.as_ptr(), other.as_ptr()) }
    }
}

impl Eq for Blob {}

impl std::hash::Hash for Blob {
    /// Hashes the digest, which equal blobs share.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.digest().hash(state);
    }
}

impl std::fmt::Debug for Blob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Blob")
            .field("content_type", &self.content_type())
            .field("length", &self.length())
            .field("digest", &self.digest())
            .finish()
    }
}

/// A write stream that made no blob yet: discarded (its staged content deleted) on drop.
struct Writer(NonNull<sys::CBLBlobWriteStream>);

impl Writer {
    fn as_ptr(&self) -> *mut sys::CBLBlobWriteStream {
        self.0.as_ptr()
    }

    /// The stream, for the call that consumes it.
    fn into_raw(self) -> *mut sys::CBLBlobWriteStream {
        let pointer = self.as_ptr();
        std::mem::forget(self);
        pointer
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // Safety: the writer is live and closed once, here.
        unsafe { loaded().CBLBlobWriter_Close(self.as_ptr()) };
    }
}

/// A stream over a blob's content ([`Blob::open_stream`]): [`Read`] and [`Seek`], closed when
/// dropped. It belongs to one thread at a time: it is `Send`, not `Sync`.
///
/// A seek before the start or past the end of the content is an [`io::Error`] of kind
/// `InvalidInput` holding DocLite's [`Error`].
///
/// ```compile_fail
/// fn shared<T: Sync>(_: &T) {}
/// # fn check(blob: &doclite::Blob) -> doclite::Result<()> {
/// let stream = blob.open_stream()?;
/// shared(&stream); // error: a BlobReader cannot be shared between threads
/// # Ok(()) }
/// ```
pub struct BlobReader {
    stream: NonNull<sys::CBLBlobReadStream>,
    length: u64,
}

// Safety: DocLite lets a read stream move between threads (one user at a time).
unsafe impl Send for BlobReader {}

impl BlobReader {
    /// The content's length in bytes.
    pub fn length(&self) -> u64 {
        self.length
    }

    /// Where the next read starts.
    pub fn position(&self) -> u64 {
        // Safety: a live stream.
        unsafe { loaded().CBLBlobReader_Position(self.stream.as_ptr()) }
    }
}

/// A DocLite error as an `io::Error` of `kind`, keeping the error inside.
fn io_error(kind: io::ErrorKind, error: &sys::CBLError) -> io::Error {
    io::Error::new(kind, Error::from_c(error))
}

impl Read for BlobReader {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let count = buffer.len().min(MAX_READ);
        // Safety: a live stream; the buffer holds at least `count` bytes.
        let (read, error) = ffi::with_error(|error| unsafe {
            loaded().CBLBlobReader_Read(self.stream.as_ptr(), buffer.as_mut_ptr() as *mut c_void, count, error)
        });
        usize::try_from(read).map_err(|_| io_error(io::ErrorKind::Other, &error))
    }
}

impl Seek for BlobReader {
    fn seek(&mut self, position: SeekFrom) -> io::Result<u64> {
        let (offset, base) = match position {
            SeekFrom::Start(offset) => {
                let offset = i64::try_from(offset).map_err(|_| {
                    io::Error::new(
                        io::ErrorKind::InvalidInput,
                        Error::new(ErrorKind::InvalidParameter, format!("cannot seek to {offset}, past the end of the blob")),
                    )
                })?;
                (offset, sys::kCBLSeekModeFromStart)
            }
            SeekFrom::Current(offset) => (offset, sys::kCBLSeekModeRelative),
            SeekFrom::End(offset) => (offset, sys::kCBLSeekModeFromEnd),
        };
        // Safety: a live stream.
        let (position, error) = ffi::with_error(|error| unsafe {
            loaded().CBLBlobReader_Seek(self.stream.as_ptr(), offset, base as sys::CBLSeekBase, error)
        });
        u64::try_from(position).map_err(|_| io_error(io::ErrorKind::InvalidInput, &error))
    }

    fn stream_position(&mut self) -> io::Result<u64> {
        Ok(self.position())
    }
}

impl Drop for BlobReader {
    fn drop(&mut self) {
        // Safety: the stream is live and closed once, here.
        unsafe { loaded().CBLBlobReader_Close(self.stream.as_ptr()) }
    }
}

impl std::fmt::Debug for BlobReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlobReader").field("length", &self.length).field("position", &self.position()).finish()
    }
}

impl Database {
    /// Stores a blob's content in the database (once per digest), so that a document may
    /// refer to it by its metadata ([`Blob::properties`]) anywhere in its properties; until
    /// one does, compaction deletes it. Inside a transaction it is stored when that commits.
    pub fn save_blob(&self, blob: &Blob) -> Result<()> {
        // Safety: live handles.
        check(|error| unsafe { loaded().CBLDatabase_SaveBlob(self.as_ptr(), blob.as_ptr(), error) })
    }

    /// The blob that a metadata dictionary describes, as a document's properties or a query
    /// row hold it (anything that serializes to that object: a [`serde_json::Value`], a
    /// [`Map`], a struct); `None` when the database does not store its content. A value that
    /// is not a blob's metadata object is an error of kind [`ErrorKind::InvalidParameter`]
    /// (so is a string: for JSON text, call [`get_blob_json`](Database::get_blob_json)).
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-get-blob-{}", std::process::id()));
    /// # let db = doclite::Database::open("getblob", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// let mut document = doclite::Document::with_id("d")?;
    /// document.set_blob("data", &doclite::Blob::new(Some("text/plain"), b"hello")?)?;
    /// db.default_collection()?.save(&mut document)?;
    /// let row = db.create_query("SELECT data FROM _")?.execute()?.next().expect("a row")?;
    /// let blob = db.get_blob(&row.get::<serde_json::Value>("data")?)?.expect("stored");
    /// assert_eq!(blob.content()?, b"hello");
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn get_blob<P: serde::Serialize + ?Sized>(&self, properties: &P) -> Result<Option<Blob>> {
        self.get_blob_json(&json::write(properties, "the blob's metadata", Target::Document, |checked| serde_json::to_string(checked))?)
    }

    /// As [`get_blob`](Database::get_blob), from the metadata dictionary as JSON text
    /// (`{"@type":"blob","digest":"sha1-…","length":5}`); text that is not JSON is an error.
    pub fn get_blob_json(&self, json: &str) -> Result<Option<Blob>> {
        let json = c_string(json, "the blob's metadata")?;
        // Safety: a live handle; the text outlives the call; the blob comes back +1.
        let handle = ffi::optional_handle(|error| unsafe { loaded().CBLDatabase_GetBlob(self.as_ptr(), json.as_ptr(), error) })?;
        Ok(handle.map(Blob::from_handle))
    }
}
