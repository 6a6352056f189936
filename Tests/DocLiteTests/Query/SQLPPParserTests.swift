import XCTest
@testable import DocLite

/// The SQL++ reader: LiteCore's precedence and literal forms, the same tree
/// as the JSON form, errors with positions, and queries that run.
final class SQLPPParserTests: QueryTestCase {
    private func what(_ sqlpp: String) throws -> QueryExpression {
        try SQLPPParser.parse("SELECT " + sqlpp).what[0].expression
    }

    private func json(_ expression: String) throws -> QueryExpression {
        try JSONQueryParser.expression(JSONValue(json: expression), at: "")
    }

    func testPrecedenceIsLiteCores() throws {
        XCTAssertEqual(try what("NOT a = b"), try json(#"["=", ["NOT", [".a"]], [".b"]]"#))   // prefix NOT takes a primary
        XCTAssertEqual(try what("a * b || c"), try json(#"["*", [".a"], ["||", [".b"], [".c"]]]"#))
        XCTAssertEqual(try what("3 + 4 * 5 - 6"), try json(#"["-", ["+", 3, ["*", 4, 5]], 6]"#))
        XCTAssertEqual(try what("a = 1 OR b = 2 AND c = 3"),
                       try json(#"["OR", ["=", [".a"], 1], ["AND", ["=", [".b"], 2], ["=", [".c"], 3]]]"#))
        XCTAssertEqual(try what("a = 'x' COLLATE NOCASE"), try json(#"["COLLATE", {"CASE": false}, ["=", [".a"], "x"]]"#))
        XCTAssertEqual(try what("a NOT BETWEEN 1 AND 2"), try json(#"["NOT", ["BETWEEN", [".a"], 1, 2]]"#))
        XCTAssertEqual(try what("a IS NOT VALUED"), try json(#"["NOT", ["IS VALUED", [".a"]]]"#))
        XCTAssertEqual(try what("a NOT IN ('x', 'y')"), try json(#"["NOT IN", [".a"], ["[]", "x", "y"]]"#))
    }

    func testLiterals() throws {
        XCTAssertEqual(try what("-5"), .literal(.int(-5)))
        XCTAssertEqual(try what("- 5"), .operation(.negate, [.literal(.int(5))]))
        XCTAssertEqual(try what("3 -5"), .operation(.subtract, [.literal(.int(3)), .literal(.int(5))]))
        XCTAssertEqual(try what("-9223372036854775808"), .literal(.int(.min)))
        XCTAssertEqual(try what("9223372036854775807"), .literal(.int(.max)))
        XCTAssertEqual(try what("17.25e2"), .literal(.double(1725)))
        XCTAssertEqual(try what(".25"), .literal(.double(0.25)))
        XCTAssertEqual(try what("'a.b'"), .property([.key("a"), .key("b")]))   // a bare string result is a path, as in JSON
        XCTAssertEqual(try what("'it''s' AS s"), .literal(.string("it's")))
        let dashes = try SQLPPParser.parse("SELECT x -- not a comment").what[0]   // SQL++ for Mobile has no comments
        XCTAssertEqual(dashes.expression, try json(#"["-", [".x"], ["-", ["NOT", [".a"]]]]"#))
        XCTAssertEqual(dashes.alias, "comment")
        XCTAssertEqual(try what("{'a': [1, TRUE, NULL, MISSING]}"), try json(#"{"a": ["[]", 1, true, null, ["MISSING"]]}"#))
        XCTAssertEqual(try what("`select`.`a.b`[2]"), .property([.key("select"), .key("a.b"), .index(2)]))
        XCTAssertEqual(try what("META(h).ID"), .nested(.function("meta", [.literal(.string("h"))]), [.key("id")]))
    }

    func testQuantifiersBindTheirVariable() throws {
        XCTAssertEqual(try what("ANY v IN tags SATISFIES v.name = 'x' END"),
                       try json(#"["ANY", "v", [".tags"], ["=", ["?v.name"], "x"]]"#))
        XCTAssertEqual(try what("SOME AND EVERY v IN tags SATISFIES v > vx END"),
                       try json(#"["ANY AND EVERY", "v", [".tags"], [">", ["?v"], [".vx"]]]"#))
        XCTAssertEqual(try what("some"), .property([.key("some")]))   // not reserved
    }

    func testSyntaxErrorsGiveTheirPosition() {
        for (text, position, message) in [
            ("SELECT 3+4) FROM _", 10, "unexpected ')'"),
            ("SELECT squee()", 7, "unknown function 'squee()'"),
            ("SELECT a FROM _ WHERE unnest = 1", 22, "expected an expression, found 'unnest'"),
            ("SELECT 'open", 7, "unterminated string"),
            ("SELECT a COLLATE UNICODE NOCASE", 25, "parentheses"),
            ("SELECT a FROM _ WHERE a IN", 26, "expected an expression, found the end of the text"),
            ("SELECT 1x", 7, "malformed number"),
            ("SELECT a « b", 9, "unexpected byte 0xc2"),
            ("SELECT a <<  b", 9, "bitwise operator '<<'"),
        ] {
            XCTAssertThrowsError(try SQLPPParser.parse(text), text) { error in
                let error = error as? DocLiteError
                XCTAssertEqual(error?.position, position, text)
                XCTAssertTrue(error?.message.contains(message) == true, "\(text): \(error?.message ?? "")")
                XCTAssertTrue(error?.message.hasPrefix("SQL++ syntax error near character \(position + 1): ") == true, text)
            }
        }
    }

    /// Found by the sqlpp fuzz target: `` `` `` read as a property path naming nothing, which
    /// failed only when the query ran (and wrote itself as JSON as the whole document).
    func testAnEmptyIdentifierIsASyntaxError() {
        XCTAssertThrowsError(try SQLPPParser.parse("SELECT * FROM _ WHERE `` = i")) { error in
            XCTAssertEqual((error as? DocLiteError)?.position, 22)
            XCTAssertTrue((error as? DocLiteError)?.message.contains("an identifier cannot be empty") == true, "\(error)")
        }
    }

    /// Found by the query fuzz target: a JSON query without WHAT over several sources
    /// wrote its default columns unqualified, as SQL++ that does not compile.
    func testDefaultColumnsOfSeveralSourcesAreWrittenQualified() throws {
        try defaultCollection.save(document: MutableDocument(id: "a", json: #"{"contacts":[{"n":1},{"n":2}]}"#))
        let query = try db.createQuery(json: #"{"FROM":[{"COLLECTION":"_default"},{"AS":"c","UNNEST":["._default.contacts"]}]}"#)
        XCTAssertEqual(query.sqlpp, "SELECT _default._id AS _id, _default._sequence AS _sequence FROM _default UNNEST _default.contacts AS c")
        let again = try db.createQuery(query.sqlpp)
        XCTAssertEqual(try again.execute().allResults().map { $0.toJSON() }, try query.execute().allResults().map { $0.toJSON() })
        XCTAssertEqual(try query.execute().allResults().count, 2)
    }

    /// Found by the sqlpp fuzz target: a string literal selected without AS was
    /// written in the query's JSON as a bare string, which the JSON form (as
    /// LiteCore's) reads as a property path; likewise in GROUP BY and ORDER BY.
    func testStringLiteralsWhereJSONReadsPropertiesKeepTheirMeaning() throws {
        try defaultCollection.save(document: MutableDocument(id: "a", json: #"{"text":"property","n":1}"#))
        let query = try db.createQuery("SELECT ('text'), n, ('n.b') FROM _ GROUP BY ('text'), n ORDER BY ('n') DESC, ('text')")
        let again = try db.createQuery(json: query.json)
        let rows = try again.execute().allResults()
        XCTAssertEqual(rows.map { $0.toJSON() }, [#"{"$1":"text","$2":"n.b","n":1}"#])
        XCTAssertEqual(rows.map { $0.toJSON() }, try query.execute().allResults().map { $0.toJSON() })
    }

    /// A lone string there is a property path; one that is not a path is an error
    /// (it was taken as text, whose JSON form then did not compile).
    func testALoneStringThatIsNoPathIsAnError() throws {
        try defaultCollection.save(document: MutableDocument(id: "a", json: #"{"text":"property"}"#))
        XCTAssertEqual(try db.createQuery("SELECT 'text' FROM _").execute().allResults().map { $0.toJSON() }, [#"{"text":"property"}"#])
        for sqlpp in ["SELECT 'a[' FROM _", "SELECT n FROM _ GROUP BY 'a['", "SELECT n FROM _ ORDER BY 'a[' DESC"] {
            XCTAssertThrowsError(try db.createQuery(sqlpp), sqlpp) { error in
                XCTAssertTrue("\(error)".contains("a lone string here is a property path"), "\(error)")
            }
        }
    }

    /// Found by the predicate fuzz target: a chain of AND or OR was nested in
    /// pairs, a level deeper per link, so that a query's own SQL++ (of a flat AND)
    /// read back deeper than a query may nest, and 20 ORs could not run at all.
    func testAChainOfOrIsOneOperation() throws {
        let terms = (0..<200).map { "n = \($0)" }
        let statement = try SQLPPParser.parse("SELECT n FROM _ WHERE " + terms.joined(separator: " OR "))
        guard case .operation(.or, let operands)? = statement.whereClause, case .operation(.or, let first) = operands[0] else {
            return XCTFail("\(String(describing: statement.whereClause))")
        }
        XCTAssertEqual([first.count, operands.count], [127, 74])   // 127 at most in one operation
        try defaultCollection.save(document: MutableDocument(id: "a", json: #"{"n":199}"#))
        XCTAssertEqual(try db.createQuery("SELECT n FROM _ WHERE " + terms.joined(separator: " OR ")).execute().allResults().count, 1)
        XCTAssertEqual(try SQLPPParser.parse("SELECT a AND b AND c FROM _").what.first?.expression,
                       .operation(.and, [.property([.key("a")]), .property([.key("b")]), .property([.key("c")])]))
    }

    /// Found by the query fuzz target: a property path that starts with an index
    /// was written `[1]`, which SQL++ reads as an array.
    func testAPathFromAnIndexIsWrittenAsMissing() throws {
        try defaultCollection.save(document: MutableDocument(id: "a", json: #"{"n":1}"#))
        let query = try db.createQuery(json: #"{"WHAT": [[".[1]"], [".n"]]}"#)
        XCTAssertEqual(query.sqlpp, "SELECT MISSING, n FROM _ AS _doc")
        XCTAssertEqual(try db.createQuery(query.sqlpp).execute().allResults().map { $0.toJSON() }, [#"{"n":1}"#])
        XCTAssertEqual(try query.execute().allResults().map { $0.toJSON() }, [#"{"n":1}"#])
    }

    /// A path into a parenthesized value or a list on IN's right side (DocLite's form,
    /// as the writer writes it) reads back as the same tree; `(e)` alone is a list.
    func testAPathIntoAValueOnTheRightOfInRoundTrips() throws {
        XCTAssertEqual(try what("a IN (b)"), try json(#"["IN", [".a"], ["[]", [".b"]]]"#))
        XCTAssertEqual(try what("a IN (b).c"), try json(#"["IN", [".a"], ["_.", [".b"], "c"]]"#))
        XCTAssertEqual(try what("a IN [b, c][1]"), try json(#"["IN", [".a"], ["_.", ["[]", [".b"], [".c"]], "[1]"]]"#))
        XCTAssertThrowsError(try what("a IN (b, c).d"))
        try defaultCollection.save(document: MutableDocument(id: "a", json: #"{"n": 3, "lists": [[1], [2, 3]]}"#))
        for right in [#"["_.", ["CASE", null, true, [".lists"], null], "[1]"]"#, #"["_.", ["[]", ["[]", 1], ["[]", 3]], "[1]"]"#] {
            let query = try db.createQuery(json: #"{"FROM": [{"AS": "_doc", "COLLECTION": "_"}], "WHAT": [[".n"]], "WHERE": ["IN", [".n"], \#(right)]}"#)
            let again = try db.createQuery(query.sqlpp)
            XCTAssertEqual(again.json, query.json, query.sqlpp)
            XCTAssertEqual(try again.execute().allResults().map { $0.toJSON() }, [#"{"n":3}"#], query.sqlpp)
        }
    }

    func testDeepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        XCTAssertThrowsError(try SQLPPParser.parse("SELECT " + deep + " FROM _"))
        XCTAssertThrowsError(try db.createQuery("SELECT " + String(repeating: "NOT ", count: 10_000) + "a FROM _"))
    }

    func testAQueryRunsAndNeedsAFromClause() throws {
        try load([("h1", #"{"type": "hotel", "name": "Ritz", "city": "Paris"}"#),
                  ("h2", #"{"type": "hotel", "name": "Savoy", "city": "London"}"#),
                  ("a1", #"{"type": "airport", "name": "CDG", "city": "Paris"}"#)])
        let query = try db.createQuery("SELECT META().id, name FROM _ WHERE type = $type AND city IN ['Paris', 'London'] ORDER BY name DESC")
        query.parameters = Parameters().setString("hotel", forName: "type")
        let results = try query.execute().allResults()
        XCTAssertEqual(results.map { $0.string(at: 0) }, ["h2", "h1"])
        XCTAssertEqual(query.columnNames, ["id", "name"])
        XCTAssertThrowsError(try db.createQuery("SELECT name WHERE type = 'hotel'")) { error in
            XCTAssertTrue((error as? DocLiteError)?.message.contains("needs a FROM clause") == true, "\(error)")
        }
    }
}
