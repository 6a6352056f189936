import Foundation
import XCTest
@testable import DocLite

/// A regression check on query plans: each query that an index should serve
/// still reads it (SQLite's plan names the index), and returns the rows it
/// returns without the index. Standard-benchmark shapes on a small data set.
final class IndexPlanTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        let cities = ["Madrid", "Berlin", "Oslo", "Paris"], tags = ["spa", "pool", "gym", "bar"]
        try load((0..<200).map { i in
            ("doc-\(i)", """
                {"type": "hotel", "name": "Hotel \(i)", "city": "\(cities[i % 4])", "price": \((i * 37) % 500),
                 "rating": \(Double(i % 50) / 10), "tags": ["\(tags[i % 4])", "\(tags[(i / 4) % 4])"],
                 "description": "A \(i % 3 == 0 ? "royal palace" : "plain") hotel no. \(i)"}
                """)
        } + [("n1", #"{"name": 12345}"#), ("n2", #"{"name": "Hotel"}"#)])
    }

    /// The rows, sorted (an index may give them in another order).
    private func rows(_ sqlpp: String) throws -> [String] {
        try db.createQuery(sqlpp).execute().allResults().map { $0.toJSON() }.sorted()
    }

    /// Asserts that SQLite searches `index` (a lookup or a range, not a scan of it) for `sqlpp`.
    private func assertPlan(_ sqlpp: String, uses index: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let plan = try db.createQuery(sqlpp).explain()
        let searches = plan.split(separator: "\n").contains { $0.contains("SEARCH") && $0.contains("INDEX \(index)") }
        XCTAssertTrue(searches, "the plan no longer searches \(index):\n\(plan)", file: file, line: line)
    }

    private func sqlName(_ prefix: String, _ name: String) -> String {
        "\(prefix)1_" + name.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    func testValueIndexesServePointRangeSortAndPrefixQueries() throws {
        let queries = [
            "SELECT META().id, name, city FROM _ WHERE name = 'Hotel 123'",
            "SELECT name, price FROM _ WHERE price >= 100 AND price < 200 ORDER BY price DESC, name LIMIT 10",
            "SELECT name FROM _ WHERE name LIKE 'Hotel 1%'",
            "SELECT name FROM _ WHERE name LIKE 'Hotel 1_'",
            "SELECT name FROM _ WHERE name LIKE 'Hotel'",
            "SELECT name FROM _ WHERE name LIKE '1%'",
            "SELECT name FROM _ WHERE name LIKE '%otel 7'",
        ]
        let scanned = try queries.map(rows)
        XCTAssertEqual(scanned[2].count, 111)   // Hotel 1, 10–19, 100–199
        XCTAssertEqual(scanned[5], [#"{"name":12345}"#], "a number matches LIKE as text")
        try defaultCollection.createIndex(IndexBuilder.valueIndex(items: .property("name")), name: "name")
        try defaultCollection.createIndex(IndexBuilder.valueIndex(items: .property("price")), name: "price")
        XCTAssertEqual(try queries.map(rows), scanned)
        for query in queries[0...4] where !query.contains("price") { try assertPlan(query, uses: sqlName("ix", "name")) }
        try assertPlan(queries[1], uses: sqlName("ix", "price"))
        for query in queries[5...6] {
            let plan = try db.createQuery(query).explain()
            XCTAssertFalse(plan.contains(">="), "no range where a number or a leading wildcard may match:\n\(plan)")
        }
    }

    func testArrayPredictiveAndFullTextIndexesServeTheirQueries() throws {
        try defaultCollection.createIndex(withName: "tags", config: ArrayIndexConfiguration(path: "tags"))
        try assertPlan("SELECT META(d).id FROM _ AS d UNNEST d.tags AS t WHERE t = 'spa'", uses: sqlName("arr", "tags") + "_value")

        let model = CountingModel { ["band": $0.int(forKey: "price") < 250 ? "low" : "high"] }
        Database.prediction.registerModel(model, withName: "band")
        defer { Database.prediction.unregisterModel(withName: "band") }
        try defaultCollection.createIndex(withName: "band", config: PredictiveIndexConfiguration(model: "band", input: "{'price': price}",
                                                                                             properties: ["band"]))
        try assertPlan("SELECT META().id FROM _ WHERE PREDICTION(band, {'price': price}).band = 'high'", uses: sqlName("pred", "band") + "_0")

        try defaultCollection.createIndex(withName: "text", config: FullTextIndexConfiguration(["description"]))
        let plan = try db.createQuery("SELECT META().id FROM _ WHERE MATCH(text, 'palace')").explain()
        XCTAssertTrue(plan.contains("VIRTUAL TABLE INDEX"), plan)
    }
}
