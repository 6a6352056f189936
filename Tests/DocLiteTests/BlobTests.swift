import Foundation
import XCTest
@testable import DocLite

/// Blobs as Couchbase Lite's: content stored once per digest outside the body,
/// the body holding the metadata dictionary; saved with the document's
/// transaction; deleted by compaction once nothing refers to them.
final class BlobTests: DatabaseTestCase {
    private func saved(_ id: String, _ blob: Blob, forKey key: String = "photo") throws -> Document {
        let doc = MutableDocument(id: id).setBlob(blob, forKey: key)
        try defaultCollection.save(document: doc)
        return try XCTUnwrap(defaultCollection.document(id: id))
    }

    private var storedBlobCount: Int64? { rawSQL("SELECT count(*) FROM blobs") }

    func testRoundTripsOfSmallContent() throws {
        for (index, content) in [Data(), Data([0x2A]), Data("hello, blob".utf8)].enumerated() {
            let blob = Blob(contentType: "application/octet-stream", data: content)
            let read = try XCTUnwrap(try saved("d\(index)", blob).blob(forKey: "photo"))
            XCTAssertEqual(read.content, content)
            XCTAssertEqual(read.length, UInt64(content.count))
            XCTAssertEqual(read.contentType, "application/octet-stream")
            XCTAssertEqual(read, blob, "equal by digest")
        }
        // SHA-1 of no bytes, in Couchbase Lite's form.
        XCTAssertEqual(Blob(contentType: nil, data: Data()).digest, "sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=")
    }

    func testTheBodyAndQueriesHoldTheMetadataDictionary() throws {
        let blob = Blob(contentType: "image/png", data: Data("png bytes".utf8))
        let doc = try saved("d", blob)
        let metadata = try JSONValue(json: doc.toJSON())
        let expected = try JSONValue(json: """
            {"photo": {"@type": "blob", "content_type": "image/png", "digest": "\(blob.digest)", "length": 9}}
            """)
        XCTAssertEqual(metadata, expected)
        XCTAssertNil(doc.dictionary(forKey: "photo"), "a blob's dictionary reads as a Blob")

        let row = try XCTUnwrap(try db.createQuery("SELECT photo FROM _").execute().next())
        let photo = try XCTUnwrap(row.blob(forKey: "photo"))
        XCTAssertEqual(photo.content, Data("png bytes".utf8), "a query row's blob reads its content")
        XCTAssertEqual(photo.properties["digest"] as? String, blob.digest)
        XCTAssertEqual(row.toDictionary()["photo"] as? [String: AnyHashable],
                       ["@type": "blob", "content_type": "image/png", "digest": blob.digest, "length": 9])

        let fetched = try XCTUnwrap(try db.getBlob(properties: photo.properties))
        XCTAssertEqual(fetched.content, Data("png bytes".utf8))
        let query = try db.createQuery("SELECT META().id FROM _ WHERE photo.digest = $digest")
        query.parameters = Parameters().setString(blob.digest, forName: "digest")
        XCTAssertEqual(try query.execute().allResults().map { $0.string(at: 0) }, ["d"])
    }

    func testEqualContentIsStoredOnce() throws {
        _ = try saved("a", Blob(contentType: "text/plain", data: Data("same".utf8)))
        _ = try saved("b", Blob(contentType: "text/other", data: Data("same".utf8)))
        try db.saveBlob(blob: Blob(contentType: nil, data: Data("same".utf8)))
        XCTAssertEqual(storedBlobCount, 1)
        XCTAssertEqual(try defaultCollection.document(id: "b")?.blob(forKey: "photo")?.contentType, "text/other")
    }

