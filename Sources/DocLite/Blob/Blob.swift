import Foundation

/// Binary content in a document (an image, a file), as Couchbase Lite's `Blob`.
/// The content is stored once per digest in its database, outside the document
/// body; the body holds the blob's metadata dictionary
/// (`{"@type": "blob", "content_type": …, "digest": "sha1-…", "length": …}`),
/// which is what queries return. A new blob is saved with the document it is
/// set in (``MutableDocument/setBlob(_:forKey:)``) or by ``Database/saveBlob(blob:)``.
public final class Blob: Equatable, CustomStringConvertible, Sendable {
    /// Where the content is read from.
    enum Source {
        /// In memory (a new blob made from data).
        case data(Data)
        /// A file: the user's, or a staged copy of a stream that is deleted with the blob.
        case file(URL, isStaged: Bool)
        /// The database that stores it (a blob read from a document or a query).
        case stored(WeakDatabase)
    }

    /// The MIME type given when the blob was made, if any.
    public let contentType: String?
    /// The content's length in bytes.
    public let length: UInt64
    /// The content's digest: `sha1-` and the Base64 of its SHA-1.
    public let digest: String
    let source: Source

    /// The dictionary key that marks a blob, and its value.
    static let typeKey = BodyEncoder.blobTypeKey, typeValue = "blob"

    /// A blob holding `data`.
    public init(contentType: String?, data: Data) {
        self.contentType = contentType
        length = UInt64(data.count)
        digest = data.withUnsafeBytes { BlobDigest.of($0) }
        source = .data(data)
    }

    /// A blob holding the content of the file at `fileURL`, read when the blob
    /// is saved (the file must not change until then: a changed file fails the
    /// save). Throws when the file cannot be read.
    public init(contentType: String?, fileURL: URL) throws {
        guard fileURL.isFileURL else {
            throw DocLiteError(.invalidParameter, "\(fileURL) is not a file URL")
        }
        let staged = try BlobWriter.digest(ofFile: fileURL)
        self.contentType = contentType
        length = staged.length
        digest = staged.digest
        source = .file(fileURL, isStaged: false)
    }

    /// A blob holding what `contentStream` gives until its end, read now into a
    /// temporary file (so that a long stream is never held in memory). Throws
    /// when the stream fails. (Couchbase Lite reads the stream when the blob is
    /// saved, and its initializer does not throw.)
    public convenience init(contentType: String?, contentStream: InputStream) throws {
        let writer = try BlobWriter()
        try writer.write(contentsOf: contentStream)
        try self.init(contentType: contentType, writer: writer)
    }

    /// A blob holding what was written to `writer`, which is finished by this call
    /// (a writer already finished throws).
    package init(contentType: String?, writer: BlobWriter) throws {
        let staged = try writer.finish()
        self.contentType = contentType
        length = staged.length
        digest = staged.digest
        source = .file(staged.url, isStaged: true)
    }

    /// A blob described by a metadata dictionary, stored in `database`; nil when
    /// `properties` does not describe a blob (no string `digest`, a negative length).
    init?(properties: [ByteString: JSONValue], database: Database?) {
        guard case .string(let digest)? = properties[ByteString("digest")], BlobDigest.isValid(digest) else { return nil }
        switch properties[ByteString("length")] {
        case .int(let value)? where value >= 0: length = UInt64(value)
        case .unsigned(let value)?: length = value
        case nil: length = 0
        default: return nil
        }
        if case .string(let type)? = properties[ByteString("content_type")] { contentType = type } else { contentType = nil }
        self.digest = digest
        source = .stored(WeakDatabase(database))
    }

    deinit {
        if case .file(let url, true) = source { try? FileManager.default.removeItem(at: url) }
    }

    /// The content, read whole; nil when it cannot be read (the database closed,
    /// the blob not in it). ``readContent()`` says why.
    public var content: Data? { try? readContent() }

