import Foundation
import XCTest
@testable import DocLite

/// Array indexes: UNNEST queries over an indexed array read the index (the plan
/// shows it) and return the rows they return without it, also as documents change.
final class ArrayIndexTests: QueryTestCase {
    private let documents = [
        ("a", #"{"tags": ["red", "blue"], "contacts": [{"type": "home", "city": "Oslo"}, {"type": "work", "city": "Bergen"}]}"#),
        ("b", #"{"tags": ["blue", 7, true, null, {"k": 1}, [1, 2]], "contacts": [{"type": "home", "city": "Bergen"}]}"#),
        ("c", #"{"tags": "solo", "contacts": []}"#),
        ("d", #"{"name": "no arrays"}"#),
        ("e", #"{"tags": [], "contacts": [{"type": "work"}, {"city": "Oslo"}]}"#),
    ]

    private let queries = [
        "SELECT META(d).id, t FROM _ AS d UNNEST d.tags AS t ORDER BY META(d).id, t",
        "SELECT META(d).id FROM _ AS d UNNEST d.tags AS t WHERE t = 'blue' ORDER BY META(d).id",
        "SELECT t, count(*) AS n FROM _ AS d UNNEST d.tags AS t GROUP BY t ORDER BY t",
        "SELECT META(d).id, t FROM _ AS d UNNEST d.tags AS t WHERE t = true OR t = 7 OR t IS NULL ORDER BY META(d).id, t",
        "SELECT META(d).id, c.city FROM _ AS d UNNEST d.contacts AS c WHERE c.type = 'home' ORDER BY c.city",
        "SELECT META(d).id, c FROM _ AS d UNNEST d.contacts AS c WHERE c.city IS MISSING",
        "SELECT DISTINCT META(d).id FROM _ AS d UNNEST d.tags AS t UNNEST d.contacts AS c WHERE c.city = 'Bergen' ORDER BY META(d).id",
    ]

    private func results() throws -> [[String]] {
        try queries.map { try db.createQuery($0).execute().allResults().map { $0.toJSON() } }
    }

    func testUnnestQueriesReadTheIndexAndReturnTheSameRows() throws {
        try load(documents)
        let scanned = try results()
        XCTAssertEqual(scanned[1], [#"{"id":"a"}"#, #"{"id":"b"}"#])
        XCTAssertEqual(scanned[3], [#"{"id":"b","t":true}"#, #"{"id":"b","t":7}"#, #"{"id":"b","t":null}"#])
        XCTAssertEqual(scanned[2].first, #"{"n":1,"t":true}"#, "a boolean element grouped stays a boolean")

        try defaultCollection.createIndex(withName: "tags", config: ArrayIndexConfiguration(path: "tags"))
        try defaultCollection.createIndex(withName: "contacts", config: ArrayIndexConfiguration(path: "contacts", expressions: ["type", "city"]))
        XCTAssertEqual(try results(), scanned)
        for (query, index) in [(queries[1], "tags"), (queries[4], "contacts")] {
            let plan = try db.createQuery(query).explain()
            let table = "arr1_" + index.utf8.map { String($0, radix: 16) }.joined()
            XCTAssertTrue(plan.contains("USING INDEX \(table)_value") || plan.contains("USING COVERING INDEX \(table)_value"), plan)
            XCTAssertFalse(plan.contains("doc_each"), plan)
        }

        // Saves, updates, deletes and purges keep the index.
        try load([("f", #"{"tags": ["blue"], "contacts": [{"type": "home", "city": "Tromsø"}]}"#)])
        try defaultCollection.save(document: try XCTUnwrap(defaultCollection.document(id: "a")).toMutable()
            .setArray(MutableArrayObject(data: ["green"]), forKey: "tags"))
        try defaultCollection.delete(document: try XCTUnwrap(defaultCollection.document(id: "b")))
        try defaultCollection.purge(id: "e")
        let indexed = try results()
        XCTAssertEqual(indexed[1], [#"{"id":"f"}"#])
        try defaultCollection.deleteIndex(forName: "tags")
        try defaultCollection.deleteIndex(forName: "contacts")
        XCTAssertEqual(try results(), indexed, "without the indexes, the same rows")
        XCTAssertTrue(try db.createQuery(queries[1]).explain().contains("doc_each"))
    }

    func testTheBuilderFormAndMistakes() throws {
        try load(documents)
        try db.createIndex(IndexBuilder.arrayIndex(path: "contacts", expressions: [Expression.property("city")]), withName: "cities")
        // (The QueryBuilder has no UNNEST, as Couchbase Lite's has none: the JSON form.)
        let query = try db.createQuery(json: """
            {"WHAT": [[".d._id"]], "FROM": [{"AS": "d"}, {"UNNEST": [".d.contacts"], "AS": "c"}],
             "WHERE": ["=", [".c.city"], "Oslo"], "ORDER_BY": [[".d._id"]]}
            """)
        XCTAssertEqual(try query.execute().allResults().map { $0.string(at: 0) }, ["a", "e"])
        let plan = try query.explain()
        XCTAssertTrue(plan.contains("arr1_"), plan)

        assertThrows(.unsupported, containing: "nested arrays") {
            try self.defaultCollection.createIndex(withName: "x", config: ArrayIndexConfiguration(path: "contacts[].phones"))
        }
        assertThrows(.invalidParameter, containing: "array index path") {
            try self.defaultCollection.createIndex(withName: "x", config: ArrayIndexConfiguration(path: "a..b"))
        }
        assertThrows(.invalidQuery) {
            try self.defaultCollection.createIndex(withName: "x", config: ArrayIndexConfiguration(path: "tags", expressions: ["(("]))
        }
        XCTAssertEqual(try defaultCollection.indexes(), ["cities"])
    }
}
