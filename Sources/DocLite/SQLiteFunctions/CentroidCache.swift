import CSQLite

/// The trained centroids of vector indexes (``Centroids``), read once from an index's
/// `_ivf` table and shared by the process's connections, by training ID: a random
/// number each training writes with its centroids, so one ID is one training whatever
/// the file, the connection or a transaction that rolled back.
///
/// `doc_vector_bucket(table, vector, metric)`: the bucket of a float32 `vector` in the
/// index whose table is `table` (its nearest centroid by ``DistanceMetric`` `metric`);
/// NULL for a NULL vector or an untrained index.
final class CentroidCache: @unchecked Sendable {   // its entries are behind `lock`
    static let shared = CentroidCache()

    /// How many trainings are kept at most.
    static let capacity = 8

    private let lock = Lock()
    private var entries: [Int64: Centroids] = [:]

    static func register(with registrar: FunctionRegistrar) {
        registrar.add("doc_vector_bucket", 3) { context, _, argv in CentroidCache.bucket(context!, argv!) }
    }

    /// `doc_vector_bucket(table, vector, metric)`.
    private static func bucket(_ context: OpaquePointer, _ argv: UnsafeMutablePointer<OpaquePointer?>) {
        let table = String(decoding: BodyFunctions.rawText(argv[0]), as: UTF8.self)
        let bytes = Int(sqlite3_value_bytes(argv[1]))
        guard sqlite3_value_type(argv[1]) == SQLITE_BLOB, bytes >= 2 * MemoryLayout<Float>.size, bytes % MemoryLayout<Float>.size == 0,
              let metric = DistanceMetric(rawValue: Int(sqlite3_value_int(argv[2]))) else {
            return sqlite3_result_null(context)
        }
        guard VectorTableCache.isTableName(table) else {
            return SQLFunctionError.set(context, DocLiteError(.invalidQuery, "doc_vector_bucket: '\(table)' is not a vector index's table"))
        }
        var vector = [Float](repeating: 0, count: bytes / MemoryLayout<Float>.size)   // (aligned: the blob may not be)
        vector.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: sqlite3_value_blob(argv[1]), count: bytes)) }
        let found: Centroids?
        do {
            found = try shared.centroids(of: table, dimensions: vector.count, metric: metric, on: sqlite3_context_db_handle(context)!)
        } catch {
            let failure = error as? VectorTableCache.Failure ?? VectorTableCache.Failure(code: SQLITE_ERROR, message: "\(error)")
            sqlite3_result_error(context, failure.message, -1)
            return sqlite3_result_error_code(context, failure.code)
        }
        guard let centroids = found else { return sqlite3_result_null(context) }
        sqlite3_result_int64(context, Int64(vector.withUnsafeBufferPointer { centroids.nearest(to: $0.baseAddress!) }))
    }

    /// The centroids of `table`'s index as connection `db` sees it, compared by `metric`;
    /// nil while it is untrained, or if its centroids are not of `dimensions`.
    func centroids(of table: String, dimensions: Int, metric: DistanceMetric, on db: OpaquePointer) throws -> Centroids? {
        let ivf = VectorTableCache.centroidsTable(of: table)
        guard let training = try VectorTableCache.integer("SELECT training FROM \(ivf)", db) else { return nil }
        let centroids = try lock.withLock({ entries[training] }) ?? VectorTableCache.withStatement("SELECT centroids FROM \(ivf)", db) { row in
            guard try VectorTableCache.step(row, db), let blob = sqlite3_column_blob(row, 0) else { return nil }
            let count = Int(sqlite3_column_bytes(row, 0)) / MemoryLayout<Float>.size
            var items = [Float](repeating: 0, count: count)
            items.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: count * MemoryLayout<Float>.size)) }
            let centroids = Centroids(items: items, dimensions: dimensions, metric: metric)
            lock.withLock {
                if entries.count >= Self.capacity { entries.removeAll() }
                entries[training] = centroids
            }
            return centroids
        }
        guard let centroids, centroids.dimensions == dimensions, centroids.metric == metric,
              centroids.count > 0, centroids.count * dimensions == centroids.items.count else { return nil }
        return centroids
    }
}
