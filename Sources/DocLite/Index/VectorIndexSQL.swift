/// The SQL of a vector index on a collection: a table of each live document's
/// vector (its float32 items, `doc_vector`), keyed by the document's sequence,
/// filled when the index is created and kept up to date as documents are
/// written (``DerivedRows``). A document whose value is no vector of the
/// index's dimensions has no row. Queries compute distances from it
/// (`doc_vector_distance`) instead of reading every document's body.
///
/// Once the table holds enough vectors the index is *trained* (``trainIfReady(_:)``):
/// k-means centroids (``Centroids``) and, for a scalar-quantizer encoding, each
/// dimension's range (``ScalarQuantizer``) are kept in the one row of its `_ivf` table,
/// with a random training ID, and each row's `bucket` is its vector's nearest centroid
/// (`doc_vector_bucket`), so a search looks only in the buckets nearest its target.
///
/// A lazy index's rows are set by the application (``IndexUpdater``): saves only
/// remove a changed document's row, and a row whose vector is NULL stands for a
/// document indexed without one. A document without a row is not indexed yet.
struct VectorIndexSQL: Equatable {
    /// The table's name.
    let table: String
    let collection: Int64
    let options: VectorIndexOptions

    /// Creates the tables: the vectors, the one-row table of their generation
    /// (``VectorTableCache``) and the one of the trained centroids. Before schema 8 the
    /// vectors had no bucket and there were no centroids (``upgrade``).
    func create(schemaVersion: Int64) -> [String] {
        let generation = "CREATE TABLE \(generationTable) (id INTEGER PRIMARY KEY CHECK (id = 1), generation INTEGER NOT NULL)"
        guard schemaVersion >= 8 else { return ["CREATE TABLE \(table) (sequence INTEGER PRIMARY KEY, vector BLOB)", generation] }
        return ["CREATE TABLE \(table) (sequence INTEGER PRIMARY KEY, vector BLOB, bucket INTEGER)", generation, createCentroidsTable]
    }

    /// Brings the tables of a file of schema 7 to schema 8's (untrained).
    var upgrade: [String] { ["ALTER TABLE \(table) ADD COLUMN bucket INTEGER", createCentroidsTable] }

    /// The trained index: its training's random ID, its centroids, and the bits and ranges
    /// of its scalar quantizer (0 and NULL: the vectors are searched as float32s).
    private var createCentroidsTable: String {
        "CREATE TABLE \(centroidsTable) (id INTEGER PRIMARY KEY CHECK (id = 1), training INTEGER NOT NULL, "
            + "centroids BLOB NOT NULL, bits INTEGER NOT NULL, ranges BLOB)"
    }

    /// The SQL condition of a row holding a vector of the index's length: a file's rows are
    /// checked, as DocLite writes no other.
    private var holdsVector: String { "typeof(vector) = 'blob' AND length(vector) = \(options.dimensions * MemoryLayout<Float>.size)" }

    private var generationTable: String { VectorTableCache.generationTable(of: table) }
    private var centroidsTable: String { VectorTableCache.centroidsTable(of: table) }

    private var setGeneration: StatementKey {
        StatementKey("INSERT INTO \(generationTable) (id, generation) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET generation = ?1")
    }

    /// The bucket of `vector` (SQL of a float32 blob): NULL until the index is trained.
    private func bucket(_ vector: String) -> String {
        "doc_vector_bucket(\(SQLLiteral.string(table)), \(vector), \(options.metric.rawValue))"
    }

    /// The statements filling the table and keeping it in step (``DerivedRows``);
    /// `vector` is compiled SQL over the live table's columns.
    func rowStatements(vector: String) -> DerivedRowStatements {
        let live = Schema.liveTable(collection)
        return rows.statements(afterChange: changed, options.isLazy ? nil : { condition in
            "INSERT INTO \(table) (sequence, vector, bucket) SELECT sequence, vector, \(bucket("vector")) FROM (SELECT \(live).sequence AS sequence, "
                + "doc_vector(\(vector), \(options.dimensions)) AS vector FROM \(live) WHERE \(condition)) WHERE vector IS NOT NULL;"
        })
    }

