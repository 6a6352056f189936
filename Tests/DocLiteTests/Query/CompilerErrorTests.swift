import XCTest
@testable import DocLite

/// Each compiler check, with the message and location a user sees.
final class CompilerErrorTests: QueryTestCase {
    func assertInvalid(_ json: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        assertThrows(.invalidQuery, containing: message, file: file, line: line) { _ = try self.db.createQuery(json: json) }
    }

    func testMalformedText() throws {
        XCTAssertThrowsError(try db.createQuery(json: #"{"WHAT": [[".a"]}"#)) { error in
            let error = error as! DocLiteError
            XCTAssertTrue(error.is(.invalidQuery))
            XCTAssertEqual(error.position, 16)
            XCTAssertTrue(error.message.contains("not valid JSON"), error.message)
        }
        assertInvalid(#"{"WHAT": [[".a"]], "WHER": ["=", 1, 1]}"#, "WHER: unknown clause")
        assertInvalid(#"{"WHAT": {"a": 1}}"#, "WHAT: must be an array")
        assertInvalid(#"{"WHERE": [1, 2]}"#, "WHERE: an expression array must start with an operator string")
        assertInvalid(#"{"DISTINCT": "yes"}"#, "DISTINCT: must be true or false")
        assertInvalid(#"{"LIMIT": 2.5}"#, "LIMIT: must be an integer")
    }

    func testUnknownOperatorAndWrongArity() throws {
        assertInvalid(#"{"WHERE": ["AND", ["EQUALS", 1, 1], true]}"#, "WHERE[1]: unknown operator 'EQUALS'")
        assertInvalid(#"["="]"#, "WHERE: '=' takes 2 operands, got 0")
        assertInvalid(#"{"WHERE": ["BETWEEN", [".a"], 1]}"#, "WHERE: 'BETWEEN' takes 3 operands, got 2")
        assertInvalid(#"{"WHERE": ["NOT", true, false]}"#, "'NOT' takes 1 operand, got 2")
        assertInvalid(#"{"WHAT": [["SUM()", [".a"], [".b"]]]}"#, "WHAT[0]: sum() takes 1 argument, got 2")
    }

    func testUnknownFunctionAndAggregateMisuse() throws {
        assertInvalid(#"{"WHAT": [["FROBNICATE()", [".a"]]]}"#, "WHAT[0]: unknown function 'frobnicate()'")
        assertInvalid(#"{"WHERE": [">", ["COUNT()"], 1]}"#, "WHERE[1]: aggregate function 'count()' is not allowed in WHERE")
        assertInvalid(#"{"GROUP_BY": [["MAX()", [".a"]]]}"#, "aggregate function 'max()' is not allowed in GROUP_BY")
        assertInvalid(#"{"WHAT": [["SUM()", ["COUNT()"]]]}"#, "WHAT[0][1]: aggregate function 'count()' cannot be nested")
    }

    func testPropertiesQualifiedWithScopeAndCollection() throws {
        // As LiteCore: the alias, `scope.collection`, or the bare collection name qualify a property.
        let widgets = try db.createCollection(name: "widgets", scope: "store")
        try load([("w1", #"{"color": "red"}"#)], into: widgets)
        try load([("d1", #"{"name": "Ann"}"#)])
        XCTAssertEqual(try rows(#"{"WHAT": [[".store.widgets.color"], [".widgets.color"], [".STORE.Widgets._id"]], "FROM": [{"COLLECTION": "store.widgets"}]}"#),
                       [[.string("red"), .string("red"), .string("w1")]])
        XCTAssertEqual(try rows(#"{"WHAT": [["._default._default.name"]], "FROM": [{"COLLECTION": "_default._default"}]}"#),
                       [[.string("Ann")]])
        XCTAssertEqual(try rows(#"{"WHAT": [[".w.color"], [".store.widgets.color"]], "FROM": [{"COLLECTION": "store.widgets", "AS": "w"}]}"#),
                       [[.string("red"), nil]], "an explicit alias replaces the collection's names")
        try db.createCollection(name: "widgets", scope: "other")
        assertInvalid(#"{"WHAT": [[".widgets.color"]], "FROM": [{"COLLECTION": "store.widgets"}, {"COLLECTION": "other.widgets", "JOIN": "CROSS"}]}"#,
                      "'widgets' names 2 data sources (qualify with 'store.widgets.…' or 'other.widgets.…', or give each an AS alias)")
        XCTAssertEqual(try rows(#"{"WHAT": [[".store.widgets.color"]], "FROM": [{"COLLECTION": "store.widgets"}, {"COLLECTION": "other.widgets", "JOIN": "CROSS"}]}"#),
                       [], "no documents in other.widgets: the cross join is empty")
    }

    func testAliasesAndSources() throws {
        let join = #""FROM": [{"AS": "a"}, {"AS": "b", "JOIN": "INNER", "ON": ["=", [".a.x"], [".b.x"]]}]"#
        assertInvalid("{\(join), \"WHERE\": [\"=\", [\".x\"], 1]}", "WHERE[1]: property 'x' does not begin with a declared 'AS' alias")
        assertInvalid("{\(join), \"WHAT\": [[\".c.\"]]}", "WHAT[0]: unknown data source alias 'c'")
        assertInvalid(#"{"FROM": [{"AS": "a"}, {"AS": "A", "JOIN": "CROSS"}]}"#, "FROM[1]: duplicate data source alias 'A'")
        assertInvalid(#"{"FROM": [{"COLLECTION": "nope"}]}"#, "FROM[0].COLLECTION: no collection 'nope'")
        assertInvalid(#"{"FROM": [{"AS": "a"}, {"AS": "b", "JOIN": "INNER"}]}"#, "FROM[1]: a INNER JOIN needs ON")
        assertInvalid(#"{"FROM": [{"AS": "a"}, {"AS": "b", "JOIN": "CROSS", "ON": true}]}"#, "FROM[1]: a CROSS JOIN cannot have ON")
        assertInvalid(#"{"FROM": [{"AS": "a"}, {"AS": "b"}]}"#, "FROM[1]: a FROM item after the first must be a JOIN")
        assertInvalid(#"{"FROM": [{"AS": "a", "JOIN": "RIGHT", "ON": true}]}"#, "unknown join type 'RIGHT'")
        assertInvalid(#"{"WHERE": ["=", ["$bad-name"], 1]}"#, "invalid parameter name 'bad-name'")
        assertInvalid(#"{"WHAT": [[".a..b"]]}"#, "WHAT[0]: invalid property path 'a..b': empty property name")
    }

    /// A query SQLite refuses to prepare is an invalid query with SQLite's
    /// words, in DocLite's domain (these were SQLite-domain errors). (An integer
    /// ORDER BY key and an aggregate ordering an ungrouped query no longer reach
    /// SQLite: OperatorTests.testALiteralIntegerKeyIsAConstantNotAColumnNumber.)
    func testQueriesSQLiteCannotRunAreInvalidQueries() throws {
        try defaultCollection.save(document: MutableDocument(id: "a", json: #"{"n": 1}"#))
        for (json, message) in [
            (#"{"WHAT": [[".n"]], "LIMIT": [".n"]}"#, "no such column"),
            (#"{"FROM": [{"AS": "a"}, {"AS": "b", "JOIN": "LEFT OUTER", "ON": ["=", [".a.n"], [".c.n"]]}, {"AS": "c", "JOIN": "CROSS"}]}"#,
             "ON clause references tables to its right"),
        ] {
            let query = try db.createQuery(json: json)
            assertThrows(.invalidQuery, containing: "SQLite cannot run the query: " + message) { _ = try query.execute() }
            assertThrows(.invalidQuery, containing: message) { _ = try query.explain() }
        }
    }
}
