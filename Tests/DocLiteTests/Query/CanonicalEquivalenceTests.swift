import XCTest
@testable import DocLite

/// Strings that differ only in Unicode normalisation — "é" precomposed
/// (U+00E9) and "e" + U+0301 — are different strings to JSON, SQLite and
/// Couchbase Lite; Swift's `String ==` calls them equal. Nothing keyed by a
/// `String` may merge them.
final class CanonicalEquivalenceTests: QueryTestCase {
    static let precomposed = "\u{00E9}", decomposed = "e\u{0301}"

    func testQueriesDifferingOnlyInNormalisationAreDifferentStatements() throws {
        try load([("pre", JSONValue.dictionary(["k": .string(Self.precomposed)]).json),
                  ("de", JSONValue.dictionary(["k": .string(Self.decomposed)]).json)])
        for (text, id) in [(Self.precomposed, "pre"), (Self.decomposed, "de"), (Self.precomposed, "pre")] {
            let condition = JSONValue.array([.string("="), .array([.string(".k")]), .string(text)]).json
            XCTAssertEqual(try idsWhere(condition), [id])   // (the statement cache once handed back the other's)
        }
    }

    func testFullTextIndexesNamedByEquivalentNamesAreTwoIndexes() throws {
        try load([("a", #"{"x": "apple", "y": "banana"}"#)])
        try defaultCollection.createIndex(withName: Self.precomposed, config: FullTextIndexConfiguration(json: #"[".x"]"#))
        try defaultCollection.createIndex(withName: Self.decomposed, config: FullTextIndexConfiguration(json: #"[".y"]"#))
        for (name, word, hits) in [(Self.precomposed, "apple", 1), (Self.precomposed, "banana", 0),
                                   (Self.decomposed, "banana", 1), (Self.decomposed, "apple", 0)] {
            let match = JSONValue.array([.string("MATCH()"), .string(name), .string(word)])
            XCTAssertEqual(try rows(JSONValue.dictionary(["WHERE": match]).json).count, hits, "\(name.unicodeScalars.count) \(word)")
        }
    }
}
