import CSQLite

/// An error raised by DocLite, carrying Couchbase Lite's error domain and code
/// and a message a user can act on.
public struct DocLiteError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The error domains, numbered as Couchbase Lite's `CBLErrorDomain`.
    public enum Domain: Int32, Sendable {
        /// DocLite's (Couchbase Lite's) own errors; the code is a ``Code``.
        case docLite = 1
        /// An operating-system `errno`.
        case posix = 2
        /// An SQLite result code.
        case sqlite = 3
        /// An encoding error; the code is a ``FleeceCode`` (JSON and body errors).
        case fleece = 4
        /// A network failure reaching a replication peer; the code is a ``NetworkCode``.
        case network = 5
        /// A replication peer's refusal, numbered as an HTTP status (401: bad
        /// credentials, 403: not allowed, 409: conflict), as Couchbase Lite's WebSocket domain.
        case webSocket = 6
    }

    /// Error codes in the ``Domain/docLite`` domain, numbered as Couchbase Lite's `CBLErrorCode`.
    public enum Code: Int32, Sendable {
        /// An internal consistency check failed.
        case assertionFailed = 1
        /// The operation is not implemented.
        case unimplemented
        /// The database asks for an encryption this build does not have.
        case unsupportedEncryption
        /// A revision ID is malformed.
        case badRevisionID
        /// A revision's properties cannot be stored (a reserved top-level key).
        case corruptRevisionData
        /// The database is closed, or the collection deleted.
        case notOpen
        /// No such document, blob or collection.
        case notFound
        /// The document changed since it was read.
        case conflict
        /// An argument is invalid: a value a document cannot hold, a NULL, a bad name.
        case invalidParameter
        /// Something that should not happen happened.
        case unexpectedError
        /// The database file cannot be opened.
        case cantOpenFile
        /// Reading or writing the file failed.
        case ioError
        /// Memory ran out.
        case memoryError
        /// The file cannot be written.
        case notWriteable
        /// Stored data is damaged.
        case corruptData
        /// The database is locked by another connection.
        case busy
        /// The operation needs a transaction.
        case notInTransaction
        /// A batch or transaction is still open.
        case transactionNotClosed
        /// The operation is not supported.
        case unsupported
        /// The file is not a DocLite database.
        case notADatabaseFile
        /// The file is a database of another format or version.
        case wrongFormat
        /// Encryption or decryption failed.
        case crypto
        /// A query cannot be parsed or compiled.
        case invalidQuery
        /// No index has that name.
        case missingIndex
        /// A query parameter is invalid.
        case invalidQueryParam
        /// A remote peer failed.
        case remoteError
        /// The file was written by a version too old to open.
        case databaseTooOld
        /// The file was written by a newer version.
        case databaseTooNew
        /// A document ID is invalid.
        case badDocID
        /// The file cannot be upgraded.
        case cantUpgradeDatabase
        /// A document that does not decode as a model's type (Couchbase Lite Swift's `CBLError.decodingError`).
        case decodingError = 18001
        /// A model that cannot be stored as a document (Couchbase Lite Swift's `CBLError.encodingError`).
        case encodingError = 18002
    }

    /// Error codes in the ``Domain/fleece`` domain, numbered as Fleece's `FLError`.
    public enum FleeceCode: Int32, Sendable {
        /// Memory ran out.
        case memoryError = 1
        /// An index or position is out of range.
        case outOfRange
        /// A value cannot be encoded or is malformed.
        case invalidData
        /// Encoding a value failed.
        case encodeError
        /// JSON text is malformed.
        case jsonError
        /// A stored value is of an unknown kind.
        case unknownValue
        /// Something that should not happen happened.
        case internalError
    }

    /// Error codes in the ``Domain/network`` domain, numbered as Couchbase Lite's `CBLNetworkErrorCode`.
    public enum NetworkCode: Int32, Sendable {
        /// The host name is not known.
        case unknownHost = 2
        /// The peer did not answer in time.
        case timeout = 3
        /// The peer's address (a connection string) is malformed.
        case invalidURL = 4
        /// The TLS handshake failed.
        case tlsHandshakeFailed = 6
        /// Another network failure.
        case unknown = 13
        /// The connection was lost.
        case connectionReset = 18
        /// The peer refused the connection, or is not running.
        case connectionRefused = 19
    }

    /// Which numbering `code` belongs to.
    public let domain: Domain
    /// The error code within `domain` (a ``Code`` in the DocLite domain).
    public let code: Int32
    /// What went wrong, for a person to read.
    public let message: String
    /// For malformed query or JSON text: the byte offset of the fault in the text.
    public var position: Int?

    /// An error with an explicit domain and code.
    public init(domain: Domain, code: Int32, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// An error in the DocLite domain.
    public init(_ code: Code, _ message: String, position: Int? = nil) {
        self.init(domain: .docLite, code: code.rawValue, message: message)
        self.position = position
    }

    /// An error in the network domain.
    public init(_ code: NetworkCode, _ message: String) {
        self.init(domain: .network, code: code.rawValue, message: message)
    }

    /// An error in the Fleece (encoding) domain.
    public init(_ code: FleeceCode, _ message: String) {
        self.init(domain: .fleece, code: code.rawValue, message: message)
    }

    /// The message.
    public var description: String { message }

    /// Whether this is the error of a query run that was interrupted
    /// (``Query/interrupt()``, a progress handler, a cancelled task): the SQLite
    /// domain's `SQLITE_INTERRUPT`.
    public var isInterruption: Bool { domain == .sqlite && code == SQLITE_INTERRUPT }

    /// Whether this is the DocLite-domain error `code`.
    public func `is`(_ code: Code) -> Bool { domain == .docLite && self.code == code.rawValue }
}

extension DocLiteError {
    /// How much of a value a message quotes.
    static let quotedPrefixLength = 80

    /// `value` in single quotes for a message: whole when short, else its first
    /// ``quotedPrefixLength`` characters and its size, so that a message never
    /// grows with the input (a 1 MB document ID gives a short error).
    static func quoted(_ value: String) -> String {
        var prefix = value.prefix(quotedPrefixLength + 1)
        guard prefix.count > quotedPrefixLength else { return "'\(value)'" }
        prefix.removeLast()
        return "'\(prefix)…' (\(value.utf8.count) bytes)"
    }
}