    /// After the rows changed, in their transaction: trains the index if it is time, and
    /// gives the table a new generation. Counting the vectors costs a read of them all, so
    /// after a change of one row at most it is skipped while the count known before
    /// (``UntrainedVectorCounts``) is too far below the threshold for one more to reach it.
    func changed(_ connection: SQLiteConnection, _ added: DerivedRowStatements.RowsAdded) throws {
        let generation = Int64.random(in: .min ... .max)
        guard try !isTrained(connection) else { return try touch(generation, connection) }
        let counts = UntrainedVectorCounts.shared, key = counts.key(of: table, on: connection.handle)
        let before = try connection.withStatement("SELECT generation FROM \(generationTable)") { try $0.step() ? $0.int64(0) : nil }
        let held: Int?
        if added == .atMostOne, let before, let known = counts.held(key, generation: before), known + 1 < trainingThreshold {
            held = known + 1
        } else {
            held = try trainIfReady(connection)
        }
        try touch(generation, connection)
        counts.record(key, generation: generation, held: held)
    }

    /// Gives the table a new generation: run in the transaction of every change to its rows,
    /// so that a copy of them in memory is known to be out of date. A random number, so that
    /// no other change (one rolled back, another connection's) ever has it.
    private func touch(_ generation: Int64, _ connection: SQLiteConnection) throws {
        try connection.withStatement(setGeneration) { touch in
            touch.bind(1, generation)
            try touch.run()
        }
    }

    private func isTrained(_ connection: SQLiteConnection) throws -> Bool {
        try connection.withStatement("SELECT count(*) FROM \(centroidsTable)") { try $0.step() && $0.int64(0) > 0 }
    }

    /// The documents a lazy index has not indexed yet whose `vector` (compiled SQL over
    /// the live table's columns) is valued, in sequence order, at most `?1`: their
    /// sequence and the value in its result form.
    func pendingDocuments(vector: String) -> String {
        let live = Schema.liveTable(collection)
        return "SELECT sequence, doc_result(\(vector)) FROM \(live) WHERE sequence NOT IN (SELECT sequence FROM \(table)) "
            + "AND (\(vector)) IS NOT NULL ORDER BY sequence LIMIT ?1"
    }

    /// Sets the vector of the document of sequence `?1` to `?2` (NULL: none), if it
    /// still has that sequence (one changed since is left for a later update).
    var setVector: String {
        "INSERT OR REPLACE INTO \(table) (sequence, vector, bucket) SELECT ?1, ?2, \(bucket("?2")) WHERE EXISTS "
            + "(SELECT 1 FROM \(Schema.liveTable(collection)) WHERE sequence = ?1)"
    }

    /// Drops the tables of the index whose table is `table`.
    static func drop(_ table: String) -> [String] {
        [table, VectorTableCache.generationTable(of: table), VectorTableCache.centroidsTable(of: table)].map { "DROP TABLE IF EXISTS \($0)" }
    }

    private var rows: DerivedRows { DerivedRows(table: table, collection: collection, keyColumn: "sequence") }

    // MARK: Training

    /// The fewest vectors the index is trained on: `minTrainingSize` (25 a centroid
    /// by default), and never fewer than the centroids.
    var trainingThreshold: Int { max(options.minTrainingSize ?? 25 * options.centroids, options.centroids) }

    /// The most vectors the centroids are computed from (256 a centroid by default).
    var trainingLimit: Int { max(options.maxTrainingSize ?? 256 * options.centroids, trainingThreshold) }

