//! [`Error`]: what every fallible call returns, with DocLite's code and message.

use std::fmt;

use doclite_sys as sys;

/// The kind of an [`Error`]: DocLite's error codes (`CBLErrorCode`), and the
/// failures that happen on the Rust side (serde, row access, loading the library).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The database is closed, or the collection deleted.
    NotOpen,
    /// No such document, collection, listener or database file.
    NotFound,
    /// A save or delete lost to a concurrent change.
    Conflict,
    /// A bad argument: a bad name, a string holding NUL, a wrong handle, a number JSON
    /// cannot hold exactly (NaN, infinity, an integer too wide), a document referring to a
    /// blob its database does not store.
    InvalidParameter,
    /// A query or index definition that cannot be compiled or run; see [`Error::position`].
    InvalidQuery,
    /// A parameter the query does not use (reported when the query runs), or a LIMIT/OFFSET
    /// parameter that is not an integer.
    InvalidQueryParameter,
    /// A query run stopped by [`Query::interrupt`](crate::Query::interrupt) or by its
    /// [progress handler](crate::Query::set_progress_handler).
    Interrupted,
    /// MATCH() or RANK() names a full-text index the collection does not have.
    MissingIndex,
    /// A document ID that breaks the rules (1-240 bytes, no control characters, no leading `_`).
    BadDocumentId,
    /// Malformed JSON, or a document body that is not an object.
    InvalidJson,
    /// A reserved top-level key (`_id`, `_rev`, `_deleted`) in a body.
    ReservedKey,
    /// Another process holds the database for longer than the timeout.
    Busy,
    /// Ending a transaction this thread did not begin.
    NotInTransaction,
    /// Closing the database, or maintaining it, inside a transaction.
    TransactionNotClosed,
    /// A request DocLite does not support.
    Unsupported,
    /// The database file or its directory cannot be opened or created.
    CantOpenFile,
    /// The database file is damaged, or is not a DocLite database.
    CorruptData,
    /// The file was written by a newer DocLite.
    DatabaseTooNew,
    /// The system or SQLite failed (I/O, a full disk); the message says how.
    Io,
    /// A value could not be turned into JSON, or a JSON value into the Rust type asked for.
    Conversion,
    /// A row has no column of that name or index.
    InvalidColumn,
    /// The DocLite library could not be loaded.
    Library,
    /// A sync server cannot be reached (the network domain: refused, unknown host, lost
    /// connection, a malformed connection string); a replicator retries all but the last.
    Network,
    /// A sync server refused, by HTTP status ([`Error::code`]): 401 bad credentials,
    /// 403 not allowed, 404 no such database, 409 a newer server revision.
    Refused,
    /// Anything else; the message says what.
    Other,
}

/// An error from DocLite, or from turning values between Rust and JSON.
///
/// `Display` gives DocLite's message, which names what went wrong and where:
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-error-{}", std::process::id()));
/// # let db = doclite::Database::open("errors", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// let error = db.create_query("SELECT name FROM _ WHERE").unwrap_err();
/// assert_eq!(error.kind(), doclite::ErrorKind::InvalidQuery);
/// assert_eq!(error.position(), Some(24));
/// # db.delete().unwrap();
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    domain: u8,
    code: i32,
    message: String,
    position: Option<usize>,
}

/// The result of every fallible call.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// What kind of error this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The `CBLErrorDomain` (1 DocLite, 2 POSIX, 3 SQLite, 4 JSON), or 0 for an error of the Rust side.
    pub fn domain(&self) -> u8 {
        self.domain
    }

    /// The code within the domain (a `CBLErrorCode` in DocLite's), or 0 for an error of the Rust side.
    pub fn code(&self) -> i32 {
        self.code
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// For a syntax error in query text: the byte offset where it was found.
    pub fn position(&self) -> Option<usize> {
        self.position
    }

    /// An error of the Rust side of the binding.
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, domain: 0, code: 0, message: message.into(), position: None }
    }

    /// The error `error` reports, with its message.
    pub(crate) fn from_c(error: &sys::CBLError) -> Error {
        let message = crate::ffi::lib()
            .ok()
            // Safety: `error` is a valid CBLError; the message is owned and freed by take_string.
            .and_then(|lib| unsafe { crate::ffi::take_string(lib.CBLError_Message(error)) })
            .unwrap_or_else(|| format!("DocLite error {} in domain {}", error.code, error.domain));
        Error { kind: kind_of(error), domain: error.domain, code: error.code, message, position: None }
    }

    pub(crate) fn at_position(mut self, position: i32) -> Error {
        self.position = usize::try_from(position).ok();
        self
    }
}

fn kind_of(error: &sys::CBLError) -> ErrorKind {
    let code = error.code as u32;
    match u32::from(error.domain) {
        sys::kCBLDomain => match code {
            sys::kCBLErrorNotOpen => ErrorKind::NotOpen,
            sys::kCBLErrorNotFound => ErrorKind::NotFound,
            sys::kCBLErrorConflict => ErrorKind::Conflict,
            sys::kCBLErrorInvalidParameter => ErrorKind::InvalidParameter,
            sys::kCBLErrorInvalidQuery => ErrorKind::InvalidQuery,
            sys::kCBLErrorInvalidQueryParam => ErrorKind::InvalidQueryParameter,
            sys::kCBLErrorMissingIndex => ErrorKind::MissingIndex,
            sys::kCBLErrorBadDocID => ErrorKind::BadDocumentId,
            sys::kCBLErrorCorruptRevisionData => ErrorKind::ReservedKey,
            sys::kCBLErrorBusy => ErrorKind::Busy,
            sys::kCBLErrorNotInTransaction => ErrorKind::NotInTransaction,
            sys::kCBLErrorTransactionNotClosed => ErrorKind::TransactionNotClosed,
            sys::kCBLErrorUnsupported | sys::kCBLErrorUnimplemented => ErrorKind::Unsupported,
            sys::kCBLErrorCantOpenFile => ErrorKind::CantOpenFile,
            sys::kCBLErrorCorruptData | sys::kCBLErrorNotADatabaseFile => ErrorKind::CorruptData,
            sys::kCBLErrorDatabaseTooNew => ErrorKind::DatabaseTooNew,
            _ => ErrorKind::Other,
        },
        sys::kCBLSQLiteDomain if code == sys::kCBLSQLiteErrorInterrupted => ErrorKind::Interrupted,
        sys::kCBLPOSIXDomain | sys::kCBLSQLiteDomain => ErrorKind::Io,
        sys::kCBLFleeceDomain => ErrorKind::InvalidJson,
        sys::kCBLNetworkDomain => ErrorKind::Network,
        sys::kCBLWebSocketDomain => ErrorKind::Refused,
        _ => ErrorKind::Other,
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<serde_json::Error> for Error {
    fn from(error: serde_json::Error) -> Error {
        Error::new(ErrorKind::Conversion, error.to_string())
    }
}
