import Foundation
import XCTest
@testable import DocLite

/// `Result.data(as:dataKey:)` and `ResultSet.data(as:dataKey:)`: rows into Decodable models.
final class ResultDecodingTests: DatabaseTestCase {
    private struct Hotel: Decodable, Equatable {
        let name: String
        let rooms: Int
        let opened: Date?
        let tags: [String]
    }

    private struct Row: Decodable, Equatable {
        let id: String
        let name: String
        let count: Int?
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let hotels = try db.createCollection(name: "hotels")
        try hotels.save(document: MutableDocument(id: "h1", json: #"{"name": "Ritz", "rooms": 150, "opened": "1898-06-01T00:00:00.000Z", "tags": ["spa"]}"#))
        try hotels.save(document: MutableDocument(id: "h2", json: #"{"name": "Adlon", "rooms": 380, "tags": []}"#))
    }

    func testRowsByColumnTitle() throws {
        let query = try db.createQuery(json: #"{"WHAT": [["._id"], [".name"]], "FROM": [{"COLLECTION": "hotels"}], "ORDER_BY": [[".name"]]}"#)
        XCTAssertEqual(try query.execute().data(as: Row.self),
                       [Row(id: "h2", name: "Adlon", count: nil), Row(id: "h1", name: "Ritz", count: nil)])
    }

    func testTheDocumentUnderItsDataSourceName() throws {
        let query = try db.createQuery(json: #"{"WHAT": [["."]], "FROM": [{"COLLECTION": "hotels", "AS": "h"}], "ORDER_BY": [[".h.name"]]}"#)
        let hotels = try query.execute().data(as: Hotel.self, dataKey: "h")
        XCTAssertEqual(hotels.map(\.name), ["Adlon", "Ritz"])
        XCTAssertEqual(hotels[1].opened, ISO8601.date(from: "1898-06-01T00:00:00.000Z"))
        XCTAssertNil(hotels[0].opened)
        XCTAssertEqual(hotels[1].tags, ["spa"])
        let first = try XCTUnwrap(query.execute().next())
        XCTAssertEqual(try first.data(as: Hotel.self, dataKey: "h").rooms, 380)
    }

    func testMismatchesAreDecodingErrors() throws {
        let query = try db.createQuery(json: #"{"WHAT": [["."], [".name"]], "FROM": [{"COLLECTION": "hotels", "AS": "h"}]}"#)
        let row = try XCTUnwrap(query.execute().next())
        XCTAssertThrowsError(try row.data(as: Hotel.self, dataKey: "name")) { error in   // a string, not a dictionary
            guard case DecodingError.valueNotFound = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try row.data(as: Hotel.self, dataKey: "nope"))
        XCTAssertThrowsError(try row.data(as: Row.self)) { error in   // no "id" column
            guard case DecodingError.keyNotFound = error else { return XCTFail("\(error)") }
        }
    }
}
