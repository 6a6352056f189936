import CSQLite

/// In-memory copies of vector indexes' tables for `doc_vector_search`, shared by the
/// process's connections: one per database file and table, the most recently used few.
///
/// A copy is used only while its *token* holds — the file's schema version and the
/// table's generation, a random number the save path writes in the transaction of every
/// change to the table (``VectorIndexSQL``). A connection reading a committed state (outside a
/// transaction, or in a read snapshot) gets the copy of exactly that state, or makes it;
/// one inside a write transaction, whose changes may roll back, reads the table itself
/// and keeps nothing: so no copy ever holds what was not committed, and one generation
/// names one state.
final class VectorTableCache: @unchecked Sendable {   // its entries are behind `lock`
    static let shared = VectorTableCache()

    /// How many tables are kept at most.
    static let capacity = 8

    /// One table's vectors, contiguous: row `i` is `sequences[i]`, its `dimensions` items
    /// from `i * dimensions` of `items` (float32s) or, of an index whose training has a
    /// scalar quantizer, of `codes` (a byte an item). Of a trained index, in the order of
    /// their buckets: bucket `b`'s rows are `starts[b]..<starts[b + 1]`, and any row without
    /// one (none DocLite writes: a row of a file made otherwise, whose bucket is missing or
    /// out of range) comes after `starts[centroids.count]`, searched always.
    final class Vectors: Sendable {
        let sequences: [Int64]
        let items: [Float]
        let codes: [UInt8]
        let dimensions: Int
        let training: TrainedIndex?
        let starts: [Int]

        init(sequences: [Int64], items: [Float] = [], codes: [UInt8] = [], dimensions: Int, training: TrainedIndex? = nil, starts: [Int] = []) {
            (self.sequences, self.items, self.codes, self.dimensions) = (sequences, items, codes, dimensions)
            (self.training, self.starts) = (training, starts)
        }

        /// The `k` rows nearest `target` (float32s) by `metric`, nearest first: of a trained
        /// index, among the rows of the `probes` buckets nearest it; else of every row.
        func nearest(to target: UnsafeRawBufferPointer, metric: DistanceMetric, k: Int, probes: Int) -> [(sequence: Int64, distance: Double)] {
            guard target.count == dimensions * MemoryLayout<Float>.size else { return [] }
            var query = [Float](repeating: 0, count: dimensions)   // (aligned: the blob may not be)
            query.withUnsafeMutableBytes { $0.copyMemory(from: target) }
            let (coding, rows) = query.withUnsafeBufferPointer { query in
                (training?.quantizer.map { ($0, $0.prepare(query, metric: metric)) },
                 training.map { training in
                     training.centroids.nearest(to: query.baseAddress!, probes: probes).map { starts[$0]..<starts[$0 + 1] }
                         + [starts[training.centroids.count]..<sequences.count]
                 } ?? [sequences.indices])
            }
            var found = Nearest(k: k)
            items.withUnsafeBytes { all in
                codes.withUnsafeBufferPointer { coded in
                    func offer(_ i: Int, _ distance: Double?) {
                        if let distance, distance.isFinite { found.offer(sequence: sequences[i], distance: distance) }
                    }
                    let width = dimensions * MemoryLayout<Float>.size
                    if let (quantizer, prepared) = coding {   // (bound once: not a copy of the query a row)
                        for i in rows.joined() { offer(i, quantizer.distance(coded.baseAddress! + i * dimensions, prepared)) }
                    } else {
                        for i in rows.joined() { offer(i, metric.distance(UnsafeRawBufferPointer(rebasing: all[(i * width)..<((i + 1) * width)]), target)) }
                    }
                }
            }
            return found.sorted
        }
    }

    private struct Token: Equatable {
        let schemaVersion: Int64
        let generation: Int64
    }

    private struct Entry {
        let token: Token
        let vectors: Vectors
        var lastUse: UInt64
    }

    private let lock = Lock()
    private var entries: [String: Entry] = [:]
    private var uses: UInt64 = 0

    /// Whether `name` is a vector index's table as ``IndexType`` names them (`vec<collection>_<hex>`):
    /// the only names `doc_vector_search` reads, whatever SQL calls it.
    static func isTableName(_ name: String) -> Bool {
        let parts = name.utf8.split(separator: UInt8(ascii: "_"), omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].starts(with: "vec".utf8), parts[0].count > 3, !parts[1].isEmpty else { return false }
        return parts[0].dropFirst(3).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            && parts[1].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// The name of the table holding `table`'s generation.
    static func generationTable(of table: String) -> String { "\(table)_generation" }

    /// The name of the table holding `table`'s trained centroids (``CentroidCache``).
    static func centroidsTable(of table: String) -> String { "\(table)_ivf" }

    /// Calls `body` with the vectors of `table` as connection `db` sees them.
    /// A trained index's copy holds its buckets by `metric` (the index's).
    func withVectors<R>(of table: String, metric: DistanceMetric, on db: OpaquePointer, _ body: (Vectors) -> R) throws -> R {
        let file = sqlite3_db_filename(db, "main").map { String(cString: $0) } ?? ""
        guard sqlite3_txn_state(db, "main") != SQLITE_TXN_WRITE, !file.isEmpty else { return body(try Self.read(table, metric, db)) }
        let key = file + "\u{0}" + table
        let token = try Self.token(of: table, db)
        let cached: Vectors? = lock.withLock {
            guard var entry = entries[key], entry.token == token else { return nil }
            uses += 1
            entry.lastUse = uses
            entries[key] = entry
            return entry.vectors
        }
        if let cached { return body(cached) }
        let vectors = try Self.read(table, metric, db)
        lock.withLock {
            uses += 1
            entries[key] = Entry(token: token, vectors: vectors, lastUse: uses)
            if entries.count > Self.capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                entries[oldest] = nil
            }
        }
        return body(vectors)
    }

