import Foundation
import XCTest
@testable import DocLite

/// The builder's queries beyond the guide: misuse reported when run, indexes,
/// literals and parameters of every kind.
final class BuilderQueryTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try load([
            ("a", #"{"n": 1, "s": "x", "when": "2024-01-10T14:31:14.000Z", "tags": ["red", "blue"], "o": {"k": 1}}"#),
            ("b", #"{"n": 2, "s": "y", "when": "2025-06-01T00:00:00.000Z", "tags": ["green"], "nul": null}"#),
            ("c", #"{"n": 3, "s": "z", "tags": []}"#),
        ])
    }

    private func ids(_ condition: ExpressionProtocol) throws -> [String] {
        try QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(defaultCollection))
            .where(condition).orderBy(Ordering.expression(Meta.id)).execute().allResults().compactMap { $0.string(forKey: "id") }
    }

    func testOperatorsRun() throws {
        let n = Expression.property("n")
        XCTAssertEqual(try ids(n.between(Expression.int(2), and: Expression.int(3))), ["b", "c"])
        XCTAssertEqual(try ids(n.in([Expression.int(1), Expression.int(3)])), ["a", "c"])
        XCTAssertEqual(try ids(Expression.property("nul").isValued()), [])
        XCTAssertEqual(try ids(Expression.property("nul").isNotValued()), ["a", "b", "c"])
        XCTAssertEqual(try ids(Expression.property("nul").is(Expression.value(nil))), ["b"])
        XCTAssertEqual(try ids(Expression.property("o").isNot(Expression.value(nil)).and(Expression.property("o").isValued())), ["a"])
        XCTAssertEqual(try ids(Expression.not(n.equalTo(Expression.int(2)))), ["a", "c"])
        XCTAssertEqual(try ids(n.multiply(Expression.double(1.5)).greaterThan(Expression.float(2.9))), ["b", "c"])
        XCTAssertEqual(try ids(Expression.property("when").lessThan(Expression.date(Date(timeIntervalSince1970: 1_735_689_600)))), ["a"])
        XCTAssertEqual(try ids(ArrayFunction.length(Expression.property("tags")).equalTo(Expression.number(NSNumber(value: 0)))), ["c"])
        XCTAssertEqual(try ids(ArrayExpression.any(ArrayExpression.variable("t")).in(Expression.property("tags"))
                                .satisfies(ArrayExpression.variable("t").like(Expression.string("%e%")))), ["a", "b"])
        XCTAssertEqual(try ids(Expression.property("s").in([Expression.parameter("p")])), [])
        XCTAssertEqual(try ids(Expression.property("o.k").equalTo(Expression.boolean(true))), ["a"])   // true is 1, as in LiteCore
    }

    /// NaN, the infinities and dates beyond the years 0000–9999 are refused where
    /// they enter, never written as null or SQL (they used to fail in SQLite).
    func testLiteralsJSONCannotHoldFail() throws {
        for literal in [Expression.double(.infinity), Expression.double(-.infinity), Expression.double(.nan),
                        Expression.float(.infinity), Expression.value(Double.nan), Expression.value([1, Double.infinity]),
                        Expression.date(Date(timeIntervalSince1970: 9.2e15)), Expression.date(Date(timeIntervalSince1970: -1e12))] {
            XCTAssertEqual(literal.builderError?.code, DocLiteError.Code.invalidParameter.rawValue, "\(literal)")
            assertThrows(.invalidParameter) { _ = try self.ids(Expression.property("n").equalTo(literal)) }
        }
        XCTAssertNil(Expression.date(Date(timeIntervalSince1970: 253_402_300_799)).builderError)   // 9999-12-31T23:59:59Z
        XCTAssertEqual(try ids(Expression.property("n").lessThan(Expression.double(.greatestFiniteMagnitude))), ["a", "b", "c"])
    }

    func testLiteralColumns() throws {
        let row = try XCTUnwrap(QueryBuilder
            .select(SelectResult.expression(Expression.dictionary(["n": Expression.property("n"), "lit": "v", "list": [1, 2]])).as("d"),
                    SelectResult.expression(Expression.array([Expression.property("s"), NSNull(), true])).as("a"),
                    SelectResult.expression(Meta.sequence),
                    SelectResult.expression(Meta.revisionID),
                    SelectResult.expression(Function.upper(Expression.property("s"))))
            .from(DataSource.collection(defaultCollection))
            .where(Meta.id.equalTo(Expression.string("a")))
            .execute().allResults().first)
        XCTAssertEqual(row.keys, ["d", "a", "sequence", "revisionID", "$1"])
        XCTAssertEqual(try JSONValue(json: row.toJSON()), try JSONValue(json: #"""
            {"d": {"n": 1, "lit": "v", "list": [1, 2]}, "a": ["x", null, true], "sequence": 1,
             "revisionID": "\#(row.string(forKey: "revisionID") ?? "?")", "$1": "X"}
            """#))
    }

    func testParametersAndReuse() throws {
        let query = QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(defaultCollection))
            .where(Expression.property("n").greaterThanOrEqualTo(Expression.parameter("min")))
            .orderBy(Ordering.expression(Meta.id))
            .limit(Expression.parameter("limit"))
        query.parameters = Parameters().setInt(2, forName: "min").setInt(5, forName: "limit")
        XCTAssertEqual(query.parameters?.value(forName: "min") as? Int, 2)
        XCTAssertEqual(try query.execute().allResults().map { $0.string(forKey: "id") }, ["b", "c"])
        XCTAssertEqual(try query.execute().allResults().count, 2)
        query.parameters = Parameters().setInt(1, forName: "min").setInt(1, forName: "limit")
        XCTAssertEqual(try query.execute().allResults().map { $0.string(forKey: "id") }, ["a"])
        XCTAssertEqual(query.description, query.json)
    }

    func testMisuseIsAnErrorWhenRun() throws {
        let other = try db.createCollection(name: "other")
        // A join that needs ON without one.
        let noOn = QueryBuilder.select(SelectResult.all().from("a")).from(DataSource.collection(defaultCollection).as("a"))
            .join(Join.join(DataSource.collection(other).as("b")))
        assertThrows(.invalidQuery, containing: "needs ON") { _ = try noOn.execute() }
        // An unqualified property with two sources.
        let ambiguous = QueryBuilder.select(SelectResult.property("n")).from(DataSource.collection(defaultCollection).as("a"))
            .join(Join.crossJoin(DataSource.collection(other).as("b")))
        assertThrows(.invalidQuery) { _ = try ambiguous.columnNames }
        // An unknown parameter.
        let query = QueryBuilder.select(SelectResult.property("n")).from(DataSource.collection(defaultCollection))
        query.parameters = Parameters().setInt(1, forName: "nope")
        assertThrows(.invalidQueryParam) { _ = try query.execute() }
        // Malformed paths.
        assertThrows(.invalidQuery, containing: "invalid property path 'a..b'") {
            _ = try self.ids(Expression.property("a..b").from("x").isValued())
        }
        assertThrows(.invalidQuery, containing: "invalid property path") {
            _ = try QueryBuilder.select(SelectResult.property("n[")).from(DataSource.collection(self.defaultCollection)).execute()
        }
        assertThrows(.invalidQuery, containing: "invalid property path 'v..w'") {
            _ = try self.ids(ArrayExpression.any(ArrayExpression.variable("v")).in(Expression.property("tags"))
                                .satisfies(ArrayExpression.variable("v..w").isValued()))
        }
        // A malformed path is an invalid part of the tree, not a marked key: its JSON says so.
        let malformed = QueryBuilder.select(SelectResult.property("a..b")).from(DataSource.collection(defaultCollection))
        XCTAssertTrue(malformed.json.contains(#"["INVALID","invalid property path 'a..b'"#), malformed.json)
        XCTAssertFalse(malformed.json.utf8.contains(0), malformed.json)
        // A closed database.
        let second = try openDatabase(name: "second")
        let source = DataSource.database(second)
        try second.close()
        assertThrows(.notOpen) { _ = try QueryBuilder.select(SelectResult.all()).from(source).execute() }
    }

    func testDatabaseCreateIndexIsUsed() throws {
        try db.createIndex(IndexBuilder.valueIndex(items: ValueIndexItem.property("s")), withName: "by_s")
        try db.createIndex(ValueIndexConfiguration(json: #"[[".n"]]"#), name: "by_n")
        XCTAssertEqual(try defaultCollection.indexes().sorted(), ["by_n", "by_s"])
        let query = QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.database(db))
            .where(Expression.property("s").equalTo(Expression.string("y")))
        let plan = try query.explain()
        XCTAssertTrue(plan.contains("USING INDEX"), plan)
        XCTAssertEqual(try query.execute().allResults().map { $0.string(forKey: "id") }, ["b"])
        XCTAssertEqual(db.document(withID: "b")?.int(forKey: "n"), 2)
        XCTAssertNil(db.document(withID: "nope"))
    }

    func testExpressionIndexItemIsUsed() throws {
        let lower = Function.lower(Expression.property("s"))
        try db.createIndex(IndexBuilder.valueIndex(items: ValueIndexItem.expression(lower), ValueIndexItem.property("n")), withName: "by_lower_s")
        let query = QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.database(db))
            .where(lower.equalTo(Expression.string("y")))
        let plan = try query.explain()
        XCTAssertTrue(plan.contains("USING INDEX"), plan)
        XCTAssertEqual(try query.execute().allResults().map { $0.string(forKey: "id") }, ["b"])
        assertThrows(.invalidQuery, containing: "a..b") { try self.db.createIndex(IndexBuilder.valueIndex(items: ValueIndexItem.property("a..b")), withName: "bad") }
        assertThrows(.invalidQuery, containing: "c..d") {
            try self.db.createIndex(IndexBuilder.valueIndex(items: ValueIndexItem.expression(Function.lower(Expression.property("c..d")))), withName: "bad")
        }
        XCTAssertEqual(try defaultCollection.indexes(), ["by_lower_s"])
    }

    /// `SelectResult.all()` is keyed by the alias, else the collection's name (`_default` for the default one).
    func testSelectAllKeys() throws {
        let hotels = try db.createCollection(name: "hotels", scope: "travel")
        try hotels.save(document: try MutableDocument(id: "h1", json: #"{"name": "Ghia"}"#))
        func keys(_ query: BuilderQuery) throws -> [String] { try XCTUnwrap(query.execute().allResults().first).keys }
        XCTAssertEqual(try keys(QueryBuilder.select(SelectResult.all()).from(DataSource.collection(hotels))), ["hotels"])
        XCTAssertEqual(try keys(QueryBuilder.select(SelectResult.all()).from(DataSource.collection(hotels).as("h"))), ["h"])
        XCTAssertEqual(try keys(QueryBuilder.select().from(DataSource.collection(hotels).as("h"))), ["h"])
        XCTAssertEqual(try keys(QueryBuilder.select(SelectResult.all()).from(DataSource.collection(defaultCollection))), ["_default"])
        XCTAssertEqual(try keys(QueryBuilder.select(SelectResult.all()).from(DataSource.database(db))), ["test"])
        let row = try XCTUnwrap(QueryBuilder.select(SelectResult.all().from("h"), SelectResult.expression(Function.count(nil)))
            .from(DataSource.collection(hotels).as("h")).groupBy(Meta.id.from("h")).execute().allResults().first)
        XCTAssertEqual(row.keys, ["h", "$1"])
        XCTAssertEqual(row.dictionary(forKey: "h")?.string(forKey: "name"), "Ghia")
        XCTAssertEqual(row.int(forKey: "$1"), 1)
    }
}
