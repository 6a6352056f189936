import Foundation
import XCTest
@testable import DocLite

/// The 1.x query builder (`PredicateQueryBuilder`): every operator and modifier
/// of the predicate syntax against the query tree it must equal, the key-path
/// collection operators and reduce functions, and the wiki page's examples with
/// the results it describes.
final class PredicateQueryTests: QueryTestCase {
    private func predicate(_ text: String) throws -> QueryExpression {
        var variables = PredicateVariables()
        return try PredicateParser.predicate(text, variables: &variables)
    }

    private func expression(_ text: String) throws -> QueryExpression {
        var variables = PredicateVariables()
        return try PredicateParser.expression(text, variables: &variables)
    }

    private func json(_ expression: String) throws -> QueryExpression {
        try JSONQueryParser.expression(JSONValue(json: expression), at: "")
    }

    func testComparisonsEqualTheirJSONForms() throws {
        let table: [(String, String)] = [
            ("a == 1", #"["=", [".a"], 1]"#),
            ("a = 'x'", #"["=", [".a"], "x"]"#),
            ("a != 1", #"["!=", [".a"], 1]"#),
            ("a <> 1", #"["!=", [".a"], 1]"#),
            ("a < 1", #"["<", [".a"], 1]"#),
            ("a <= 1", #"["<=", [".a"], 1]"#),
            ("a =< 1", #"["<=", [".a"], 1]"#),
            ("a > 1.5", #"[">", [".a"], 1.5]"#),
            ("a >= -2", #"[">=", [".a"], -2]"#),
            ("a => 2", #"[">=", [".a"], 2]"#),
            ("a == nil", #"["NOT", ["IS VALUED", [".a"]]]"#),
            ("a != NULL", #"["IS VALUED", [".a"]]"#),
            ("a == TRUE", #"["=", [".a"], true]"#),
            ("a == NO", #"["=", [".a"], false]"#),
            ("address.city == $CITY", #"["=", [".address.city"], ["$CITY"]]"#),
            ("a BETWEEN {1, 5}", #"["BETWEEN", [".a"], 1, 5]"#),
            ("a == 1 AND b == 2 && c == 3", #"["AND", ["=", [".a"], 1], ["=", [".b"], 2], ["=", [".c"], 3]]"#),
            ("a == 1 OR b == 2 || c == 3", #"["OR", ["=", [".a"], 1], ["=", [".b"], 2], ["=", [".c"], 3]]"#),
            ("NOT a == 1", #"["NOT", ["=", [".a"], 1]]"#),
            ("!(a == 1 OR b == 2)", #"["NOT", ["OR", ["=", [".a"], 1], ["=", [".b"], 2]]]"#),
            ("a == 1 OR b == 2 AND c == 3", #"["OR", ["=", [".a"], 1], ["AND", ["=", [".b"], 2], ["=", [".c"], 3]]]"#),
            ("TRUEPREDICATE", "true"),
            ("FALSEPREDICATE", "false"),
            ("tags CONTAINS 'pool'", #"["ARRAY_CONTAINS()", [".tags"], "pool"]"#),
            ("a IN {1, 2}", #"["IN", [".a"], ["[]", 1, 2]]"#),
            ("'inn' IN 'grand inn'", #"["CONTAINS()", "grand inn", "inn"]"#),
            ("'inn' IN name", #"["CASE", null, ["ISSTRING()", [".name"]], ["CONTAINS()", [".name"], "inn"], ["IN", "inn", [".name"]]]"#),
            ("a ENDSWITH 'x%'", #"["LIKE", [".a"], "%x\\%"]"#),
            ("a LIKE 'h*l?o\\\\*'", #"["LIKE", [".a"], "h%l_o*"]"#),
            ("a LIKE 'a_b'", #"["LIKE", [".a"], "a\\_b"]"#),
            ("a MATCHES 'h.*'", #"["REGEXP_LIKE()", [".a"], "\\A(?:h.*)\\z"]"#),
            ("a MATCHES[c] 'h.*'", #"["REGEXP_LIKE()", [".a"], "(?i)\\A(?:h.*)\\z"]"#),
            ("a + 2 * b ** 2 > 10", #"[">", ["+", [".a"], ["*", 2, ["POWER()", [".b"], 2]]], 10]"#),
            ("#size == 1", #"["=", [".size"], 1]"#),
        ]
        for (text, expected) in table {
            XCTAssertEqual(try predicate(text), try json(expected), text)
        }
    }

    func testModifiersCompareUnderTheUnicodeCollation() throws {
        XCTAssertEqual(try predicate("name ==[c] 'x'"),
                       try json(#"["COLLATE", {"UNICODE": true, "CASE": false, "DIAC": true}, ["=", [".name"], "x"]]"#))
        XCTAssertEqual(try predicate("name ==[d] 'x'"),
                       try json(#"["COLLATE", {"UNICODE": true, "CASE": true, "DIAC": false}, ["=", [".name"], "x"]]"#))
        XCTAssertEqual(try predicate("name BEGINSWITH[cd] 'ab'"),
                       try json(#"["COLLATE", {"UNICODE": true, "CASE": false, "DIAC": false}, ["LIKE", [".name"], "ab%"]]"#))
        XCTAssertEqual(try predicate("'x' IN[c] 'XYZ'"),
                       try json(#"["COLLATE", {"UNICODE": true, "CASE": false, "DIAC": true}, ["CONTAINS()", "XYZ", "x"]]"#))
    }

    func testBeginsWithIsARangeAndAnExactLike() throws {
        XCTAssertEqual(try predicate("name BEGINSWITH 'ab'"),
                       try json(#"["AND", [">=", [".name"], "ab"], ["<", [".name"], "ac"], ["LIKE", [".name"], "ab%"]]"#))
        XCTAssertEqual(try predicate("name BEGINSWITH $P"),
                       try json(#"["AND", [">=", [".name"], ["$P"]], ["<", [".name"], ["$__prefixend_P"]], ["LIKE", [".name"], ["$__beginsWith_P"]]]"#))
        XCTAssertEqual("a\u{10FFFF}".prefixEnd, "b")
        XCTAssertEqual("\u{D7FF}".prefixEnd, "\u{E000}")
        XCTAssertNil("".prefixEnd)
    }

    func testQuantifiersAndKeyPathOperators() throws {
        guard case .quantified(.any, let item, let array, let condition) = try predicate("ANY tags == 'spa'") else {
            return XCTFail("ANY makes a quantified expression")
        }
        XCTAssertEqual(array, .property([.key("tags")]))
        XCTAssertEqual(condition, .operation(.equal, [.variable([.key(item)]), .literal(.string("spa"))]))
        XCTAssertEqual(try predicate("SOME tags == 'spa'"), try predicate("ANY tags == 'spa'"))
        guard case .quantified(.every, _, _, _) = try predicate("ALL scores > 3") else { return XCTFail("ALL is EVERY") }
        guard case .operation(.not, let operands) = try predicate("NONE scores > 3"), case .quantified(.any, _, _, _)? = operands.first else {
            return XCTFail("NONE is NOT ANY")
        }
        XCTAssertEqual(try expression("tags.@count"), try json(#"["ARRAY_LENGTH()", [".tags"]]"#))
        XCTAssertEqual(try expression("prices.@sum"), try json(#"["ARRAY_SUM()", [".prices"]]"#))
        XCTAssertEqual(try expression("prices.@avg"), try json(#"["ARRAY_AVG()", [".prices"]]"#))
        XCTAssertEqual(try expression("prices.@min"), try json(#"["ARRAY_MIN()", [".prices"]]"#))
        XCTAssertEqual(try expression("prices.@max"), try json(#"["ARRAY_MAX()", [".prices"]]"#))
        XCTAssertEqual(try expression("average(price)"), try json(#"["AVG()", [".price"]]"#))
        XCTAssertEqual(try expression("uppercase(name)"), try json(#"["UPPER()", [".name"]]"#))
    }

    func testMistakesAreErrorsWithTheirPlace() throws {
        let cases: [(String, Int, String)] = [
            ("a ==", 4, "expected a value"),
            ("a == 'x", 5, "unterminated string"),
            ("a ~ 1", 2, "unexpected '~'"),
            ("a", 1, "expected a comparison"),
            ("a == 1 b", 7, "unexpected 'b'"),
            ("a ==[x] 1", 4, "options are [c], [d] or [cd]"),
            ("a MATCHES[d] 'x'", 2, "MATCHES takes [c] but not [d]"),
            ("nosuch(a) == 1", 0, "unknown function nosuch()"),
            ("tags.@first == 1", 5, "unknown collection operator @first"),
            ("a == $__x", 5, "reserved"),
            ("AND == 1", 0, "expected a value"),
            (String(repeating: "(", count: 200) + "a == 1" + String(repeating: ")", count: 200), 100, "nests too deeply"),
            ("a == " + String(repeating: "2 ** ", count: 2_000) + "2", 500, "nests too deeply"),
            ("a == 'x\\", 5, "unterminated string"),
            ("n IN 1 - 2", 2, "IN takes an aggregate, an array or a string on its right, not an arithmetic result"),
            ("n IN -a", 2, "not an arithmetic result"),
        ]
        for (text, position, message) in cases {
            XCTAssertThrowsError(try predicate(text), text) { error in
                let error = error as! DocLiteError
                XCTAssertEqual(error.code, DocLiteError.Code.invalidQuery.rawValue, text)
                XCTAssertEqual(error.position, position, "\(text): \(error.message)")
                XCTAssertTrue(error.message.contains(message), "\(text): \(error.message)")
            }
        }
    }

    // MARK: The wiki page's examples

    private func loadPosts() throws {
        try load([
            ("p1", #"{"type": "post", "title": "Introducing CBLQueryBuilder", "author": "Jens Alfke", "date": "2014-12-11", "body": "Yo", "tags": ["couchbase lite", "iOS", "queries", "views", "API"]}"#),
            ("p2", #"{"type": "post", "title": "Views", "author": "Jens Alfke", "date": "2014-10-01", "body": "Map", "tags": ["views", "iOS"]}"#),
            ("p3", #"{"type": "post", "title": "Replication", "author": "Traun", "date": "2015-01-20", "body": "Sync", "tags": ["sync"]}"#),
            ("c1", #"{"type": "comment", "title": "Nice", "date": "2014-12-12", "tags": ["iOS"]}"#),
            ("b1", #"{"type": "book", "title": "A", "price": 10}"#),
            ("b2", #"{"type": "book", "title": "B", "price": 25}"#),
            ("b3", #"{"type": "book", "title": "C", "price": 40}"#),
            ("b4", #"{"type": "book", "title": "D", "price": 13}"#),
        ])
    }

    func testTheTagQueryOfTheWikiPage() throws {
        try loadPosts()
        let builder = try PredicateQueryBuilder(database: db, select: ["title", "body", "author", "date"],
                                                where: "type == 'post' and tags contains $TAG", orderBy: ["-date"])
        XCTAssertEqual(builder.variableNames, ["TAG"])
        let rows = try builder.runQuery(context: ["TAG": "iOS"]).allRows()
        XCTAssertEqual(rows.count, 2)
        // Four items selected: each row's value is the array of them, newest first.
        XCTAssertEqual(rows[0].value as? [String], ["Introducing CBLQueryBuilder", "Yo", "Jens Alfke", "2014-12-11"])
        XCTAssertEqual(rows[1].value as? [String], ["Views", "Map", "Jens Alfke", "2014-10-01"])
        XCTAssertEqual(try builder.runQuery(context: ["TAG": "sync"]).map { ($0.value as? [Any])?.first as? String }, ["Replication"])

        XCTAssertThrowsError(try builder.runQuery(context: [:])) { error in
            XCTAssertEqual((error as? DocLiteError)?.code, DocLiteError.Code.invalidQueryParam.rawValue)
            XCTAssertTrue("\(error)".contains("$TAG"), "\(error)")
        }
        let single = try PredicateQueryBuilder(database: db, select: ["title"], where: "type == 'post' AND author BEGINSWITH 'Jens'",
                                               orderBy: ["title"])
        XCTAssertEqual(try single.runQuery().map { $0.value as? String }, ["Introducing CBLQueryBuilder", "Views"])
    }

    func testTheAverageOfTheWikiPageAndTheOtherReduceFunctions() throws {
        try loadPosts()
        func reduce(_ item: String) throws -> Any? {
            let rows = try PredicateQueryBuilder(database: db, select: [item], where: "type == 'book'").runQuery().allRows()
            XCTAssertEqual(rows.count, 1, item)
            return rows.first?.value
        }
        XCTAssertEqual(try reduce("average(price)") as? Double, 22)
        XCTAssertEqual(try reduce("count(price)") as? Int, 4)
        XCTAssertEqual(try reduce("sum(price)") as? Int, 88)
        XCTAssertEqual(try reduce("min(price)") as? Int, 10)
        XCTAssertEqual(try reduce("max(price)") as? Int, 40)
        XCTAssertEqual(try reduce("median(price)") as? Int, 19)     // (13 + 25) / 2, whole: an integer
        let stddev = try XCTUnwrap(try reduce("stddev(price)") as? Double)
        let squares: Double = 144 + 9 + 81 + 324   // (10 − 22)², (25 − 22)², (13 − 22)², (40 − 22)²
        XCTAssertEqual(stddev, (squares / 3).squareRoot(), accuracy: 1e-12)   // the sample's: n − 1

        // An item beside a reduce function groups the rows by it.
        let grouped = try PredicateQueryBuilder(database: db, select: ["type", "count(title)"], where: "type != nil", orderBy: ["type"])
        XCTAssertEqual(try grouped.runQuery().map { $0.value as? [AnyHashable] }, [["book", 4], ["comment", 1], ["post", 3]])
    }

    func testOperatorsSelectTheDocumentsTheyDescribe() throws {
        try load([
            ("h1", #"{"name": "Grand Hôtel", "city": "Paris", "rooms": 120, "tags": ["spa", "pool"], "scores": [4, 5]}"#),
            ("h2", #"{"name": "grand inn", "city": "Lyon", "rooms": 8, "tags": ["parking"], "scores": [2, 5]}"#),
            ("h3", #"{"name": "Ritz 100%", "city": "Paris", "rooms": 90, "tags": [], "scores": []}"#),
            ("h4", #"{"name": 42, "city": "Nice"}"#),
        ])
        func ids(_ where: String, _ context: [String: Any] = [:]) throws -> [String] {
            let builder = try PredicateQueryBuilder(database: db, select: ["_id"], where: `where`, orderBy: ["_id"])
            return try builder.runQuery(context: context).map { $0.value as? String ?? "?" }
        }
        XCTAssertEqual(try ids("name BEGINSWITH 'Grand'"), ["h1"])
        XCTAssertEqual(try ids("name BEGINSWITH[c] 'grand'"), ["h1", "h2"])
        XCTAssertEqual(try ids("name BEGINSWITH $P", ["P": "gr"]), ["h2"])
        XCTAssertEqual(try ids("name ENDSWITH $S", ["S": "100%"]), ["h3"])
        XCTAssertEqual(try ids("name ENDSWITH '%'"), ["h3"])
        XCTAssertEqual(try ids("name LIKE[c] 'grand*'"), ["h1", "h2"])
        XCTAssertEqual(try ids("name LIKE $L", ["L": "?itz*"]), ["h3"])
        XCTAssertEqual(try ids("name MATCHES '[gG]rand.*'"), ["h1", "h2"])
        XCTAssertEqual(try ids("name MATCHES 'rand'"), [], "MATCHES needs the whole string")
        XCTAssertEqual(try ids("name MATCHES $R", ["R": "(?:Ritz).*"]), ["h3"])
        XCTAssertEqual(try ids("name ==[cd] 'grand hotel'"), ["h1"])
        XCTAssertEqual(try ids("'inn' IN name"), ["h2"])
        XCTAssertEqual(try ids("$W IN name", ["W": "Hôtel"]), ["h1"])
        XCTAssertEqual(try ids("$W IN[cd] name", ["W": "HOTEL"]), ["h1"])
        XCTAssertEqual(try ids("city IN $CITIES", ["CITIES": ["Lyon", "Nice"]]), ["h2", "h4"])
        XCTAssertEqual(try ids("tags CONTAINS 'spa'"), ["h1"])
        XCTAssertEqual(try ids("tags CONTAINS[c] 'SPA'"), ["h1"])
        XCTAssertEqual(try ids("rooms BETWEEN {50, 100}"), ["h3"])
        XCTAssertEqual(try ids("rooms BETWEEN $R", ["R": [1, 100]]), ["h2", "h3"])
        XCTAssertEqual(try ids("ANY scores == 5"), ["h1", "h2"])
        XCTAssertEqual(try ids("ALL scores >= 4"), ["h1", "h3", "h4"])   // an empty or MISSING array satisfies ALL
        XCTAssertEqual(try ids("NONE scores == 5"), ["h3", "h4"])
        XCTAssertEqual(try ids("tags.@count >= 1 AND rooms > 10"), ["h1"])
        XCTAssertEqual(try ids("scores.@max == 5 AND NOT city == 'Lyon'"), ["h1"])
        XCTAssertEqual(try ids("rooms * 2 > 200 OR city == 'Nice'"), ["h1", "h4"])
        XCTAssertEqual(try ids("tags == nil"), ["h4"])
        XCTAssertEqual(try ids("TRUEPREDICATE"), ["h1", "h2", "h3", "h4"])
        XCTAssertEqual(try ids("FALSEPREDICATE"), [])
    }

    func testKeyPathsAndCollectionOperatorsInTheSelectList() throws {
        try load([("h1", #"{"address": {"city": "Paris"}, "tags": ["a", "b", "c"], "prices": [10, 20, 60]}"#)])
        let builder = try PredicateQueryBuilder(database: db, select: ["address.city", "tags.@count", "prices.@sum", "prices.@avg",
                                                                        "prices.@min", "prices.@max"], where: "TRUEPREDICATE")
        XCTAssertEqual(try builder.runQuery().map { $0.value as? [AnyHashable] }, [["Paris", 3, 90, 30, 10, 60]])
    }

    func testBeginsWithUsesAValueIndex() throws {
        try load((0..<50).map { ("n\($0)", #"{"name": "name \#($0)"}"#) })
        let builder = try PredicateQueryBuilder(database: db, select: ["name"], where: "name BEGINSWITH $P")
        let unindexed = try builder.explanation
        XCTAssertTrue(unindexed.contains("index: none"), unindexed)
        XCTAssertTrue(unindexed.contains(#"ValueIndexConfiguration(["name"])"#), unindexed)
        try defaultCollection.createIndex(withName: "byName", config: ValueIndexConfiguration(["name"]))
        let explanation = try builder.explanation
        XCTAssertTrue(explanation.contains("USING INDEX byName ("), explanation)   // the collection's name for it
        XCTAssertTrue(explanation.contains("variables: $P"), explanation)
        XCTAssertEqual(try builder.runQuery(context: ["P": "name 4"]).map { $0.value as? String ?? "?" }.sorted(),
                       ["name 4", "name 40", "name 41", "name 42", "name 43", "name 44", "name 45", "name 46", "name 47", "name 48", "name 49"])
    }

    func testBuilderMistakesNameTheirPart() throws {
        XCTAssertThrowsError(try PredicateQueryBuilder(database: db, select: ["title", "nosuch(x)"], where: "TRUEPREDICATE")) { error in
            XCTAssertTrue((error as! DocLiteError).message.hasPrefix("select item 2: "), "\(error)")
        }
        XCTAssertThrowsError(try PredicateQueryBuilder(database: db, select: ["title"], where: "a ==")) { error in
            XCTAssertEqual((error as! DocLiteError).position, 4)
            XCTAssertTrue((error as! DocLiteError).message.hasPrefix("where: "), "\(error)")
        }
        XCTAssertThrowsError(try PredicateQueryBuilder(database: db, select: [], where: "TRUEPREDICATE"))
        XCTAssertThrowsError(try PredicateQueryBuilder(database: db, select: ["title"], where: "TRUEPREDICATE", orderBy: ["-"]))
    }
}