    /// Drops the copy of `table` of the file `db` is on (its index is dropped).
    func forget(_ table: String, on db: OpaquePointer) {
        let file = sqlite3_db_filename(db, "main").map { String(cString: $0) } ?? ""
        _ = lock.withLock { entries.removeValue(forKey: file + "\u{0}" + table) }
    }

    /// The token of `table`'s state on `db`: the schema version and the table's generation.
    private static func token(of table: String, _ db: OpaquePointer) throws -> Token {
        let schemaVersion = try integer("PRAGMA schema_version", db) ?? 0
        let generation = try integer("SELECT generation FROM \(generationTable(of: table))", db) ?? 0
        return Token(schemaVersion: schemaVersion, generation: generation)
    }

    /// The first column of the first row of `sql`; nil without a row.
    static func integer(_ sql: String, _ db: OpaquePointer) throws -> Int64? {
        try withStatement(sql, db) { statement in
            try step(statement, db) ? sqlite3_column_int64(statement, 0) : nil
        }
    }

    /// Every vector of `table` with the length of its first; of a trained index, by bucket.
    private static func read(_ table: String, _ metric: DistanceMetric, _ db: OpaquePointer) throws -> Vectors {
        let rows: (sequences: [Int64], items: [Float], buckets: [Int?], dimensions: Int) = try withStatement(
            "SELECT sequence, vector, bucket FROM \(table) WHERE vector IS NOT NULL ORDER BY sequence", db) { rows in
            var sequences: [Int64] = [], items: [Float] = [], buckets: [Int?] = []
            var dimensions: Int?
            while try step(rows, db) {
                let bytes = Int(sqlite3_column_bytes(rows, 1))
                guard let blob = sqlite3_column_blob(rows, 1), bytes % MemoryLayout<Float>.size == 0 else { continue }
                let count = bytes / MemoryLayout<Float>.size
                guard count == (dimensions ?? count) else { continue }
                dimensions = count
                sequences.append(sqlite3_column_int64(rows, 0))
                items.append(contentsOf: UnsafeBufferPointer(start: blob.assumingMemoryBound(to: Float.self), count: count))
                buckets.append(sqlite3_column_type(rows, 2) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(rows, 2)))
            }
            return (sequences, items, buckets, dimensions ?? 0)
        }
        guard rows.dimensions > 0, let training = try CentroidCache.shared.training(of: table, dimensions: rows.dimensions, metric: metric, on: db) else {
            return Vectors(sequences: rows.sequences, items: rows.items, dimensions: rows.dimensions)
        }
        let centroids = training.centroids
        // A counting sort by bucket (a bucket out of range counts as none: last).
        let bucketOf = rows.buckets.map { $0.flatMap { (0..<centroids.count).contains($0) ? $0 : nil } ?? centroids.count }
        var starts = [Int](repeating: 0, count: centroids.count + 2)
        for bucket in bucketOf { starts[bucket + 1] += 1 }
        for b in 0..<(centroids.count + 1) { starts[b + 1] += starts[b] }
        var next = starts, order = [Int](repeating: 0, count: bucketOf.count)
        for (i, bucket) in bucketOf.enumerated() {
            order[next[bucket]] = i
            next[bucket] += 1
        }
        let d = rows.dimensions
        var items = [Float](), codes = [UInt8]()
        if let quantizer = training.quantizer {
            codes.reserveCapacity(rows.items.count)
            rows.items.withUnsafeBufferPointer { all in
                for i in order { quantizer.encode(UnsafeBufferPointer(rebasing: all[(i * d)..<((i + 1) * d)]), into: &codes) }
            }
        } else {
            items.reserveCapacity(rows.items.count)
            for i in order { items.append(contentsOf: rows.items[(i * d)..<((i + 1) * d)]) }
        }
        return Vectors(sequences: order.map { rows.sequences[$0] }, items: items, codes: codes, dimensions: d,
                       training: training, starts: Array(starts.dropLast()))
    }

    static func withStatement<R>(_ sql: String, _ db: OpaquePointer, _ body: (OpaquePointer) throws -> R) throws -> R {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw Failure(db)
        }
        defer { sqlite3_finalize(statement) }
        return try body(statement)
    }

    static func step(_ statement: OpaquePointer, _ db: OpaquePointer) throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw Failure(db)
        }
    }

    /// A failed SQLite call: its result code (an interrupt stays one) and message.
    struct Failure: Error {
        let code: Int32
        let message: String

        init(_ db: OpaquePointer) {
            self.init(code: sqlite3_extended_errcode(db), message: String(cString: sqlite3_errmsg(db)))
        }

        init(code: Int32, message: String) {
            (self.code, self.message) = (code, message)
        }
    }
}