    func testABlobInABatchThatRollsBackLeavesNothing() throws {
        struct Abort: Error {}
        XCTAssertThrowsError(try db.inBatch {
            _ = try saved("d", Blob(contentType: nil, data: Data("rolled back".utf8)))
            try db.saveBlob(blob: Blob(contentType: nil, data: Data("also".utf8)))
            XCTAssertEqual(try defaultCollection.document(id: "d")?.blob(forKey: "photo")?.content, Data("rolled back".utf8),
                           "inside the batch, the blob is there")
            throw Abort()
        })
        XCTAssertEqual(storedBlobCount, 0)
        XCTAssertNil(try defaultCollection.document(id: "d"))
    }

    func testBlobsNestedInArraysAndDictionaries() throws {
        let first = Blob(contentType: "text/plain", data: Data("first".utf8))
        let second = Blob(contentType: "text/plain", data: Data("second".utf8))
        let attachments = MutableArrayObject().addBlob(first)
        let inner = MutableDictionaryObject().setBlob(second, forKey: "thumbnail")
        let doc = MutableDocument(id: "d").setArray(attachments, forKey: "files")
            .setDictionary(MutableDictionaryObject(data: ["inner": inner]), forKey: "outer")
        try defaultCollection.save(document: doc)
        let read = try XCTUnwrap(defaultCollection.document(id: "d"))
        XCTAssertEqual(read.array(forKey: "files")?.blob(at: 0)?.content, Data("first".utf8))
        XCTAssertEqual(read.dictionary(forKey: "outer")?.dictionary(forKey: "inner")?.blob(forKey: "thumbnail")?.content,
                       Data("second".utf8))
        XCTAssertEqual(storedBlobCount, 2)
    }

