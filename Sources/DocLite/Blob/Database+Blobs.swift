import CSQLite
import Foundation

/// The database's blob store: each content once, by digest, in the `blobs`
/// table of the database file. Content is written inside the transaction that
/// saves the document (or ``saveBlob(blob:)``'s own), so a batch that rolls
/// back leaves no blob behind; compaction deletes the blobs no document refers to.
extension Database {
    /// Stores `blob`'s content (once per digest), so that a document may refer
    /// to the blob by its metadata. Until a document does, compaction deletes it.
    public func saveBlob(blob: Blob) throws {
        let blob = try blob.prepared(for: self)
        try inTransaction { try installBlob(blob, openConnection()) }
    }

    /// The blob a metadata dictionary (as a document or a query row holds it)
    /// describes, or nil when this database does not store its content. Throws
    /// when `properties` is not a blob's metadata (`"@type": "blob"` and a `digest`).
    public func getBlob(properties: [String: Any]) throws -> Blob? {
        try getBlob(metadata: Dictionary(stringKeys: try properties.mapValues { try JSONValue(any: $0) }))
    }

    /// ``getBlob(properties:)`` for a metadata dictionary already parsed (C's JSON text).
    package func getBlob(metadata members: [ByteString: JSONValue]) throws -> Blob? {
        guard Blob.isMetadata(members), let blob = Blob(properties: members, database: self) else {
            throw DocLiteError(.invalidParameter, "not a blob's metadata: it needs \"@type\": \"blob\" and a \"digest\" of the form sha1-…")
        }
        return try read { try blobRowID(digest: blob.digest, $0) } == nil ? nil : blob
    }

    /// Stores `blob`'s content unless it is stored already (prepared by
    /// ``Blob/prepared(for:)``). Inside a transaction.
    func installBlob(_ blob: Blob, _ connection: SQLiteConnection) throws {
        guard try blobRowID(digest: blob.digest, connection) == nil else { return }
        switch blob.source {
        case .data(let data):
            try connection.withStatement("INSERT INTO blobs (digest, content) VALUES (?, ?)") { insert in
                insert.bind(1, blob.digest)
                try data.withUnsafeBytes { content in
                    insert.bind(2, borrowing: content)
                    try insert.run()
                }
            }
        case .stored:
            throw missingBlob(blob.digest)   // (a blob of another database was staged by `prepared(for:)`)
        case .file(let url, _):
            try installStreaming(blob, from: url, connection)
        }
    }

    /// Copies a file's content into a new row chunk by chunk (SQLite's incremental
    /// blob I/O), checking that it is still the content the blob was made from.
    private func installStreaming(_ blob: Blob, from url: URL, _ connection: SQLiteConnection) throws {
        let source = try BlobReader(file: url)
        defer { source.close() }
        guard source.length == blob.length, let length = Int64(exactly: blob.length) else { throw changedContent(url) }
        try connection.withStatement("INSERT INTO blobs (digest, content) VALUES (?, zeroblob(?))") { insert in
            insert.bind(1, blob.digest)
            insert.bind(2, length)
            try insert.run()
        }
        var handle: OpaquePointer?
        var rc = sqlite3_blob_open(connection.handle, "main", "blobs", "content", connection.lastInsertRowID, 1, &handle)
        defer { sqlite3_blob_close(handle) }
        guard rc == SQLITE_OK else { throw connection.error(rc, context: "cannot write blob \(blob.digest)") }
        let sha1 = try SHA1()
        sha1.begin()
        var offset: Int32 = 0
        try source.forEachChunk { chunk in
            sha1.update(chunk)
            rc = sqlite3_blob_write(handle, chunk.baseAddress, Int32(chunk.count), offset)
            guard rc == SQLITE_OK else { throw connection.error(rc, context: "cannot write blob \(blob.digest)") }
            offset += Int32(chunk.count)
        }
        guard BlobDigest.finish(sha1) == blob.digest else { throw changedContent(url) }
    }

    /// The whole content of the stored blob `digest`.
    func blobContent(digest: String) throws -> Data {
        try read { connection in
            try connection.withStatement("SELECT content FROM blobs WHERE digest = ?") { select in
                select.bind(1, digest)
                guard try select.step() else { throw missingBlob(digest) }
                let count = Int(sqlite3_column_bytes(select.handle, 0))
                guard count > 0, let bytes = sqlite3_column_blob(select.handle, 0) else { return Data() }
                return Data(bytes: bytes, count: count)
            }
        }
    }

    /// The row of the stored blob `digest`, nil when it is not stored.
    /// Whether the database stores the content of blob `digest`.
    func hasBlob(digest: String) throws -> Bool {
        try read { try blobRowID(digest: digest, $0) != nil }
    }

    func blobRowID(digest: String, _ connection: SQLiteConnection) throws -> Int64? {
        try connection.withStatement("SELECT id FROM blobs WHERE digest = ?") { select in
            select.bind(1, digest)
            return try select.step() ? select.int64(0) : nil
        }
    }

