import Foundation
import XCTest
@testable import DocLite

/// Vector search: `APPROX_VECTOR_DISTANCE()` over vector indexes and, without
/// one, over the documents' vectors, against distances computed here; Couchbase
/// Lite's placement rules and errors (LiteCore's VectorQueryTest and
/// couchbase-lite-C's VectorSearchTest are the behaviour matched).
final class VectorSearchTests: QueryTestCase {
    /// 3-d vectors on a line with a twist, so that neighbours differ per metric: `rec-000` … `rec-099`.
    private func vector(_ i: Int) -> [Double] { [Double(i), Double(i % 7) - 3, Double(100 - i) / 10] }

    private func loadVectors(count: Int = 100) throws {
        try db.inBatch {
            for i in 0..<count {
                let document = MutableDocument(id: String(format: "rec-%03d", i))
                    .setValue(vector(i), forKey: "vector").setInt(i, forKey: "num").setString(i % 2 == 0 ? "even" : "odd", forKey: "parity")
                try defaultCollection.save(document: document)
            }
            // No vector, or none of three numbers: never a row of a search.
            try load([("none", #"{"num": -1}"#), ("text", #"{"vector": "nope"}"#), ("short", #"{"vector": [1, 2]}"#),
                      ("mixed", #"{"vector": [1, "x", 3]}"#)])
        }
    }

    /// The `count` nearest documents to `target` by `metric`, computed here, with their distances.
    private func nearest(_ target: [Double], metric: DistanceMetric = .euclideanSquared, count: Int, among range: Range<Int> = 0..<100,
                         where include: (Int) -> Bool = { _ in true }) -> [(String, Double)] {
        func distance(_ v: [Double]) -> Double {
            var dot = 0.0, squared = 0.0, vv = 0.0, tt = 0.0
            for (a, b) in zip(v.map { Double(Float($0)) }, target.map { Double(Float($0)) }) {
                dot += a * b
                squared += (a - b) * (a - b)
                vv += a * a
                tt += b * b
            }
            switch metric {
            case .euclideanSquared: return squared
            case .euclidean: return squared.squareRoot()
            case .dot: return -dot
            case .cosine: return 1 - dot / (vv * tt).squareRoot()
            }
        }
        let scored: [(String, Double)] = range.filter(include).map { (String(format: "rec-%03d", $0), distance(vector($0))) }
        return Array(scored.sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }.prefix(count))
    }

    /// Runs SQL++ with `$target`; the rows' IDs and distances (column `distance`).
    private func search(_ sqlpp: String, target: Any = [40.2, -1.0, 6.1]) throws -> [(String, Double)] {
        let query = try db.createQuery(sqlpp)
        let parameters = Parameters()
        parameters.setValue(target, forName: "target")
        query.parameters = parameters
        return try query.execute().allResults().map { row in
            (row.string(forKey: "id") ?? "?", row.double(forKey: "distance"))
        }
    }

    private func assertNear(_ got: [(String, Double)], _ expected: [(String, Double)], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(got.map(\.0), expected.map(\.0), file: file, line: line)
        for (g, e) in zip(got, expected) { XCTAssertEqual(g.1, e.1, accuracy: 1e-3 * max(1, abs(e.1)), g.0, file: file, line: line) }
    }

    private let topFive = "SELECT META().id AS id, APPROX_VECTOR_DISTANCE(vector, $target) AS distance FROM _ "
        + "ORDER BY APPROX_VECTOR_DISTANCE(vector, $target) LIMIT 5"

    func testNearestDocumentsWithAndWithoutAnIndex() throws {
        try loadVectors()
        let expected = nearest([40.2, -1.0, 6.1], count: 5)
        assertNear(try search(topFive), expected)
        XCTAssertFalse(try db.createQuery(topFive).explain().contains("vec1_"))

        try defaultCollection.createIndex(withName: "vectors", config: VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 2))
        assertNear(try search(topFive), expected)
        let plan = try db.createQuery(topFive).explain()
        XCTAssertTrue(plan.contains("vec1_"), plan)

        // Saves, deletes and purges keep the index in step.
        try defaultCollection.save(document: MutableDocument(id: "new").setValue([40.0, -1.0, 6.0], forKey: "vector"))
        try defaultCollection.delete(document: try XCTUnwrap(defaultCollection.document(id: expected[0].0)))
        try defaultCollection.purge(id: expected[1].0)
        try defaultCollection.save(document: try XCTUnwrap(defaultCollection.document(id: expected[2].0)).toMutable()
            .setString("gone", forKey: "vector"))
        let after = try search(topFive)
        XCTAssertEqual(after.first?.0, "new")
        XCTAssertEqual(Array(after.dropFirst().map(\.0)), [expected[3].0, expected[4].0] + nearest([40.2, -1.0, 6.1], count: 7).suffix(2).map(\.0))
    }
}
