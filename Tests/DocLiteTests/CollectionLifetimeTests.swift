import Foundation
import XCTest
@testable import DocLite

/// A collection keeps its database open, as Couchbase Lite's does (issue 41:
/// dropping the Database made every collection call throw); nothing keeps a
/// database nobody holds; reads of a closed or deleted collection answer as
/// Couchbase Lite's do.
final class CollectionLifetimeTests: DatabaseTestCase {
    func testACollectionKeepsItsDatabaseOpen() throws {
        let hotels = try openDatabase(name: "kept").createCollection(name: "hotels")
        try hotels.save(document: MutableDocument(id: "h", json: #"{"name": "Ritz"}"#))
        XCTAssertEqual(hotels.count, 1)
        XCTAssertEqual(try hotels.document(id: "h")?.string(forKey: "name"), "Ritz")
        XCTAssertEqual(hotels.database.name, "kept")
        let document = try XCTUnwrap(hotels.document(id: "h"))
        XCTAssertTrue(document.collection === hotels, "one handle while it is held")
    }

    func testADatabaseNobodyHoldsIsReleased() throws {
        weak var released: Database?
        weak var releasedCollection: DocLite.Collection?
        func use() throws {
            let database = try openDatabase(name: "dropped")
            let collection = try database.createCollection(name: "c")
            try collection.save(document: MutableDocument(id: "a"))
            released = database
            releasedCollection = collection
        }
        try use()
        XCTAssertNil(releasedCollection)
        XCTAssertNil(released, "no cycle between a database and its collections")
        let reopened = try openDatabase(name: "dropped")
        XCTAssertEqual(try reopened.collection(name: "c")?.count, 1)
    }

    func testReadsOfAClosedOrDeletedCollection() throws {
        let gone = try db.createCollection(name: "gone")
        try gone.save(document: MutableDocument(id: "a"))
        try db.deleteCollection(name: "gone")
        XCTAssertEqual(gone.count, 0, "Couchbase Lite's count: 0")
        assertThrows(.notOpen, containing: "was deleted") { _ = try gone.document(id: "a") }
        let collection = defaultCollection
        try collection.save(document: MutableDocument(id: "b"))
        try db.close()
        XCTAssertEqual(collection.count, 0)
        XCTAssertEqual(collection.fullName, "_default._default")
        assertThrows(.notOpen, containing: "its database was closed") { _ = try collection.document(id: "b") }
    }

    /// SQLite reads its schema again after every `CREATE`, so what a collection
    /// adds to the schema sets how creating the next one grows: one table and
    /// its key index, whatever the collection holds (tombstones and
    /// expirations go to tables every collection shares), and none left when it
    /// is deleted. (docs/performance.md, "Many collections", has the times.)
    func testACollectionAddsOneTableAndItsKeyIndexToTheSchema() throws {
        func objects() -> Int64? { rawSQL("SELECT count(*) FROM sqlite_schema") }
        let before = try XCTUnwrap(objects())
        let collection = try db.createCollection(name: "c", scope: "s")
        XCTAssertEqual(objects(), before + 2)
        let doc = try MutableDocument(id: "d", json: "{}")
        try collection.save(document: doc)
        try collection.setDocumentExpiration(id: "d", expiration: Date().addingTimeInterval(3600))
        try collection.delete(document: XCTUnwrap(collection.document(id: "d")))
        XCTAssertEqual(objects(), before + 2)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM tombstones WHERE collection = \(collection.id)"), 1)
        try db.deleteCollection(name: "c", scope: "s")
        XCTAssertEqual(objects(), before)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM tombstones"), 0, "its tombstones go with it")
        XCTAssertEqual(rawSQL("SELECT count(*) FROM expirations"), 0, "and its expiration times")
    }
}
