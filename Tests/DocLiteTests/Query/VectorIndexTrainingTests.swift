import CSQLite
import XCTest
@testable import DocLite

/// A vector index's training and approximate search: the index is trained once it
/// holds `minTrainingSize` vectors, in the transaction that brings them; each vector
/// then has a bucket (its nearest centroid) and a search looks in the `numProbes`
/// buckets nearest its target. Checked against exact distances computed here.
final class VectorIndexTrainingTests: QueryTestCase {
    private static let dimensions = 8

    /// Cluster `c`'s centre: 100 on axis `c` (four clusters far apart).
    private func centre(_ c: Int) -> [Double] { (0..<Self.dimensions).map { $0 == c ? 100 : 0 } }

    /// Document `i` of cluster `c`: its centre moved by a small seeded offset.
    private func point(_ c: Int, _ i: Int) -> [Double] {
        var random = SeededRandom(seed: UInt64(c * 1000 + i))
        return centre(c).map { $0 + Double(random.next() % 1000) / 1000 - 0.5 }
    }

    /// Saves documents `c-i` for `i` in `range` of cluster `c`.
    private func save(cluster c: Int, _ range: Range<Int>) throws {
        try db.inBatch {
            for i in range { try defaultCollection.save(document: MutableDocument(id: "\(c)-\(i)").setValue(point(c, i), forKey: "vector")) }
        }
    }

    private var table: String { IndexType.vector.sqlName(collection: 1, index: "vectors") }

    private func createIndex(centroids: UInt32 = 4, minTrainingSize: UInt32 = 40, numProbes: UInt32? = nil,
                             encoding: VectorEncoding = .scalarQuantizer(type: .SQ8)) throws {
        var config = VectorIndexConfiguration(expression: "vector", dimensions: UInt32(Self.dimensions), centroids: centroids)
        config.minTrainingSize = minTrainingSize
        config.numProbes = numProbes
        config.encoding = encoding
        try defaultCollection.createIndex(withName: "vectors", config: config)
    }

    private var isTrained: Bool { rawSQL("SELECT count(*) FROM \(table)_ivf") == 1 }

    /// The IDs of the `limit` nearest documents to `target`, with `numProbes` if given.
    private func nearest(_ target: [Double], limit: Int = 10, numProbes: Int? = nil) throws -> [String] {
        let probes = numProbes.map { ", 'euclidean_squared', \($0)" } ?? ""
        let query = try db.createQuery("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target\(probes)) LIMIT \(limit)")
        query.parameters = Parameters().setValue(target, forName: "target")
        return try query.execute().allResults().map { $0.string(at: 0)! }
    }

    func testTrainsInTheTransactionThatBringsMinTrainingSizeVectors() throws {
        try createIndex()
        try save(cluster: 0, 0..<10)
        try save(cluster: 1, 0..<10)
        try save(cluster: 2, 0..<10)
        try save(cluster: 3, 0..<9)
        XCTAssertFalse(isTrained)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM \(table) WHERE bucket IS NOT NULL"), 0)
        XCTAssertEqual(try nearest(centre(3), limit: 9).count, 9)   // (exact until trained)

        try save(cluster: 3, 9..<10)
        XCTAssertTrue(isTrained)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM \(table) WHERE bucket IS NULL"), 0)
        // Each cluster is one bucket of its own, and a later vector joins its cluster's.
        XCTAssertEqual(rawSQL("SELECT count(DISTINCT bucket) FROM \(table)"), 4)
        for c in 0..<4 {
            XCTAssertEqual(rawSQL("SELECT count(DISTINCT bucket) FROM \(table) WHERE sequence IN (SELECT sequence FROM kv_1 WHERE key LIKE '\(c)-%')"), 1)
        }
        try save(cluster: 2, 10..<11)
        XCTAssertEqual(rawSQL("SELECT count(DISTINCT bucket) FROM \(table) WHERE sequence IN (SELECT sequence FROM kv_1 WHERE key LIKE '2-%')"), 1)
        // A trained index's changes are searched, as an untrained one's.
        XCTAssertEqual(try nearest(point(2, 10), limit: 1), ["2-10"])
        try defaultCollection.delete(document: try XCTUnwrap(defaultCollection.document(id: "2-10")))
        XCTAssertNotEqual(try nearest(point(2, 10), limit: 1), ["2-10"])
    }

