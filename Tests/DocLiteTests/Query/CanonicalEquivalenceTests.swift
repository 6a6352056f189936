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

    /// The issue's document: two keys that differ only in normalisation, each with its own value.
    static let json = #"{"\#(precomposed)": 1, "\#(decomposed)": 2}"#

    private func assertBothKeys(_ dictionary: DictionaryProtocol?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(dictionary?.count, 2, what, file: file, line: line)
        XCTAssertEqual(dictionary?.int(forKey: Self.precomposed), 1, what, file: file, line: line)
        XCTAssertEqual(dictionary?.int(forKey: Self.decomposed), 2, what, file: file, line: line)
        XCTAssertEqual(dictionary?.keys.map { Array($0.utf8) }, [Array(Self.decomposed.utf8), Array(Self.precomposed.utf8)], what,
                       file: file, line: line)
        XCTAssertEqual(dictionary?.toJSON(), #"{"\#(Self.decomposed)":2,"\#(Self.precomposed)":1}"#, what, file: file, line: line)
    }

    func testTheDocumentRoundTripsThroughEveryPath() throws {
        let unsaved = try MutableDocument(id: "doc", json: Self.json)
        assertBothKeys(unsaved, "unsaved")
        try defaultCollection.save(document: unsaved)
        assertBothKeys(try defaultCollection.document(id: "doc"), "saved")
        assertBothKeys(try defaultCollection.document(id: "doc")?.toMutable(), "mutable copy")

        let whole = try db.createQuery(json: #"{"WHAT": [["."], ["._id"]]}"#).execute().allResults()
        assertBothKeys(whole.first?.dictionary(at: 0), "whole-document column")
        XCTAssertEqual(whole.first?.toJSON(), #"{"_doc":{"\#(Self.decomposed)":2,"\#(Self.precomposed)":1},"id":"doc"}"#)

        let byPath = try rows(#"{"WHAT": [[".\#(Self.precomposed)"], [".\#(Self.decomposed)"]]}"#)
        XCTAssertEqual(byPath.first ?? [], [.int(1), .int(2)])
        let grouped = try rows(#"{"WHAT": [[".\#(Self.precomposed)"], [".\#(Self.decomposed)"]], "GROUP_BY": [[".\#(Self.precomposed)"], [".\#(Self.decomposed)"]]}"#)
        XCTAssertEqual(grouped.first ?? [], [.int(1), .int(2)])

        let aliased = try db.createQuery(json: #"{"WHAT": [["AS", [".\#(Self.precomposed)"], "\#(Self.precomposed)"], ["AS", [".\#(Self.decomposed)"], "\#(Self.decomposed)"]], "ORDER_BY": [[".\#(Self.decomposed)"]]}"#)
        XCTAssertEqual(aliased.columnNames.count, 2)
        let row = try aliased.execute().next()
        XCTAssertEqual(row?.int(forKey: Self.precomposed), 1)
        XCTAssertEqual(row?.int(forKey: Self.decomposed), 2)

        let literal = try rows(#"{"WHAT": [{"\#(Self.precomposed)": 1, "\#(Self.decomposed)": 2}]}"#)
        XCTAssertEqual(literal.first?.first??.json, #"{"\#(Self.decomposed)":2,"\#(Self.precomposed)":1}"#)
    }

    func testBuiltByTheSwiftAPI() throws {
        let document = MutableDocument(id: "api").setValue(1, forKey: Self.precomposed).setValue(2, forKey: Self.decomposed)
        assertBothKeys(document, "set one by one")
        let nested = MutableDictionaryObject().setValue(1, forKey: Self.precomposed).setValue(2, forKey: Self.decomposed)
        assertBothKeys(nested, "nested object")
        try defaultCollection.save(document: document.setValue(nested, forKey: "inner"))
        assertBothKeys(try defaultCollection.document(id: "api")?.dictionary(forKey: "inner"), "nested, saved")
        let edited = try XCTUnwrap(defaultCollection.document(id: "api")).toMutable().removeValue(forKey: Self.decomposed)
        XCTAssertEqual(edited.int(forKey: Self.precomposed), 1)
        XCTAssertNil(edited.value(forKey: Self.decomposed))
    }

    func testDocumentsWhoseIDsDifferOnlyInNormalisationAreTwo() throws {
        try load([(Self.precomposed, #"{"n": 1}"#), (Self.decomposed, #"{"n": 2}"#)])
        XCTAssertEqual(try defaultCollection.document(id: Self.precomposed)?.int(forKey: "n"), 1)
        XCTAssertEqual(try defaultCollection.document(id: Self.decomposed)?.int(forKey: "n"), 2)
        XCTAssertEqual(defaultCollection.count, 2)
    }

    /// Random documents whose keys are drawn from canonically equivalent
    /// spellings, combining marks and zero-width characters: every path gives
    /// every key its own value.
    func testRandomEquivalentKeys() throws {
        let pieces = ["\u{00E9}", "e\u{0301}", "\u{00C5}", "\u{212B}", "A\u{030A}", "K", "\u{212A}", "\u{0301}", "\u{0308}",
                      "\u{200D}", "\u{200B}", "\u{FEFF}", "o\u{0308}\u{0301}", "o\u{0301}\u{0308}", "\u{1E69}", "s\u{0323}\u{0307}", "s\u{0307}\u{0323}", "a"]
        var random = SeededRandom(seed: 25)
        for round in 0..<200 {
            var members: [ByteString: JSONValue] = [:]
            for i in 0..<12 {
                let key = (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
                members[ByteString(key)] = .int(Int64(i))
            }
            let json = JSONValue.dictionary(members).json
            let id = "r\(round)"
            try defaultCollection.save(document: try MutableDocument(id: id, json: json))
            let saved = try XCTUnwrap(defaultCollection.document(id: id))
            XCTAssertEqual(try JSONValue(json: saved.toJSON()), .dictionary(members), "round \(round)")   // (stored order: shared keys first)
            XCTAssertEqual(try MutableDocument(json: json).toJSON(), json, "round \(round)")
            for (key, value) in members { XCTAssertEqual(saved.int(forKey: key.string), Int(value.json), "round \(round): \(key.string.debugDescription)") }
            let what = members.keys.sorted().map { JSONValue.array([.string("." + PropertyPath.format([.key($0.string)]))]) }
            let query = JSONValue.dictionary(["WHAT": .array(what + [.array([.string(".")])]),
                                              "WHERE": .array([.string("="), .array([.string("._id")]), .string(id)])]).json
            let row = try rows(query).first ?? []
            XCTAssertEqual(Array(row.prefix(members.count)), members.keys.sorted().map { members[$0] }, "round \(round)")
            XCTAssertEqual(row.last ?? nil, .dictionary(members), "round \(round)")
        }
    }
}
