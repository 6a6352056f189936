import XCTest
@testable import DocLite

/// Query trees nest at most ``QueryDepth/limit`` levels, whatever built them:
/// a query at the limit builds, reads back from its JSON and runs in SQLite;
/// one level more is an error part, never a crash; a million levels cost a
/// million cheap calls, not a deep tree.
final class BuilderDepthTests: QueryTestCase {
    /// A way to nest one expression in another, and how many levels it adds.
    struct Family: Sendable {
        let name: String
        let levels: Int
        let wrap: @Sendable (ExpressionProtocol) -> ExpressionProtocol
    }

    static let families: [Family] = [
        Family(name: "not", levels: 1) { Expression.not($0) },
        Family(name: "add (right operand)", levels: 1) { Expression.int(1).add($0) },
        Family(name: "lower", levels: 1) { Function.lower($0) },
        Family(name: "array literal", levels: 1) { Expression.array([$0]) },
        Family(name: "dictionary literal", levels: 1) { Expression.dictionary(["k": $0]) },
        Family(name: "second argument", levels: 1) { Function.power(base: Expression.int(1), exponent: $0) },
        Family(name: "regex", levels: 1) { $0.regex(Expression.string("a")) },
        Family(name: "like pattern", levels: 1) { Expression.string("a").like($0) },
        Family(name: "between", levels: 1) { Expression.int(1).between(Expression.int(0), and: $0) },
        Family(name: "in", levels: 2) { Expression.int(1).in([Expression.int(2), $0]) },
        Family(name: "equal (right operand)", levels: 1) { Expression.int(1).equalTo($0) },
        Family(name: "collate", levels: 1) { $0.collate(Collation.ascii().ignoreCase(true)) },
        Family(name: "any", levels: 3) {
            ArrayExpression.any(ArrayExpression.variable("v")).in(Expression.property("tags")).satisfies($0)
        },
        Family(name: "every over the array", levels: 3) {
            ArrayExpression.every(ArrayExpression.variable("v")).in($0).satisfies(ArrayExpression.variable("v").equalTo(Expression.int(1)))
        },
    ]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try load([("a", #"{"x": 1, "tags": [1]}"#)])
    }

    /// `expression` as a result column and the ordering, and as the condition.
    private func queries(_ expression: ExpressionProtocol) -> [BuilderQuery] {
        let source = DataSource.collection(defaultCollection)
        return [QueryBuilder.select(SelectResult.expression(expression).as("e"), SelectResult.expression(Meta.id)).from(source)
                    .orderBy(Ordering.expression(expression)),
                QueryBuilder.select(SelectResult.expression(Meta.id)).from(source).where(expression)]
    }

    func testEveryFamilyRunsAtTheLimitAndFailsOneLevelDeeper() throws {
        for family in Self.families {
            var expression: ExpressionProtocol = Expression.property("x")
            while family.wrap(expression).builderError == nil { expression = family.wrap(expression) }
            XCTAssertGreaterThan(expression.node.depth, QueryDepth.limit - family.levels, family.name)
            for query in queries(expression) {
                let rows = try XCTUnwrap(try? query.execute().allResults().count, "\(family.name): \(query.json)")
                XCTAssertEqual(try db.createQuery(json: query.json).execute().allResults().count, rows, "\(family.name): \(query.json)")
            }
            XCTAssertEqual(try queries(expression)[0].execute().allResults().count, 1, family.name)

            let tooDeep = family.wrap(expression)
            XCTAssertEqual(tooDeep.builderError, QueryDepth.error, family.name)
            for query in queries(tooDeep) {
                assertThrows(.invalidQuery, containing: "nests deeper than the \(QueryDepth.limit) levels") { _ = try query.execute() }
            }
        }
    }

    /// Random mixes of every family, each query as deep as the limit allows:
    /// SQLite parses them all (`explain()` prepares the statement; running a
    /// mix may fail on its types, as POWER of an array does).
    func testMixedFamiliesAtTheLimitParse() throws {
        var random = SeededRandom(seed: 24)
        for round in 0..<300 {
            var expression: ExpressionProtocol = Expression.property("x")
            var names: [String] = []
            while let family = Self.families.filter({ $0.wrap(expression).builderError == nil }).randomElement(using: &random) {
                expression = family.wrap(expression)
                names.append(family.name)
            }
            XCTAssertGreaterThan(expression.node.depth, QueryDepth.limit - 4)
            for query in queries(expression) { XCTAssertNoThrow(try query.explain(), "round \(round): \(names)") }
        }
    }

    func testAMillionLevelsIsAnErrorNotACrash() throws {
        for family in Self.families {
            var expression: ExpressionProtocol = Expression.property("x")
            for _ in 0..<(family.name == "not" ? 1_000_000 : 10_000) { expression = family.wrap(expression) }
            XCTAssertEqual(expression.builderError, QueryDepth.error, family.name)
            assertThrows(.invalidQuery, containing: "nests deeper") { _ = try self.queries(expression)[1].execute() }
        }
    }

    func testChainsAreFlatNotDeep() throws {
        var condition = Expression.property("x").equalTo(Expression.int(1))
        var sum: ExpressionProtocol = Expression.int(0)
        for i in 0..<500 {   // (SQLite reads a chain as a tree: it takes up to 1,000 operands)
            condition = condition.and(Expression.property("x").notEqualTo(Expression.int(i + 2)))
            sum = sum.add(Expression.int(1))
        }
        XCTAssertLessThanOrEqual(condition.node.depth, QueryDepth.limit)
        let rows = try QueryBuilder.select(SelectResult.expression(sum).as("sum")).from(DataSource.collection(defaultCollection))
            .where(condition).execute().allResults()
        XCTAssertEqual(rows.map { $0.int(forKey: "sum") }, [500])
        for _ in 0..<1_000 { condition = condition.and(Expression.property("x").isValued()) }
        assertThrows(.invalidQuery, containing: "too large for SQLite") {
            _ = try QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(self.defaultCollection))
                .where(condition).execute()
        }
    }

    func testNestedSwiftValuesStopAtTheLimit() throws {
        var value: Any = 1
        for _ in 0..<5_000 { value = [value] }
        XCTAssertEqual(Expression.value(value).builderError, QueryDepth.error)
        var fits: Any = 1
        for _ in 1..<QueryDepth.limit { fits = ["k": fits] }
        XCTAssertNil(Expression.value(fits).builderError)
    }

    func testJSONQueriesShareTheLimit() throws {
        func nested(_ levels: Int) -> String {
            String(repeating: #"["NOT", "#, count: levels - 1) + #"[".x"]"# + String(repeating: "]", count: levels - 1)
        }
        XCTAssertEqual(try rows(#"{"WHAT": [\#(nested(QueryDepth.limit))]}"#).count, 1)
        assertThrows(.invalidQuery, containing: "nests deeper") { _ = try self.db.createQuery(json: #"{"WHAT": [\#(nested(QueryDepth.limit + 1))]}"#) }
    }
}
