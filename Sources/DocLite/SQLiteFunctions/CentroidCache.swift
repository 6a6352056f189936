import CSQLite

/// The trainings of vector indexes (``TrainedIndex``: centroids, and a scalar quantizer),
/// read once from an index's `_ivf` table and shared by the process's connections, by
/// file, table and training ID: a random number each training writes with its
/// centroids, so one ID is one training whatever the connection, or a transaction that
/// rolled back (and the dimensions and metric it is read for, checked before it is kept).
///
/// `doc_vector_bucket(table, vector, metric)`: the bucket of a float32 `vector` in the
/// index whose table is `table` (its nearest centroid by ``DistanceMetric`` `metric`);
/// NULL for a NULL vector or an untrained index.
final class CentroidCache: @unchecked Sendable {   // its entries are behind `lock`
    static let shared = CentroidCache()

    /// How many trainings are kept at most.
    static let capacity = 8

    private let lock = Lock()
    private var entries: [String: TrainedIndex] = [:]

    static func register(with registrar: FunctionRegistrar) {
        registrar.add("doc_vector_bucket", 3, readsTables: true) { context, _, argv in CentroidCache.bucket(context!, argv!) }
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
        let found: TrainedIndex?
        do {
            found = try shared.training(of: table, dimensions: vector.count, metric: metric, on: sqlite3_context_db_handle(context)!)
        } catch {
            let failure = error as? VectorTableCache.Failure ?? VectorTableCache.Failure(code: SQLITE_ERROR, message: "\(error)")
            sqlite3_result_error(context, failure.message, -1)
            return sqlite3_result_error_code(context, failure.code)
        }
        guard let centroids = found?.centroids else { return sqlite3_result_null(context) }
        sqlite3_result_int64(context, Int64(vector.withUnsafeBufferPointer { centroids.nearest(to: $0.baseAddress!) }))
    }

    /// The training of `table`'s index as connection `db` sees it, compared by `metric`;
    /// nil while it is untrained, or if it is not of `dimensions`.
    func training(of table: String, dimensions: Int, metric: DistanceMetric, on db: OpaquePointer) throws -> TrainedIndex? {
        let ivf = VectorTableCache.centroidsTable(of: table)
        guard dimensions > 0, let id = try VectorTableCache.integer("SELECT training FROM \(ivf)", db) else { return nil }
        let file = sqlite3_db_filename(db, "main").map { String(cString: $0) } ?? ""
        let key = "\(file)\u{0}\(table)\u{0}\(id)\u{0}\(dimensions)\u{0}\(metric.rawValue)"
        if let cached = lock.withLock({ entries[key] }) { return cached }
        return try VectorTableCache.withStatement("SELECT centroids, bits, ranges FROM \(ivf)", db) { row in
            // (The file's values, checked: a centroid blob of whole centroids, ranges of the dimensions.)
            guard try VectorTableCache.step(row, db), case let items = Self.floats(row, 0), !items.isEmpty, items.count % dimensions == 0,
                  items.allSatisfy(\.isFinite) else { return nil }
            let bits = Int(sqlite3_column_int64(row, 1)), ranges = Self.floats(row, 2)
            let quantizer = (1...8).contains(bits) && ranges.count == 2 * dimensions
                ? ScalarQuantizer(bits: bits, minimum: Array(ranges[..<dimensions]), maximum: Array(ranges[dimensions...])) : nil
            let training = TrainedIndex(centroids: Centroids(items: items, dimensions: dimensions, metric: metric), quantizer: quantizer)
            lock.withLock {
                if entries.count >= Self.capacity { entries.removeAll() }
                entries[key] = training
            }
            return training
        }
    }

    /// Column `column`'s float32s (a blob), copied.
    private static func floats(_ row: OpaquePointer, _ column: Int32) -> [Float] {
        let count = Int(sqlite3_column_bytes(row, column)) / MemoryLayout<Float>.size
        guard count > 0, let blob = sqlite3_column_blob(row, column) else { return [] }
        var items = [Float](repeating: 0, count: count)
        items.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: count * MemoryLayout<Float>.size)) }
        return items
    }
}

/// A trained vector index: its centroids, and the quantizer its vectors are coded with
/// (nil: searched as float32s).
struct TrainedIndex: Sendable {
    let centroids: Centroids
    let quantizer: ScalarQuantizer?
}