    /// A stream over the content, for content too large to read whole; nil when
    /// it cannot be opened. Close it when done: a stored blob's stream keeps a
    /// read snapshot of the database open.
    public var contentStream: InputStream? {
        (try? BlobReader(self)).map(BlobInputStream.init)
    }

    /// The content, read whole; throws when the database that stores it is
    /// closed or does not hold it.
    public func readContent() throws -> Data {
        switch source {
        case .data(let data):
            return data
        case .file(let url, _):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw DocLiteError(.ioError, "cannot read blob content from \(url.path): \(error.localizedDescription)")
            }
        case .stored(let database):
            return try database.get().blobContent(digest: digest)
        }
    }

    /// The metadata dictionary the document body holds.
    public var properties: [String: Any] { metadata.mapValues(\.plainValue).stringKeyed }

    /// The metadata dictionary as JSON text.
    public func toJSON() -> String { JSONValue.dictionary(metadata).json }

    /// The content type and length, as Couchbase Lite prints a blob.
    public var description: String { "Blob[\(contentType ?? "application/octet-stream"); \(length) bytes; \(digest)]" }

    /// Two blobs are equal when their contents are (their digests are).
    public static func == (lhs: Blob, rhs: Blob) -> Bool { lhs.digest == rhs.digest }

    var metadata: [ByteString: JSONValue] {
        var members: [ByteString: JSONValue] = [
            ByteString(Self.typeKey): .string(Self.typeValue),
            ByteString("digest"): .string(digest),
            ByteString("length"): Int64(exactly: length).map(JSONValue.int) ?? .unsigned(length),
        ]
        if let contentType { members[ByteString("content_type")] = .string(contentType) }
        return members
    }

    /// The blob to install in `database`: itself, or, when another database
    /// stores it, a copy of its content staged in a temporary file (read here,
    /// before `database`'s lock is taken, so two databases never wait for each other).
    func prepared(for database: Database) throws -> Blob {
        guard case .stored(let owner) = source, let other = owner.database, other !== database else { return self }
        let writer = try BlobWriter()
        let reader = try BlobReader(self)
        defer { reader.close() }
        try reader.forEachChunk { try writer.write($0) }
        return try Blob(contentType: contentType, writer: writer)
    }

    /// Whether a dictionary is a blob's metadata (`"@type": "blob"`).
    static func isMetadata(_ members: [ByteString: JSONValue]) -> Bool {
        members[ByteString(typeKey)] == .string(typeValue)
    }
}

/// A reference to a database that does not keep it open.
struct WeakDatabase: Sendable {
    weak var database: Database?

    init(_ database: Database?) { self.database = database }

    /// The database; throws when it is gone or was never known.
    func get() throws -> Database {
        guard let database else { throw DocLiteError(.notOpen, "the blob's database is closed (or the blob was never saved to one)") }
        return database
    }
}

/// Couchbase Lite's blob digests: `sha1-` and the Base64 of the content's SHA-1.
enum BlobDigest {
    static let prefix = "sha1-"

    /// The digest of `bytes`; the prefix alone, which no stored blob has, when
    /// OpenSSL offers no SHA-1 (no database can open then, so none is saved).
    static func of(_ bytes: UnsafeRawBufferPointer) -> String {
        guard let sha1 = try? SHA1() else { return prefix }
        sha1.begin()
        sha1.update(bytes)
        return finish(sha1)
    }

    /// The digest `sha1` has accumulated.
    static func finish(_ sha1: SHA1) -> String {
        var digest: [UInt8] = []
        sha1.finish(appendingTo: &digest)
        return prefix + Data(digest).base64EncodedString()
    }

    /// Whether `text` has the form of a digest (`sha1-` and 28 Base64 characters).
    static func isValid(_ text: String) -> Bool {
        guard text.hasPrefix(prefix) else { return false }
        return Data(base64Encoded: String(text.dropFirst(prefix.count)))?.count == 20
    }
}
