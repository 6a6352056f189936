// What the guides' Swift examples leave out, filled in: the databases they
// query ("travel-sample" and "hotel", with data), the `Hotel` type, and a
// `print` that records what the examples print so that the tests can assert on it.
// A user's code: `import DocLite` only, no `@testable`.

import Foundation
import XCTest
import DocLite

/// The `Hotel` the guides use and leave out (the QueryBuilder guide's Example 21, the
/// Result Sets guide's "Selected Properties" example and its Example 6): Codable, made
/// with `Hotel(id:)`, its other properties set from a `String?` (`result.string(forKey:)`,
/// `as? String`). (The guides' commented-out `class Hotel` has non-optional properties,
/// which take no `String?`, and a `country`, which the queries do not select, so that
/// `JSONDecoder` would throw `keyNotFound`. The QueryBuilder guide's Example 29, which
/// assigns `as! String`, has its own `Hotel` with non-optional properties.)
struct Hotel: Codable {
    var id: String
    var name: String? = nil
    var city: String? = nil
    var type: String? = nil
}

/// A test case holding the examples: a fresh directory, made the current one
/// (the examples that open `Database(name: "hotel")` open it there), and the
/// `database` the other examples use; an optional, as Example 13's `database!` needs.
class GuideExampleTestCase: XCTestCase {
    var database: Database!
    /// What the examples printed, one entry per `print` call (its items joined by the separator).
    var printed: [String] = []
    private var directory: String!
    private var previousDirectory: String!

