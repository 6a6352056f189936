import XCTest
@testable import DocLite

/// Array and comparison functions: MISSING stays
/// MISSING; a non-array is null.
final class ArrayFunctionTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try loadProbe(#"{"a": [1, "x", null, 2.5, true], "nums": [3, -1, 7], "neg": [-4, -2], "empty": [], "nulls": [null, null], "s": "abc", "nul": null}"#)
    }

    func testCountsAndLength() throws {
        XCTAssertEqual(try value(of: #"["ARRAY_LENGTH()", [".a"]]"#), .int(5))
        XCTAssertEqual(try value(of: #"["ARRAY_COUNT()", [".a"]]"#), .int(4))   // nulls are not counted
        XCTAssertEqual(try value(of: #"["ARRAY_COUNT()", [".nulls"]]"#), .int(0))
        XCTAssertEqual(try value(of: #"["ARRAY_LENGTH()", [".empty"]]"#), .int(0))
        XCTAssertEqual(try value(of: #"["ARRAY_LENGTH()", [".s"]]"#), .null)
        XCTAssertEqual(try value(of: #"["ARRAY_COUNT()", [".nul"]]"#), .null)
        XCTAssertEqual(try value(of: #"["ARRAY_LENGTH()", [".missing"]]"#), nil)
        XCTAssertEqual(try idsWhere(#"[">", ["ARRAY_LENGTH()", [".nums"]], 2]"#), ["probe"])
    }

    func testNumericAggregatesOverElements() throws {
        XCTAssertEqual(try value(of: #"["ARRAY_SUM()", [".nums"]]"#), .double(9))
        XCTAssertEqual(try value(of: #"["ARRAY_SUM()", [".a"]]"#), .double(4.5))   // 1 + 2.5 + true
        XCTAssertEqual(try value(of: #"["ARRAY_AVG()", [".nums"]]"#), .double(3))
        XCTAssertEqual(try value(of: #"["ARRAY_AVG()", ["[]", 1, 2, "x"]]"#), .double(1))   // a non-number counts as 0
        XCTAssertEqual(try value(of: #"["ARRAY_AVG()", [".empty"]]"#), .double(0))
        XCTAssertEqual(try value(of: #"["ARRAY_MAX()", [".nums"]]"#), .double(7))
        XCTAssertEqual(try value(of: #"["ARRAY_MIN()", [".nums"]]"#), .double(-1))
        XCTAssertEqual(try value(of: #"["ARRAY_MAX()", [".neg"]]"#), .double(-2))   // not Couchbase Lite's DBL_MIN quirk
        XCTAssertEqual(try value(of: #"["ARRAY_MAX()", [".empty"]]"#), .null)
        XCTAssertEqual(try value(of: #"["ARRAY_MIN()", ["[]", "x"]]"#), .null)
        XCTAssertEqual(try value(of: #"["ARRAY_SUM()", [".s"]]"#), .null)
        XCTAssertEqual(try value(of: #"["ARRAY_AVG()", [".missing"]]"#), nil)
    }

    func testIfNullContainsAndConstructors() throws {
        XCTAssertEqual(try value(of: #"["ARRAY_IFNULL()", ["[]", null, null, 3]]"#), .int(3))
        XCTAssertEqual(try value(of: #"["ARRAY_IFNULL()", ["[]", null, true]]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["ARRAY_IFNULL()", [".nulls"]]"#), .null)
        XCTAssertEqual(try value(of: #"["ARRAY_IFNULL()", [".s"]]"#), .null)
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", [".a"], "x"]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", [".a"], 2.5]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", [".a"], "y"]"#), .bool(false))
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", [".s"], 1]"#), .null)
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", [".a"], [".nul"]]"#), .null)
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", [".missing"], 1]"#), nil)
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", [".a"], [".missing"]]"#), nil)
        // LiteCore's quirks: an integer target matches a number's integer part; a dict's values are searched.
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", ["[]", 1.5], 1]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", ["[]", 1.5], 1.0]"#), .bool(false))
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", ["[]", true], 1]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", {"k": "x", "n": 2}, 2]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["ARRAY_CONTAINS()", {"k": "x"}, "k"]"#), .bool(false))
        XCTAssertEqual(try value(of: #"["ARRAY_OF()", 1, [".missing"], "a", [".nul"]]"#), .array([.int(1), .string("a"), .null]))
        XCTAssertEqual(try value(of: #"["ARRAY_OF()"]"#), .array([]))
    }

    func testGreatestAndLeastUseSQLiteOrder() throws {
        XCTAssertEqual(try value(of: #"["GREATEST()", 1, 5, 3]"#), .int(5))
        XCTAssertEqual(try value(of: #"["LEAST()", 1, 0.5, 3]"#), .double(0.5))
        XCTAssertEqual(try value(of: #"["GREATEST()", 2, "a"]"#), .string("a"))   // text after numbers
        XCTAssertEqual(try value(of: #"["GREATEST()", 1, [".missing"]]"#), nil)
        XCTAssertEqual(try value(of: #"["GREATEST()", 0, ["=", 1, 1]]"#), .bool(true))   // stays a boolean
        assertThrows(.invalidQuery, containing: "greatest() takes at least 2 arguments, got 1") {
            _ = try self.db.createQuery(json: #"{"WHAT": [["GREATEST()", 1]]}"#)
        }
    }

    func testFunctionsWorkInGroupedQueries() throws {
        // Grouped queries read properties through an inner query, in their result form.
        try load([("second", #"{"a": [true], "nums": [1], "s": "abc"}"#)])
        let grouped = try rows(#"{"WHAT": [[".s"], ["ARRAY_SUM()", [".nums"]], ["ISBOOLEAN()", ["TOATOM()", [".a"]]], ["COUNT()", [".s"]]], "GROUP_BY": [[".s"], [".nums"], [".a"]], "ORDER_BY": [["ARRAY_SUM()", [".nums"]]]}"#)
        XCTAssertEqual(grouped, [[.string("abc"), .double(1), .bool(true), .int(1)], [.string("abc"), .double(9), .null, .int(1)]])   // toatom of 5 elements is null
        // A grouped boolean property arrives encoded: still a boolean, and a number to math.
        try load([("flag", #"{"t": true}"#)])
        XCTAssertEqual(try rows(#"{"WHAT": [["ISBOOLEAN()", [".t"]], ["TOSTRING()", [".t"]], ["ABS()", [".t"]], ["IFMISSING()", [".t"], 0]], "WHERE": ["IS VALUED", [".t"]], "GROUP_BY": [[".t"]]}"#),
                       [[.bool(true), .string("true"), .double(1), .bool(true)]])
    }
}