    /// A save does not count the vectors while the count this process knows is too far below
    /// `minTrainingSize`; another connection's save, or another process's, makes the count
    /// known again or unknown.
    func testSavesElsewhereCountTowardsTheTraining() throws {
        try createIndex()
        for c in 0..<3 { try save(cluster: c, 0..<10) }
        try save(cluster: 3, 0..<7)   // 37: this process knows the count
        let other = try openDatabase()
        try other.defaultCollection().save(document: MutableDocument(id: "3-7").setValue(point(3, 7), forKey: "vector"))
        try other.close()
        // Another process's save, as DocLite writes it: a row, and a new generation.
        editFile(["INSERT INTO \(table) (sequence, vector) SELECT 1000, vector FROM \(table) ORDER BY sequence LIMIT 1",
                  "UPDATE \(table)_generation SET generation = 4242"])
        XCTAssertFalse(isTrained)
        try save(cluster: 3, 9..<10)   // the 40th
        XCTAssertTrue(isTrained)
    }

    func testAnIndexCreatedOverEnoughVectorsIsTrainedAtOnce() throws {
        for c in 0..<4 { try save(cluster: c, 0..<10) }
        try createIndex()
        XCTAssertTrue(isTrained)
        XCTAssertEqual(rawSQL("SELECT count(DISTINCT bucket) FROM \(table)"), 4)
    }

