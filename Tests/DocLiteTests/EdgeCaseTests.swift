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
        let token = try first.addChangeListener { recorder.append($0.documentIDs) }
        defer { token.remove() }
        try db.deleteCollection(name: "c")
        let second = try db.createCollection(name: "c")
        XCTAssertNotEqual(first.id, second.id, "collection IDs are never reused")
        try second.save(document: MutableDocument(id: "x", json: "{}"))
        XCTAssertTrue(recorder.all.isEmpty)
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
