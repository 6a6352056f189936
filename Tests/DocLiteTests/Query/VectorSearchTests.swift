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

    /// `config` with no encoding, so that distances are exact (an index trained with the
    /// default SQ8 gives approximate ones: VectorIndexTrainingTests).
    private func exact(_ config: VectorIndexConfiguration) -> VectorIndexConfiguration {
        var config = config
        config.encoding = .none
        return config
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

        try defaultCollection.createIndex(withName: "vectors", config: exact(VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 2)))
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

    func testEveryMetricWithItsIndexAndItsNames() throws {
        try loadVectors()
        let target = [40.2, -1.0, 6.1]
        for (metric, names) in [(DistanceMetric.euclideanSquared, ["euclidean_squared", "L2_squared", "default", "EUCLIDEAN2"]),
                                (.euclidean, ["euclidean", "l2"]), (.cosine, ["cosine", "COSINE_DISTANCE"]),
                                (.dot, ["dot", "dot_product_distance"])] {
            let expected = nearest(target, metric: metric, count: 4)
            let query = { (name: String) in
                "SELECT META().id AS id, APPROX_VECTOR_DISTANCE(vector, $target, '\(name)') AS distance FROM _ ORDER BY distance LIMIT 4"
            }
            assertNear(try search(query(names[0])), expected)   // exact, without an index
            var config = VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 4)
            config.encoding = .none
            config.metric = metric
            try defaultCollection.createIndex(withName: "vectors", config: config)
            for name in names { assertNear(try search(query(name)), expected) }
            // Without a metric, the index's.
            assertNear(try search("SELECT META().id AS id, APPROX_VECTOR_DISTANCE(vector, $target) AS distance FROM _ ORDER BY distance LIMIT 4"),
                       expected)
            let other = DistanceMetric.allCases.first { $0 != metric }!
            assertThrows(.invalidQuery, containing: "\(other.name) does not match the index's metric, \(metric.name)") {
                _ = try search(query(other.name))
            }
            try defaultCollection.deleteIndex(forName: "vectors")
        }
    }

    func testHybridSearchesFilterOtherPropertiesAndNeedNoLimit() throws {
        try loadVectors()
        try defaultCollection.createIndex(withName: "vectors", config: exact(VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 2)))
        let target = [40.2, -1.0, 6.1]
        // Every even document, nearest first: the WHERE is not only a bound on the distance.
        let even = "SELECT META().id AS id, APPROX_VECTOR_DISTANCE(vector, $target) AS distance FROM _ WHERE parity = 'even' ORDER BY distance"
        assertNear(try search(even), nearest(target, count: 100, where: { $0 % 2 == 0 }))
        assertNear(try search(even + " LIMIT 3 OFFSET 1"), Array(nearest(target, count: 4, where: { $0 % 2 == 0 }).dropFirst()))
        // A bound on the distance alone is a simple search, LIMIT first.
        let bounded = "SELECT META().id AS id, APPROX_VECTOR_DISTANCE(vector, $target) AS distance FROM _ "
            + "WHERE APPROX_VECTOR_DISTANCE(vector, $target) < 20 ORDER BY distance LIMIT 10"
        assertNear(try search(bounded), nearest(target, count: 10).filter { $0.1 < 20 })
        // With full-text search.
        try load([("note-1", #"{"text": "a blue whale", "vector": [40, -1, 6]}"#), ("note-2", #"{"text": "a blue sky", "vector": [0, 0, 0]}"#),
                  ("note-3", #"{"text": "a red fox", "vector": [40, -1, 6.1]}"#)])
        try defaultCollection.createIndex(withName: "text", config: FullTextIndexConfiguration(["text"]))
        let words = "SELECT META().id AS id, APPROX_VECTOR_DISTANCE(vector, $target) AS distance FROM _ WHERE MATCH(text, 'blue') "
            + "ORDER BY distance"
        XCTAssertEqual(try search(words).map(\.0), ["note-1", "note-2"])
    }

    func testOffsetPagesThroughTheNearest() throws {
        try loadVectors()
        let target = [40.2, -1.0, 6.1]
        let page = "SELECT META().id AS id, APPROX_VECTOR_DISTANCE(vector, $target) AS distance FROM _ ORDER BY distance LIMIT 3 OFFSET 3"
        assertNear(try search(page), Array(nearest(target, count: 6).suffix(3)))
        for limit in ["0", "-1"] {
            XCTAssertEqual(try search("SELECT META().id AS id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target) LIMIT \(limit)").count, 0)
        }
    }

    func testBase64VectorsAndTargets() throws {
        func base64(_ items: [Float]) -> String { items.withUnsafeBytes { Data($0).base64EncodedString() } }
        try load([("a", #"{"vector": "\#(base64([1, 2, 3]))"}"#), ("b", #"{"vector": [1, 2, 4]}"#), ("c", #"{"vector": "\#(base64([9, 9]))"}"#)])
        let query = "SELECT META().id AS id, APPROX_VECTOR_DISTANCE(vector, $target) AS distance FROM _ ORDER BY distance LIMIT 5"
        for indexed in [false, true] {
            if indexed {
                try defaultCollection.createIndex(withName: "v", config: exact(VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 1)))
            }
            let rows = try search(query, target: base64([1, 2, 3.5]))
            XCTAssertEqual(rows.map(\.0), ["a", "b"], "indexed: \(indexed); c has 2 items")
            XCTAssertEqual(rows.first?.1 ?? -1, 0.25, accuracy: 1e-6)
        }
    }

    func testAVectorIndexOnAPrediction() throws {
        final class Embedding: PredictiveModel {
            func predict(input: DictionaryObject) -> DictionaryObject? {
                guard let word = input.string(forKey: "word") else { return nil }
                return MutableDictionaryObject(data: ["vector": [Double(word.count), Double(word.utf8.first ?? 0)]])
            }
        }
        Database.prediction.registerModel(Embedding(), withName: "embed")
        defer { Database.prediction.unregisterModel(withName: "embed") }
        try load([("cat", #"{"word": "cat"}"#), ("horse", #"{"word": "horse"}"#), ("dog", #"{"word": "dog"}"#), ("none", "{}")])
        let expression = "PREDICTION(embed, {\"word\": word}).vector"
        try defaultCollection.createIndex(withName: "embedded", config: exact(VectorIndexConfiguration(expression: expression, dimensions: 2, centroids: 1)))
        let query = "SELECT META().id AS id, APPROX_VECTOR_DISTANCE(\(expression), $target) AS distance FROM _ ORDER BY distance LIMIT 2"
        XCTAssertTrue(try db.createQuery(query).explain().contains("vec1_"))
        XCTAssertEqual(try search(query, target: [3, 99.8]).map(\.0), ["dog", "cat"])
    }

    func testPlacementErrors() throws {
        try loadVectors(count: 10)
        let call = "APPROX_VECTOR_DISTANCE(vector, $target)"
        let cases: [(String, String)] = [
            ("SELECT META().id FROM _ ORDER BY \(call)", "a LIMIT must be given"),
            ("SELECT \(call) AS distance FROM _", "a LIMIT must be given"),
            ("SELECT META().id FROM _ WHERE \(call) < 10 ORDER BY \(call)", "a LIMIT must be given"),
            ("SELECT META().id FROM _ ORDER BY \(call) LIMIT 10001", "LIMIT must not exceed 10000"),
            ("SELECT META().id FROM _ WHERE num = 3 OR \(call) < 10 LIMIT 5", "can't be used within an OR"),
            ("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE('vector', $target) LIMIT 5", "unknown source collection"),
            ("SELECT META().id FROM _ AS a JOIN _ AS b ON META(a).id = META(b).id ORDER BY APPROX_VECTOR_DISTANCE([a.num, b.num], $target) LIMIT 5",
             "may only refer to a single collection"),
            ("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target, 'manhattan') LIMIT 5", "invalid metric name 'manhattan'"),
            ("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target, 5) LIMIT 5", "3rd argument (metric)"),
            ("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target, 'L2', 0) LIMIT 5", "out of range"),
            ("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target, 'L2', -6) LIMIT 5", "out of range"),
            ("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target, 'L2', 'x') LIMIT 5", "must be an integer"),
            ("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target, 'L2', 5, true) LIMIT 5", "does not support 'accurate'=true"),
            ("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target, 'L2', 5, 1) LIMIT 5", "must be boolean"),
            ("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector) LIMIT 5", "approx_vector_distance() takes 2 to 5 arguments"),
        ]
        for (sqlpp, message) in cases {
            assertThrows(.invalidQuery, containing: message) { _ = try db.createQuery(sqlpp) }
        }
        // Allowed: an AND in WHERE (hybrid), probes and accurate=false, no LIMIT in a hybrid search.
        for sqlpp in ["SELECT META().id FROM _ WHERE num > 3 AND \(call) < 100",
                      "SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target, 'euclidean_squared', 3, false) LIMIT 5"] {
            XCTAssertNoThrow(try search(sqlpp), sqlpp)
        }
    }

    func testBadTargetsAndVectorsAreErrorsOrSkipped() throws {
        try loadVectors(count: 10)
        let query = "SELECT META().id AS id, APPROX_VECTOR_DISTANCE(vector, $target) AS distance FROM _ ORDER BY distance LIMIT 5"
        for (target, message) in [("abc", "not Base64"), (["x", "y"], "not a number at index 0"), (7, "is not a vector"),
                                  ([1.0], "has 1 item"), ([1e300, 1], "not a finite float32")] as [(Any, String)] {
            assertThrows(.invalidQuery, containing: message) { _ = try search(query, target: target) }
        }
        assertThrows(.invalidParameter, containing: "NaN") { _ = try search(query, target: [1.0, .nan]) }
        XCTAssertEqual(try search(query, target: [1.0, 2.0]).map(\.0), ["short"], "without an index, only vectors of the target's length")
        try defaultCollection.createIndex(withName: "v", config: exact(VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 1)))
        assertThrows(.invalidQuery, containing: "the target vector has 2 dimensions; the vector index has 3") {
            _ = try search(query, target: [1.0, 2.0])
        }
        XCTAssertEqual(try search(query, target: NSNull()).count, 0, "a null target finds nothing")
    }

    func testIndexConfigurationErrors() throws {
        func config(_ dimensions: UInt32, _ centroids: UInt32, _ change: (inout VectorIndexConfiguration) -> Void = { _ in }) -> VectorIndexConfiguration {
            var config = VectorIndexConfiguration(expression: "vector", dimensions: dimensions, centroids: centroids)
            change(&config)
            return config
        }
        let cases: [(VectorIndexConfiguration, String)] = [
            (config(0, 8), "dimensions 0 is too small"), (config(1, 8), "dimensions 1 is too small"),
            (config(4097, 8), "dimensions 4097 is too large"), (config(5000, 8), "dimensions 5000 is too large"),
            (config(3, 0), "centroids 0 is too small"), (config(3, 64001), "centroids 64001 is too large"),
            (config(6, 8) { $0.encoding = .productQuantizer(subquantizers: 4, bits: 8) }, "must divide the dimensions"),
            (config(8, 8) { $0.encoding = .productQuantizer(subquantizers: 4, bits: 13) }, "bits 13 is too large"),
            (config(8, 8) { $0.encoding = .productQuantizer(subquantizers: 1, bits: 8) }, "subquantizers 1 is too small"),
            (config(3, 8) { $0.numProbes = 0 }, "numProbes 0 is too small"), (config(3, 8) { $0.numProbes = 9 }, "numProbes 9 is too large"),
            (config(3, 8) { $0.minTrainingSize = 100; $0.maxTrainingSize = 50 }, "maxTrainingSize 50 is too small"),
        ]
        for (config, message) in cases {
            assertThrows(.invalidParameter, containing: message) { try defaultCollection.createIndex(withName: "v", config: config) }
        }
        assertThrows(.invalidParameter, containing: "one expression") {
            try defaultCollection.createIndex(withName: "v", config: VectorIndexConfiguration(expression: "a, b", dimensions: 3, centroids: 1))
        }
        XCTAssertEqual(try defaultCollection.indexes(), [])
        // Every encoding that is valid is kept, and the index comes back after reopening.
        for encoding in [VectorEncoding.none, .scalarQuantizer(type: .SQ4), .scalarQuantizer(type: .SQ6), .productQuantizer(subquantizers: 2, bits: 4)] {
            try defaultCollection.createIndex(withName: "v", config: config(4, 2) { $0.encoding = encoding; $0.numProbes = 2 })
        }
        try reopen()
        XCTAssertEqual(try defaultCollection.indexes(), ["v"])
    }

    /// Couchbase Lite's "Working with Vector Search" guide: its index configuration, its
    /// SQL++ query, a hybrid one, and the same search with the QueryBuilder.
    func testTheGuidesVectorSearch() throws {
        let colors = try db.createCollection(name: "colors")
        let data: [(String, [Double], Double)] = [
            ("maroon", [0.5, 0, 0.1], 0.9), ("red", [1, 0, 0], 1), ("rose", [0.9, 0.2, 0.25], 0.4), ("salmon", [0.98, 0.5, 0.45], 0.53),
            ("orange", [1, 0.65, 0], 1), ("pink", [1, 0.75, 0.8], 0.25), ("grey", [0.5, 0.5, 0.5], 0), ("blue", [0, 0, 1], 1),
        ]
        for (name, vector, saturation) in data {
            try colors.save(document: MutableDocument(id: name).setString(name, forKey: "color").setValue(vector, forKey: "vector")
                .setDouble(saturation, forKey: "saturation"))
        }
        var config = VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 100)
        config.encoding = .none
        config.metric = .cosine
        config.numProbes = 8
        config.minTrainingSize = 2500
        config.maxTrainingSize = 5000
        try colors.createIndex(withName: "colors_index", config: config)

        let parameters = Parameters()
        parameters.setValue([0.9, 0.1, 0.1], forName: "vector")
        func colorsOf(_ query: Query) throws -> [String] {
            query.parameters = parameters
            return try query.execute().allResults().map { $0.string(forKey: "color") ?? "?" }
        }
        let sql = "SELECT META().id, color FROM _default.colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector) LIMIT 4"
        XCTAssertEqual(try colorsOf(db.createQuery(sql)), ["maroon", "red", "rose", "salmon"])
        XCTAssertEqual(try colorsOf(db.createQuery("SELECT color FROM colors WHERE saturation > 0.5 "
                                                   + "ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector) LIMIT 3")), ["maroon", "red", "salmon"])
        let built = QueryBuilder.select(SelectResult.property("color"))
            .from(DataSource.collection(colors))
            .orderBy(Ordering.expression(Function.approxVectorDistance(Expression.property("vector"), target: Expression.parameter("vector"))))
            .limit(Expression.int(4))
        XCTAssertEqual(try colorsOf(built.query()), ["maroon", "red", "rose", "salmon"])
        let cosine = QueryBuilder.select(SelectResult.property("color"))
            .from(DataSource.collection(colors))
            .orderBy(Ordering.expression(Function.approxVectorDistance(Expression.property("vector"), target: Expression.parameter("vector"),
                                                                      metric: Expression.string("cosine"))))
            .limit(Expression.int(2))
        XCTAssertEqual(try colorsOf(cosine.query()), ["maroon", "red"])
    }

    /// A lazy index: the application computes the vectors (here from `num`) in batches,
    /// as LiteCore's LazyVectorQueryTest does.
    func testLazyIndexUpdatedByTheApplication() throws {
        try loadVectors()
        var config = VectorIndexConfiguration(expression: "num", dimensions: 3, centroids: 2)
        config.encoding = .none
        config.isLazy = true
        try defaultCollection.createIndex(withName: "lazy", config: config)
        let index = try XCTUnwrap(defaultCollection.index(withName: "lazy"))
        let query = "SELECT META().id AS id, APPROX_VECTOR_DISTANCE(num, $target) AS distance FROM _ ORDER BY distance LIMIT 5"
        XCTAssertEqual(try search(query).count, 0, "nothing indexed yet")

        func update(limit: Int, skipping skip: (Int) -> Bool = { _ in false }) throws -> Int {
            guard let updater = try index.beginUpdate(limit: limit) else { return 0 }
            for i in 0..<updater.count {
                let num = updater.int(at: i)
                if skip(num) { try updater.skipVector(at: i) } else { try updater.setVector(num < 0 ? nil : vector(num).map(Float.init), at: i) }
            }
            try updater.finish()
            return updater.count
        }
        XCTAssertEqual(try update(limit: 60, skipping: { $0 % 10 == 0 }), 60)
        XCTAssertEqual(try update(limit: 999, skipping: { $0 % 10 == 0 }), 47, "101 documents have a num, 54 are indexed")
        let target = [40.2, -1.0, 6.1]
        assertNear(try search(query), nearest(target, count: 5, where: { $0 % 10 != 0 }))
        XCTAssertEqual(try update(limit: 999), 10, "the skipped ones come back")
        assertNear(try search(query), nearest(target, count: 5))
        XCTAssertNil(try index.beginUpdate(limit: 10), "up to date")

        // A save leaves the document pending (not indexed again by itself); a delete leaves the index.
        let first = nearest(target, count: 2)
        try defaultCollection.save(document: try XCTUnwrap(defaultCollection.document(id: first[0].0)).toMutable().setString("x", forKey: "note"))
        try defaultCollection.delete(document: try XCTUnwrap(defaultCollection.document(id: first[1].0)))
        XCTAssertEqual(try search(query).map(\.0), Array(nearest(target, count: 7).dropFirst(2).map(\.0)))
        let updater = try XCTUnwrap(index.beginUpdate(limit: 10))
        XCTAssertEqual(updater.count, 1)
        XCTAssertEqual(updater.value(at: 0) as? Int, Int(first[0].0.dropFirst(4)))
        XCTAssertNil(updater.value(at: 1))

        // Mistakes: wrong dimensions, out of range, finishing with a pending item, use after finish.
        assertThrows(.invalidParameter, containing: "Inconsistent vector dimensions") { try updater.setVector([1, 2], at: 0) }
        assertThrows(.invalidParameter, containing: "not a finite number") { try updater.setVector([1, .nan, 2], at: 0) }
        assertThrows(.invalidParameter, containing: "out of range") { try updater.setVector([1, 2, 3], at: 1) }
        assertThrows(.unsupported, containing: "Cannot finish an update") { try updater.finish() }
        try updater.setVector(vector(Int(first[0].0.dropFirst(4))!).map(Float.init), at: 0)
        try updater.finish()
        assertThrows(.notOpen) { try updater.skipVector(at: 0) }
        assertThrows(.notOpen) { try updater.finish() }
        XCTAssertEqual(try search(query).first?.0, first[0].0)

        // An updater not finished changes nothing; limits and index kinds.
        try load([("late", #"{"num": 3}"#)])
        _ = try XCTUnwrap(index.beginUpdate(limit: 5))
        XCTAssertEqual(try index.beginUpdate(limit: 5)?.count, 1)
        assertThrows(.invalidParameter, containing: "above 0") { _ = try index.beginUpdate(limit: 0) }
        try defaultCollection.createIndex(withName: "eager", config: exact(VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 1)))
        assertThrows(.unsupported, containing: "not a lazy vector index") { _ = try defaultCollection.index(withName: "eager")?.beginUpdate(limit: 5) }
        try defaultCollection.createIndex(withName: "byNum", config: ValueIndexConfiguration(["num"]))
        assertThrows(.unsupported) { _ = try defaultCollection.index(withName: "byNum")?.beginUpdate(limit: 5) }
        // An update begun before the index was deleted, or made again with other options, writes nothing.
        let stale = try XCTUnwrap(index.beginUpdate(limit: 5))
        try stale.setVector([1, 2, 3], at: 0)
        try defaultCollection.deleteIndex(forName: "lazy")
        assertThrows(.missingIndex) { _ = try index.beginUpdate(limit: 5) }
        assertThrows(.missingIndex, containing: "there is no index 'lazy'") { try stale.finish() }
        var other = VectorIndexConfiguration(expression: "num", dimensions: 2, centroids: 2)
        other.isLazy = true
        try defaultCollection.createIndex(withName: "lazy", config: other)
        assertThrows(.missingIndex, containing: "deleted or made again since beginUpdate") { try stale.finish() }
        XCTAssertEqual(try index.beginUpdate(limit: 999)?.count, 101, "nothing indexed in the new one")
        try defaultCollection.deleteIndex(forName: "lazy")
        var sameOptions = VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 2)   // (another expression)
        (sameOptions.encoding, sameOptions.isLazy) = (.none, true)
        try defaultCollection.createIndex(withName: "lazy", config: sameOptions)
        assertThrows(.missingIndex, containing: "deleted or made again since beginUpdate") { try stale.finish() }
    }

    /// The index's vectors are searched in memory: every search sees every change
    /// committed, by this database or another on the file, and a batch its own, which a
    /// rollback takes back.
    func testSearchesInMemorySeeEveryCommittedChange() throws {
        try loadVectors(count: 30)
        try defaultCollection.createIndex(withName: "vectors", config: exact(VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 1)))
        XCTAssertTrue(try db.createQuery(topFive).explain().contains("doc_vector_search"))
        let target = [40.2, -1.0, 6.1]
        func first() throws -> String? { try search(topFive, target: target).first?.0 }
        XCTAssertEqual(try first(), nearest(target, count: 1, among: 0..<30).first?.0)
        try defaultCollection.save(document: MutableDocument(id: "near").setValue([40.0, -1.0, 6.0], forKey: "vector"))
        XCTAssertEqual(try first(), "near")

        struct Rollback: Error {}
        XCTAssertThrowsError(try db.inBatch {
            try defaultCollection.save(document: MutableDocument(id: "nearer").setValue([40.2, -1.0, 6.1], forKey: "vector"))
            XCTAssertEqual(try first(), "nearer", "a batch sees its own change")
            throw Rollback()
        })
        XCTAssertEqual(try first(), "near", "the rolled-back change is in no copy")

        let other = try openDatabase()
        defer { try? other.close() }
        try other.defaultCollection().save(document: MutableDocument(id: "elsewhere").setValue([40.2, -1.0, 6.1], forKey: "vector"))
        XCTAssertEqual(try first(), "elsewhere", "a change committed by another connection")
        try other.defaultCollection().purge(id: "elsewhere")
        XCTAssertEqual(try first(), "near")
        try defaultCollection.delete(document: try XCTUnwrap(defaultCollection.document(id: "near")))
        XCTAssertEqual(try first(), nearest(target, count: 1, among: 0..<30).first?.0)

        // An index made again (the same name, another metric) is read again.
        var dot = VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 1)
        dot.encoding = .none
        dot.metric = .dot
        try defaultCollection.createIndex(withName: "vectors", config: dot)
        XCTAssertEqual(try first(), nearest(target, metric: .dot, count: 1, among: 0..<30).first?.0)
    }

    /// Searches from several threads at once, while another writes.
    func testConcurrentSearches() throws {
        try loadVectors(count: 50)
        try defaultCollection.createIndex(withName: "vectors", config: exact(VectorIndexConfiguration(expression: "vector", dimensions: 3, centroids: 1)))
        let expected = nearest([40.2, -1.0, 6.1], count: 5, among: 0..<50).map(\.0)
        let failures = Locked<[String]>([])
        let (database, collection, sql) = (db!, defaultCollection, topFive)
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            do {
                for round in 0..<20 {
                    if i == 0 {
                        try collection.save(document: MutableDocument(id: "far\(round)").setValue([-1000.0, 0, 0], forKey: "vector"))
                    } else {
                        let query = try database.createQuery(sql)
                        query.parameters = Parameters().setValue([40.2, -1.0, 6.1], forName: "target")
                        let ids = try query.execute().allResults().map { $0.string(forKey: "id") ?? "?" }
                        if ids != expected { failures.withLock { $0.append("\(ids)") } }
                    }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
    }
}
