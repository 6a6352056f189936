import Foundation
import XCTest
@testable import DocLite

/// The AST's JSON form reads back to the same tree.
final class JSONQueryRoundTripTests: XCTestCase {
    static let queries = [
        #"{"WHAT": [[".h._id"], [".h.name"], ["AS", ["COUNT()", [".r."]], "nReviews"]], "FROM": [{"COLLECTION": "travel.hotels", "AS": "h"}, {"JOIN": "LEFT OUTER", "ON": ["=", [".r.hotelId"], [".h._id"]], "COLLECTION": "travel.reviews", "AS": "r"}], "WHERE": ["AND", ["=", [".h.type"], "hotel"], ["LIKE", [".h.city"], ["$city"]]], "GROUP_BY": [[".h._id"], [".h.name"]], "HAVING": [">", ["COUNT()", [".r."]], 2], "ORDER_BY": [["DESC", ["COUNT()", [".r."]]], [".h.name"]], "LIMIT": 10, "OFFSET": ["$skip"]}"#,
        #"{"WHAT": [["."], [".a\\.b[0][-1].c"], ["_.", ["META()"], "id"], ["[]", 1, 2.5, null, true, "s"], {"k": [".v"], "n": {"m": ["MISSING"]}}], "DISTINCT": true}"#,
        #"{"WHERE": ["CASE", null, ["IS", [".a"], null], ["-", [".b"]], ["IS NOT", [".a"], ["MISSING"]], 1, "else"]}"#,
        #"{"WHERE": ["ANY", "x", [".tags"], ["=", ["?x.name"], "a"]], "FROM": [{"COLLECTION": "_"}, {"UNNEST": [".tags"], "AS": "t"}]}"#,
        #"{"WHAT": [["COLLATE", {"UNICODE": true, "CASE": false, "LOCALE": null}, [".name"]]], "WHERE": ["NOT IN", [".x"], ["[]", 1, 2]]}"#,
        #"{"WHAT": [["||", [".a"], [".b"], [".c"]], ["IS VALUED", [".d"]], ["BETWEEN", [".e"], 1, 2], ["EXISTS", [".f"]], ["%", 7, 2], ["regexp_like()", [".g"], "^a"]]}"#,
    ]

    func testParseWriteParseIsStable() throws {
        var texts = Self.queries
        for case .dictionary(let members) in try SharedFolder.jsonLines("conformance/cases.jsonl") {
            if let query = members["query"],
               members["expect"].map({ if case .dictionary(let e) = $0 { e["error"] == nil } else { true } }) ?? true {
                texts.append(query.json)
            }
        }
        for text in texts {
            let statement = try JSONQueryParser.parse(json: text)
            let written = JSONQueryWriter.json(statement)
            XCTAssertEqual(try JSONQueryParser.parse(written), statement, "round trip of \(text)")
        }
    }

    func testClauseKeysAndOperatorsAreCaseInsensitive() throws {
        let lower = try JSONQueryParser.parse(json: #"{"what": [["count()"]], "where": ["and", ["like", [".a"], "x%"], ["is not", [".b"], null]]}"#)
        let upper = try JSONQueryParser.parse(json: #"{"WHAT": [["COUNT()"]], "WHERE": ["AND", ["LIKE", [".a"], "x%"], ["IS NOT", [".b"], null]]}"#)
        XCTAssertEqual(lower, upper)
    }

    func testLegacyRootForms() throws {
        let bare = try JSONQueryParser.parse(json: #"["=", [".type"], "hotel"]"#)
        XCTAssertEqual(bare.whereClause, .operation(.equal, [.property([.key("type")]), .literal(.string("hotel"))]))
        XCTAssertTrue(bare.what.isEmpty)
        let wrapped = try JSONQueryParser.parse(json: #"["SELECT", {"WHERE": ["=", [".type"], "hotel"]}]"#)
        XCTAssertEqual(wrapped, bare)
    }
}