    /// The training gives the rows their buckets a block at a time; each is the bucket a
    /// save computes for one vector (`doc_vector_bucket`), close calls included: vectors
    /// spread at random over more than one block.
    func testTheTrainingsBucketsAreTheOnesASaveComputes() throws {
        var random = SeededRandom(seed: 99)
        try db.inBatch {
            for i in 0..<1500 {
                let vector = (0..<Self.dimensions).map { _ in Double(random.next() % 2001) / 1000 - 1 }
                try defaultCollection.save(document: MutableDocument(id: "r\(i)").setValue(vector, forKey: "vector"))
            }
        }
        try createIndex(centroids: 16, minTrainingSize: 1000)
        XCTAssertTrue(isTrained)
        XCTAssertEqual(rawSQL("SELECT count(DISTINCT bucket) FROM \(table)"), 16)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM \(table) WHERE bucket IS NULL"), 0)
        // (On DocLite's own connection, which has the function.)
        let sql = "SELECT count(*) FROM \(table) WHERE bucket IS NOT doc_vector_bucket('\(table)', vector, \(DistanceMetric.euclideanSquared.rawValue))"
        let differing = try db.withSQLiteConnection { handle -> Int64? in
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return nil }
            defer { sqlite3_finalize(statement) }
            return sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : nil
        }
        XCTAssertEqual(differing, 0)
    }

    /// A search looks only in the buckets nearest its target: with one probe, the
    /// nearest 10 to cluster 0's centre are its 5 documents, all there are in its bucket.
    func testProbesLimitTheBucketsSearched() throws {
        try save(cluster: 0, 0..<5)
        for c in 1..<4 { try save(cluster: c, 0..<15) }
        try createIndex()
        XCTAssertTrue(isTrained)
        let exact = try nearest(centre(0), numProbes: 4)
        XCTAssertEqual(exact.count, 10)
        XCTAssertEqual(Set(exact.prefix(5)), Set((0..<5).map { "0-\($0)" }))
        XCTAssertEqual(Set(try nearest(centre(0), numProbes: 1)), Set((0..<5).map { "0-\($0)" }))
        XCTAssertEqual(try nearest(centre(0)), exact)   // (by default 8 probes, at most all 4 buckets)

        try defaultCollection.deleteIndex(forName: "vectors")
        try createIndex(numProbes: 1)
        XCTAssertEqual(try nearest(centre(0)).count, 5)
        XCTAssertTrue(try db.createQuery("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target) LIMIT 3")
            .explain().contains("doc_vector_search"))
    }

    /// A scalar quantizer codes each item in 8, 6 or 4 bits on its dimension's range in the
    /// training sample: the nearest are still found, at distances near the exact ones.
    func testScalarQuantizerEncodings() throws {
        for c in 0..<4 { try save(cluster: c, 0..<10) }
        let target = point(1, 3).map { $0 + 0.2 }
        let exact = (0..<10).map { i in zip(point(1, i), target).map { ($0 - $1) * ($0 - $1) }.reduce(0, +) }
        for (encoding, bits) in [(VectorEncoding.none, 0), (.scalarQuantizer(type: .SQ8), 8), (.scalarQuantizer(type: .SQ6), 6),
                                 (.scalarQuantizer(type: .SQ4), 4)] {
            try createIndex(encoding: encoding)
            XCTAssertEqual(rawSQL("SELECT bits FROM \(table)_ivf"), Int64(bits))
            let query = try db.createQuery("SELECT META().id, APPROX_VECTOR_DISTANCE(vector, $target) FROM _ "
                                           + "ORDER BY APPROX_VECTOR_DISTANCE(vector, $target) LIMIT 10")
            query.parameters = Parameters().setValue(target, forName: "target")
            let rows = try query.execute().allResults().map { ($0.string(at: 0)!, $0.double(at: 1)) }
            XCTAssertEqual(Set(rows.map(\.0)), Set((0..<10).map { "1-\($0)" }), "\(encoding)")
            // An item's error is at most its step, the range over 2^bits; 101 is the widest range here.
            let step = bits == 0 ? 0 : 101 / Double(1 << bits)
            for (id, distance) in rows {
                let expected = exact[Int(id.dropFirst(2))!], error = 2 * expected.squareRoot() * step + Double(Self.dimensions) * step * step
                XCTAssertEqual(distance, expected, accuracy: bits == 0 ? expected * 1e-5 : error, "\(id) \(encoding)")
            }
            try defaultCollection.deleteIndex(forName: "vectors")
        }
        // Every metric with a coded index: the nearest by cosine and by dot are cluster 1's too.
        for metric in [DistanceMetric.cosine, .dot, .euclidean] {
            var config = VectorIndexConfiguration(expression: "vector", dimensions: UInt32(Self.dimensions), centroids: 4)
            (config.minTrainingSize, config.metric) = (40, metric)
            try defaultCollection.createIndex(withName: "vectors", config: config)
            XCTAssertEqual(rawSQL("SELECT bits FROM \(table)_ivf"), 8)
            let found = try db.createQuery("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target) LIMIT 10")
            found.parameters = Parameters().setValue(centre(1), forName: "target")
            XCTAssertEqual(Set(try found.execute().allResults().map { $0.string(at: 0)! }), Set((0..<10).map { "1-\($0)" }), "\(metric)")
            try defaultCollection.deleteIndex(forName: "vectors")
        }
    }

    func testATrainingRolledBackLeavesTheIndexUntrained() throws {
        try createIndex()
        struct Rollback: Error {}
        XCTAssertThrowsError(try db.inBatch {
            for c in 0..<4 { try save(cluster: c, 0..<10) }
            throw Rollback()
        })
        XCTAssertFalse(isTrained)
        XCTAssertEqual(try nearest(centre(1)), [])
        for c in 0..<4 { try save(cluster: c, 0..<10) }
        XCTAssertTrue(isTrained)
        XCTAssertEqual(Set(try nearest(centre(1))), Set((0..<10).map { "1-\($0)" }))
    }

    /// Recall@10 of the default probes against exact search on clustered data the
    /// index's centroids do not line up with (30 clusters, 20 centroids).
    func testRecallAgainstExactSearch() throws {
        let dimensions = 16, clusters = 30
        var random = SeededRandom(seed: 7)
        func normal() -> Double {
            let u = (Double(random.next() >> 11) + 0.5) / Double(1 << 53), v = Double(random.next() >> 11) / Double(1 << 53)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        let centres = (0..<clusters).map { _ in (0..<dimensions).map { _ in normal() } }
        func draw() -> [Double] { centres[Int(random.next() % UInt64(clusters))].map { $0 + 1.0 * normal() } }
        let vectors = (0..<2000).map { _ in draw() }
        try db.inBatch {
            for (i, v) in vectors.enumerated() { try defaultCollection.save(document: MutableDocument(id: "v\(i)").setValue(v, forKey: "vector")) }
        }
        var config = VectorIndexConfiguration(expression: "vector", dimensions: UInt32(dimensions), centroids: 20)
        config.encoding = .none
        try defaultCollection.createIndex(withName: "vectors", config: config)
        XCTAssertTrue(isTrained)
        var found = 0, foundWithOneProbe = 0
        let queries = (0..<20).map { _ in draw() }
        for target in queries {
            let distances = vectors.map { v in zip(v, target).map { ($0 - $1) * ($0 - $1) }.reduce(0, +) }
            let exact = vectors.indices.sorted { distances[$0] < distances[$1] }.prefix(10).map { "v\($0)" }
            found += Set(try nearest(target)).intersection(exact).count
            foundWithOneProbe += Set(try nearest(target, numProbes: 1)).intersection(exact).count
        }
        XCTAssertGreaterThanOrEqual(Double(found) / 200, 0.95)
        XCTAssertLessThan(foundWithOneProbe, found)   // (the search is approximate: fewer probes, fewer found)
    }

    /// A file of schema 7, whose vector tables had no buckets and no centroids, is upgraded
    /// when opened, and its index trained by the next change.
    func testASchema7FileIsUpgraded() throws {
        for c in 0..<4 { try save(cluster: c, 0..<10) }
        try createIndex(minTrainingSize: 41)
        XCTAssertFalse(isTrained)
        try db.close()
        editFile(["ALTER TABLE \(table) DROP COLUMN bucket", "DROP TABLE \(table)_ivf", "PRAGMA user_version = 7"])
        db = try openDatabase()
        XCTAssertEqual(rawSQL("PRAGMA user_version"), Schema.version)
        XCTAssertEqual(Set(try nearest(centre(2))), Set((0..<10).map { "2-\($0)" }))
        try save(cluster: 2, 10..<11)
        XCTAssertTrue(isTrained)
        XCTAssertEqual(Set(try nearest(centre(2), limit: 11)), Set((0..<11).map { "2-\($0)" }))
        try reopen()   // (the upgraded tables are verified as schema 8's)
        XCTAssertEqual(Set(try nearest(centre(2), limit: 11)), Set((0..<11).map { "2-\($0)" }))
    }

    /// A file whose vector table holds rows DocLite never writes (vectors of another
    /// length, text) is never trained on them: the next save neither fails nor crashes.
    func testRowsOfAnotherLengthAreNotTrainedOn() throws {
        try createIndex()
        for sequence in 1000..<1040 { rawSQL("INSERT INTO \(table) (sequence, vector) VALUES (\(sequence), X'00')") }
        try save(cluster: 0, 0..<5)
        XCTAssertFalse(isTrained)
        XCTAssertEqual(try nearest(centre(0)).count, 5)
        // Text as long in characters as a vector in bytes (but twice that in UTF-8) is no vector either.
        let text = String(repeating: "é", count: Self.dimensions * 4)
        for sequence in 2000..<2040 { rawSQL("INSERT INTO \(table) (sequence, vector) VALUES (\(sequence), '\(text)')") }
        for c in 0..<4 { try save(cluster: c, 5..<15) }
        XCTAssertTrue(isTrained)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM \(table) WHERE typeof(vector) = 'blob' AND length(vector) = 32 AND bucket IS NULL"), 0)
    }

    /// A range too wide for a float32 step (items near ±3.4e38) leaves the vectors uncoded.
    func testARangeTooWideToCodeLeavesTheVectorsUncoded() throws {
        for c in 0..<4 { try save(cluster: c, 0..<10) }
        try defaultCollection.save(document: MutableDocument(id: "huge").setValue([3e38, -3e38] + [Double](repeating: 0, count: 6), forKey: "vector"))
        try createIndex()
        XCTAssertTrue(isTrained)
        XCTAssertEqual(rawSQL("SELECT bits FROM \(table)_ivf"), 0)
        XCTAssertEqual(Set(try nearest(centre(1))), Set((0..<10).map { "1-\($0)" }))
    }
}