    func testCompactionDeletesTheBlobsNoDocumentRefersTo() throws {
        let kept = Blob(contentType: nil, data: Data("kept".utf8))
        let nested = Blob(contentType: nil, data: Data("nested".utf8))
        let orphan = Blob(contentType: nil, data: Data("deleted with its document".utf8))
        _ = try saved("keep", kept)
        try defaultCollection.save(document: MutableDocument(id: "nest").setArray(MutableArrayObject().addBlob(nested), forKey: "list"))
        try defaultCollection.delete(document: try saved("gone", orphan))
        try db.saveBlob(blob: Blob(contentType: nil, data: Data("never referred to".utf8)))
        // A legacy attachment (Couchbase Lite 1.x's `_attachments`) counts as a reference too.
        let legacy = Blob(contentType: nil, data: Data("legacy".utf8))
        try db.saveBlob(blob: legacy)
        try defaultCollection.save(document: try MutableDocument(id: "old", json: #"{"_attachments": {"a.txt": {"digest": "\#(legacy.digest)"}}}"#))
        XCTAssertEqual(storedBlobCount, 5)

        try db.performMaintenance(type: .compact)
        XCTAssertEqual(storedBlobCount, 3)
        XCTAssertNil(try db.getBlob(properties: orphan.properties))
        XCTAssertEqual(try db.getBlob(properties: kept.properties)?.content, Data("kept".utf8))
        XCTAssertEqual(try db.getBlob(properties: nested.properties)?.content, Data("nested".utf8))
        XCTAssertNotNil(try db.getBlob(properties: legacy.properties))
    }

    func testFiftyMegabytesThroughStreams() throws {
        let size = 50 << 20
        let file = URL(fileURLWithPath: directory).appendingPathComponent("large.bin")
        var pattern = Data(count: size)
        for i in stride(from: 0, to: size, by: 4096) { pattern[i] = UInt8(truncatingIfNeeded: i >> 12) }
        try pattern.write(to: file)
        let fromFile = try Blob(contentType: "application/octet-stream", fileURL: file)
        let fromStream = try Blob(contentType: "application/octet-stream", contentStream: try XCTUnwrap(InputStream(url: file)))
        XCTAssertEqual(fromFile.digest, fromStream.digest)
        XCTAssertEqual(fromFile.length, UInt64(size))
        let read = try XCTUnwrap(try saved("large", fromStream, forKey: "data").blob(forKey: "data"))

        let stream = try XCTUnwrap(read.contentStream)
        stream.open()
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 300_000)   // not a divisor of the chunk size
        while case let count = stream.read(&buffer, maxLength: buffer.count), count > 0 { received.append(buffer, count: count) }
        stream.close()
        XCTAssertEqual(stream.streamStatus, .closed)
        XCTAssertEqual(received.count, size)
        XCTAssertTrue(received == pattern, "the streamed content is the file's")

        let reader = try BlobReader(read)
        try reader.seek(to: UInt64(size - 4096))
        var tail = [UInt8](repeating: 0xFF, count: 8192)
        XCTAssertEqual(try tail.withUnsafeMutableBytes { try reader.read(into: $0) }, 4096)
        XCTAssertEqual(tail[0], UInt8(truncatingIfNeeded: (size - 4096) >> 12))
        XCTAssertEqual(try tail.withUnsafeMutableBytes { try reader.read(into: $0) }, 0, "at the end")
        assertThrows(.invalidParameter, containing: "seek") { try reader.seek(to: UInt64(size + 1)) }
        reader.close()
        assertThrows(.invalidParameter, containing: "closed") { _ = try tail.withUnsafeMutableBytes { try reader.read(into: $0) } }
    }

    func testAFileThatChangesBeforeTheSaveFailsIt() throws {
        let file = URL(fileURLWithPath: directory).appendingPathComponent("changing.txt")
        try Data("before".utf8).write(to: file)
        let blob = try Blob(contentType: "text/plain", fileURL: file)
        try Data("after!".utf8).write(to: file)
        assertThrows(.corruptData, containing: "changed") { _ = try saved("d", blob) }
        XCTAssertNil(try defaultCollection.document(id: "d"))
        XCTAssertEqual(storedBlobCount, 0)
        assertThrows(.ioError, containing: "missing.txt") {
            _ = try Blob(contentType: nil, fileURL: URL(fileURLWithPath: directory).appendingPathComponent("missing.txt"))
        }
    }

    func testABlobOfOneDatabaseSavedInAnother() throws {
        let original = try saved("d", Blob(contentType: "text/plain", data: Data("travels".utf8))).blob(forKey: "photo")!
        let other = try openDatabase(name: "other")
        defer { try? other.close() }
        let copy = MutableDocument(id: "copy").setBlob(original, forKey: "photo")
        try other.defaultCollection().save(document: copy)
        try db.close()
        db = nil
        XCTAssertEqual(try other.defaultCollection().document(id: "copy")?.blob(forKey: "photo")?.content, Data("travels".utf8))
    }

    func testContentOfAClosedDatabaseIsAnError() throws {
        let blob = try XCTUnwrap(try saved("d", Blob(contentType: nil, data: Data("x".utf8))).blob(forKey: "photo"))
        let stream = try XCTUnwrap(blob.contentStream, "a stream opened before the close keeps its snapshot")
        try db.close()
        assertThrows(.notOpen) { _ = try blob.readContent() }
        XCTAssertNil(blob.content)
        stream.open()
        var byte: UInt8 = 0
        XCTAssertEqual(stream.read(&byte, maxLength: 1), 1)
        XCTAssertEqual(byte, UInt8(ascii: "x"))
        stream.close()
        db = try openDatabase()
    }

    func testStreamsInsideABatchSeeItsBlobs() throws {
        try db.inBatch {
            let blob = try XCTUnwrap(try saved("d", Blob(contentType: nil, data: Data("uncommitted".utf8))).blob(forKey: "photo"))
            let stream = try XCTUnwrap(blob.contentStream)
            stream.open()
            var buffer = [UInt8](repeating: 0, count: 64)
            XCTAssertEqual(stream.read(&buffer, maxLength: 64), 11)
            stream.close()
        }
    }

    func testBadMetadataIsAnError() throws {
        assertThrows(.invalidParameter, containing: "blob") { _ = try db.getBlob(properties: ["digest": "sha1-x"]) }
        assertThrows(.invalidParameter, containing: "blob") { _ = try db.getBlob(properties: ["@type": "blob", "digest": "md5-abc"]) }
        XCTAssertNil(try db.getBlob(properties: Blob(contentType: nil, data: Data("unsaved".utf8)).properties))
        // A document may not refer to content the database lacks (issue 36: it was saved, the content lost).
        let json = #"{"b": {"@type": "blob", "digest": "sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=", "length": 0}}"#
        assertThrows(.invalidParameter, containing: "refers to blob sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=, whose content database 'test' does not store") {
            try defaultCollection.save(document: try MutableDocument(id: "d", json: json))
        }
        XCTAssertNil(try defaultCollection.document(id: "d"))
        // Saved with its content, which then goes missing (a damaged file): reading the content is an error.
        try db.saveBlob(blob: Blob(contentType: nil, data: Data()))
        try defaultCollection.save(document: try MutableDocument(id: "d", json: json))
        rawSQL("DELETE FROM blobs")
        let blob = try XCTUnwrap(try defaultCollection.document(id: "d")?.blob(forKey: "b"))
        assertThrows(.notFound, containing: blob.digest) { _ = try blob.readContent() }
        XCTAssertNil(blob.contentStream)
    }

    /// Issue 36: a document read from one database and saved into another as
    /// its properties was saved without its blob's content. Now the save is an
    /// error; set as a Blob, the content is copied in the save's transaction.
    func testADocumentCopiedFromAnotherDatabaseKeepsItsBlobsOrFails() throws {
        let photo = Blob(contentType: "image/png", data: Data("png bytes".utf8))
        let original = try saved("d", photo)
        let other = try Database(name: "other", config: DatabaseConfiguration(directory: directory))
        defer { try? other.close() }
        let target = try other.defaultCollection()

        assertThrows(.invalidParameter, containing: "refers to blob \(photo.digest), whose content database 'other' does not store") {
            try target.save(document: try MutableDocument(id: "d", json: original.toJSON()))
        }
        XCTAssertNil(try target.document(id: "d"))
        assertThrows(.invalidParameter, containing: "belongs to collection") { try target.save(document: original.toMutable()) }

        let copy = try MutableDocument(id: "d", json: original.toJSON())
        copy.setBlob(try XCTUnwrap(original.blob(forKey: "photo")), forKey: "photo")
        try target.save(document: copy)
        XCTAssertEqual(try other.getBlob(properties: photo.properties)?.content, Data("png bytes".utf8))
        // Saving the properties again is fine now that the content is there.
        try target.save(document: try MutableDocument(id: "d2", json: original.toJSON()))
    }

    func testASaveThatLosesAConflictStoresNoBlob() throws {
        let first = try saved("d", Blob(contentType: nil, data: Data("first".utf8)))
        let stale = first.toMutable()
        try defaultCollection.save(document: first.toMutable().setString("changed", forKey: "x"))
        stale.setBlob(Blob(contentType: nil, data: Data("loser".utf8)), forKey: "other")
        XCTAssertFalse(try defaultCollection.save(document: stale, concurrencyControl: .failOnConflict))
        XCTAssertEqual(storedBlobCount, 1, "only the first blob is stored")
        let taken = MutableDocument(id: "d").setBlob(Blob(contentType: nil, data: Data("new, same ID".utf8)), forKey: "b")
        XCTAssertFalse(try defaultCollection.save(document: taken, concurrencyControl: .failOnConflict))
        XCTAssertEqual(storedBlobCount, 1, "a new document whose ID is taken stores no blob either")
        XCTAssertTrue(try defaultCollection.save(document: stale, concurrencyControl: .lastWriteWins))
        XCTAssertEqual(storedBlobCount, 2)
        XCTAssertTrue(stale.state.withLock { $0.newBlobs.isEmpty }, "saved blobs are not stored again")
    }
}
