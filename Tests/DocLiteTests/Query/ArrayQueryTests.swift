import XCTest
@testable import DocLite

/// ANY / EVERY / ANY AND EVERY with variables, and UNNEST in FROM.
final class ArrayQueryTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try load([
            ("a", #"{"tags": ["x", "y"], "n": [1, 2, 3], "items": [{"id": 1, "parts": [{"p": "bolt"}, {"p": "nut"}]}, {"id": 2, "parts": []}], "dict": {"k1": "x", "k2": "z"}}"#),
            ("b", #"{"tags": ["y"], "n": [5, 6], "items": [{"id": 3, "parts": [{"p": "nut"}]}], "flags": [true, false]}"#),
            ("empty", #"{"tags": [], "n": []}"#),
            ("none", #"{"other": 1}"#),
        ])
    }

    func testAnyEveryAndAnyAndEvery() throws {
        XCTAssertEqual(try idsWhere(#"["ANY", "t", [".tags"], ["=", ["?t"], "x"]]"#), ["a"])
        XCTAssertEqual(try idsWhere(#"["ANY", "t", [".tags"], ["=", ["?t"], "y"]]"#), ["a", "b"])
        // EVERY is true for an empty or MISSING array; ANY AND EVERY needs an element.
        XCTAssertEqual(try idsWhere(#"["EVERY", "v", [".n"], [">", ["?v"], 4]]"#), ["b", "empty", "none"])
        XCTAssertEqual(try idsWhere(#"["ANY AND EVERY", "v", [".n"], [">", ["?v"], 4]]"#), ["b"])
        XCTAssertEqual(try idsWhere(#"["NOT", ["ANY", "v", [".n"], ["<", ["?v"], 2]]]"#), ["b", "empty", "none"])
        // Over a dict, the variable takes each value.
        XCTAssertEqual(try idsWhere(#"["ANY", "v", [".dict"], ["=", ["?v"], "z"]]"#), ["a"])
        // Booleans in arrays keep their type.
        XCTAssertEqual(try idsWhere(#"["ANY", "f", [".flags"], ["=", ["?f"], false]]"#), ["b"])
        XCTAssertEqual(try idsWhere(#"["ANY", "v", [".n"], ["=", ["?v"], ["$target"]]]"#, parameters: ["target": 6]), ["b"])
    }

    /// As LiteCore's `fl_each`: a scalar (JSON null too) is one element; MISSING none.
    func testAScalarIsOneElement() throws {
        try load([("scalar", #"{"tags": "x", "n": 7, "flag": true, "nul": null}"#)])
        XCTAssertEqual(try idsWhere(#"["ANY", "t", [".tags"], ["=", ["?t"], "x"]]"#), ["a", "scalar"])
        XCTAssertEqual(try idsWhere(#"["ANY", "v", [".n"], ["=", ["?v"], 7]]"#), ["scalar"])
        XCTAssertEqual(try idsWhere(#"["ANY AND EVERY", "v", [".n"], [">", ["?v"], 6]]"#), ["scalar"])
        XCTAssertEqual(try idsWhere(#"["ANY", "f", [".flag"], ["=", ["?f"], true]]"#), ["scalar"])
        XCTAssertEqual(try idsWhere(#"["ANY", "v", [".nul"], ["IS", ["?v"], null]]"#), ["scalar"])
        XCTAssertEqual(try idsWhere(#"["ANY", "v", [".missing"], ["IS", ["?v"], null]]"#), [])
        let unnested = try rows(#"{"WHAT": [[".d._id"], [".u"]], "FROM": [{"AS": "d"}, {"UNNEST": [".d.n"], "AS": "u"}], "WHERE": ["=", [".d._id"], "scalar"]}"#)
        XCTAssertEqual(unnested.map { $0[1] }, [.int(7)])
        let flag = try rows(#"{"WHAT": [[".u"]], "FROM": [{"AS": "d"}, {"UNNEST": [".d.flag"], "AS": "u"}], "WHERE": ["=", [".d._id"], "scalar"]}"#)
        XCTAssertEqual(flag.map { $0[0] }, [.bool(true)])
    }

    func testVariablePathsAndNesting() throws {
        XCTAssertEqual(try idsWhere(#"["ANY", "item", [".items"], ["=", ["?item.id"], 3]]"#), ["b"])
        XCTAssertEqual(try idsWhere(#"["ANY", "item", [".items"], ["ANY", "part", ["?item.parts"], ["=", ["?part.p"], "bolt"]]]"#), ["a"])
        // An inner condition may read the outer variable.
        XCTAssertEqual(try idsWhere(#"["ANY", "item", [".items"], ["ANY", "part", ["?item.parts"], ["AND", ["=", ["?part.p"], "nut"], [">", ["?item.id"], 2]]]]"#), ["b"])
        XCTAssertEqual(try idsWhere(#"["ANY", "i", [".items"], ["EVERY", "part", ["?i", "parts"], ["=", ["?part.p"], "bolt"]]]"#), ["a"])
    }

    func testAnyAsAResultColumnIsABoolean() throws {
        let rows = try rows(#"{"WHAT": [["._id"], ["ANY", "t", [".tags"], ["=", ["?t"], "x"]]], "ORDER_BY": [["._id"]]}"#)
        XCTAssertEqual(rows.map { $0[1] }, [.bool(true), .bool(false), .bool(false), .bool(false)])
    }

    func testAnyInAGroupedQuery() throws {
        let rows = try rows(#"{"WHAT": [["ANY", "t", [".tags"], ["=", ["?t"], "y"]], ["COUNT()", ["."]]], "GROUP_BY": [["ANY", "t", [".tags"], ["=", ["?t"], "y"]]], "ORDER_BY": [["ANY", "t", [".tags"], ["=", ["?t"], "y"]]]}"#)
        XCTAssertEqual(rows, [[.bool(false), .int(2)], [.bool(true), .int(2)]])
    }

    func testUnnest() throws {
        let tags = try rows(#"{"WHAT": [[".doc._id"], [".tag"]], "FROM": [{"AS": "doc"}, {"UNNEST": [".doc.tags"], "AS": "tag"}]}"#)
        XCTAssertEqual(tags, [[.string("a"), .string("x")], [.string("a"), .string("y")], [.string("b"), .string("y")]])
        // Two levels, element properties, and a filter on the element.
        let parts = try rows(#"{"WHAT": [[".doc._id"], [".item.id"], [".part.p"]], "FROM": [{"AS": "doc"}, {"UNNEST": [".doc.items"], "AS": "item"}, {"UNNEST": [".item.parts"], "AS": "part"}], "WHERE": ["=", [".part.p"], "nut"]}"#)
        XCTAssertEqual(parts, [[.string("a"), .int(1), .string("nut")], [.string("b"), .int(3), .string("nut")]])
        // Grouping over unnested elements.
        let counts = try rows(#"{"WHAT": [[".tag"], ["COUNT()", ["."]]], "FROM": [{"AS": "doc"}, {"UNNEST": [".doc.tags"], "AS": "tag"}], "GROUP_BY": [[".tag"]], "ORDER_BY": [[".tag"]]}"#)
        XCTAssertEqual(counts, [[.string("x"), .int(1)], [.string("y"), .int(2)]])
        // Boolean elements stay booleans.
        let flags = try rows(#"{"WHAT": [[".f"], [".f."]], "FROM": [{"AS": "doc"}, {"UNNEST": [".doc.flags"], "AS": "f"}]}"#)
        XCTAssertEqual(flags, [[.bool(true), .bool(true)], [.bool(false), .bool(false)]])
        // The whole element as a `SELECT *`-style column, titled by the alias.
        let query = try db.createQuery(json: #"{"WHAT": [[".item."]], "FROM": [{"AS": "doc"}, {"UNNEST": [".doc.items"], "AS": "item"}], "WHERE": ["=", [".item.id"], 3]}"#)
        XCTAssertEqual(query.columnNames, ["item"])
        XCTAssertEqual(try query.execute().next()?.dictionary(forKey: "item")?.int(forKey: "id"), 3)
    }

    func testErrors() throws {
        func assertInvalid(_ json: String, _ message: String, line: UInt = #line) {
            assertThrows(.invalidQuery, containing: message, line: line) { _ = try self.db.createQuery(json: json) }
        }
        assertInvalid(#"{"WHERE": ["=", ["?t"], 1]}"#, "WHERE[1]: variable 't' is used outside an ANY or EVERY that binds it")
        assertInvalid(#"{"WHERE": ["ANY", "t", [".tags"], ["=", ["?u"], 1]]}"#, "variable 'u' is used outside")
        assertInvalid(#"{"WHERE": ["ANY", "t t", [".tags"], true]}"#, "ANY takes a variable name, an array and a condition")
        assertInvalid(#"{"FROM": [{"AS": "doc"}, {"UNNEST": [".doc.tags"]}]}"#, "FROM[1]: UNNEST needs an alias ('AS')")
        assertInvalid(#"{"FROM": [{"AS": "doc"}, {"UNNEST": [".doc.tags"], "AS": "DOC"}]}"#, "duplicate data source alias 'DOC'")
        assertInvalid(#"{"WHAT": [["META()", "tag"]], "FROM": [{"AS": "doc"}, {"UNNEST": [".doc.tags"], "AS": "tag"}]}"#, "an UNNEST alias")
    }
}
