import XCTest
@testable import DocLite

/// Value indexes: SQLite uses them (explain shows it), and their lifecycle.
final class ValueIndexTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try load((1...200).map { ("h\($0)", #"{"type": "\#($0 % 2 == 0 ? "hotel" : "inn")", "name": "Hotel \#($0)", "price": \#($0 * 3 % 250), "rating": \#(Double($0 % 50) / 10)}"#) })
    }

    func plan(_ json: String) throws -> String {
        try db.createQuery(json: json).explain().components(separatedBy: "\n\n")[1]
    }

    func testEqualityRangeAndOrderByUseTheIndex() throws {
        let point = #"{"WHAT": [["._id"], [".name"]], "WHERE": ["=", [".name"], "Hotel 54"]}"#
        XCTAssertFalse(try plan(point).contains("USING INDEX"))
        try defaultCollection.createIndex(IndexBuilder.valueIndex(items: .property("name")), name: "byName")
        let pointPlan = try plan(point)
        XCTAssertTrue(pointPlan.contains("SEARCH s0 USING INDEX ix1_"), pointPlan)
        XCTAssertEqual(try ids(point), ["h54"])

        try defaultCollection.createIndex(withName: "byPrice", config: ValueIndexConfiguration(json: #"[[".price"], [".rating"]]"#))
        let range = #"{"WHAT": [[".price"]], "WHERE": ["AND", [">=", [".price"], 100], ["<", [".price"], 110]], "ORDER_BY": [["DESC", [".price"]], ["DESC", [".rating"]]], "LIMIT": 3}"#
        let rangePlan = try plan(range)
        XCTAssertTrue(rangePlan.contains("USING INDEX"), rangePlan)
        // The (price, rating) index gives the whole order: no sort.
        XCTAssertFalse(rangePlan.contains("TEMP B-TREE"), rangePlan)
        XCTAssertEqual(try rows(range).map { $0[0] }, [.int(108), .int(107), .int(105)])
    }

    func testSQLPPIndexesAreTheSameIndexes() throws {
        try defaultCollection.createIndex(withName: "byTypeAndPrice", config: ValueIndexConfiguration(["type", "price"]))
        let sqlpp = try db.createQuery("SELECT META().id FROM _ WHERE type = 'hotel' AND price > 240 ORDER BY price")
        let plan = try sqlpp.explain()
        XCTAssertTrue(plan.contains("USING INDEX"), plan)
        XCTAssertEqual(try sqlpp.execute().allResults().map { $0.string(at: 0) }, ["h164", "h82", "h166"])
        // The same index in JSON: the same definition, so a no-op.
        try defaultCollection.createIndex(withName: "byTypeAndPrice", config: ValueIndexConfiguration(json: #"[[".type"], [".price"]]"#))
        // Expressions and a partial index's condition in SQL++ (the same index as its JSON form).
        try defaultCollection.createIndex(withName: "cheapNames", config: ValueIndexConfiguration(["lower(name), rating"], where: "price < 10"))
        let partial = try db.createQuery("SELECT META().id FROM _ WHERE price < 10 AND lower(name) = 'hotel 3'")
        XCTAssertEqual(try partial.execute().allResults().map { $0.string(at: 0) }, ["h3"])
        try defaultCollection.createIndex(withName: "cheapNames", config: ValueIndexConfiguration(
            json: #"[["LOWER()", [".name"]], [".rating"]]"#, where: #"["<", [".price"], 10]"#))   // no-op: the same definition
        XCTAssertEqual(try defaultCollection.indexes(), ["byTypeAndPrice", "cheapNames"])
    }

    func testAQueryCompiledBeforeTheIndexUsesItAfterwards() throws {
        let query = try db.createQuery(json: #"{"WHAT": [["._id"]], "WHERE": ["=", [".name"], "Hotel 7"]}"#)
        XCTAssertTrue(try query.explain().contains("doc_eq("))   // unindexed: the fused comparison
        try defaultCollection.createIndex(IndexBuilder.valueIndex(items: .property("name")), name: "byName")
        XCTAssertTrue(try query.explain().contains("USING INDEX"))
        XCTAssertEqual(try query.execute().next()?.string(at: 0), "h7")
        try defaultCollection.deleteIndex(forName: "byName")
        XCTAssertFalse(try query.explain().contains("USING INDEX"))
        XCTAssertEqual(try query.execute().next()?.string(at: 0), "h7")
    }

    func testPartialIndex() throws {
        try defaultCollection.createIndex(withName: "hotelPrices", config: ValueIndexConfiguration(json: #"[[".price"]]"#, where: #"["=", [".type"], "hotel"]"#))
        let query = #"{"WHAT": [["._id"]], "WHERE": ["AND", ["=", [".type"], "hotel"], ["=", [".price"], 12]]}"#
        let partialPlan = try plan(query)
        XCTAssertTrue(partialPlan.contains("USING INDEX"), partialPlan)
        XCTAssertEqual(try ids(query), ["h4"])
    }

    func testCreateTwiceIsANoOpAndADifferentDefinitionReplaces() throws {
        let collection = defaultCollection
        try collection.createIndex(IndexBuilder.valueIndex(items: .property("name")), name: "idx")
        try collection.createIndex(IndexBuilder.valueIndex(items: .property("name")), name: "idx")
        XCTAssertEqual(try collection.indexes(), ["idx"])
        try collection.createIndex(IndexBuilder.valueIndex(items: .property("price")), name: "idx")
        XCTAssertEqual(try collection.indexes(), ["idx"])
        XCTAssertTrue(try plan(#"{"WHERE": [">", [".price"], 240]}"#).contains("USING INDEX"))
        XCTAssertFalse(try plan(#"{"WHERE": [">", [".name"], "Hotel 9"]}"#).contains("USING INDEX"))
        try collection.createIndex(withName: "another", config: ValueIndexConfiguration(json: #"["type"]"#))
        XCTAssertEqual(try collection.indexes(), ["another", "idx"])
        try collection.deleteIndex(forName: "idx")
        try collection.deleteIndex(forName: "idx")   // already gone: not an error
        XCTAssertEqual(try collection.indexes(), ["another"])
        XCTAssertEqual(try collection.index(withName: "another")?.name, "another")
        XCTAssertTrue(try collection.index(withName: "another")?.collection === collection)
        XCTAssertNil(try collection.index(withName: "idx"))
        try reopen()
        XCTAssertEqual(try defaultCollection.indexes(), ["another"])
        let typePlan = try db.createQuery(json: #"{"WHERE": ["=", [".type"], "inn"]}"#).explain()
        XCTAssertTrue(typePlan.contains("USING INDEX"), typePlan)
    }

    func testIndexesAreKeptPerCollectionAndDroppedWithIt() throws {
        let other = try db.createCollection(name: "other")
        try other.createIndex(IndexBuilder.valueIndex(items: .property("name")), name: "idx")
        try defaultCollection.createIndex(IndexBuilder.valueIndex(items: .property("name")), name: "idx")
        XCTAssertEqual(try other.indexes(), ["idx"])
        try db.deleteCollection(name: "other")
        XCTAssertEqual(try defaultCollection.indexes(), ["idx"])
        let recreated = try db.createCollection(name: "other")
        XCTAssertEqual(try recreated.indexes(), [])
    }

    func testBadDefinitionsAreErrors() throws {
        let collection = defaultCollection
        assertThrows(.invalidQuery, containing: "not valid JSON") {
            try collection.createIndex(withName: "x", config: ValueIndexConfiguration(json: "[[.name]"))
        }
        assertThrows(.invalidQuery, containing: "at least one expression") {
            try collection.createIndex(withName: "x", config: ValueIndexConfiguration(json: "[]"))
        }
        assertThrows(.invalidQuery, containing: "index expression 'name,': SQL++ syntax error near character 6") {
            try collection.createIndex(withName: "x", config: ValueIndexConfiguration(["name,"]))
        }
        assertThrows(.invalidQuery, containing: "at least one expression") {
            try collection.createIndex(withName: "x", config: ValueIndexConfiguration([]))
        }
        assertThrows(.invalidQuery, containing: "an index expression cannot use parameters") {
            try collection.createIndex(withName: "x", config: ValueIndexConfiguration(json: #"[["$p"]]"#))
        }
        assertThrows(.invalidQuery, containing: "aggregate function 'count()' is not allowed") {
            try collection.createIndex(withName: "x", config: ValueIndexConfiguration(json: #"[["COUNT()"]]"#))
        }
        assertThrows(.invalidQuery, containing: "invalid property path") {
            try collection.createIndex(IndexBuilder.valueIndex(items: .property("a..b")), name: "x")
        }
        assertThrows(.invalidParameter, containing: "empty") {
            try collection.createIndex(IndexBuilder.valueIndex(items: .property("a")), name: "")
        }
        XCTAssertEqual(try collection.indexes(), [])
    }

    func testAnIndexCreatedInAFailedBatchIsForgotten() throws {
        struct Abort: Error {}
        XCTAssertThrowsError(try db.inBatch {
            try defaultCollection.createIndex(IndexBuilder.valueIndex(items: .property("name")), name: "idx")
            throw Abort()
        })
        XCTAssertEqual(try defaultCollection.indexes(), [])
        XCTAssertFalse(try plan(#"{"WHERE": ["=", [".name"], "Hotel 1"]}"#).contains("USING INDEX"))
        XCTAssertEqual(try idsWhere(#"["=", [".name"], "Hotel 1"]"#), ["h1"])
    }
}
