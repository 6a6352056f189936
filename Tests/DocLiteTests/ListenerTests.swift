import Foundation
import XCTest
@testable import DocLite

#if canImport(Glibc)
import Glibc
#endif

/// Collection and document change listeners.
final class ListenerTests: DatabaseTestCase {
    private struct Abort: Error {}

    private func save(_ id: String, in collection: DocLite.Collection? = nil) throws {
        try (collection ?? defaultCollection).save(document: MutableDocument(id: id, json: #"{"id":"\#(id)"}"#))
    }

    func testCollectionListenerGetsIDsAfterEachCommit() throws {
        let collection = defaultCollection
        let changes = Recorder<[String]>()
        let token = collection.addChangeListener { changes.append($0.documentIDs) }
        defer { token.remove() }
        try save("a")
        XCTAssertEqual(changes.all, [["a"]], "a save outside a batch notifies synchronously")
        try db.inBatch {
            for id in ["c", "b", "d"] { try save(id) }
            XCTAssertEqual(changes.all.count, 1, "no notification before the batch commits")
        }
        XCTAssertEqual(changes.all, [["a"], ["c", "b", "d"]], "a batch is one call with its IDs in order")
        let doc = try XCTUnwrap(collection.document(id: "b"))
        try collection.delete(document: doc)
        try collection.purge(id: "c")
        XCTAssertEqual(changes.all.suffix(2), [["b"], ["c"]], "deletes and purges are changes too")
    }

    func testChangeCarriesTheCollection() throws {
        let other = try db.createCollection(name: "other", scope: "s")
        let names = Recorder<String>()
        let token = other.addChangeListener { names.append($0.collection.fullName) }
        defer { token.remove() }
        try save("x", in: other)
        try save("y")   // another collection: not reported to this listener
        XCTAssertEqual(names.all, ["s.other"])
    }

    /// A batch that changes several collections, interleaved and the same document
    /// twice: each collection's listener is called once, each ID once.
    func testBatchAcrossCollectionsIsOneCallPerCollection() throws {
        let a = defaultCollection, b = try db.createCollection(name: "b")
        let aChanges = Recorder<[String]>(), bChanges = Recorder<[String]>()
        let tokens = [a.addChangeListener { aChanges.append($0.documentIDs) },
                      b.addChangeListener { bChanges.append($0.documentIDs) }]
        defer { tokens.forEach { $0.remove() } }
        try db.inBatch {
            try save("a1", in: a)
            try save("b1", in: b)
            try save("a2", in: a)
            try save("a1", in: a)
            try save("b2", in: b)
        }
        XCTAssertEqual(aChanges.all, [["a1", "a2"]])
        XCTAssertEqual(bChanges.all, [["b1", "b2"]])
    }

    func testNoNotificationForRolledBackBatch() throws {
        let collection = defaultCollection
        let changes = Recorder<[String]>()
        let documentChanges = Recorder<String>()
        let tokens = [collection.addChangeListener { changes.append($0.documentIDs) },
                      collection.addDocumentChangeListener(id: "a") { documentChanges.append($0.documentID) }]
        defer { tokens.forEach { $0.remove() } }
        XCTAssertThrowsError(try db.inBatch {
            try save("a")
            throw Abort()
        })
        // A nested batch that failed dooms the outer one too.
        XCTAssertThrowsError(try db.inBatch {
            try save("a")
            try? db.inBatch { try save("b"); throw Abort() }
        })
        // A failed save (conflict) changes nothing.
        try save("c")
        let conflicting = try MutableDocument(id: "c", json: "{}")
        XCTAssertFalse(try collection.save(document: conflicting, concurrencyControl: .failOnConflict))
        XCTAssertEqual(changes.all, [["c"]])
        XCTAssertEqual(documentChanges.all, [])
    }

    func testDocumentListenerOnlyForItsDocument() throws {
        let collection = defaultCollection
        let other = try db.createCollection(name: "other")
        let calls = Recorder<String>()
        let token = collection.addDocumentChangeListener(id: "watched") { change in
            calls.append("\(change.collection.name)/\(change.documentID)")
        }
        defer { token.remove() }
        try save("unwatched")
        try save("watched", in: other)   // same ID, other collection
        XCTAssertEqual(calls.all, [])
        try save("watched")
        XCTAssertEqual(calls.all, ["_default/watched"])
        try db.inBatch {
            try save("watched")
            try save("unwatched")
            try save("watched")
        }
        XCTAssertEqual(calls.all.count, 2, "one call per commit")
        try collection.delete(document: XCTUnwrap(collection.document(id: "watched")))
        XCTAssertEqual(calls.all.count, 3)
    }

    func testListenerCanReadTheDatabase() throws {
        let collection = defaultCollection
        let seen = Recorder<String?>()
        let token = collection.addChangeListener { change in
            for id in change.documentIDs {
                seen.append((try? change.collection.document(id: id))??.string(forKey: "id"))
            }
            seen.append("count \(change.collection.count)")
        }
        defer { token.remove() }
        try save("a")
        try db.inBatch { try save("b"); try save("c") }
        XCTAssertEqual(seen.all, ["a", "count 1", "b", "c", "count 3"])
    }

    /// A listener may write (a new commit, announced in turn) without deadlocking.
    func testListenerCanWriteToTheDatabase() throws {
        let collection = defaultCollection
        let log = try db.createCollection(name: "log")
        let token = collection.addChangeListener { change in
            for id in change.documentIDs {
                try? log.save(document: MutableDocument(id: "log-\(id)", json: "{}"))
            }
        }
        defer { token.remove() }
        let logged = Recorder<[String]>()
        let logToken = log.addChangeListener { logged.append($0.documentIDs) }
        defer { logToken.remove() }
        try save("a")
        try save("b")
        XCTAssertEqual(log.count, 2)
        XCTAssertEqual(logged.all, [["log-a"], ["log-b"]])
    }

    func testRemovedListenerIsNotCalled() throws {
        let collection = defaultCollection
        let first = Recorder<[String]>(), second = Recorder<[String]>()
        let token1 = collection.addChangeListener { first.append($0.documentIDs) }
        let token2 = collection.addDocumentChangeListener(id: "a") { second.append([$0.documentID]) }
        try save("a")
        token1.remove()
        token2.remove()
        token1.remove()   // idempotent
        try save("a")
        try save("b")
        XCTAssertEqual(first.all, [["a"]])
        XCTAssertEqual(second.all, [["a"]])
    }

    /// Listeners run on the committing thread, after the commit: a second
    /// database instance opened inside the callback already sees the change.
    func testListenerRunsOnCommittingThreadAfterCommit() throws {
        let collection = defaultCollection
        let directory = self.directory!
        let threads = Recorder<UInt>()
        let visible = Recorder<String>()
        let token = collection.addChangeListener { change in
            threads.append(UInt(pthread_self()))
            do {
                let other = try Database(name: "test", config: DatabaseConfiguration(directory: directory))
                defer { try? other.close() }
                for id in change.documentIDs {
                    visible.append(try other.defaultCollection().document(id: id) == nil ? "\(id): not committed" : "\(id): committed")
                }
            } catch {
                visible.append("error: \(error)")
            }
        }
        defer { token.remove() }

        try save("main")
        let mainThread = UInt(pthread_self())
        let queueThread = Recorder<UInt>()
        let done = DispatchSemaphore(value: 0)
        let database = db!
        DispatchQueue.global().async {
            queueThread.append(UInt(pthread_self()))
            try? database.inBatch {
                try database.defaultCollection().save(document: MutableDocument(id: "queue", json: "{}"))
            }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(visible.all, ["main: committed", "queue: committed"])
        XCTAssertEqual(threads.all, [mainThread] + queueThread.all)
    }

    /// Couchbase Lite's `queue:` variants: calls on that queue, in commit order; nil is the main queue.
    func testQueueVariantsCallOnTheQueueInOrder() throws {
        let queue = DispatchQueue(label: "listener-test")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let changes = Recorder<String>(), documentChanges = Recorder<String>(), onQueue = Recorder<Bool>()
        let onMain = expectation(description: "on the main queue")
        let tokens = [
            defaultCollection.addChangeListener(queue: queue) { change in
                changes.append(change.documentIDs.joined())
                onQueue.append(DispatchQueue.getSpecific(key: key) == 7)
            },
            defaultCollection.addDocumentChangeListener(id: "b", queue: queue) { change in
                documentChanges.append(change.documentID)
                onQueue.append(DispatchQueue.getSpecific(key: key) == 7)
            },
            defaultCollection.addChangeListener(queue: nil) { _ in
                if Thread.isMainThread { onMain.fulfill() }
            },
        ]
        defer { tokens.forEach { $0.remove() } }
        for id in ["a", "b", "c"] { try save(id) }
        queue.sync {}
        XCTAssertEqual(changes.all, ["a", "b", "c"])
        XCTAssertEqual(documentChanges.all, ["b"])
        XCTAssertEqual(onQueue.all, [true, true, true, true])
        wait(for: [onMain], timeout: 5)
    }

    /// Adding a listener does not throw, as in Couchbase Lite: on a closed
    /// database or a deleted collection it warns, and the token is inert.
    func testAddingToAClosedCollectionDoesNotThrow() throws {
        let other = try db.createCollection(name: "gone")
        try db.deleteCollection(name: "gone")
        let deleted = other.addChangeListener { _ in XCTFail("the deleted collection's listener hears its successor") }
        try save("x", in: try db.createCollection(name: "gone"))   // a new collection of the same name
        deleted.remove()
        let collection = defaultCollection
        try db.close()
        let closed = collection.addDocumentChangeListener(id: "a") { _ in XCTFail("a closed database changes nothing") }
        closed.remove()
        closed.remove()
    }

    /// `changes()` and `documentChanges(id:)` as async sequences, consumed on the main actor.
    func testChangesAsAsyncSequencesOnTheMainActor() async throws {
        @MainActor final class Model {
            var ids: [String] = []
        }
        let model = Model()
        let collection = defaultCollection
        let changes = collection.changes(), documentChanges = collection.documentChanges(id: "b")   // listening from here on
        let consumer = Task { @MainActor in
            var documents = documentChanges.makeAsyncIterator()
            for await change in changes {
                model.ids += change.documentIDs
                if model.ids.count == 3 { break }
            }
            return await documents.next()?.documentID
        }
        for id in ["a", "b", "c"] { try save(id) }
        let documentChange = await consumer.value
        let ids = await model.ids
        XCTAssertEqual(ids, ["a", "b", "c"])
        XCTAssertEqual(documentChange, "b")
        try db.close()
        var ended = collection.changes().makeAsyncIterator()
        let afterClose = await ended.next()
        XCTAssertNil(afterClose, "a closed database's sequence ends at once")
    }
}
