import Foundation
import XCTest
@testable import DocLite

/// Document models, as Couchbase Lite's Codable API: classes with a
/// `@DocumentID` property, read, saved, deleted and purged as documents.
final class CodableDocumentTests: DatabaseTestCase {
    final class Hotel: Codable {
        @DocumentID var id: String?
        var name: String
        var rooms: Int
        var opened: Date?
        var tags: [String]

        init(id: String? = nil, name: String, rooms: Int, opened: Date? = nil, tags: [String] = []) {
            self.name = name
            self.rooms = rooms
            self.opened = opened
            self.tags = tags
            self.id = id
        }
    }

    final class NoID: Codable {
        var name = "x"
    }

    final class WithData: Codable {
        @DocumentID var id: String?
        var bytes = Data([1, 2])
    }

    func testSaveNewReadBackAndUpdate() throws {
        let opened = Date(timeIntervalSince1970: 1_700_000_000.25)
        let hotel = Hotel(name: "Ritz", rooms: 150, opened: opened, tags: ["spa"])
        try defaultCollection.save(from: hotel)
        let id = try XCTUnwrap(hotel.id, "a new model gets its document's automatic ID")
        let stored = try XCTUnwrap(defaultCollection.document(id: id))
        XCTAssertEqual(stored.toJSON(), #"{"name":"Ritz","opened":"2023-11-14T22:13:20.250Z","rooms":150,"tags":["spa"]}"#,
                       "the ID is not a property; dates are ISO-8601 text")

        let read = try XCTUnwrap(defaultCollection.document(id: id, as: Hotel.self))
        XCTAssertEqual(read.id, id)
        XCTAssertEqual(read.name, "Ritz")
        XCTAssertEqual(read.opened, opened)
        read.rooms = 160
        try defaultCollection.save(from: read)
        XCTAssertEqual(defaultCollection.count, 1, "saved again, the same document")
        XCTAssertEqual(try defaultCollection.document(id: id)?.int(forKey: "rooms"), 160)
        XCTAssertNil(try defaultCollection.document(id: "none", as: Hotel.self))
    }

    func testFailOnConflictUsesTheRevisionTheModelKnows() throws {
        try defaultCollection.save(from: Hotel(id: "h", name: "Ritz", rooms: 1))
        let first = try XCTUnwrap(defaultCollection.document(id: "h", as: Hotel.self))
        let second = try XCTUnwrap(defaultCollection.document(id: "h", as: Hotel.self))
        first.rooms = 2
        XCTAssertTrue(try defaultCollection.save(from: first, concurrencyControl: .failOnConflict))
        second.rooms = 3
        XCTAssertFalse(try defaultCollection.save(from: second, concurrencyControl: .failOnConflict))
        XCTAssertTrue(try defaultCollection.save(from: first, concurrencyControl: .failOnConflict), "a saved model knows its new revision")

        var seen: Int?
        XCTAssertTrue(try defaultCollection.save(from: second) { mine, stored in
            seen = stored?.rooms
            mine.rooms += stored?.rooms ?? 0
            return true
        })
        XCTAssertEqual(seen, 2)
        XCTAssertEqual(try defaultCollection.document(id: "h")?.int(forKey: "rooms"), 5, "the handler's change is saved")
    }

    func testDeleteAndPurge() throws {
        let hotel = Hotel(id: "h", name: "Ritz", rooms: 1)
        try defaultCollection.save(from: hotel)
        try defaultCollection.delete(for: hotel)
        XCTAssertNil(try defaultCollection.document(id: "h"))
        try defaultCollection.save(from: hotel)
        XCTAssertEqual(try defaultCollection.document(id: "h")?.string(forKey: "name"), "Ritz", "saved again after its deletion")
        try defaultCollection.purge(for: hotel)
        XCTAssertEqual(defaultCollection.count, 0)
        assertThrows(.notFound) { try defaultCollection.delete(for: Hotel(name: "never saved", rooms: 0)) }
    }

    func testErrors() throws {
        assertThrows(.invalidParameter, containing: "NoID has no @DocumentID property") { try defaultCollection.save(from: NoID()) }
        assertThrows(.encodingError, containing: "use a Blob") { try defaultCollection.save(from: WithData()) }
        try defaultCollection.save(document: MutableDocument(id: "odd", json: #"{"name": 7, "rooms": 1, "tags": []}"#))
        assertThrows(.decodingError, containing: "'name' is not a String") { _ = try defaultCollection.document(id: "odd", as: Hotel.self) }
        try defaultCollection.save(document: MutableDocument(id: "short", json: #"{"name": "x"}"#))
        assertThrows(.decodingError, containing: "no value for 'rooms'") { _ = try defaultCollection.document(id: "short", as: Hotel.self) }
        XCTAssertEqual(defaultCollection.count, 2, "nothing saved by a failed encoding")
    }

    /// A query row with `META().id` under the property's name decodes into a model that saves back to its document.
    func testAModelFromAQueryRowSavesBack() throws {
        try defaultCollection.save(from: Hotel(id: "h", name: "Ritz", rooms: 1))
        let rows = try db.createQuery(json: #"{"WHAT": [["._id"], [".name"], [".rooms"], [".tags"]]}"#).execute()   // (META().id is titled "id")
        let model = try XCTUnwrap(rows.data(as: Hotel.self).first)
        XCTAssertEqual(model.id, "h")
        model.rooms = 9
        try defaultCollection.save(from: model)
        XCTAssertEqual(defaultCollection.count, 1)
        XCTAssertEqual(try defaultCollection.document(id: "h")?.int(forKey: "rooms"), 9)
    }
}
