import CSQLite
import XCTest
@testable import DocLite

/// Regular-expression functions on PCRE2: matching, contains, position,
/// replace, and the errors an invalid pattern gives.
final class RegexFunctionTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try loadProbe(#"{"s": "abc", "n": 12, "nul": null, "text": "héllo wörld", "bad": "a(b"}"#)
    }

    func testLikeAndContainsSearchUnanchored() throws {
        for function in ["REGEXP_LIKE()", "REGEXP_CONTAINS()"] {
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".s\"], \"b\"]"), .bool(true), function)
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".s\"], \"^b\"]"), .bool(false), function)
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".s\"], \"^a.c$\"]"), .bool(true), function)
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".s\"], \"B\"]"), .bool(false), function)   // case-sensitive
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".s\"], \"(?<=a)b\"]"), .bool(true), function)   // lookbehind
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".text\"], \"^h.llo\\\\b\"]"), .bool(true), function)   // . is a code point
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".n\"], \"1\"]"), .null, function)   // not a string
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".s\"], 1]"), .null, function)
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".nul\"], \"a\"]"), .null, function)
            XCTAssertEqual(try value(of: "[\"\(function)\", [\".missing\"], \"a\"]"), nil, function)
        }
        XCTAssertEqual(try idsWhere(#"["REGEXP_LIKE()", [".s"], "b+c"]"#), ["probe"])
        XCTAssertEqual(try idsWhere(#"["REGEXP_LIKE()", [".s"], ["$p"]]"#, parameters: ["p": "z"]), [])
    }

    func testTheFusedPropertyFormAgreesWithThePlainOne() throws {
        // `.p` with a literal pattern compiles to doc_regexp_like_at; IFMISSING(.p) to the plain form.
        XCTAssertTrue(try db.createQuery(json: #"{"WHERE": ["REGEXP_LIKE()", [".s"], "b"]}"#).explain().contains("doc_regexp_like_at("))
        for property in ["s", "n", "nul", "gone", "text"] {
            for pattern in ["b", "^h", "1", "."] {
                let fused = try value(of: #"["REGEXP_LIKE()", [".\#(property)"], "\#(pattern)"]"#)
                let plain = try value(of: #"["REGEXP_LIKE()", ["IFMISSING()", [".\#(property)"], ["MISSING"]], "\#(pattern)"]"#)
                XCTAssertEqual(fused, plain, "\(property) ~ \(pattern)")
            }
        }
    }

    func testPatternsKeepECMAScriptsEscapesAndDollar() throws {
        XCTAssertEqual(try value(of: #"["REGEXP_LIKE()", [".text"], "h\\u00e9llo"]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["REGEXP_LIKE()", [".text"], "w\\u{f6}r"]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["REGEXP_LIKE()", [".s"], "\\x61b"]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["REGEXP_LIKE()", "abc\n", "c$"]"#), .bool(false))   // $ is the very end
        XCTAssertEqual(try value(of: #"["REGEXP_LIKE()", "abc\n", "(?m)c$"]"#), .bool(true))
        assertThrows(.invalidQuery, containing: "invalid regular expression '\\y' at offset 1: unrecognized character follows \\") {
            _ = try self.db.createQuery(json: #"{"WHERE": ["REGEXP_LIKE()", [".s"], "\\y"]}"#)
        }
    }

    func testPositionIsAByteOffset() throws {
        XCTAssertEqual(try value(of: #"["REGEXP_POSITION()", [".s"], "c"]"#), .int(2))
        XCTAssertEqual(try value(of: #"["REGEXP_POSITION()", [".text"], "l+"]"#), .int(3))   // é is 2 bytes
        XCTAssertEqual(try value(of: #"["REGEXP_POSITION()", [".text"], "w"]"#), .int(7))
        XCTAssertEqual(try value(of: #"["REGEXP_POSITION()", [".s"], "z"]"#), .int(-1))
        XCTAssertEqual(try value(of: #"["REGEXP_POSITION()", [".nul"], "z"]"#), .null)
    }

    func testReplaceWithReferencesAndACount() throws {
        func replace(_ arguments: String) throws -> JSONValue? { try value(of: "[\"REGEXP_REPLACE()\", \(arguments)]") }
        XCTAssertEqual(try replace(#""a1b22c333", "\\d+", "_""#), .string("a_b_c_"))
        XCTAssertEqual(try replace(#""a1b22c333", "\\d+", "_", 2"#), .string("a_b_c333"))
        XCTAssertEqual(try replace(#""a1b22c333", "\\d+", "_", 0"#), .string("a1b22c333"))
        XCTAssertEqual(try replace(#""a1b22c333", "\\d+", "_", -1"#), .string("a_b_c_"))
        XCTAssertEqual(try replace(#""a1b22c333", "\\d+", "_", "x""#), .null)
        XCTAssertEqual(try replace(#""john smith", "(\\w+) (\\w+)", "$2, $1""#), .string("smith, john"))
        XCTAssertEqual(try replace(#""abc", "b", "[$&$&]""#), .string("a[bb]c"))
        XCTAssertEqual(try replace(#""abc", "b", "$$ $x \\1 $9""#), .string("a$ $x \\1 c"))   // ECMAScript: literal, or an empty group
        XCTAssertEqual(try replace(#""aaa", "x*", "-""#), .string("-a-a-a-"))   // empty matches
        XCTAssertEqual(try replace(#""héllo", "l", "L", 1"#), .string("héLlo"))
        XCTAssertEqual(try replace(#""abc", "z", "y""#), .string("abc"))
        XCTAssertEqual(try replace(#"[".n"], "1", "y""#), .null)
        XCTAssertEqual(try replace(#"[".s"], "b", [".nul"]"#), .null)
        XCTAssertEqual(try replace(#"[".s"], "b", "y", [".missing"]"#), nil)
    }

    /// A pattern that backtracks without end stops at PCRE2's match limit: an
    /// invalid-query error of its own, in DocLite's domain, not SQLite's.
    func testMatchLimitIsAQueryErrorOfItsOwn() throws {
        try load([("long", #"{"s": "\#(String(repeating: "a", count: 40))!"}"#)])
        assertThrows(.invalidQuery, containing: "regular expression match stopped at PCRE2's limit") {
            _ = try self.idsWhere(#"["REGEXP_LIKE()", [".s"], "^(a+)+$"]"#)
        }
        assertThrows(.invalidQuery, containing: "avoid nested quantifiers") {
            _ = try self.idsWhere(#"["REGEXP_LIKE()", [".s"], ["$p"]]"#, parameters: ["p": "^(a+)+$"])
        }
    }

    func testInvalidPatternIsAnErrorWithPCRE2sMessage() throws {
        let message = "invalid regular expression 'a(b' at offset 3: missing closing parenthesis"
        // A literal pattern: when the query is created, with its JSON location.
        assertThrows(.invalidQuery, containing: "WHERE[2]: " + message) {
            _ = try self.db.createQuery(json: #"{"WHERE": ["REGEXP_LIKE()", [".s"], "a(b"]}"#)
        }
        assertThrows(.invalidQuery, containing: "WHAT[0][2]: invalid regular expression '[' at offset 1") {
            _ = try self.db.createQuery(json: #"{"WHAT": [["REGEXP_REPLACE()", [".s"], "[", "x"]]}"#)
        }
        // A parameter or a property: when the query runs.
        assertThrows(.invalidQuery, containing: message) {
            _ = try self.idsWhere(#"["REGEXP_LIKE()", [".s"], ["$p"]]"#, parameters: ["p": "a(b"])
        }
        assertThrows(.invalidQuery, containing: message) {
            _ = try self.value(of: #"["REGEXP_POSITION()", [".s"], [".bad"]]"#)
        }
        // The statement stays usable with a valid pattern.
        XCTAssertEqual(try idsWhere(#"["REGEXP_LIKE()", [".s"], ["$p"]]"#, parameters: ["p": "a(b)"]), ["probe"])
    }

    /// Random regex-ish patterns (valid or not, including invalid UTF-8 through
    /// raw SQL) either give results or a DocLiteError; an invalid one fails with
    /// the same message at compile time and at run time.
    func testRandomPatternsNeverCrash() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab()[]{}\\^$.*+?|-,:=!<>0123456789dDwWsSbBpLu\u{e9}\u{1F600}".unicodeScalars)
        let query = try db.createQuery(json: #"{"WHAT": [["REGEXP_LIKE()", [".s"], ["$p"]], ["REGEXP_REPLACE()", [".s"], ["$p"], "<$&$1>", 3]], "WHERE": ["=", ["._id"], "probe"]}"#)
        var valid = 0, invalid = 0
        for _ in 0..<2000 {
            let pattern = String(String.UnicodeScalarView((0..<Int.random(in: 0...8, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }))
            query.parameters = Parameters().setString(pattern, forName: "p")
            var compileError: String?
            do { try RegexPattern.validate(pattern) } catch { compileError = "\(error)" }
            do {
                let results = try query.execute()
                let rows = results.allResults()
                if let error = results.error { throw error }
                XCTAssertNil(compileError, pattern)
                XCTAssertEqual(rows.count, 1, pattern)
                valid += 1
            } catch let error as DocLiteError {
                XCTAssertEqual(compileError.map { error.message.contains($0) }, true, "\(pattern): \(error.message)")
                invalid += 1
            }
        }
        XCTAssertGreaterThan(valid, 100)
        XCTAssertGreaterThan(invalid, 100)

        // Raw bytes, including invalid UTF-8, in both the pattern and the subject.
        let bytes: [UInt8] = Array("a(])[\\*+?{}^$.|".utf8) + [0xC3, 0xA9, 0xFF, 0xC0, 0x80, 0xE2, 0x82]
        try db.withSQLiteConnection { handle in
            var statement: OpaquePointer?
            XCTAssertEqual(sqlite3_prepare_v2(handle, "SELECT doc_regexp_like(?1, ?2), doc_regexp_replace(?1, ?2, '$&', 2)", -1, &statement, nil), SQLITE_OK)
            defer { sqlite3_finalize(statement) }
            var outcomes: Set<Int32> = []
            for _ in 0..<2000 {
                for parameter: Int32 in [1, 2] {
                    let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in bytes.randomElement(using: &generator)! }
                    text.withUnsafeBufferPointer {   // empty: a NULL pointer, which binds MISSING
                        _ = $0.withMemoryRebound(to: CChar.self) {
                            sqlite3_bind_text(statement, parameter, $0.baseAddress, Int32($0.count), csqlite_transient())
                        }
                    }
                }
                let rc = sqlite3_step(statement)
                let failure = SQLFunctionError.error(resultCode: rc, message: String(cString: sqlite3_errmsg(handle)))
                XCTAssertTrue(rc == SQLITE_ROW || failure?.is(.invalidQuery) == true, "step: \(rc)")
                if let failure { XCTAssertTrue(failure.message.hasPrefix("invalid regular expression"), failure.message) }
                outcomes.insert(rc & 0xFF)
                sqlite3_reset(statement)
            }
            XCTAssertEqual(outcomes, [SQLITE_ROW, SQLITE_ERROR])
        }
    }
}
