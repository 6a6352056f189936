import XCTest
@testable import DocLite

/// A query tree made directly (no JSON, no builder) is checked as a JSON query
/// is: each kind of mistake gives the same error, at the same location.
final class QueryValidatorTests: DatabaseTestCase {
    private func source(_ alias: String, join: DataSourceItem.JoinKind? = nil, on: QueryExpression? = nil,
                        unnest: QueryExpression? = nil) -> DataSourceItem {
        DataSourceItem(collection: nil, scope: nil, alias: alias, join: join, on: on, unnest: unnest)
    }

    private func nested(_ levels: Int) -> (json: String, tree: QueryExpression) {
        var json = "true", tree = QueryExpression.literal(.bool(true))
        for _ in 0..<levels {
            json = #"["NOT", \#(json)]"#
            tree = .operation(.not, [tree])
        }
        return (json, tree)
    }

    func testATreeMadeDirectlyGetsTheJSONFormsErrors() throws {
        let yes = QueryExpression.literal(.bool(true))
        let tooDeep = nested(QueryDepth.limit + 1)
        let cases: [(json: String, tree: SelectStatement)] = [
            (#"{"FROM": [{"AS": "a"}, {"AS": "b"}]}"#, SelectStatement(from: [source("a"), source("b")])),
            (#"{"FROM": [{"AS": "a", "JOIN": "INNER", "ON": true}]}"#, SelectStatement(from: [source("a", join: .inner, on: yes)])),
            (#"{"FROM": [{"AS": "a"}, {"AS": "b", "JOIN": "CROSS", "ON": true}]}"#,
             SelectStatement(from: [source("a"), source("b", join: .cross, on: yes)])),
            (#"{"FROM": [{"AS": "a"}, {"AS": "b", "JOIN": "LEFT OUTER"}]}"#,
             SelectStatement(from: [source("a"), source("b", join: .leftOuter)])),
            (#"{"FROM": [{"AS": "a", "UNNEST": [".x"]}]}"#, SelectStatement(from: [source("a", unnest: .property([.key("x")]))])),
            (#"{"FROM": [{"COLLECTION": "s.c", "SCOPE": "s"}]}"#,
             SelectStatement(from: [DataSourceItem(collection: "s.c", scope: "s", alias: nil, join: nil, on: nil, unnest: nil)])),
            (#"{"WHERE": ["AND", true, ["NOT", true, false]]}"#,
             SelectStatement(whereClause: .operation(.and, [yes, .operation(.not, [yes, .literal(.bool(false))])]))),
            (#"{"WHERE": ["=", ["$bad-name"], 1]}"#, SelectStatement(whereClause: .operation(.equal, [.parameter("bad-name"), .literal(.int(1))]))),
            (#"{"WHERE": ["ANY", "x-y", [".a"], true]}"#,
             SelectStatement(whereClause: .quantified(.any, variable: "x-y", in: .property([.key("a")]), satisfies: yes))),
            (#"{"WHAT": [["_.", ["META()"], "nope"]]}"#,
             SelectStatement(what: [ResultItem(expression: .nested(.function("meta", []), [.key("nope")]))])),
            (#"{"WHAT": [["AS", ["LOWER()", ["?"]], "v"]]}"#,
             SelectStatement(what: [ResultItem(expression: .function("lower", [.variable([])]), alias: "v")])),
            (#"{"ORDER_BY": [["DESC", ["-", 1, 2, 3]]]}"#,
             SelectStatement(orderBy: [OrderingItem(expression: .operation(.subtract, [.literal(.int(1)), .literal(.int(2)), .literal(.int(3))]),
                                                    descending: true)])),
            (#"{"WHERE": \#(tooDeep.json)}"#, SelectStatement(whereClause: tooDeep.tree)),
            (#"{"WHAT": [["COUNT()", 1]], "HAVING": true}"#,
             SelectStatement(what: [ResultItem(expression: .function("count", [.literal(.int(1))]))], having: yes)),
        ]
        for (json, tree) in cases {
            var fromJSON: DocLiteError?
            XCTAssertThrowsError(try db.createQuery(json: json), json) { fromJSON = $0 as? DocLiteError }
            var fromTree: DocLiteError?
            XCTAssertThrowsError(try Query(database: db, statement: tree), json) { fromTree = $0 as? DocLiteError }
            XCTAssertEqual(fromTree?.message, fromJSON?.message, json)
            XCTAssertEqual(fromTree.map { $0.is(.invalidQuery) }, true, json)
        }
    }

    /// Functions and their argument counts are checked before any database is
    /// read: the validator alone rejects an unknown name or a wrong count.
    func testTheValidatorChecksFunctionsAndTheirArity() throws {
        let mistakes: [(QueryExpression, String)] = [
            (.function("no_such_function", []), "WHERE: unknown function 'no_such_function()'"),
            (.function("lower", []), "WHERE: lower() takes 1 argument, got 0"),
            (.function("round", [.literal(.int(1)), .literal(.int(2)), .literal(.int(3))]), "WHERE: round() takes 1 or 2 arguments, got 3"),
            (.function("concat", [.literal(.string("a"))]), "WHERE: concat() takes at least 2 arguments, got 1"),
            (.function("match", [.literal(.string("text"))]), "WHERE: MATCH() takes a full-text index name and a search string"),
        ]
        for (call, message) in mistakes {
            XCTAssertThrowsError(try QueryValidator.validate(SelectStatement(whereClause: call)), message) { error in
                XCTAssertEqual((error as? DocLiteError)?.message, message)
            }
        }
        XCTAssertNoThrow(try QueryValidator.validate(SelectStatement(whereClause: .function("lower", [.property([.key("a")])]))))
    }

    /// IN's right side is a list or a value that may be an array or a dict; an
    /// operator's result or an ANY never is, so such an IN never finds its value.
    func testInTakesAListOrAnArrayOnItsRight() throws {
        let never = "IN's right side is a list (\"[]\") or an expression whose value may be an array; "
        let mistakes = [
            (#"["IN", [".a"], ["-", [".b"], 1]]"#, "WHERE[2]: " + never + "the result of '-' never is one"),
            (#"["NOT IN", [".a"], ["||", [".b"], "x"]]"#, "WHERE[2]: " + never + "the result of '||' never is one"),
            (#"["NOT IN", [".a"], ["_.", ["=", 1, 1], "x"]]"#, "WHERE[2][1]: " + never + "the result of '=' never is one"),
            (#"["IN", [".a"], ["ANY", "v", [".b"], ["=", ["?v"], 1]]]"#, "WHERE[2]: " + never + "the result of ANY never is one"),
            (#"["IN", [".a"], ["_.", ["_.", ["EVERY", "v", [".b"], true], "x"], "y"]]"#, "WHERE[2][1][1]: " + never + "the result of EVERY never is one"),
            (#"["IN", [".a"], ["COLLATE", {"CASE": false}, [".b"]]]"#, "WHERE[2]: a COLLATE cannot be IN's right side"),
        ]
        for (condition, message) in mistakes {
            assertThrows(.invalidQuery, containing: message) { _ = try db.createQuery(json: #"{"WHERE": \#(condition)}"#) }
        }
        let values = [#"[".b"]"#, #"["$p"]"#, #""text""#, #"["_.", ["CASE", null, true, [".b"], null], "x"]"#, #"["LOWER()", [".b"]]"#,
                      #"["_.", ["COLLATE", {"CASE": false}, [".b"]], "x"]"#]
        for right in values {
            XCTAssertNoThrow(try db.createQuery(json: #"{"WHERE": ["IN", [".a"], \#(right)]}"#), right)
        }
    }

    /// Index expressions are checked the same way, whatever wrote them.
    func testIndexExpressionsAreValidated() throws {
        let collection = try db.defaultCollection()
        assertThrows(.invalidQuery, containing: "expressions[0]: 'NOT' takes 1 operand, got 2") {
            try collection.createIndex(withName: "bad", config: ValueIndexConfiguration(json: #"[["NOT", true, false]]"#))
        }
        assertThrows(.invalidQuery, containing: "expressions[0]: 'NOT' takes 1 operand, got 2") {
            try collection.createIndex(IndexBuilder.valueIndex(
                items: ValueIndexItem(path: "", expression: .operation(.not, [.literal(.bool(true)), .literal(.bool(false))]))), name: "bad")
        }
    }
}
