import Foundation
import XCTest
@testable import DocLite

/// Every builder call's JSON against the JSON Couchbase Lite's builders write for it.
final class BuilderJSONTests: XCTestCase {
    private func assertJSON(_ expression: ExpressionProtocol, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(JSONQueryWriter.json(expression.node), try JSONValue(json: expected), "\(expected)", file: file, line: line)
    }

    func testExpressions() throws {
        let a = DocLite.Expression.property("a"), b = DocLite.Expression.property("b")
        let date = Date(timeIntervalSince1970: 1_704_897_074)   // 2024-01-10T14:31:14Z
        let table: [(ExpressionProtocol, String)] = [
            // literals
            (DocLite.Expression.string("s"), #""s""#),
            (DocLite.Expression.int(123), "123"),
            (DocLite.Expression.int64(-9_000_000_000), "-9000000000"),
            (DocLite.Expression.number(NSNumber(value: 7)), "7"),
            (DocLite.Expression.number(NSNumber(value: 2.5)), "2.5"),
            (DocLite.Expression.number(NSNumber(value: true)), "true"),
            (DocLite.Expression.number(NSNumber(value: Int8(1))), "1"),
            (DocLite.Expression.number(nil), "null"),
            (DocLite.Expression.float(1.5), "1.5"),
            (DocLite.Expression.float(1.1), "1.1"),
            (DocLite.Expression.double(1.5), "1.5"),
            (DocLite.Expression.boolean(true), "true"),
            (DocLite.Expression.boolean(false), "false"),
            (DocLite.Expression.date(date), #""2024-01-10T14:31:14.000Z""#),
            (DocLite.Expression.value(nil), "null"),
            (DocLite.Expression.value("x"), #""x""#),
            (DocLite.Expression.value(3), "3"),
            (DocLite.Expression.value(a), #"[".a"]"#),
            (DocLite.Expression.dictionary(["k": "v", "n": 1, "e": a]), #"{"k": "v", "n": 1, "e": [".a"]}"#),
            (DocLite.Expression.array(["v", 1, a]), #"["[]", "v", 1, [".a"]]"#),
            (DocLite.Expression.value(["x", 2]), #"["[]", "x", 2]"#),
            // properties
            (DocLite.Expression.property("a.b[0].c"), #"[".a.b[0].c"]"#),
            (DocLite.Expression.property("p").from("x"), #"[".x.p"]"#),
            (DocLite.Expression.all(), #"["."]"#),
            (DocLite.Expression.all().from("x"), #"[".x."]"#),
            // meta
            (Meta.id, #"["._id"]"#),
            (Meta.sequence, #"["._sequence"]"#),
            (Meta.isDeleted, #"["._deleted"]"#),
            (Meta.expiration, #"["._expiration"]"#),
            (Meta.revisionID, #"["._revisionID"]"#),
            (Meta.id.from("a"), #"[".a._id"]"#),
            (Meta.sequence.from("a"), #"[".a._sequence"]"#),
            // parameters
            (DocLite.Expression.parameter("name"), #"["$name"]"#),
            // operators
            (a.lessThan(b), #"["<", [".a"], [".b"]]"#),
            (a.lessThanOrEqualTo(b), #"["<=", [".a"], [".b"]]"#),
            (a.greaterThan(b), #"[">", [".a"], [".b"]]"#),
            (a.greaterThanOrEqualTo(b), #"[">=", [".a"], [".b"]]"#),
            (a.equalTo(b), #"["=", [".a"], [".b"]]"#),
            (a.notEqualTo(b), #"["!=", [".a"], [".b"]]"#),
            (a.is(b), #"["IS", [".a"], [".b"]]"#),
            (a.isNot(DocLite.Expression.value(nil)), #"["IS NOT", [".a"], null]"#),
            (a.isValued(), #"["IS VALUED", [".a"]]"#),
            (a.isNotValued(), #"["NOT", ["IS VALUED", [".a"]]]"#),
            (a.notNullOrMissing(), #"["IS VALUED", [".a"]]"#),
            (a.isNullOrMissing(), #"["NOT", ["IS VALUED", [".a"]]]"#),
            (a.between(DocLite.Expression.int(1), and: DocLite.Expression.int(5)), #"["BETWEEN", [".a"], 1, 5]"#),
            (a.in([DocLite.Expression.int(1), b]), #"["IN", [".a"], ["[]", 1, [".b"]]]"#),
            (a.like(DocLite.Expression.string("x%")), #"["LIKE", [".a"], "x%"]"#),
            (a.regex(DocLite.Expression.string("^x")), #"["regexp_like()", [".a"], "^x"]"#),
            (a.add(b), #"["+", [".a"], [".b"]]"#),
            (a.subtract(b), #"["-", [".a"], [".b"]]"#),
            (a.multiply(b), #"["*", [".a"], [".b"]]"#),
            (a.divide(b), #"["/", [".a"], [".b"]]"#),
            (a.modulo(b), #"["%", [".a"], [".b"]]"#),
            (a.and(b), #"["AND", [".a"], [".b"]]"#),
            (a.or(b), #"["OR", [".a"], [".b"]]"#),
            (DocLite.Expression.not(a), #"["NOT", [".a"]]"#),
            (DocLite.Expression.negated(a), #"["NOT", [".a"]]"#),
            // collations
            (a.collate(Collation.ascii()), #"["COLLATE", {"UNICODE": false, "LOCALE": null, "CASE": true, "DIAC": true}, [".a"]]"#),
            (a.collate(Collation.ascii().ignoreCase(true)), #"["COLLATE", {"UNICODE": false, "LOCALE": null, "CASE": false, "DIAC": true}, [".a"]]"#),
            (a.collate(Collation.unicode().locale("fr")), #"["COLLATE", {"UNICODE": true, "LOCALE": "fr", "CASE": true, "DIAC": true}, [".a"]]"#),
            (a.collate(Collation.unicode().ignoreCase(true).ignoreAccents(true).locale("en_US")),
             #"["COLLATE", {"UNICODE": true, "LOCALE": "en_US", "CASE": false, "DIAC": false}, [".a"]]"#),
            (a.collate(Collation.unicode().ignoreAccents(true).locale(nil)),
             #"["COLLATE", {"UNICODE": true, "LOCALE": "\#(Locale.current.identifier)", "CASE": true, "DIAC": false}, [".a"]]"#),
            // array expressions
            (ArrayExpression.variable("x"), #"["?x"]"#),
            (ArrayExpression.variable("x.name"), #"["?x.name"]"#),
            (ArrayExpression.any(ArrayExpression.variable("x")).in(a).satisfies(ArrayExpression.variable("x").equalTo(DocLite.Expression.int(1))),
             #"["ANY", "x", [".a"], ["=", ["?x"], 1]]"#),
            (ArrayExpression.every(ArrayExpression.variable("x")).in(a).satisfies(ArrayExpression.variable("x.n").greaterThan(DocLite.Expression.int(1))),
             #"["EVERY", "x", [".a"], [">", ["?x.n"], 1]]"#),
            (ArrayExpression.anyAndEvery(ArrayExpression.variable("x")).in(a).satisfies(ArrayExpression.variable("x").isValued()),
             #"["ANY AND EVERY", "x", [".a"], ["IS VALUED", ["?x"]]]"#),
            // array functions
            (ArrayFunction.contains(a, value: DocLite.Expression.string("v")), #"["ARRAY_CONTAINS()", [".a"], "v"]"#),
            (ArrayFunction.length(a), #"["ARRAY_LENGTH()", [".a"]]"#),
            // full-text
            (FullTextFunction.match(DocLite.Expression.fullTextIndex("idx"), query: "q"), #"["MATCH()", "idx", "q"]"#),
            (FullTextFunction.match(DocLite.Expression.fullTextIndex("idx").from("h"), query: "q"), #"["MATCH()", "h.idx", "q"]"#),
            (FullTextFunction.rank(DocLite.Expression.fullTextIndex("idx")), #"["RANK()", "idx"]"#),
            (FullTextFunction.match(indexName: "idx", query: "q"), #"["MATCH()", "idx", "q"]"#),
            (FullTextFunction.rank("idx"), #"["RANK()", "idx"]"#),
        ]
        for (expression, expected) in table { assertJSON(expression, expected) }
    }

    /// Every `Function` is `["NAME()", args…]`.
    func testFunctions() throws {
        let a = DocLite.Expression.property("a"), b = DocLite.Expression.property("b")
        let unary: [(String, (ExpressionProtocol) -> ExpressionProtocol)] = [
            ("AVG", Function.avg), ("MIN", Function.min), ("MAX", Function.max), ("SUM", Function.sum),
            ("ABS", Function.abs), ("ACOS", Function.acos), ("ASIN", Function.asin), ("ATAN", Function.atan),
            ("CEIL", Function.ceil), ("COS", Function.cos), ("DEGREES", Function.degrees), ("EXP", Function.exp),
            ("FLOOR", Function.floor), ("LN", Function.ln), ("LOG", Function.log), ("RADIANS", Function.radians),
            ("ROUND", Function.round), ("SIGN", Function.sign), ("SIN", Function.sin), ("SQRT", Function.sqrt),
            ("TAN", Function.tan), ("TRUNC", Function.trunc),
            ("LENGTH", Function.length), ("LOWER", Function.lower), ("LTRIM", Function.ltrim), ("RTRIM", Function.rtrim),
            ("TRIM", Function.trim), ("UPPER", Function.upper),
            ("STR_TO_MILLIS", Function.stringToMillis), ("STR_TO_UTC", Function.stringToUTC),
            ("MILLIS_TO_STR", Function.millisToString), ("MILLIS_TO_UTC", Function.millisToUTC),
        ]
        for (name, function) in unary { assertJSON(function(a), #"["\#(name)()", [".a"]]"#) }
        assertJSON(Function.count(a), #"["COUNT()", [".a"]]"#)
        assertJSON(Function.count(nil), #"["COUNT()", ["."]]"#)
        assertJSON(Function.count(DocLite.Expression.all().from("r")), #"["COUNT()", [".r."]]"#)
        assertJSON(Function.atan2(y: a, x: b), #"["ATAN2()", [".a"], [".b"]]"#)
        assertJSON(Function.power(base: a, exponent: b), #"["POWER()", [".a"], [".b"]]"#)
        assertJSON(Function.round(a, digits: DocLite.Expression.int(2)), #"["ROUND()", [".a"], 2]"#)
        assertJSON(Function.trunc(a, digits: DocLite.Expression.int(2)), #"["TRUNC()", [".a"], 2]"#)
        assertJSON(Function.e(), #"["E()"]"#)
        assertJSON(Function.pi(), #"["PI()"]"#)
        assertJSON(Function.contains(a, substring: DocLite.Expression.string("x")), #"["CONTAINS()", [".a"], "x"]"#)
    }

    /// Result columns, sources, joins, ordering, clauses.
    func testStatements() throws {
        let directory = NSTemporaryDirectory() + "doclite-builder-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = try Database(name: "travel-sample", config: DatabaseConfiguration(directory: directory))
        defer { try? db.close() }
        let hotels = try db.createCollection(name: "hotels", scope: "travel")
        let reviews = try db.createCollection(name: "reviews", scope: "travel")
        func assertQuery(_ query: BuilderQuery, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(try JSONValue(json: query.json), try JSONValue(json: expected), file: file, line: line)
        }
        let h = DataSource.collection(hotels)
        assertQuery(QueryBuilder.select(SelectResult.property("a.b")).from(h), #"{"WHAT": [[".a.b"]], "FROM": [{"COLLECTION": "travel.hotels"}]}"#)
        assertQuery(QueryBuilder.select(SelectResult.property("a").as("x"), SelectResult.expression(Meta.id).as("i"))
                        .from(h.as("h")),
                    #"{"WHAT": [["AS", [".a"], "x"], ["AS", ["._id"], "i"]], "FROM": [{"COLLECTION": "travel.hotels", "AS": "h"}]}"#)
        assertQuery(QueryBuilder.select(SelectResult.all(), SelectResult.all().from("h")).from(h.as("h")),
                    #"{"WHAT": [["."], [".h."]], "FROM": [{"COLLECTION": "travel.hotels", "AS": "h"}]}"#)
        assertQuery(QueryBuilder.selectDistinct(SelectResult.property("a")).from(DataSource.database(db)),
                    #"{"WHAT": [[".a"]], "DISTINCT": true, "FROM": [{"AS": "travel-sample"}]}"#)
        assertQuery(QueryBuilder.select().from(DataSource.database(db).as("d")),
                    #"{"WHAT": [[".d."]], "FROM": [{"AS": "d"}]}"#)
        let on = DocLite.Expression.property("hid").from("r").equalTo(Meta.id.from("h"))
        let r = DataSource.collection(reviews).as("r")
        for (join, kind) in [(Join.join(r).on(on), "INNER"), (Join.innerJoin(r).on(on), "INNER"),
                             (Join.leftJoin(r).on(on), "LEFT OUTER"), (Join.leftOuterJoin(r).on(on), "LEFT OUTER")] {
            assertQuery(QueryBuilder.select(SelectResult.all().from("h")).from(h.as("h")).join(join),
                        #"{"WHAT": [[".h."]], "FROM": [{"COLLECTION": "travel.hotels", "AS": "h"}, {"COLLECTION": "travel.reviews", "AS": "r", "JOIN": "\#(kind)", "ON": ["=", [".r.hid"], [".h._id"]]}]}"#)
        }
        assertQuery(QueryBuilder.select(SelectResult.all().from("h")).from(h.as("h")).join(Join.crossJoin(r)),
                    #"{"WHAT": [[".h."]], "FROM": [{"COLLECTION": "travel.hotels", "AS": "h"}, {"COLLECTION": "travel.reviews", "AS": "r", "JOIN": "CROSS"}]}"#)
        assertQuery(QueryBuilder.select(SelectResult.property("a")).from(h)
                        .orderBy(Ordering.property("a"), Ordering.property("b").ascending(), Ordering.expression(Meta.id).descending()),
                    #"{"WHAT": [[".a"]], "FROM": [{"COLLECTION": "travel.hotels"}], "ORDER_BY": [[".a"], [".b"], ["DESC", ["._id"]]]}"#)
        assertQuery(QueryBuilder.select(SelectResult.property("a")).from(h).limit(DocLite.Expression.int(5)),
                    #"{"WHAT": [[".a"]], "FROM": [{"COLLECTION": "travel.hotels"}], "LIMIT": 5}"#)

        // A query with every clause.
        let count = Function.count(DocLite.Expression.all().from("r"))
        let query = QueryBuilder
            .select(SelectResult.expression(Meta.id.from("h")),
                    SelectResult.expression(DocLite.Expression.property("name").from("h")),
                    SelectResult.expression(count).as("nReviews"))
            .from(DataSource.collection(hotels).as("h"))
            .join(Join.leftJoin(DataSource.collection(reviews).as("r"))
                    .on(DocLite.Expression.property("hotelId").from("r").equalTo(Meta.id.from("h"))))
            .where(DocLite.Expression.property("type").from("h").equalTo(DocLite.Expression.string("hotel"))
                    .and(DocLite.Expression.property("city").from("h").like(DocLite.Expression.parameter("city"))))
            .groupBy(Meta.id.from("h"), DocLite.Expression.property("name").from("h"))
            .having(count.greaterThan(DocLite.Expression.int(2)))
            .orderBy(Ordering.expression(count).descending(),
                     Ordering.expression(DocLite.Expression.property("name").from("h")))
            .limit(DocLite.Expression.int(10), offset: DocLite.Expression.parameter("skip"))
        assertQuery(query, #"""
            {"WHAT": [[".h._id"], [".h.name"], ["AS", ["COUNT()", [".r."]], "nReviews"]],
             "FROM": [{"COLLECTION": "travel.hotels", "AS": "h"},
                      {"JOIN": "LEFT OUTER", "ON": ["=", [".r.hotelId"], [".h._id"]],
                       "COLLECTION": "travel.reviews", "AS": "r"}],
             "WHERE": ["AND", ["=", [".h.type"], "hotel"], ["LIKE", [".h.city"], ["$city"]]],
             "GROUP_BY": [[".h._id"], [".h.name"]],
             "HAVING": [">", ["COUNT()", [".r."]], 2],
             "ORDER_BY": [["DESC", ["COUNT()", [".r."]]], [".h.name"]],
             "LIMIT": 10, "OFFSET": ["$skip"]}
            """#)
        XCTAssertEqual(try query.columnNames, ["id", "name", "nReviews"])
        // The builder's tree is the one the JSON parser gives for the same JSON.
        XCTAssertEqual(query.statement, try JSONQueryParser.parse(json: query.json))
    }
}