    /// The examples' `print(...)` resolves to this method, which records the line.
    func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
        printed.append(items.map { "\($0)" }.joined(separator: separator))
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = NSTemporaryDirectory() + "doclite-guide-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        previousDirectory = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(directory))
    }

    override func tearDownWithError() throws {
        Database.prediction.unregisterModel(withName: "ImageClassifier")
        try database?.close()
        database = nil
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(previousDirectory))
        try? FileManager.default.removeItem(atPath: directory)
        try super.tearDownWithError()
    }

    /// Makes the database `name` ("travel-sample" or "hotel") with its documents and opens it as `database`.
    func useDatabase(_ name: String) throws {
        database = try makeDatabase(name)
    }

    /// Makes the database `name` with its documents and closes it, for an example that opens it itself.
    func prepareDatabase(_ name: String) throws {
        try makeDatabase(name).close()
    }

    private func makeDatabase(_ name: String) throws -> Database {
        let database = try Database(name: name, config: DatabaseConfiguration(directory: directory))
        let collection = try database.defaultCollection()
        for (id, json) in try XCTUnwrap(Self.documents[name]) {
            try collection.save(document: try MutableDocument(id: id, json: json))
        }
        if name == "travel-sample" {
            try collection.delete(document: try XCTUnwrap(collection.document(id: "gone")))
        }
        return database
    }

    /// "travel-sample": the documents of DocLiteTests' QueryBuilderGuideTests, plus a
    /// third airline (so that Example 28's `limit = 20` leaves one of the 21 out).
    /// "hotel": documents that all have a string `id`, `name`, `city` and `type`, as the
    /// `!` of the examples on the database "hotel" (and of seed 002's) need; one is an inn,
    /// so that Example 25's GROUP BY type makes two groups.
    static let documents: [String: [(String, String)]] = [
        "travel-sample": [
            ("airline_10", #"{"type": "airline", "id": 10, "name": "40-Mile Air", "callsign": "MILE-AIR", "country": "United States", "iata": "Q5", "icao": "MLA"}"#),
            ("airline_17", #"{"type": "airline", "id": 17, "name": "Alaskan Airways", "callsign": "ALASKAN-AIR", "country": "United States", "iata": "AA", "icao": "AAA"}"#),
            ("airline_24", #"{"type": "airline", "id": 24, "name": "American Airlines", "callsign": "AMERICAN", "country": "United States", "iata": "AA", "icao": "AAL"}"#),
            ("hotel123", #"{"type": "hotel", "id": "hotel123", "name": "Hotel Ghia", "title": "Avignon", "city": "Avignon", "public_likes": ["Armani Langworth", "Elfrieda Gutkowski", "Maureen Ruecker"]}"#),
            ("hotel456", #"{"type": "hotel", "id": "hotel456", "name": "Hotel Deluxe", "title": "Aberdyfi", "city": "Aberdyfi", "public_likes": ["Maureen Ruecker"]}"#),
            ("hotel789", #"{"type": "hotel", "id": "hotel789", "name": "Auberge", "title": "Ardèche", "city": "Lyon"}"#),
            ("landmark_1", #"{"type": "landmark", "name": "Royal Engineers Museum", "country": "United Kingdom"}"#),
            ("landmark_2", #"{"type": "landmark", "name": "Engineer", "country": "France"}"#),
            ("landmark_3", #"{"type": "landmark", "name": "England Eagle", "country": "United Kingdom"}"#),
            ("landmark_4", #"{"type": "landmark", "name": "Tower Bridge", "country": "United Kingdom"}"#),
            ("landmark_5", #"{"type": "landmark", "name": "engineer", "country": "Canada"}"#),
            ("route_1", #"{"type": "route", "airlineid": "airline_10", "sourceairport": "RIX", "destinationairport": "ARN", "stops": 0, "airline": "Q5"}"#),
            ("route_2", #"{"type": "route", "airlineid": "airline_17", "sourceairport": "RIX", "destinationairport": "CPH", "stops": 1, "airline": "AA"}"#),
            ("route_3", #"{"type": "route", "airlineid": "airline_10", "sourceairport": "LHR", "destinationairport": "RIX", "stops": 0, "airline": "Q5"}"#),
            ("airport_1", #"{"type": "airport", "country": "France", "geo": {"alt": 400}, "tz": "Europe/Paris"}"#),
            ("airport_2", #"{"type": "airport", "country": "France", "geo": {"alt": 300}, "tz": "Europe/Paris"}"#),
            ("airport_3", #"{"type": "airport", "country": "France", "geo": {"alt": 100}, "tz": "Europe/Paris"}"#),
            ("airport_4", #"{"type": "airport", "country": "United States", "geo": {"alt": 456}, "tz": "America/Anchorage"}"#),
            ("user_1", #"{"type": "user", "first": "Armani", "last": "Langworth"}"#),
            ("user_2", #"{"type": "user", "first": "Bob", "username": "Armani"}"#),
            ("user_3", #"{"type": "user", "first": "Carol", "last": "Armand"}"#),
            ("gone", #"{"type": "hotel", "name": "Deleted Hotel"}"#),
        ],
        "hotel": [
            ("hotel123", #"{"id": "hotel123", "type": "hotel", "name": "Hotel Ghia", "city": "Avignon"}"#),
            ("hotel456", #"{"id": "hotel456", "type": "hotel", "name": "Hotel Deluxe", "city": "Aberdyfi"}"#),
            ("hotel789", #"{"id": "hotel789", "type": "hotel", "name": "Auberge", "city": "Lyon"}"#),
            ("inn001", #"{"id": "inn001", "type": "inn", "name": "The Ship Inn", "city": "Annan"}"#),
        ],
    ]

    /// The photos Examples 32-34 classify, which the guide leaves out: their bytes
    /// are what the fake `myMLModel` "sees", a label and a probability.
    func savePhotos() throws {
        let collection = try database.defaultCollection()
        for (id, image) in [("photo_1", "car 0.95"), ("photo_2", "cat 0.99"), ("photo_3", "car 0.5")] {
            let photo = Blob(contentType: "image/jpeg", data: Data(image.utf8))
            try collection.save(document: MutableDocument(id: id).setString("photo", forKey: "type").setBlob(photo, forKey: "photo"))
        }
    }

    /// The lines printed, with each run of white space made one space (Example 14 prints a multi-line literal).
    var printedWords: [String] {
        printed.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    }
}
