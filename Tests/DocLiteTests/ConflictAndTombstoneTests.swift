import Foundation
import XCTest
@testable import DocLite

/// Concurrency control on save and delete, tombstones and purging.
final class ConflictAndTombstoneTests: DatabaseTestCase {
    private func generation(_ revisionID: String?) -> Int { RevisionID.generation(of: revisionID) }

    /// Saves `json` as a new document `id` and returns it as read back.
    private func stored(_ id: String, _ json: String) throws -> Document {
        try defaultCollection.save(document: MutableDocument(id: id, json: json))
        return try XCTUnwrap(defaultCollection.document(id: id))
    }

    private func assertRevisionIDForm(_ revisionID: String?, generation expected: Int, file: StaticString = #filePath, line: UInt = #line) {
        guard let revisionID else { return XCTFail("no revision ID", file: file, line: line) }
        let parts = revisionID.split(separator: "-", maxSplits: 1)
        XCTAssertEqual(parts.count, 2, revisionID, file: file, line: line)
        XCTAssertEqual(Int(parts[0]), expected, revisionID, file: file, line: line)
        XCTAssertEqual(parts.last?.count, 40, revisionID, file: file, line: line)
        XCTAssertTrue(parts.last!.allSatisfy { "0123456789abcdef".contains($0) }, revisionID, file: file, line: line)
    }

    // MARK: Save conflicts

