import Foundation
import XCTest
@testable import DocLite

/// Boundary cases: IDs with NUL, extreme expirations, reused collection
/// names, documents read in a rolled-back batch, files that are not databases.
final class EdgeCaseTests: DatabaseTestCase {
    private struct Abort: Error {}

    func testIDWithNULDoesNotMatchItsPrefix() throws {
        try defaultCollection.save(document: MutableDocument(id: "a", json: "{}"))
        XCTAssertNil(try defaultCollection.document(id: "a\0x"))
        assertThrows(.notFound) { try defaultCollection.purge(id: "a\0x") }
        XCTAssertNotNil(try defaultCollection.document(id: "a"))
    }

    func testExpirationOutOfRangeIsAnError() throws {
        try defaultCollection.save(document: MutableDocument(id: "a", json: "{}"))
        assertThrows(.invalidParameter, containing: "out of range") {
            try defaultCollection.setDocumentExpiration(id: "a", expiration: Date(timeIntervalSince1970: 1e300))
        }
        XCTAssertNil(try defaultCollection.getDocumentExpiration(id: "a"))
    }

    func testListenersOfADeletedCollectionDoNotHearItsSuccessor() throws {
        let first = try db.createCollection(name: "c")
        let recorder = Recorder<[String]>()
        let token = first.addChangeListener { recorder.append($0.documentIDs) }
        defer { token.remove() }
        try db.deleteCollection(name: "c")
        let second = try db.createCollection(name: "c")
        XCTAssertNotEqual(first.id, second.id, "collection IDs are never reused")
        try second.save(document: MutableDocument(id: "x", json: "{}"))
        XCTAssertTrue(recorder.all.isEmpty)
    }

    /// Every query naming a deleted collection fails with notOpen naming it,
    /// before any SQL runs (it was "no such table: kv_2" in SQLite's domain).
    func testQueriesOfADeletedCollectionAreNotOpen() throws {
        let hotels = try db.createCollection(name: "hotels", scope: "travel")
        try hotels.save(document: MutableDocument(id: "h", json: #"{"name": "Ritz"}"#))
        let byName = try db.createQuery(json: #"{"WHAT": [[".name"]], "FROM": [{"COLLECTION": "travel.hotels"}]}"#)
        let built = QueryBuilder.select(SelectResult.property("name")).from(DataSource.collection(hotels))
        XCTAssertEqual(try built.execute().allResults().count, 1)
        let joined = QueryBuilder.select(SelectResult.property("name")).from(DataSource.database(db).as("d"))
            .join(Join.join(DataSource.collection(hotels).as("h")).on(Meta.id.from("d").equalTo(Meta.id.from("h"))))
        try db.deleteCollection(name: "hotels", scope: "travel")

        let message = "collection 'travel.hotels' was deleted"
        assertThrows(.notOpen, containing: message) { _ = try byName.execute() }
        assertThrows(.notOpen, containing: message) { _ = try byName.explain() }
        assertThrows(.notOpen, containing: message) { _ = try built.execute() }
        assertThrows(.notOpen, containing: message) { _ = try joined.execute() }
        assertThrows(.notOpen, containing: message) {
            _ = try QueryBuilder.select(SelectResult.all()).from(DataSource.collection(hotels)).execute()
        }
        assertThrows(.notOpen, containing: message) { try hotels.createIndex(withName: "i", config: ValueIndexConfiguration(json: #"[[".name"]]"#)) }
        let kept = defaultCollection
        try db.close()
        assertThrows(.notOpen, containing: "collection '_default._default' is not open: its database was closed") {
            _ = try kept.document(id: "h")
        }
    }

    func testDocumentReadInARolledBackBatchKeepsItsProperties() throws {
        let collection = defaultCollection
        var read: Document?
        XCTAssertThrowsError(try db.inBatch {
            try collection.save(document: MutableDocument(id: "new", json: #"{"freshKey": 1}"#))
            read = try collection.document(id: "new")
            throw Abort()
        })
        XCTAssertEqual(read?.int(forKey: "freshKey"), 1)
        try collection.save(document: MutableDocument(id: "other", json: #"{"anotherKey": 2}"#))
        let copy = try XCTUnwrap(read).toMutable()
        try collection.save(document: copy)
        XCTAssertEqual(try collection.document(id: "new")?.toJSON(), #"{"freshKey":1}"#)
    }

    func testAFileThatIsNotADatabaseIsReported() throws {
        let path = Database.filePath(name: "junk", directory: directory)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        assertThrows(.notADatabaseFile) { _ = try openDatabase(name: "junk") }
    }
}
