import XCTest
@testable import DocLite

/// String functions: MISSING and null pass through; other
/// non-strings are null, or unchanged for the trims.
final class StringFunctionTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try loadProbe(#"{"n": 1, "nul": null, "s": "abc", "t": true, "a": [1, 2], "o": {"k": "v"}, "u": "Àß😀x", "pad": " \t a b \n"}"#)
    }

    func testLengthCountsCodePoints() throws {
        XCTAssertEqual(try value(of: #"["LENGTH()", [".s"]]"#), .int(3))
        XCTAssertEqual(try value(of: #"["LENGTH()", [".u"]]"#), .int(4))   // 10 bytes
        XCTAssertEqual(try value(of: #"["LENGTH()", ""]"#), .int(0))
        XCTAssertEqual(try value(of: #"["LENGTH()", [".n"]]"#), .null)
        XCTAssertEqual(try value(of: #"["LENGTH()", [".a"]]"#), .null)
        XCTAssertEqual(try value(of: #"["LENGTH()", [".nul"]]"#), .null)
        XCTAssertEqual(try value(of: #"["LENGTH()", [".missing"]]"#), nil)
    }

    func testLowerAndUpperAreUnicodeAware() throws {
        XCTAssertEqual(try value(of: #"["LOWER()", "ABC def"]"#), .string("abc def"))
        XCTAssertEqual(try value(of: #"["UPPER()", [".s"]]"#), .string("ABC"))
        XCTAssertEqual(try value(of: #"["LOWER()", [".u"]]"#), .string("àß😀x"))
        XCTAssertEqual(try value(of: #"["UPPER()", [".u"]]"#), .string("ÀSS😀X"))
        XCTAssertEqual(try value(of: #"["LOWER()", ["[]", 1, 2]]"#), .null)
        XCTAssertEqual(try value(of: #"["UPPER()", [".t"]]"#), .null)
        XCTAssertEqual(try value(of: #"["LOWER()", [".nul"]]"#), .null)
        XCTAssertEqual(try value(of: #"["UPPER()", [".missing"]]"#), nil)
    }

    func testTrimsRemoveWhitespaceAndKeepNonStrings() throws {
        XCTAssertEqual(try value(of: #"["TRIM()", [".pad"]]"#), .string("a b"))
        XCTAssertEqual(try value(of: #"["LTRIM()", [".pad"]]"#), .string("a b \n"))
        XCTAssertEqual(try value(of: #"["RTRIM()", [".pad"]]"#), .string(" \t a b"))
        XCTAssertEqual(try value(of: #"["TRIM()", "   "]"#), .string(""))
        XCTAssertEqual(try value(of: #"["TRIM()", [".n"]]"#), .int(1))
        XCTAssertEqual(try value(of: #"["LTRIM()", [".t"]]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["RTRIM()", [".o"]]"#), .dictionary(["k": .string("v")]))
        XCTAssertEqual(try value(of: #"["TRIM()", [".nul"]]"#), .null)
        XCTAssertEqual(try value(of: #"["TRIM()", [".missing"]]"#), nil)
        assertThrows(.invalidQuery, containing: "WHAT[0]: trim() takes 1 argument, got 2") {
            _ = try self.db.createQuery(json: #"{"WHAT": [["TRIM()", [".s"], "a"]]}"#)
        }
    }

    func testContainsIsABinarySubstringTest() throws {
        XCTAssertEqual(try value(of: #"["CONTAINS()", [".s"], "bc"]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["CONTAINS()", [".s"], "B"]"#), .bool(false))   // case-sensitive
        XCTAssertEqual(try value(of: #"["CONTAINS()", [".s"], ""]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["CONTAINS()", [".s"], "abcd"]"#), .bool(false))
        XCTAssertEqual(try value(of: #"["CONTAINS()", [".u"], "😀"]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["CONTAINS()", 1234, 23]"#), .bool(true))       // numbers as text
        XCTAssertEqual(try value(of: #"["CONTAINS()", [".a"], 1]"#), .bool(false))     // containers contain nothing
        XCTAssertEqual(try value(of: #"["CONTAINS()", [".s"], [".nul"]]"#), .null)
        XCTAssertEqual(try value(of: #"["CONTAINS()", [".missing"], "a"]"#), nil)
        XCTAssertEqual(try idsWhere(#"["CONTAINS()", [".s"], "b"]"#), ["probe"])
        XCTAssertEqual(try idsWhere(#"["NOT", ["CONTAINS()", [".s"], "z"]]"#), ["probe"])
    }

    func testConcatNeedsTwoArgumentsAndPropagatesMissing() throws {
        XCTAssertEqual(try value(of: #"["CONCAT()", [".s"], "-", [".n"], [".t"], [".nul"]]"#), .string("abc-1truenull"))
        XCTAssertEqual(try value(of: #"["CONCAT()", [".s"], [".missing"]]"#), nil)
        assertThrows(.invalidQuery, containing: "WHAT[0]: concat() takes at least 2 arguments, got 1") {
            _ = try self.db.createQuery(json: #"{"WHAT": [["CONCAT()", [".s"]]]}"#)
        }
    }

    func testFunctionNamesAreCaseInsensitiveAndUnknownOnesFail() throws {
        XCTAssertEqual(try value(of: #"["Length()", [".s"]]"#), .int(3))
        assertThrows(.invalidQuery, containing: "WHERE[1]: unknown function 'reverse()'") {
            _ = try self.db.createQuery(json: #"{"WHERE": ["=", ["REVERSE()", [".s"]], "cba"]}"#)
        }
        assertThrows(.invalidQuery, containing: "WHAT[0]: unknown function 'position()'") {
            _ = try self.db.createQuery(json: #"{"WHAT": [["POSITION()", [".s"], "b"]]}"#)
        }
        XCTAssertTrue(Query.isKnownFunction("IS_STRING"))
        XCTAssertFalse(Query.isKnownFunction("position"))
    }
}
