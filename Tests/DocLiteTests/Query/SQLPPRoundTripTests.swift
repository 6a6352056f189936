import Foundation
import XCTest
@testable import DocLite

/// Every query prints as SQL++ that reads back to the same tree: the JSON
/// round trip's queries, every conformance case's (when ../shared is there)
/// and built ones.
final class SQLPPRoundTripTests: XCTestCase {
    func testJSONQueriesReadBackFromTheirSQLPP() throws {
        var texts = JSONQueryRoundTripTests.queries
        for case .dictionary(let members) in try SharedFolder.jsonLines("conformance/cases.jsonl") {
            // (Valid trees only: a case that expects an error may not be writable.)
            if let query = members["query"], let statement = try? JSONQueryParser.parse(query),
               (try? QueryValidator.validate(statement)) != nil {
                texts.append(query.json)
            }
        }
        for text in texts {
            let statement = try JSONQueryParser.parse(json: text)
            let sqlpp = SQLPPWriter.text(statement)
            var parsed = try SQLPPParser.parse(sqlpp)
            // A query without WHAT is written with its default columns: those are checked by
            // running both forms (SQLPPParserTests), not by restating the writer's rule here.
            if statement.what.isEmpty { parsed.what = [] }
            XCTAssertEqual(Self.canonical(parsed), Self.canonical(statement), "\(text)\n→ \(sqlpp)")
        }
    }

    func testBuiltQueriesReadBackFromTheirSQLPP() throws {
        let type = Expression.property("type"), name = Expression.property("name")
        let query = QueryBuilder.selectDistinct(SelectResult.expression(Meta.id), SelectResult.expression(name).as("select"),
                                                SelectResult.expression(Expression.string("a 'quoted' literal")))
            .from(DataSource.collection(try Self.collection()).as("h"))
            .where(type.equalTo(Expression.string("hotel")).and(Expression.not(name.like(Expression.parameter("n"))))
                .and(ArrayExpression.any(ArrayExpression.variable("r")).in(Expression.property("reviews"))
                    .satisfies(ArrayExpression.variable("r.stars").greaterThan(Expression.int(-4)))))
            .orderBy(Ordering.expression(Function.lower(name).collate(Collation.unicode().ignoreCase(true))).descending())
            .limit(Expression.int(10), offset: Expression.double(-0.5))
        let sqlpp = query.sqlpp
        XCTAssertEqual(try Self.canonical(SQLPPParser.parse(sqlpp)), Self.canonical(query.statement), sqlpp)
        XCTAssertTrue(sqlpp.contains("AS `select`"), sqlpp)
        XCTAssertTrue(sqlpp.contains("('a ''quoted'' literal')"), sqlpp)   // a literal, not a path
    }

    private static func collection() throws -> DocLite.Collection {
        let directory = NSTemporaryDirectory() + "sqlpp-round-trip-" + UUID().uuidString
        let database = try Database(name: "db", config: DatabaseConfiguration(directory: directory))
        return try database.createCollection(name: "hotels")
    }

    /// The tree SQL++ gives for what it cannot write as such: AND, OR, `+`,
    /// `*` and `||` of more than two operands as nested pairs; no FROM as
    /// `FROM _ AS _doc`; a FROM item with only an alias as `_ AS alias`; a
    /// COLLATE's explicit null LOCALE as none.
    static func canonical(_ statement: SelectStatement) -> SelectStatement {
        var statement = statement
        if statement.from.isEmpty { statement.from = [DataSourceItem(collection: "_", alias: "_doc")] }
        statement.what = statement.what.map { ResultItem(expression: canonical($0.expression), alias: $0.alias) }
        statement.from = statement.from.map { item in
            var item = item
            if item.collection == nil && item.unnest == nil { item.collection = "_" }
            item.on = item.on.map(canonical)
            item.unnest = item.unnest.map(canonical)
            return item
        }
        statement.whereClause = statement.whereClause.map(canonical)
        statement.groupBy = statement.groupBy.map(canonical)
        statement.having = statement.having.map(canonical)
        statement.orderBy = statement.orderBy.map { OrderingItem(expression: canonical($0.expression), descending: $0.descending) }
        statement.limit = statement.limit.map(canonical)
        statement.offset = statement.offset.map(canonical)
        return statement
    }

    private static func canonical(_ expression: QueryExpression) -> QueryExpression {
        switch expression {
        case .operation(let op, let operands) where [.and, .or, .add, .multiply, .concat].contains(op) && operands.count > 2:
            return canonical(.operation(op, [.operation(op, Array(operands.dropLast())), operands.last!]))
        case .collate(var options, let operand):
            if options.locale == .some(nil) { options.locale = nil }
            return .collate(options, canonical(operand))
        default:
            return expression.replacingChildren(canonical)
        }
    }
}