    func testFailOnConflictWhenStoredDocumentChanged() throws {
        let collection = defaultCollection
        let original = try stored("d", #"{"v":1}"#)
        let first = original.toMutable(), stale = original.toMutable()
        first.setInt(2, forKey: "v")
        XCTAssertTrue(try collection.save(document: first, concurrencyControl: .failOnConflict))
        stale.setInt(3, forKey: "v")
        XCTAssertFalse(try collection.save(document: stale, concurrencyControl: .failOnConflict))
        XCTAssertEqual(stale.revisionID, original.revisionID, "a failed save leaves the document alone")
        XCTAssertEqual(stale.int(forKey: "v"), 3)
        let read = try XCTUnwrap(collection.document(id: "d"))
        XCTAssertEqual(read.int(forKey: "v"), 2)
        XCTAssertEqual(read.revisionID, first.revisionID)
        XCTAssertEqual(read.sequence, 2, "a failed save uses no sequence")
        // The same stale copy wins with lastWriteWins, as a child of the stored revision.
        XCTAssertTrue(try collection.save(document: stale, concurrencyControl: .lastWriteWins))
        XCTAssertEqual(try collection.document(id: "d")?.int(forKey: "v"), 3)
        assertRevisionIDForm(stale.revisionID, generation: 3)
        XCTAssertEqual(stale.sequence, 3)
    }

    func testFailOnConflictSucceedsWhenUnchanged() throws {
        let collection = defaultCollection
        let doc = try stored("d", #"{"v":1}"#).toMutable()
        for v in 2...4 {
            doc.setInt(v, forKey: "v")
            XCTAssertTrue(try collection.save(document: doc, concurrencyControl: .failOnConflict))
            assertRevisionIDForm(doc.revisionID, generation: v)
        }
        XCTAssertEqual(try collection.document(id: "d")?.int(forKey: "v"), 4)
    }

    func testNewDocumentWithExistingIDConflicts() throws {
        let collection = defaultCollection
        let existing = try stored("d", #"{"v":1}"#)
        let newcomer = try MutableDocument(id: "d", json: #"{"v":"new"}"#)
        XCTAssertFalse(try collection.save(document: newcomer, concurrencyControl: .failOnConflict))
        XCTAssertNil(newcomer.revisionID)
        XCTAssertEqual(try collection.document(id: "d")?.revisionID, existing.revisionID)
        XCTAssertEqual(try collection.document(id: "d")?.int(forKey: "v"), 1)
        XCTAssertTrue(try collection.save(document: newcomer, concurrencyControl: .lastWriteWins))
        assertRevisionIDForm(newcomer.revisionID, generation: 2)
        XCTAssertEqual(try collection.document(id: "d")?.string(forKey: "v"), "new")
    }

    func testRevisionIDsDependOnContentAndParent() throws {
        let a = try stored("a", #"{"v":1}"#), b = try stored("b", #"{"v":1}"#), c = try stored("c", #"{"v":2}"#)
        XCTAssertEqual(a.revisionID, b.revisionID, "same body, no parent: same revision ID (content-derived)")
        XCTAssertNotEqual(a.revisionID, c.revisionID)
        let update = a.toMutable()
        try defaultCollection.save(document: update)
        XCTAssertNotEqual(update.revisionID, a.revisionID, "a save without changes is still a new revision")
        assertRevisionIDForm(update.revisionID, generation: 2)
    }

    // MARK: Delete

    func testDeleteFailOnConflictWithStaleCopy() throws {
        let collection = defaultCollection
        let original = try stored("d", #"{"v":1}"#)
        let update = original.toMutable()
        update.setInt(2, forKey: "v")
        try collection.save(document: update)
        XCTAssertFalse(try collection.delete(document: original, concurrencyControl: .failOnConflict))
        XCTAssertEqual(try collection.document(id: "d")?.int(forKey: "v"), 2, "a failed delete deletes nothing")
        XCTAssertEqual(collection.count, 1)
        XCTAssertTrue(try collection.delete(document: update, concurrencyControl: .failOnConflict))
        XCTAssertNil(try collection.document(id: "d"))
    }

    func testDeleteLastWriteWinsWithStaleCopy() throws {
        let collection = defaultCollection
        let original = try stored("d", #"{"v":1}"#)
        let update = original.toMutable()
        try collection.save(document: update)
        XCTAssertTrue(try collection.delete(document: original, concurrencyControl: .lastWriteWins))
        XCTAssertNil(try collection.document(id: "d"))
        assertRevisionIDForm(original.revisionID, generation: 3)
    }

    func testDeleteOfUnsavedDocumentThrowsNotFound() throws {
        let collection = defaultCollection
        assertThrows(.notFound, containing: "not been saved") { try collection.delete(document: MutableDocument(id: "never")) }
        // Even when a stored document has that ID: the unsaved object has no revision.
        _ = try stored("taken", "{}")
        assertThrows(.notFound) { try collection.delete(document: MutableDocument(id: "taken")) }
        XCTAssertEqual(collection.count, 1)
    }

    // MARK: Tombstones

    func testTombstone() throws {
        let collection = defaultCollection
        let doc = try stored("d", #"{"v":1}"#).toMutable()
        doc.setInt(2, forKey: "v")
        try collection.save(document: doc)
        let liveRevision = try XCTUnwrap(doc.revisionID)
        try collection.delete(document: doc)
        XCTAssertNil(try collection.document(id: "d"))
        XCTAssertEqual(collection.count, 0)
        XCTAssertEqual(generation(doc.revisionID), generation(liveRevision) + 1)
        assertRevisionIDForm(doc.revisionID, generation: 3)
        XCTAssertEqual(doc.sequence, 3, "a delete is a new revision with its own sequence")
        XCTAssertEqual(rawSQL("SELECT count(*) FROM tombstones WHERE collection = 1 AND key = 'd'"), 1, "the tombstone is stored")
        let tombstoneRevision = try XCTUnwrap(doc.revisionID)

        // Deleting the deleted document again changes nothing.
        XCTAssertTrue(try collection.delete(document: doc, concurrencyControl: .lastWriteWins))
        XCTAssertEqual(doc.revisionID, tombstoneRevision)

        // A new document with the same ID continues the tombstone's history, even under failOnConflict.
        let reborn = try MutableDocument(id: "d", json: #"{"v":"reborn"}"#)
        XCTAssertTrue(try collection.save(document: reborn, concurrencyControl: .failOnConflict))
        XCTAssertEqual(generation(reborn.revisionID), generation(tombstoneRevision) + 1)
        XCTAssertEqual(reborn.sequence, 4)
        XCTAssertEqual(try collection.document(id: "d")?.string(forKey: "v"), "reborn")
        XCTAssertEqual(rawSQL("SELECT count(*) FROM tombstones"), 0, "the tombstone is replaced")
        XCTAssertEqual(collection.count, 1)

        try reopen()
        let read = try XCTUnwrap(defaultCollection.document(id: "d"))
        XCTAssertEqual(read.revisionID, reborn.revisionID)
        XCTAssertEqual(read.sequence, 4)
    }

    func testTombstonePersistsAcrossReopen() throws {
        let doc = try stored("d", #"{"v":1}"#)
        try defaultCollection.delete(document: doc)
        try reopen()
        XCTAssertNil(try defaultCollection.document(id: "d"))
        let reborn = try MutableDocument(id: "d", json: "{}")
        try defaultCollection.save(document: reborn)
        XCTAssertEqual(generation(reborn.revisionID), 3)
        XCTAssertEqual(reborn.sequence, 3)
    }

    /// Saving the deleted document's own (stale, live) copy resurrects it as a child of the tombstone.
    func testSavingStaleCopyOverTombstone() throws {
        let collection = defaultCollection
        let doc = try stored("d", #"{"v":1}"#)
        let stale = doc.toMutable()
        try collection.delete(document: doc)
        XCTAssertFalse(try collection.save(document: stale, concurrencyControl: .failOnConflict), "the tombstone is a newer revision")
        XCTAssertNil(try collection.document(id: "d"))
        XCTAssertTrue(try collection.save(document: stale, concurrencyControl: .lastWriteWins))
        XCTAssertEqual(generation(stale.revisionID), 3)
        XCTAssertEqual(try collection.document(id: "d")?.int(forKey: "v"), 1)
    }

    /// A file of schema 2 (tombstones without a body column) is upgraded when
    /// opened: its tombstones stay, and new ones may keep their properties.
    func testSchema2FileGainsTombstoneBodies() throws {
        try defaultCollection.delete(document: try stored("old", #"{"v":1}"#))
        try db.close()
        editFile(Self.schema6())
        rawSQL("ALTER TABLE kv_del_1 DROP COLUMN body")
        rawSQL("DROP TABLE blobs")
        for table in ["replication_peers", "replication_checkpoints", "remote_revisions"] { rawSQL("DROP TABLE \(table)") }
        rawSQL("PRAGMA user_version = 2")
        db = try openDatabase()
        XCTAssertEqual(rawSQL("PRAGMA user_version"), Schema.version)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM blobs"), 0, "schema 4 added the blob store")
        XCTAssertEqual(rawSQL("SELECT count(*) FROM remote_revisions"), 0, "schema 6 added the replication tables")
        let kept = try stored("kept", #"{"v":2}"#)
        _ = try defaultCollection.delete(document: kept, concurrencyControl: .lastWriteWins, keepingProperties: true)
        let rows = try db.createQuery(json: #"{"WHAT": [["._id"], [".v"]], "WHERE": ["._deleted"]}"#).execute().allResults()
        XCTAssertEqual(rows.map { $0.string(at: 0) }, ["old", "kept"])
        XCTAssertEqual(rows.map { $0.value(at: 1) as? Int }, [nil, 2])
    }

    // MARK: Purge

    func testPurgeRemovesAllTraces() throws {
        let collection = defaultCollection
        let doc = try stored("d", #"{"v":1}"#).toMutable()
        try collection.save(document: doc)
        try collection.purge(id: "d")
        XCTAssertNil(try collection.document(id: "d"))
        XCTAssertEqual(collection.count, 0)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM kv_1"), 0)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM tombstones"), 0)
        let fresh = try MutableDocument(id: "d", json: #"{"v":"fresh"}"#)
        XCTAssertTrue(try collection.save(document: fresh, concurrencyControl: .failOnConflict))
        XCTAssertEqual(generation(fresh.revisionID), 1, "after a purge a new save starts at generation 1")
        XCTAssertEqual(fresh.sequence, 3, "sequences are never reused")
    }

    func testPurgeOfTombstone() throws {
        let collection = defaultCollection
        let doc = try stored("d", #"{"v":1}"#)
        try collection.delete(document: doc)
        try collection.purge(document: doc)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM tombstones"), 0)
        let fresh = try MutableDocument(id: "d", json: "{}")
        try collection.save(document: fresh)
        XCTAssertEqual(generation(fresh.revisionID), 1)
    }

    func testPurgeOfMissingDocumentThrowsNotFound() throws {
        let collection = defaultCollection
        assertThrows(.notFound, containing: "'missing' not found") { try collection.purge(id: "missing") }
        let doc = try stored("d", "{}")
        try collection.purge(document: doc)
        assertThrows(.notFound, containing: "not found") { try collection.purge(document: doc) }
    }

    /// Couchbase Lite's `save(document:conflictHandler:)`.
    func testConflictHandlerMergesGivesUpAndSeesDeletions() throws {
        let collection = defaultCollection
        try collection.save(document: MutableDocument(id: "d", json: #"{"likes": 1, "tags": ["a"]}"#))
        let mine = try XCTUnwrap(collection.document(id: "d")).toMutable().setString("mine", forKey: "note")
        let theirs = try XCTUnwrap(collection.document(id: "d")).toMutable().setInt(5, forKey: "likes")
        try collection.save(document: theirs)

        var calls: [Int?] = []
        XCTAssertTrue(try collection.save(document: mine) { document, stored in
            calls.append(stored?.int(forKey: "likes"))
            document.setInt(stored?.int(forKey: "likes") ?? 0, forKey: "likes")
            return true
        })
        XCTAssertEqual(calls, [5], "called once, with the stored document")
        let merged = try XCTUnwrap(collection.document(id: "d"))
        XCTAssertEqual(merged.int(forKey: "likes"), 5)
        XCTAssertEqual(merged.string(forKey: "note"), "mine")
        XCTAssertTrue(merged.revisionID?.hasPrefix("3-") == true, "a child of the stored revision")

        // No conflict: the handler is not called.
        XCTAssertTrue(try collection.save(document: merged.toMutable().setInt(6, forKey: "likes")) { _, _ in
            XCTFail("no conflict")
            return false
        })

        // Giving up saves nothing.
        let stale = mine.toMutable()
        stale.setString("lost", forKey: "note")
        try collection.save(document: try XCTUnwrap(collection.document(id: "d")).toMutable().setInt(7, forKey: "likes"))
        XCTAssertFalse(try collection.save(document: stale) { _, _ in false })
        XCTAssertEqual(try collection.document(id: "d")?.string(forKey: "note"), "mine")

        // A deleted stored document is nil; a new document whose ID is taken gets the stored one.
        let beforeDelete = try XCTUnwrap(collection.document(id: "d")).toMutable()
        try collection.delete(document: try XCTUnwrap(collection.document(id: "d")))
        var sawDeleted = false
        XCTAssertTrue(try collection.save(document: beforeDelete.setString("back", forKey: "note")) { _, stored in
            sawDeleted = stored == nil
            return true
        })
        XCTAssertTrue(sawDeleted)
        XCTAssertEqual(try collection.document(id: "d")?.string(forKey: "note"), "back")
        var taken: String?
        XCTAssertTrue(try collection.save(document: MutableDocument(id: "d").setString("new", forKey: "note")) { _, stored in
            taken = stored?.string(forKey: "note")
            return true
        })
        XCTAssertEqual(taken, "back")
        XCTAssertEqual(try collection.document(id: "d")?.string(forKey: "note"), "new")
    }
}
