import XCTest
@testable import DocLite

/// Names and strings that look like SQL never become SQL.
final class InjectionTests: QueryTestCase {
    static let hostile = ["it's", "a\"b", "x'); DROP TABLE kv_1; --", "[0]", "a]b", "SELECT * FROM kv_1", "; DELETE FROM collections",
                          "\\", "$1", "` OR 1=1 --", "é'ü", "a\u{0}b"]

    func testPropertyNamesAliasesAndStringsAreQuotedOrBound() throws {
        for (i, text) in Self.hostile.enumerated() {
            let escapedKey = PropertyPath.format([PathComponent.key(text)])
            let document = JSONValue.dictionary([ByteString(text): .string(text), "n": .int(Int64(i))])
            try defaultCollection.save(document: try MutableDocument(id: "doc\(i)", json: document.json))
            let keyJSON = JSONValue.string("." + escapedKey).json, textJSON = JSONValue.string(text).json
            let aliasJSON = JSONValue.string(text).json
            let query = """
                {"WHAT": [["AS", [\(keyJSON)], \(aliasJSON)], ["AS", ["||", \(textJSON), "!"], "lit"]],
                 "FROM": [{"AS": \(aliasJSON == "\"\\\\\"" ? "\"b\"" : "\"src\"")}],
                 "WHERE": ["AND", ["=", [\(keyJSON)], \(textJSON)], ["LIKE", [\(keyJSON)], "%"]]}
                """
            let results = try rows(query)
            XCTAssertEqual(results.count, 1, "query for \(text.debugDescription)")
            XCTAssertEqual(results.first?[0], .string(text))
            XCTAssertEqual(results.first?[1], .string(text + "!"))
            XCTAssertEqual(try db.createQuery(json: query).columnNames, [text, "lit"])
        }
        XCTAssertEqual(defaultCollection.count, UInt64(Self.hostile.count))   // nothing was dropped or deleted
        XCTAssertNotNil(try db.collection(name: "_default"))
    }

    func testDataSourceAliasesNeverReachSQL() throws {
        try load([("d", #"{"x": 1}"#)])
        let alias = #"s0; DROP TABLE kv_1"#
        let query = try db.createQuery(json: #"{"WHAT": [[".\#(alias).x"]], "FROM": [{"AS": "\#(alias)"}]}"#)
        XCTAssertFalse(try query.explain().components(separatedBy: "\n\n")[0].contains("DROP"))
        XCTAssertEqual(try query.execute().next()?.int(at: 0), 1)
    }
}
