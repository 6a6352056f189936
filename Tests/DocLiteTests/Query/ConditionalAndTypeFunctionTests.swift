import XCTest
@testable import DocLite

/// Conditional functions (IFMISSING, IFNULL, …) and type functions (IS*, TO*).
final class ConditionalAndTypeFunctionTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try loadProbe()   // n 1, nul null, s "abc", d 2.5, t true, f false, a [1, "x", null], o {"k": "v"}
    }

    func testIfMissingIfNullAndIfMissingOrNull() throws {
        XCTAssertEqual(try value(of: #"["IFMISSING()", [".missing"], [".nul"], 1]"#), .null)
        XCTAssertEqual(try value(of: #"["IFMISSING()", [".missing"], [".other"]]"#), nil)
        XCTAssertEqual(try value(of: #"["IFMISSING()", [".missing"], [".t"]]"#), .bool(true))   // stays a boolean
        XCTAssertEqual(try value(of: #"["IFNULL()", [".nul"], 2]"#), .int(2))
        XCTAssertEqual(try value(of: #"["IFNULL()", [".nul"], [".missing"], 2]"#), nil)   // MISSING is not null
        XCTAssertEqual(try value(of: #"["IFNULL()", [".nul"], [".nul"]]"#), .null)
        XCTAssertEqual(try value(of: #"["IFNULL()", [".nul"], [".f"]]"#), .bool(false))
        XCTAssertEqual(try value(of: #"["IFMISSINGORNULL()", [".missing"], [".nul"], [".s"]]"#), .string("abc"))
        XCTAssertEqual(try value(of: #"["IFMISSINGORNULL()", [".missing"], [".nul"]]"#), .null)
        XCTAssertEqual(try value(of: #"["IFMISSINGORNULL()", [".missing"], [".o"]]"#), .dictionary(["k": .string("v")]))
    }

    func testMissingIfAndNullIf() throws {
        XCTAssertEqual(try value(of: #"["MISSINGIF()", [".n"], 1]"#), nil)
        XCTAssertEqual(try value(of: #"["MISSINGIF()", [".n"], 1.0]"#), nil)    // numbers compare numerically
        XCTAssertEqual(try value(of: #"["MISSINGIF()", [".s"], "abc"]"#), nil)
        XCTAssertEqual(try value(of: #"["MISSINGIF()", [".s"], "x"]"#), .string("abc"))
        XCTAssertEqual(try value(of: #"["MISSINGIF()", [".n"], "1"]"#), .int(1))   // no string/number conversion
        XCTAssertEqual(try value(of: #"["MISSINGIF()", [".nul"], 1]"#), .null)
        XCTAssertEqual(try value(of: #"["MISSINGIF()", 1, [".missing"]]"#), nil)
        XCTAssertEqual(try value(of: #"["NULLIF()", [".d"], 2.5]"#), .null)
        XCTAssertEqual(try value(of: #"["NULLIF()", [".a"], ["[]", 1, "x", null]]"#), .null)
        XCTAssertEqual(try value(of: #"["NULLIF()", [".t"], false]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["NULLIF()", [".missing"], 1]"#), nil)
    }

    func testTypePredicates() throws {
        let cases: [(String, [String])] = [
            ("ISARRAY()", ["a"]), ("IS_ARRAY()", ["a"]), ("ISATOM()", ["n", "s", "d", "t", "f"]),
            ("ISBOOLEAN()", ["t", "f"]), ("ISNUMBER()", ["n", "d"]), ("ISOBJECT()", ["o"]), ("IS_STRING()", ["s"]),
        ]
        let properties = ["n", "s", "d", "t", "f", "a", "o"]
        for (function, expected) in cases {
            for property in properties {
                XCTAssertEqual(try value(of: "[\"\(function)\", [\".\(property)\"]]"), .bool(expected.contains(property)), "\(function) \(property)")
            }
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".nul\"]]"), .null, function)
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".missing\"]]"), nil, function)
        }
        XCTAssertEqual(try value(of: #"["ISBOOLEAN()", ["=", 1, 1]]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["ISBOOLEAN()", ["ISNUMBER()", [".nul"]]]"#), .null)   // a null boolean result stays null
        XCTAssertEqual(try idsWhere(#"["AND", ["ISSTRING()", [".s"]], ["NOT", ["ISSTRING()", [".n"]]]]"#), ["probe"])
    }

    func testTypeNamesEveryValueIncludingMissing() throws {
        let expected = ["missing": "missing", "nul": "null", "t": "boolean", "n": "number", "d": "number",
                        "s": "string", "a": "array", "o": "object"]
        for (property, name) in expected {
            XCTAssertEqual(try value(of: "[\"TYPE()\", [\".\(property)\"]]"), .string(name), property)
            XCTAssertEqual(try value(of: "[\"TYPENAME()\", [\".\(property)\"]]"), .string(name), property)
        }
    }

    func testConversions() throws {
        XCTAssertEqual(try value(of: #"["TOARRAY()", [".n"]]"#), .array([.int(1)]))
        XCTAssertEqual(try value(of: #"["TO_ARRAY()", [".t"]]"#), .array([.bool(true)]))
        XCTAssertEqual(try value(of: #"["TOARRAY()", [".a"]]"#), .array([.int(1), .string("x"), .null]))
        XCTAssertEqual(try value(of: #"["TOARRAY()", [".nul"]]"#), .null)
        XCTAssertEqual(try value(of: #"["TOOBJECT()", [".o"]]"#), .dictionary(["k": .string("v")]))
        XCTAssertEqual(try value(of: #"["TO_OBJECT()", [".s"]]"#), .dictionary([:]))
        XCTAssertEqual(try value(of: #"["TOATOM()", ["[]", 5]]"#), .int(5))
        XCTAssertEqual(try value(of: #"["TOATOM()", ["[]", true]]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["TOATOM()", [".o"]]"#), .string("v"))
        XCTAssertEqual(try value(of: #"["TOATOM()", ["[]", 1, 2]]"#), .null)
        XCTAssertEqual(try value(of: #"["TOATOM()", ["[]"]]"#), .null)
        XCTAssertEqual(try value(of: #"["TO_ATOM()", [".s"]]"#), .string("abc"))
        XCTAssertEqual(try value(of: #"["TOATOM()", [".f"]]"#), .bool(false))
        XCTAssertEqual(try value(of: #"["TOSTRING()", [".t"]]"#), .string("true"))
        XCTAssertEqual(try value(of: #"["TOSTRING()", [".n"]]"#), .string("1"))
        XCTAssertEqual(try value(of: #"["TOSTRING()", [".d"]]"#), .string("2.5"))
        XCTAssertEqual(try value(of: #"["TO_STRING()", [".s"]]"#), .string("abc"))
        XCTAssertEqual(try value(of: #"["TOSTRING()", [".a"]]"#), .null)
        XCTAssertEqual(try value(of: #"["TOSTRING()", [".missing"]]"#), nil)
    }

    func testToBooleanUsesN1QLTruthiness() throws {
        let cases: [(String, Bool)] = [
            ("0", false), ("0.0", false), ("\"\"", false), ("[\"[]\"]", false), ("{}", false), ("[\".f\"]", false),
            ("1", true), ("-0.5", true), ("\"0\"", true), ("[\"[]\", 0]", true), ("{\"a\": null}", true), ("[\".t\"]", true),
        ]
        for (argument, expected) in cases {
            XCTAssertEqual(try value(of: "[\"TOBOOLEAN()\", \(argument)]"), .bool(expected), argument)
        }
        XCTAssertEqual(try value(of: #"["TO_BOOLEAN()", [".nul"]]"#), .null)
        XCTAssertEqual(try value(of: #"["TOBOOLEAN()", [".missing"]]"#), nil)
    }

    func testToNumberParsesDecimalStrings() throws {
        let cases: [(String, JSONValue)] = [
            ("\"12\"", .int(12)), ("\" -7 \"", .int(-7)), ("\"2.5\"", .double(2.5)), ("\"1e3\"", .double(1000)),
            ("\".5\"", .double(0.5)), ("\"602214076000000000000000\"", .double(6.02214076e23)),
            ("\"12abc\"", .null), ("\"\"", .null), ("\"-\"", .null), ("\"1e\"", .null), ("\"nan\"", .null), ("\"0x10\"", .null),
            ("[\".t\"]", .int(1)), ("[\".f\"]", .int(0)), ("[\".d\"]", .double(2.5)), ("[\".a\"]", .null), ("[\".o\"]", .null),
        ]
        for (argument, expected) in cases {
            XCTAssertEqual(try value(of: "[\"TONUMBER()\", \(argument)]"), expected, argument)
        }
        XCTAssertEqual(try value(of: #"["TO_NUMBER()", [".missing"]]"#), nil)
    }
}
