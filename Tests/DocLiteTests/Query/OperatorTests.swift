import XCTest
@testable import DocLite

/// Each operator family with MISSING and JSON null: MISSING propagates as SQL NULL, JSON null is a value.
final class OperatorTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try load([
            ("int", #"{"v": 1, "name": "a"}"#),
            ("null", #"{"v": null, "name": "b"}"#),
            ("missing", #"{"name": "c"}"#),
            ("string", #"{"v": "x", "name": "d"}"#),
            ("double", #"{"v": 2.5, "name": "e"}"#),
            ("true", #"{"v": true, "name": "f"}"#),
            ("array", #"{"v": [1, 2], "name": "g"}"#),
        ])
    }

    func testComparisonsSkipMissingAndCompareNullAsAValue() throws {
        XCTAssertEqual(try idsWhere(#"["=", [".v"], 1]"#), ["int", "true"])   // true = 1, as in SQLite
        XCTAssertEqual(try idsWhere(#"["=", [".v"], null]"#), ["null"])
        XCTAssertEqual(try idsWhere(#"["!=", [".v"], 1]"#), ["null", "string", "double", "array"])
        XCTAssertEqual(try idsWhere(#"["<", [".v"], 2]"#), ["int", "true"])
        XCTAssertEqual(try idsWhere(#"[">=", [".v"], "a"]"#), ["null", "string", "array"])   // text < blobs
        XCTAssertEqual(try idsWhere(#"[">", [".v"], 2]"#), ["null", "string", "double", "array"])
        XCTAssertEqual(try idsWhere(#"["=", [".v"], "1"]"#), [])   // no string/number conversion
    }

    func testFusedComparisonsAgreeWithSQLiteAcrossTypes() throws {
        // A literal bound compiles to the fused doc_range; a parameter to the plain SQL operator.
        for literal in ["0", "1", "2.5", "-1.5", "\"a\"", "\"x\"", "\"y\"", "9223372036854775807"] {
            for op in ["<", "<=", ">", ">="] {
                let fused = try idsWhere("[\"\(op)\", [\".v\"], \(literal)]")
                let plain = try idsWhere("[\"\(op)\", [\".v\"], [\"$p\"]]", parameters: ["p": try JSONValue(json: literal).anyValue(in: nil)])
                XCTAssertEqual(fused, plain, "\(op) \(literal)")
                XCTAssertEqual(try idsWhere("[\"\(op)\", \(literal), [\".v\"]]"),
                               try idsWhere("[\"\(op)\", [\"$p\"], [\".v\"]]", parameters: ["p": try JSONValue(json: literal).anyValue(in: nil)]),
                               "\(literal) \(op) v")
            }
        }
        XCTAssertEqual(try idsWhere(#"["AND", [">", [".v"], 0], ["<=", [".v"], 2.5], ["=", [".name"], "e"]]"#), ["double"])
        XCTAssertEqual(try idsWhere(#"["NOT", ["AND", [">", [".v"], 0], ["<", [".v"], 2]]]"#), ["null", "string", "double", "array"])   // MISSING stays MISSING
        XCTAssertTrue(try db.createQuery(json: #"{"WHERE": ["AND", [">", [".v"], 0], ["<", [".v"], 2]]}"#).explain()
            .contains("doc_range(s0.body, 'v', 0, 0, 2, 0)"))
    }

    func testBetweenWithALiteralSubjectTestsBothProperties() throws {
        try load([("span", #"{"start": 1, "end": 10}"#)])
        XCTAssertEqual(try idsWhere(#"["BETWEEN", 5, [".start"], [".end"]]"#), ["span"])
        XCTAssertEqual(try idsWhere(#"["BETWEEN", 11, [".start"], [".end"]]"#), [])
    }

    func testMetaIDAloneDoesNotIncludeTombstones() throws {
        try defaultCollection.delete(document: try XCTUnwrap(defaultCollection.document(id: "int")))
        XCTAssertEqual(try ids(#"{"WHAT": [["_.", ["META()"], "id"]], "WHERE": ["=", [".name"], "a"]}"#), [])
        XCTAssertEqual(try ids(#"{"WHAT": [["_.", ["META()"], "id"]], "WHERE": ["_.", ["META()"], "deleted"]}"#), ["int"])
    }

    func testNSNumberParametersKeepTheirType() throws {
        // JSONSerialization's 0 and 1 are NSNumbers that `as Bool` would take; they bind as integers.
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(#"{"one": 1, "zero": 0, "yes": true, "list": [0, 1, 2.5]}"#.utf8)) as? [String: Any])
        let row = try rows(#"{"WHAT": [["$one"], ["$zero"], ["$yes"], ["$list"]], "LIMIT": 1}"#, parameters: object.mapValues { $0 })
        XCTAssertEqual(row.first, [.int(1), .int(0), .bool(true), .array([.int(0), .int(1), .double(2.5)])])
        XCTAssertEqual(try idsWhere(#"["=", [".v"], ["$p"]]"#, parameters: ["p": [NSNumber(value: 1), NSNumber(value: 2)]]), ["array"])
    }

    func testMetaKeysIgnoreCaseAndMayStartWithADot() throws {
        // As LiteCore: `["_.", ["META()"], ".id"]` (what its SQL++ translator writes), any case, shortcuts too.
        XCTAssertEqual(try ids(#"{"WHAT": [["_.", ["META()"], ".id"]], "WHERE": ["=", [".name"], "a"]}"#), ["int"])
        XCTAssertEqual(try ids(#"{"WHAT": [["_.", ["META()"], "ID"]], "WHERE": ["=", [".name"], "a"]}"#), ["int"])
        XCTAssertEqual(try ids(#"{"WHAT": [["._ID"]], "WHERE": ["=", ["._Id"], "int"]}"#), ["int"])
        XCTAssertEqual(try db.createQuery(json: #"{"WHAT": [["_.", ["META()"], "revisionid"]]}"#).json,
                       #"{"WHAT":[["_.",["META()"],"revisionID"]]}"#, "written with the canonical name")
        assertThrows(.invalidQuery, containing: "'bogus' is not a valid Meta key (id, sequence, deleted, expiration, revisionID, rowid)") {
            _ = try self.ids(#"{"WHAT": [["_.", ["META()"], "bogus"]]}"#)
        }
        assertThrows(.invalidQuery, containing: "'id.x' is not a valid Meta key") {
            _ = try self.ids(#"{"WHAT": [["_.", ["META()"], "id.x"]]}"#)
        }
    }

    func testAFailingFirstStepLeavesTheStatementCacheSound() throws {
        let query = try db.createQuery(json: #"{"WHAT": [["._id"]], "ORDER_BY": [["._sequence"]], "LIMIT": ["$n"]}"#)
        query.parameters = Parameters().setString("abc", forName: "n")
        XCTAssertThrowsError(try query.execute())
        query.parameters = Parameters().setInt(2, forName: "n")
        let first = try query.execute(), second = try query.execute()
        XCTAssertEqual(first.next()?.string(at: 0), "int")
        XCTAssertEqual(second.allResults().map { $0.string(at: 0) }, ["int", "null"])
        XCTAssertEqual(first.next()?.string(at: 0), "null")
    }

    func testIsAndIsNotTellMissingFromNull() throws {
        XCTAssertEqual(try idsWhere(#"["IS", [".v"], null]"#), ["null"])
        XCTAssertEqual(try idsWhere(#"["IS NOT", [".v"], null]"#), ["int", "string", "double", "true", "array"])
        XCTAssertEqual(try idsWhere(#"["IS", [".v"], ["MISSING"]]"#), ["missing"])
        XCTAssertEqual(try idsWhere(#"["IS NOT", [".v"], ["MISSING"]]"#), ["int", "null", "string", "double", "true", "array"])
        XCTAssertEqual(try idsWhere(#"["IS", [".v"], 1]"#), ["int", "true"])
        XCTAssertEqual(try idsWhere(#"["IS VALUED", [".v"]]"#), ["int", "string", "double", "true", "array"])
        XCTAssertEqual(try idsWhere(#"["NOT", ["IS VALUED", [".v"]]]"#), ["null", "missing"])
        XCTAssertEqual(try idsWhere(#"["EXISTS", [".v"]]"#), ["int", "null", "string", "double", "true", "array"])
    }

    func testBetweenAndIn() throws {
        XCTAssertEqual(try idsWhere(#"["BETWEEN", [".v"], 1, 2.5]"#), ["int", "double", "true"])
        XCTAssertEqual(try idsWhere(#"["IN", [".v"], ["[]", "x", 2.5, null]]"#), ["null", "string", "double"])
        XCTAssertEqual(try idsWhere(#"["NOT IN", [".v"], ["[]", "x", 2.5]]"#), ["int", "null", "true", "array"])
        // An array-valued right side: membership by value; MISSING on either side is MISSING.
        XCTAssertEqual(try idsWhere(#"["IN", 2, [".v"]]"#), ["array"])
        XCTAssertEqual(try idsWhere(#"["IN", [".name"], ["$names"]]"#, parameters: ["names": ["a", "c", "zz"]]), ["int", "missing"])
        XCTAssertEqual(try idsWhere(#"["NOT", ["IN", [".nothing"], ["$names"]]]"#, parameters: ["names": ["a"]]), [])
    }

    func testLikeIsCaseSensitiveWithBackslashEscapeAndNeverMatchesBlobs() throws {
        try load([("pct", #"{"v": "50%", "name": "h"}"#), ("upper", #"{"v": "X", "name": "i"}"#)])
        XCTAssertEqual(try idsWhere(#"["LIKE", [".v"], "x"]"#), ["string"])
        XCTAssertEqual(try idsWhere(#"["LIKE", [".v"], "%\\%"]"#), ["pct"])
        // Numbers as SQLite prints them, a boolean as 0 or 1 (as LiteCore hands it to SQLite); null and arrays never.
        XCTAssertEqual(try idsWhere(#"["LIKE", [".v"], "%"]"#), ["int", "string", "double", "true", "pct", "upper"])
        XCTAssertEqual(try idsWhere(#"["LIKE", [".v"], "1"]"#), ["int", "true"])
        XCTAssertEqual(try idsWhere(#"["LIKE", [".v"], "x\\"]"#), [], "a pattern ending in a lone escape matches nothing, as in SQLite")
        XCTAssertEqual(try idsWhere(#"["LIKE", ["||", [".name"], [".v"]], "d_"]"#), ["string"])   // the general (non-fused) form
        XCTAssertEqual(try idsWhere(#"["NOT", ["LIKE", [".v"], "x"]]"#), ["int", "null", "double", "true", "array", "pct", "upper"])
    }

    func testArithmetic() throws {
        try loadProbe()
        XCTAssertEqual(try value(of: #"["/", 5, 15]"#), .int(0))            // integer division
        XCTAssertEqual(try value(of: #"["/", 5.0, 15.0]"#), .double(5.0 / 15.0))
        XCTAssertEqual(try value(of: #"["/", [".n"], 0]"#), nil)             // division by zero is MISSING
        XCTAssertEqual(try value(of: #"["%", 7, 3]"#), .int(1))
        XCTAssertEqual(try value(of: #"["+", [".n"], 1, 2]"#), .int(4))
        XCTAssertEqual(try value(of: #"["*", [".d"], 2]"#), .double(5.0))    // a double stays a double
        XCTAssertEqual(try value(of: #"["-", [".n"]]"#), .int(-1))
        XCTAssertEqual(try value(of: #"["+", [".missing"], 1]"#), nil)
    }

    func testLogicIsThreeValued() throws {
        XCTAssertEqual(try idsWhere(#"["AND", ["=", [".name"], "c"], ["NOT", ["=", [".v"], 1]]]"#), [])   // NOT MISSING is MISSING
        XCTAssertEqual(try idsWhere(#"["OR", ["=", [".name"], "c"], ["=", [".v"], 1]]"#), ["int", "missing", "true"])
        XCTAssertEqual(try idsWhere(#"["AND", ["=", [".name"], "a"], ["=", [".v"], 1], [">", [".v"], 0]]"#), ["int"])
    }

    func testResultTypesAreKept() throws {
        try loadProbe()
        XCTAssertEqual(try value(of: #"[".t"]"#), .bool(true))
        XCTAssertEqual(try value(of: #"[".f"]"#), .bool(false))
        XCTAssertEqual(try value(of: #"[".n"]"#), .int(1))
        XCTAssertEqual(try value(of: #"[".d"]"#), .double(2.5))
        XCTAssertEqual(try value(of: #"[".nul"]"#), .null)
        XCTAssertEqual(try value(of: #"[".nothing"]"#), nil)
        XCTAssertEqual(try value(of: #"[".a"]"#), .array([.int(1), .string("x"), .null]))
        XCTAssertEqual(try value(of: #"[".o"]"#), .dictionary(["k": .string("v")]))
        XCTAssertEqual(try value(of: #"["=", [".n"], 1]"#), .bool(true))   // comparisons are booleans
        XCTAssertEqual(try value(of: "true"), .bool(true))
        XCTAssertEqual(try value(of: "null"), .null)
        XCTAssertEqual(try value(of: #"["MISSING"]"#), nil)
        XCTAssertEqual(try value(of: "5.0"), .double(5))
        XCTAssertEqual(try value(of: "9223372036854775807"), .int(.max))
        XCTAssertEqual(try value(of: "-9223372036854775808"), .int(.min))
        XCTAssertEqual(try value(of: #"[".a[-1]"]"#), .null)
        XCTAssertEqual(try value(of: #"[".o.k"]"#), .string("v"))
        XCTAssertEqual(try value(of: #"["_.", [".o"], "k"]"#), .string("v"))
    }

    func testUnsignedIntegersRoundTripExactly() throws {
        try load([("big", #"{"u": 18446744073709551615}"#)])
        XCTAssertEqual(try rows(#"{"WHAT": [[".u"]], "WHERE": ["=", ["._id"], "big"]}"#).first?.first, .unsigned(.max))
    }

    func testCaseExpressions() throws {
        try loadProbe()
        XCTAssertEqual(try value(of: #"["CASE", [".n"], 1, "one", 2, "two", "many"]"#), .string("one"))
        XCTAssertEqual(try value(of: #"["CASE", null, ["=", [".n"], 2], "two", [".t"]]"#), .bool(true))
        XCTAssertEqual(try value(of: #"["CASE", [".n"], 2, "two"]"#), .null)   // the default ELSE is null
    }

    func testConcatenation() throws {
        try loadProbe()
        XCTAssertEqual(try value(of: #"["||", [".s"], [".n"], [".nul"], [".t"], [".d"]]"#), .string("abc1nulltrue2.5"))
        XCTAssertEqual(try value(of: #"["||", [".s"], [".a"], [".o"]]"#), .string(#"abc[1,"x",null]{"k":"v"}"#))
        XCTAssertEqual(try value(of: #"["||", [".s"], [".nothing"]]"#), nil)
    }

    func testLiteralsDropMissing() throws {
        try loadProbe()
        XCTAssertEqual(try value(of: #"{"a": [".n"], "m": [".nothing"], "z": null, "b": ["=", 1, 1]}"#),
                       .dictionary(["a": .int(1), "z": .null, "b": .bool(true)]))
        XCTAssertEqual(try value(of: #"["[]", [".s"], [".nothing"], [".t"], [".o"]]"#),
                       .array([.string("abc"), .bool(true), .dictionary(["k": .string("v")])]))
    }

    func testAggregatesSkipMissingAndCountNull() throws {
        let row = try rows(#"{"WHAT": [["COUNT()"], ["COUNT()", [".v"]], ["SUM()", [".v"]], ["MIN()", [".v"]], ["MAX()", [".name"]], ["AVG()", [".v"]]]}"#)
        XCTAssertEqual(row.count, 1)
        XCTAssertEqual(row[0][0], .int(7))
        XCTAssertEqual(row[0][1], .int(6))   // null is counted, MISSING is not
        XCTAssertEqual(row[0][5].flatMap { if case .double(let d) = $0 { d } else { nil } } != nil, true)
        XCTAssertEqual(row[0][4], .string("g"))
        let agg = try rows(#"{"WHAT": [["ARRAY_AGG()", [".v"]]], "WHERE": ["IN", ["._id"], ["[]", "int", "null", "missing", "true"]]}"#)
        XCTAssertEqual(agg.first?.first, .array([.int(1), .null, .bool(true)]))
    }

    func testGroupByHavingOrderByAndDistinct() throws {
        try load([("int2", #"{"v": 1, "name": "a"}"#)])
        let grouped = try rows(#"{"WHAT": [[".name"], ["COUNT()"]], "GROUP_BY": [[".name"]], "HAVING": [">", ["COUNT()"], 1]}"#)
        XCTAssertEqual(grouped.count, 1)
        XCTAssertEqual(grouped.first, [.string("a"), .int(2)])
        XCTAssertEqual(try ids(#"{"WHAT": [[".name"]], "DISTINCT": true, "WHERE": ["=", [".v"], 1], "ORDER_BY": [["DESC", [".name"]]]}"#), ["f", "a"])
        // ORDER BY puts MISSING first ascending.
        XCTAssertEqual(try ids(#"{"WHAT": [["._id"]], "ORDER_BY": [[".v"], ["._id"]], "LIMIT": 2}"#), ["missing", "int"])
    }

    func testALiteralIntegerKeyIsAConstantNotAColumnNumber() throws {
        let count = Int64(defaultCollection.count)
        XCTAssertEqual(try rows(#"{"WHAT": [[".v"]], "ORDER_BY": [7]}"#).count, Int(count))   // SQLite reads ORDER BY 7 as column 7
        XCTAssertEqual(try rows(#"{"WHAT": [["COUNT()", ["."]]], "GROUP_BY": [1]}"#), [[.int(count)]])
        XCTAssertThrowsError(try rows(#"{"WHAT": [[".v"]], "ORDER_BY": [["AVG()", [".v"]]]}"#)) { error in
            XCTAssertTrue("\(error)".contains("ORDER_BY[0]"), "\(error)")   // not SQLite's "misuse of aggregate"
        }
    }

    func testGroupedQueriesKeepValueTypes() throws {
        // A grouped query reads its values through an inner query; types survive it.
        try load([("g1", #"{"g": "x", "flag": true, "o": {"k": 1}}"#), ("g2", #"{"g": "x", "flag": false}"#), ("g3", #"{"g": "y", "flag": true}"#)])
        let sql = try db.createQuery(json: #"{"WHAT": [[".g"], [".flag"]], "WHERE": ["IS VALUED", [".g"]], "GROUP_BY": [[".g"]]}"#).explain()
        XCTAssertTrue(sql.hasPrefix("SELECT p0, p1 FROM (SELECT doc_result(s0.body, 'g') AS p0, doc_result(s0.body, 'flag') AS p1 FROM kv_1 AS s0 WHERE coalesce(doc_value(s0.body, 'g') != X'', 0) LIMIT -1) GROUP BY p0"), sql)
        let flags = try rows(#"{"WHAT": [[".g"], ["ARRAY_AGG()", [".flag"]], ["MAX()", [".o.k"]], ["AS", ["COUNT()", [".o"]], "n"], {"first": ["MIN()", ["._id"]]}], "WHERE": ["IS VALUED", [".g"]], "GROUP_BY": [[".g"]], "HAVING": [">", ["COUNT()"], 0], "ORDER_BY": [["DESC", [".g"]]]}"#)
        XCTAssertEqual(flags.count, 2)
        XCTAssertEqual(flags[0], [.string("y"), .array([.bool(true)]), nil, .int(0), .dictionary(["first": .string("g3")])])
        XCTAssertEqual(flags[1], [.string("x"), .array([.bool(true), .bool(false)]), .int(1), .int(1), .dictionary(["first": .string("g1")])])
    }

    func testLimitAndOffset() throws {
        let all = #""WHAT": [["._id"]], "ORDER_BY": [["._sequence"]]"#
        XCTAssertEqual(try ids("{\(all), \"LIMIT\": 2, \"OFFSET\": 1}"), ["null", "missing"])
        XCTAssertEqual(try ids("{\(all), \"LIMIT\": -1}"), [])
        XCTAssertEqual(try ids("{\(all), \"OFFSET\": 5}"), ["true", "array"])
        XCTAssertEqual(try ids("{\(all), \"LIMIT\": [\"$n\"]}", parameters: ["n": -3]), [])
        XCTAssertEqual(try ids("{\(all), \"LIMIT\": [\"$n\"]}", parameters: ["n": 1]), ["int"])
        XCTAssertEqual(try ids("{\(all), \"LIMIT\": [\"$n\"], \"OFFSET\": [\"$m\"]}", parameters: ["n": 1.0, "m": 1]), ["null"])
        // A LIMIT or OFFSET that is not a count is an error naming its clause (SQLite's was "datatype mismatch").
        XCTAssertEqual(try ids("{\(all), \"LIMIT\": [\"$n\"], \"OFFSET\": [\"$m\"]}", parameters: ["n": "1", "m": -1e300]), ["int"])
        XCTAssertEqual(try ids("{\(all), \"LIMIT\": [\"$n\"]}", parameters: ["n": 1e300]).count, 7)
        assertThrows(.invalidQueryParam, containing: "LIMIT is MISSING or null (is its query parameter unset?)") {
            _ = try ids("{\(all), \"LIMIT\": [\"$n\"]}")
        }
        assertThrows(.invalidQueryParam, containing: "LIMIT is MISSING or null") {
            _ = try ids("{\(all), \"LIMIT\": [\"$n\"]}", parameters: ["n": nil])
        }
        assertThrows(.invalidQueryParam, containing: "OFFSET must be an integer") {
            _ = try ids("{\(all), \"LIMIT\": 2, \"OFFSET\": [\"$m\"]}", parameters: ["m": 2.5])
        }
        assertThrows(.invalidQueryParam, containing: "LIMIT must be an integer") {
            _ = try ids("{\(all), \"LIMIT\": [\"$n\"]}", parameters: ["n": "three"])
        }
    }

    func testParameters() throws {
        XCTAssertEqual(try idsWhere(#"["=", [".v"], ["$v"]]"#, parameters: ["v": "x"]), ["string"])
        XCTAssertEqual(try idsWhere(#"["=", [".v"], ["$v"]]"#, parameters: ["v": [1, 2]]), ["array"])
        XCTAssertEqual(try idsWhere(#"["=", [".v"], ["$v"]]"#), [])                 // unbound is MISSING
        XCTAssertEqual(try idsWhere(#"["IS", ["$v"], ["MISSING"]]"#, parameters: ["v": nil]), ["int", "null", "missing", "string", "double", "true", "array"])
        assertThrows(.invalidQueryParam, containing: "unknown query parameter 'w'") {
            _ = try idsWhere(#"["=", [".v"], ["$v"]]"#, parameters: ["w": 1])
        }
    }

    func testDeletedDocumentsOnlyWhereDeletedIsRead() throws {
        try defaultCollection.delete(document: try XCTUnwrap(defaultCollection.document(id: "int")))
        XCTAssertEqual(try idsWhere(#"["=", [".name"], "a"]"#), [])
        XCTAssertEqual(try idsWhere(#"["._deleted"]"#), ["int"])
        let meta = try rows(#"{"WHAT": [["META()"]], "WHERE": ["=", ["._id"], "int"]}"#)
        guard case .dictionary(let members)?? = meta.first?.first else { return XCTFail("no META() row") }
        XCTAssertEqual(members["deleted"], .int(1))
        XCTAssertEqual(members["id"], .string("int"))
        XCTAssertEqual(members["sequence"].map { if case .int = $0 { true } else { false } }, true)
        XCTAssertNil(members["expiration"])
        // Rows stay in sequence order across live documents and tombstones.
        XCTAssertEqual(try ids(#"{"WHAT": [["._id"], ["._deleted"]]}"#), ["null", "missing", "string", "double", "true", "array", "int"])
    }

    /// A deleted revision that carries properties keeps them, as LiteCore's
    /// (QueryTest.cc "Query deleted docs"); an ordinary deletion has none.
    func testADeletedRevisionKeepsItsProperties() throws {
        try load((1...20).map { (String(format: "rec-%03d", $0), #"{"num": \#($0)}"#) })
        for number in 11...20 {
            let document = try XCTUnwrap(defaultCollection.document(id: String(format: "rec-%03d", number)))
            _ = try defaultCollection.delete(document: document, concurrencyControl: .lastWriteWins, keepingProperties: number != 20)
        }
        XCTAssertEqual(try idsWhere(#"["AND", ["<=", [".num"], 15], ["._deleted"]]"#), ["rec-011", "rec-012", "rec-013", "rec-014", "rec-015"])
        XCTAssertEqual(try idsWhere(#"["<=", [".num"], 15]"#).count, 10, "without _deleted, only live documents")
        XCTAssertEqual(try idsWhere(#"["AND", ["._deleted"], ["IS", [".num"], ["MISSING"]]]"#), ["rec-020"])
        XCTAssertNil(try defaultCollection.document(id: "rec-011"), "a deleted document is not read")
        // Saving over the tombstone makes it live again with the new body only.
        try defaultCollection.save(document: MutableDocument(id: "rec-011", json: #"{"other": 1}"#))
        XCTAssertEqual(try idsWhere(#"["AND", ["<=", [".num"], 15], ["._deleted"]]"#), ["rec-012", "rec-013", "rec-014", "rec-015"])
    }
}