    /// Throws when `body`, a document's new revision, refers to a blob whose
    /// content this database does not store and `newDigests` (the blobs the
    /// save stores) does not hold: a document copied from another database
    /// as properties would otherwise lose its blobs' content without a word.
    func checkBlobsStored(for body: [UInt8], of documentID: String, newDigests: Set<String>,
                          _ connection: SQLiteConnection) throws {
        var digests = Set<String>()
        sharedKeys.lock.withLock {
            body.withUnsafeBytes {
                BlobReferences.collect(in: Body($0), keys: sharedKeys, includingAttachments: false, into: &digests)
            }
        }
        for digest in digests.subtracting(newDigests).sorted() where try blobRowID(digest: digest, connection) == nil {
            throw DocLiteError(.invalidParameter, "document '\(documentID)' refers to blob \(digest), whose content database '\(name)' does not store: "
                               + "save the blob to this database first (saveBlob), or set the Blob itself in the document")
        }
    }

    func missingBlob(_ digest: String) -> DocLiteError {
        DocLiteError(.notFound, "blob \(digest) is not stored in database '\(name)'")
    }

    private func changedContent(_ url: URL) -> DocLiteError {
        DocLiteError(.corruptData, "the file \(url.path) changed after the blob was made from it")
    }

    /// Deletes the blobs that no document refers to (live documents and
    /// tombstones that keep a body); returns how many. Part of compaction.
    @discardableResult
    func deleteUnreferencedBlobs() throws -> Int {
        try inTransaction {
            let connection = try openConnection()
            var referenced = Set<String>()
            for table in collectionsByID.keys.map(Schema.liveTable) + ["tombstones"] {
                try connection.withStatement("SELECT body FROM \(table) WHERE body IS NOT NULL") { rows in
                    while try rows.step() {
                        let count = Int(sqlite3_column_bytes(rows.handle, 0))
                        guard count > 0, let bytes = sqlite3_column_blob(rows.handle, 0) else { continue }
                        sharedKeys.lock.withLock {
                            BlobReferences.collect(in: Body(UnsafeRawBufferPointer(start: bytes, count: count)), keys: sharedKeys, into: &referenced)
                        }
                    }
                }
            }
            let unreferenced = try connection.withStatement("SELECT id, digest FROM blobs") { rows in
                var ids: [Int64] = []
                while try rows.step() {
                    if !referenced.contains(rows.string(1)) { ids.append(rows.int64(0)) }
                }
                return ids
            }
            for id in unreferenced {
                try connection.withStatement("DELETE FROM blobs WHERE id = ?") { delete in
                    delete.bind(1, id)
                    try delete.run()
                }
            }
            return unreferenced.count
        }
    }
}

/// Finds the digests a stored body refers to: every dictionary marked
/// `"@type": "blob"`, at any depth, and every entry of a top-level
/// `_attachments` dictionary (Couchbase Lite 1.x's form), with a string `digest`.
enum BlobReferences {
    /// Adds the digests of the blobs in `value` (a tree) to `digests`.
    static func collect(in value: JSONValue, into digests: inout Set<String>) {
        switch value {
        case .array(let elements):
            for element in elements { collect(in: element, into: &digests) }
        case .dictionary(let members):
            if members[ByteString(Blob.typeKey)]?.stringValue == Blob.typeValue, let digest = members["digest"]?.stringValue {
                digests.insert(digest)
            }
            for member in members.values { collect(in: member, into: &digests) }
        default:
            break
        }
    }

    /// Adds the digests in `body` to `digests`: its blobs' and, unless
    /// `includingAttachments` is false, its legacy `_attachments`'. The caller holds `keys.lock`.
    static func collect(in body: Body, keys: SharedKeys, includingAttachments: Bool = true, into digests: inout Set<String>) {
        visit(body, at: 0, keys: keys, isAttachment: false, readsAttachments: includingAttachments, into: &digests)
    }

    private static func visit(_ body: Body, at offset: Int, keys: SharedKeys, isAttachment: Bool, readsAttachments: Bool,
                              into digests: inout Set<String>) {
        switch body.type(at: offset) {
        case .array:
            body.forEachElement(ofArrayAt: offset) { visit(body, at: $0, keys: keys, isAttachment: false, readsAttachments: false, into: &digests) }
        case .dictionary:
            var isBlob = isAttachment
            var digest: String?
            body.forEachMember(ofDictAt: offset, keys: keys) { key, value in
                switch String(decoding: key, as: UTF8.self) {
                case Blob.typeKey:
                    if let text = body.string(at: value), String(decoding: text, as: UTF8.self) == Blob.typeValue { isBlob = true }
                case "digest":
                    if let text = body.string(at: value) { digest = String(decoding: text, as: UTF8.self) }
                case "_attachments" where readsAttachments:
                    body.forEachMember(ofDictAt: value, keys: keys) { _, entry in
                        visit(body, at: entry, keys: keys, isAttachment: true, readsAttachments: false, into: &digests)
                    }
                    return
                default:
                    break
                }
                visit(body, at: value, keys: keys, isAttachment: false, readsAttachments: false, into: &digests)
            }
            if isBlob, let digest { digests.insert(digest) }
        default:
            break
        }
    }
}
