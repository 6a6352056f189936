import XCTest
@testable import DocLite

/// COLLATE: ASCII case folding, Unicode collation (case, diacritics, locale),
/// and where a COLLATE takes effect.
final class CollationTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try load(["Zebra", "apple", "Apple", "Äpfel", "banana", "Émile", "emile", "ångström", "zz"].enumerated().map {
            ("d\($0.offset)", #"{"s": "\#($0.element)"}"#)
        })
    }

    private func strings(_ json: String) throws -> [String] {
        try rows(json).map { $0[0].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "-" }
    }

    private func orderedBy(_ options: String) throws -> [String] {
        try strings(#"{"WHAT": [[".s"]], "ORDER_BY": [["COLLATE", \#(options), [".s"]], ["._id"]]}"#)
    }

    func testOrderBy() throws {
        XCTAssertEqual(try orderedBy(#"{"UNICODE": false}"#), ["Apple", "Zebra", "apple", "banana", "emile", "zz", "Äpfel", "Émile", "ångström"])
        XCTAssertEqual(try orderedBy(#"{"CASE": false}"#), ["apple", "Apple", "banana", "emile", "Zebra", "zz", "Äpfel", "Émile", "ångström"])
        XCTAssertEqual(try orderedBy(#"{"UNICODE": true}"#), ["ångström", "Äpfel", "apple", "Apple", "banana", "emile", "Émile", "Zebra", "zz"])
        // Swedish puts å and ä after z.
        XCTAssertEqual(try orderedBy(#"{"UNICODE": true, "LOCALE": "sv"}"#), ["apple", "Apple", "banana", "emile", "Émile", "Zebra", "zz", "ångström", "Äpfel"])
    }

    func testComparisonsUnderEachStrength() throws {
        func ids(_ options: String, _ op: String, _ value: String) throws -> [String] {
            try strings(#"{"WHAT": [[".s"]], "WHERE": ["COLLATE", \#(options), ["\#(op)", [".s"], "\#(value)"]], "ORDER_BY": [["._id"]]}"#)
        }
        XCTAssertEqual(try ids(#"{"UNICODE": true}"#, "=", "emile"), ["emile"])
        XCTAssertEqual(try ids(#"{"UNICODE": true, "CASE": false}"#, "=", "EMILE"), ["emile"])
        XCTAssertEqual(try ids(#"{"UNICODE": true, "DIAC": false}"#, "=", "Emile"), ["Émile"])
        XCTAssertEqual(try ids(#"{"UNICODE": true, "CASE": false, "DIAC": false}"#, "=", "EMILE"), ["Émile", "emile"])
        XCTAssertEqual(try ids(#"{"CASE": false}"#, "=", "APPLE"), ["apple", "Apple"])
        XCTAssertEqual(try ids(#"{"CASE": false}"#, "<", "b"), ["apple", "Apple"])
        XCTAssertEqual(try ids(#"{"UNICODE": true, "CASE": false, "DIAC": false}"#, "LIKE", "e%"), ["Émile", "emile"])
        XCTAssertEqual(try ids(#"{"UNICODE": true, "DIAC": false}"#, "LIKE", "%pfel"), ["Äpfel"])
        XCTAssertEqual(try ids(#"{"CASE": false}"#, "LIKE", "A%"), ["apple", "Apple"])
        XCTAssertEqual(try ids(#"{"UNICODE": false}"#, "LIKE", "A%"), ["Apple"])
    }

    func testContainsTakesTheCollation() throws {
        func ids(_ options: String, _ sub: String) throws -> [String] {
            try strings(#"{"WHAT": [[".s"]], "WHERE": ["COLLATE", \#(options), ["CONTAINS()", [".s"], "\#(sub)"]], "ORDER_BY": [["._id"]]}"#)
        }
        XCTAssertEqual(try ids(#"{"UNICODE": true, "CASE": false}"#, "PPL"), ["apple", "Apple"])
        XCTAssertEqual(try ids(#"{"UNICODE": true, "DIAC": false}"#, "mil"), ["Émile", "emile"])
        XCTAssertEqual(try ids(#"{"UNICODE": true, "DIAC": false}"#, "EMIL"), [])
        XCTAssertEqual(try ids(#"{"UNICODE": false}"#, "pfel"), ["Äpfel"])
        // contains() gets the COLLATE in force even after a comparison took it.
        XCTAssertEqual(try strings(#"{"WHAT": [[".s"]], "WHERE": ["COLLATE", {"CASE": false}, ["AND", ["=", [".s"], "APPLE"], ["CONTAINS()", [".s"], "PL"]]], "ORDER_BY": [["._id"]]}"#),
                       ["apple", "Apple"])
    }

    func testFLLikeIsLikeUnderTheCollationInForce() throws {
        XCTAssertEqual(try strings(#"{"WHAT": [[".s"]], "WHERE": ["FL_LIKE()", [".s"], "a%"], "ORDER_BY": [["._id"]]}"#), ["apple"])
        XCTAssertEqual(try strings(#"{"WHAT": [[".s"]], "WHERE": ["COLLATE", {"UNICODE": true, "CASE": false, "DIAC": false}, ["FL_LIKE()", [".s"], "a%"]], "ORDER_BY": [["._id"]]}"#),
                       ["apple", "Apple", "Äpfel", "ångström"])
        XCTAssertEqual(try rows(#"{"WHAT": [["FL_LIKE()", [".nothing"], "a%"], ["FL_LIKE()", null, "a%"]], "LIMIT": 1}"#), [[nil, .null]])
    }

    func testCollateOnAnOperandAndTheFirstComparisonRule() throws {
        // On an operand, the comparison uses the operand's collation.
        XCTAssertEqual(try strings(#"{"WHAT": [[".s"]], "WHERE": ["=", ["COLLATE", {"UNICODE": true, "CASE": false}, [".s"]], "ZEBRA"]}"#), ["Zebra"])
        // Only the first comparison inside a COLLATE takes it (Couchbase Lite's rule).
        XCTAssertEqual(try strings(#"{"WHAT": [[".s"]], "WHERE": ["COLLATE", {"CASE": false}, ["AND", ["=", [".s"], "APPLE"], ["=", [".s"], "apple"]]]}"#), ["apple"])
        // An inner COLLATE overrides only the options it names.
        XCTAssertEqual(try strings(#"{"WHAT": [[".s"]], "WHERE": ["COLLATE", {"UNICODE": true, "CASE": false}, ["COLLATE", {"DIAC": false}, ["=", [".s"], "EMILE"]]], "ORDER_BY": [["._id"]]}"#), ["Émile", "emile"])
    }

    /// A COLLATE around either operand of LIKE collates the LIKE, as one around the LIKE does.
    func testCollateOnALikeOperandCollatesTheLike() throws {
        let expected = ["apple", "Apple"]
        for condition in [#"["LIKE", ["COLLATE", {"CASE": false}, [".s"]], "APP%"]"#,
                          #"["LIKE", [".s"], ["COLLATE", {"CASE": false}, "APP%"]]"#,
                          #"["COLLATE", {"CASE": false}, ["LIKE", [".s"], "APP%"]]"#] {
            XCTAssertEqual(try strings(#"{"WHAT": [[".s"]], "WHERE": \#(condition), "ORDER_BY": [["._id"]]}"#), expected, condition)
        }
        XCTAssertEqual(try strings(#"{"WHAT": [[".s"]], "WHERE": ["LIKE", ["COLLATE", {"UNICODE": true, "CASE": false, "DIAC": false}, [".s"]], "E%"], "ORDER_BY": [["._id"]]}"#),
                       ["Émile", "emile"])
        assertThrows(.invalidQuery, containing: "WHERE[1][1].LOCALE: invalid locale 'x!'") {
            _ = try self.db.createQuery(json: #"{"WHERE": ["LIKE", ["COLLATE", {"UNICODE": true, "LOCALE": "x!"}, [".s"]], "a%"]}"#)
        }
    }

    func testInvalidLocaleIsAnError() {
        assertThrows(.invalidQuery, containing: "ORDER_BY[0][1].LOCALE: invalid locale 'x\"; DROP'") {
            _ = try self.db.createQuery(json: #"{"ORDER_BY": [["COLLATE", {"UNICODE": true, "LOCALE": "x\"; DROP"}, [".s"]]]}"#)
        }
    }
}
