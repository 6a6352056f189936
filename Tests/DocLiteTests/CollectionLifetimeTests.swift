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
}
