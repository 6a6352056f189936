import Foundation
import XCTest
@testable import DocLite

/// Batches: commit, rollback (of documents, shared keys, sequences and
/// collections), nesting.
final class TransactionTests: DatabaseTestCase {
    private struct Abort: Error {}

    func testBatchCommitsEverything() throws {
        let collection = defaultCollection
        try db.inBatch {
            for i in 0..<10 {
                try collection.save(document: MutableDocument(id: "doc-\(i)", json: #"{"i":\#(i)}"#))
            }
            let first = try XCTUnwrap(collection.document(id: "doc-0"))
            try collection.delete(document: first)
        }
        XCTAssertEqual(collection.count, 9)
        try reopen()
        XCTAssertEqual(defaultCollection.count, 9)
        XCTAssertNil(try defaultCollection.document(id: "doc-0"))
        XCTAssertEqual(try defaultCollection.document(id: "doc-9")?.int(forKey: "i"), 9)
        XCTAssertEqual(try defaultCollection.document(id: "doc-9")?.sequence, 10)
    }

    func testThrowingBatchRollsBackDocuments() throws {
        let collection = defaultCollection
        try collection.save(document: MutableDocument(id: "kept", json: #"{"v":1}"#))
        let kept = try XCTUnwrap(collection.document(id: "kept"))
        XCTAssertThrowsError(try db.inBatch {
            for i in 0..<5 { try collection.save(document: MutableDocument(id: "doc-\(i)", json: "{}")) }
            let update = kept.toMutable()
            update.setInt(2, forKey: "v")
            try collection.save(document: update)
            try collection.delete(document: update)
            throw Abort()
        }) { XCTAssertTrue($0 is Abort, "the batch's own error is rethrown, got \($0)") }
        XCTAssertEqual(collection.count, 1)
        XCTAssertNil(try collection.document(id: "doc-0"))
        let read = try XCTUnwrap(collection.document(id: "kept"))
        XCTAssertEqual(read.int(forKey: "v"), 1)
        XCTAssertEqual(read.revisionID, kept.revisionID)
        try reopen()
        XCTAssertEqual(defaultCollection.count, 1)
        XCTAssertEqual(try defaultCollection.document(id: "kept")?.int(forKey: "v"), 1)
    }

    /// Keys first seen in a rolled-back batch get IDs that the rollback forgets;
    /// later documents with other new keys reuse those IDs and must read back
    /// with their own keys, also after reopening.
    func testSharedKeysOfRolledBackBatchAreForgotten() throws {
        let collection = defaultCollection
        try collection.save(document: MutableDocument(id: "before", json: #"{"common":1}"#))
        let keysBefore = db.sharedKeys.count
        XCTAssertThrowsError(try db.inBatch {
            try collection.save(document: MutableDocument(id: "gone", json: #"{"alpha":1,"beta":{"gamma":2}}"#))
            XCTAssertEqual(db.sharedKeys.count, keysBefore + 3)
            throw Abort()
        })
        XCTAssertEqual(db.sharedKeys.count, keysBefore, "the rollback forgets the batch's keys")
        XCTAssertNil(db.sharedKeys.id(of: "alpha"))

        try collection.save(document: MutableDocument(id: "after1", json: #"{"delta":"d","epsilon":{"zeta":[1]}}"#))
        try collection.save(document: MutableDocument(id: "after2", json: #"{"alpha":"again","common":2,"eta":true}"#))
        let expected = [
            "before": #"{"common":1}"#,
            "after1": #"{"delta":"d","epsilon":{"zeta":[1]}}"#,
            "after2": #"{"alpha":"again","common":2,"eta":true}"#,
        ]
        func check(_ line: UInt = #line) throws {
            for (id, json) in expected {
                let doc = try XCTUnwrap(defaultCollection.document(id: id), line: line)
                XCTAssertEqual(try JSONValue(json: doc.toJSON()), try JSONValue(json: json), id, line: line)
            }
            XCTAssertNil(try defaultCollection.document(id: "gone"), line: line)
            XCTAssertEqual(defaultCollection.count, 3, line: line)
        }
        try check()
        try reopen()
        try check()
        // A second database instance loads the same key table from the file.
        let other = try openDatabase()
        defer { try? other.close() }
        for (id, json) in expected {
            let doc = try XCTUnwrap(other.defaultCollection().document(id: id))
            XCTAssertEqual(try JSONValue(json: doc.toJSON()), try JSONValue(json: json), id)
        }
    }

    /// The document object saved inside a rolled-back batch keeps its properties
    /// and can be saved again afterwards, even once its keys' forgotten IDs are reused.
    func testDocumentSavedInRolledBackBatchCanBeSavedAgain() throws {
        let collection = defaultCollection
        let doc = try MutableDocument(id: "retry", json: #"{"alpha":1,"beta":"two"}"#)
        XCTAssertThrowsError(try db.inBatch {
            try collection.save(document: doc)
            throw Abort()
        })
        XCTAssertNil(try collection.document(id: "retry"))
        XCTAssertEqual(doc.int(forKey: "alpha"), 1, "the document object lost its property in the rollback")
        XCTAssertEqual(doc.string(forKey: "beta"), "two", "the document object lost its property in the rollback")
        // New keys take the IDs that "alpha" and "beta" had in the rolled-back batch.
        try collection.save(document: MutableDocument(id: "other", json: #"{"gamma":3,"delta":4}"#))
        try collection.save(document: doc)
        let read = try XCTUnwrap(collection.document(id: "retry"))
        XCTAssertEqual(try JSONValue(json: read.toJSON()), try JSONValue(json: #"{"alpha":1,"beta":"two"}"#))
        XCTAssertEqual(try JSONValue(json: XCTUnwrap(collection.document(id: "other")).toJSON()),
                       try JSONValue(json: #"{"gamma":3,"delta":4}"#))
    }

    func testNestedBatchJoinsTheOuterOne() throws {
        let collection = defaultCollection
        let recorder = Recorder<[String]>()
        let token = collection.addChangeListener { recorder.append($0.documentIDs) }
        defer { token.remove() }
        try db.inBatch {
            try collection.save(document: MutableDocument(id: "outer", json: "{}"))
            try db.inBatch {
                try collection.save(document: MutableDocument(id: "inner", json: "{}"))
            }
            // The inner batch's end does not commit: another connection does not see it yet.
            XCTAssertEqual(rawSQL("SELECT count(*) FROM kv_1"), 0, "the inner batch committed on its own")
            XCTAssertTrue(recorder.all.isEmpty, "listeners ran before the outer batch committed")
        }
        XCTAssertEqual(recorder.all, [["outer", "inner"]])
        XCTAssertEqual(collection.count, 2)
    }

    func testOuterBatchThrowingRollsBackTheCompletedInnerOne() throws {
        let collection = defaultCollection
        XCTAssertThrowsError(try db.inBatch {
            try db.inBatch { try collection.save(document: MutableDocument(id: "inner", json: "{}")) }
            throw Abort()
        })
        XCTAssertEqual(collection.count, 0)
    }

    /// An inner batch throws, the outer one catches the error and returns normally:
    /// the outer commit must fail and store nothing.
    func testFailedInnerBatchDoomsTheOuterOne() throws {
        let collection = defaultCollection
        try collection.save(document: MutableDocument(id: "existing", json: "{}"))
        assertThrows(.unexpectedError, containing: "nested batch failed") {
            try db.inBatch {
                try collection.save(document: MutableDocument(id: "outer-before", json: "{}"))
                do {
                    try db.inBatch {
                        try collection.save(document: MutableDocument(id: "inner", json: "{}"))
                        throw Abort()
                    }
                    XCTFail("the inner batch should rethrow")
                } catch is Abort {}
                try collection.save(document: MutableDocument(id: "outer-after", json: "{}"))
            }
        }
        XCTAssertEqual(collection.count, 1)
        for id in ["outer-before", "inner", "outer-after"] { XCTAssertNil(try collection.document(id: id), id) }
        // The database is usable afterwards, outside any transaction.
        try collection.save(document: MutableDocument(id: "later", json: "{}"))
        XCTAssertEqual(collection.count, 2)
        XCTAssertNoThrow(try db.close())
        db = try openDatabase()
        XCTAssertEqual(defaultCollection.count, 2)
    }

    func testSequencesContinueAfterRollback() throws {
        let collection = defaultCollection
        let other = try db.createCollection(name: "other")
        var sequences: [UInt64] = []
        var otherSequences: [UInt64] = []
        func save(_ id: String, in target: DocLite.Collection) throws -> UInt64 {
            let doc = try MutableDocument(id: id, json: "{}")
            try target.save(document: doc)
            return doc.sequence
        }
        for i in 0..<3 { sequences.append(try save("a\(i)", in: collection)) }
        otherSequences.append(try save("o0", in: other))
        XCTAssertThrowsError(try db.inBatch {
            for i in 0..<5 { _ = try save("rolled\(i)", in: collection) }
            _ = try save("rolled-o", in: other)
            throw Abort()
        })
        for i in 3..<6 { sequences.append(try save("a\(i)", in: collection)) }
        otherSequences.append(try save("o1", in: other))
        XCTAssertEqual(sequences, [1, 2, 3, 4, 5, 6], "the collection's sequences continue from the last committed one")
        XCTAssertEqual(otherSequences, [1, 2], "each collection has its own sequence")

        try reopen()
        let reopened = try XCTUnwrap(db.collection(name: "other"))
        var stored: [UInt64] = []
        for i in 0..<6 { stored.append(try XCTUnwrap(defaultCollection.document(id: "a\(i)")).sequence) }
        XCTAssertEqual(stored, [1, 2, 3, 4, 5, 6])
        let next = try MutableDocument(id: "next", json: "{}")
        try defaultCollection.save(document: next)
        XCTAssertEqual(next.sequence, 7, "the last sequence persists across reopening")
        let nextOther = try MutableDocument(id: "next", json: "{}")
        try reopened.save(document: nextOther)
        XCTAssertEqual(nextOther.sequence, 3)
    }

    func testCollectionCreatedInRolledBackBatchDoesNotExist() throws {
        var created: DocLite.Collection?
        XCTAssertThrowsError(try db.inBatch {
            let collection = try db.createCollection(name: "temp", scope: "scratch")
            try collection.save(document: MutableDocument(id: "d", json: "{}"))
            created = collection
            throw Abort()
        })
        XCTAssertNil(try db.collection(name: "temp", scope: "scratch"))
        XCTAssertNil(try db.scope(name: "scratch"))
        let stale = try XCTUnwrap(created)
        assertThrows(.notOpen) { try stale.save(document: MutableDocument(id: "x", json: "{}")) }
        // Creating it again works and starts empty.
        let again = try db.createCollection(name: "temp", scope: "scratch")
        XCTAssertEqual(again.count, 0)
        let doc = try MutableDocument(id: "d", json: "{}")
        try again.save(document: doc)
        XCTAssertEqual(doc.sequence, 1)
        try reopen()
        XCTAssertEqual(try db.collection(name: "temp", scope: "scratch")?.count, 1)
    }

    /// A collection deleted in a rolled-back batch still exists, with its documents,
    /// and the application's handle to it keeps working.
    func testCollectionDeletedInRolledBackBatchSurvives() throws {
        let collection = try db.createCollection(name: "keep")
        try collection.save(document: MutableDocument(id: "d", json: #"{"v":1}"#))
        XCTAssertThrowsError(try db.inBatch {
            try db.deleteCollection(name: "keep")
            throw Abort()
        })
        let found = try XCTUnwrap(db.collection(name: "keep"))
        XCTAssertEqual(try found.document(id: "d")?.int(forKey: "v"), 1)
        XCTAssertEqual(collection.count, 1, "the existing Collection handle was invalidated by the rolled-back delete")
        XCTAssertNoThrow(try collection.save(document: MutableDocument(id: "e", json: "{}")),
                         "the existing Collection handle was invalidated by the rolled-back delete")
    }

    func testEndTransactionWithoutBeginThrows() {
        assertThrows(.notInTransaction) { try db.endTransaction(commit: true) }
    }

    func testCloseInsideBatchThrows() throws {
        try db.inBatch {
            assertThrows(.transactionNotClosed) { try db.close() }
        }
        XCTAssertNotNil(db.path)
    }
}