    /// Trains the index when it is untrained and holds `trainingThreshold` vectors: the
    /// centroids of a sample of at most `trainingLimit` of them (every one, or a seeded
    /// random choice), then each row's bucket. Returns how many vectors the index holds
    /// (counted up to the threshold) while it stays untrained; nil once it is trained.
    func trainIfReady(_ connection: SQLiteConnection) throws -> Int? {
        guard try !isTrained(connection) else { return nil }
        let held = try connection.withStatement("SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(holdsVector) LIMIT ?1)") { count in
            count.bind(1, Int64(trainingThreshold))
            return try count.step() ? Int(count.int64(0)) : 0
        }
        guard held >= trainingThreshold else { return held }
        let dimensions = options.dimensions
        var sample: [Float] = [], seen = 0
        var random = SeededRandom(seed: 0x7EA1)
        try connection.withStatement("SELECT vector FROM \(table) WHERE \(holdsVector) ORDER BY sequence") { rows in
            while try rows.step() {
                let items = Self.floats(rows, 0)
                guard items.allSatisfy(\.isFinite) else { continue }   // (a file's rows are checked)
                // Reservoir sampling: each vector is in the sample with the same chance.
                let slot = seen < trainingLimit ? seen : Int(random.next() % UInt64(seen + 1))
                seen += 1
                guard slot < trainingLimit else { continue }
                if slot * dimensions == sample.count { sample.append(contentsOf: items) }
                else { sample.replaceSubrange((slot * dimensions)..<((slot + 1) * dimensions), with: items) }
            }
        }
        guard sample.count / dimensions >= options.centroids else { return held }   // (a file whose rows are not what DocLite writes)
        var quantizer: ScalarQuantizer?
        if case .scalarQuantizer(let type) = options.encoding { quantizer = ScalarQuantizer(bits: Int(type.rawValue), sample: sample, dimensions: dimensions) }
        if options.metric == .cosine { Centroids.normalize(&sample, dimensions: dimensions) }
        let centroids = Centroids.train(sample: sample, dimensions: dimensions, count: options.centroids, metric: options.metric)
        try connection.withStatement("INSERT INTO \(centroidsTable) (id, training, centroids, bits, ranges) VALUES (1, ?1, ?2, ?3, ?4)") { insert in
            insert.bind(1, Int64.random(in: 1...Int64.max))   // (a rolled-back training's ID never comes back)
            insert.bind(2, centroids.items.withUnsafeBytes { Array($0) })
            insert.bind(3, Int64(quantizer?.bits ?? 0))
            insert.bind(4, quantizer.map { $0.ranges.withUnsafeBytes { Array($0) } })
            try insert.run()
        }
        try assignBuckets(centroids, connection)
        return nil
    }

    /// Gives each row of a vector of the index's length its nearest centroid's bucket, a
    /// block of rows at a time (the kernel scores a block against every centroid at once).
    private func assignBuckets(_ centroids: Centroids, _ connection: SQLiteConnection) throws {
        let block = 1024
        var after = Int64.min
        while true {
            var sequences: [Int64] = [], vectors: [Float] = []
            try connection.withStatement("SELECT sequence, vector FROM \(table) WHERE sequence > ?1 AND \(holdsVector) ORDER BY sequence LIMIT ?2") { rows in
                rows.bind(1, after)
                rows.bind(2, Int64(block))
                while try rows.step() {
                    sequences.append(rows.int64(0))
                    vectors += Self.floats(rows, 1)
                }
            }
            guard let last = sequences.last else { return }
            after = last
            var buckets = [Int](repeating: 0, count: sequences.count)
            vectors.withUnsafeBufferPointer { all in centroids.nearest(to: all.baseAddress!, count: sequences.count) { buckets[$0] = $1 } }
            try connection.withStatement("UPDATE \(table) SET bucket = ?2 WHERE sequence = ?1") { update in
                for (sequence, bucket) in zip(sequences, buckets) {
                    update.bind(1, sequence)
                    update.bind(2, Int64(bucket))
                    try update.run()
                    update.reset()
                }
            }
        }
    }

    /// The float32s of column `column`, a blob of a row that ``holdsVector``.
    private static func floats(_ row: Statement, _ column: Int32) -> [Float] {
        let bytes = row.bytes(column)
        var items = [Float](repeating: 0, count: bytes.count / MemoryLayout<Float>.size)
        items.withUnsafeMutableBytes { items in bytes.withUnsafeBytes { items.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<items.count])) } }
        return items
    }
}
