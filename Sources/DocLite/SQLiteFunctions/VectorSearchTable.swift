import CSQLite

/// `doc_vector_search(table, target, metric, dimensions, k, probes)`: the `k` rows of a
/// vector index's table (`sequence`, `vector` float32 blobs) nearest to `target` (a float32
/// blob, `doc_vector_target`'s; NULL: no rows) by ``DistanceMetric`` `metric`, nearest
/// first, as columns `sequence` and `distance`; of a trained index, among the rows of the
/// `probes` buckets nearest the target.
///
/// The vectors are read from memory (``VectorTableCache``): a copy of the table, made
/// the first time and used while the file's schema and the table's generation (which
/// every change to the table bumps, in its transaction) are those it was read at. Inside
/// a write transaction, whose changes may yet roll back, the table itself is read.
enum VectorSearchTable {
    static func register(with registrar: FunctionRegistrar) {
        VirtualTable.register(module, as: "doc_vector_search", on: registrar.connection, VirtualTable.CursorMaker(
            declaration: "CREATE TABLE x(sequence, distance, tbl HIDDEN, target HIDDEN, metric HIDDEN, dimensions HIDDEN, k HIDDEN, probes HIDDEN)",
            isInnocuous: false) { Cursor(db: $0) })
    }

    /// Column numbers, as declared: the two results, then the hidden arguments.
    private static let sequenceColumn: Int32 = 0, distanceColumn: Int32 = 1, firstArgument: Int32 = 2, argumentCount: Int32 = 6

    /// The rows of one search.
    private final class Cursor: VirtualTableCursor {
        let db: OpaquePointer
        var rows: [(sequence: Int64, distance: Double)] = []
        override var count: Int { rows.count }

        init(db: OpaquePointer) { self.db = db }

        /// Runs the search.
        func search(_ argv: UnsafeMutablePointer<OpaquePointer?>) throws {
            rows = []
            index = 0
            let table = String(decoding: BodyFunctions.rawText(argv[0]), as: UTF8.self)
            guard VectorTableCache.isTableName(table) else {
                throw VectorTableCache.Failure(code: SQLITE_ERROR, message: "doc_vector_search: '\(table)' is not a vector index's table")
            }
            let k = Int(clamping: sqlite3_value_int64(argv[4]))
            guard sqlite3_value_type(argv[1]) == SQLITE_BLOB, let metric = DistanceMetric(rawValue: Int(sqlite3_value_int(argv[2]))), k > 0 else {
                return   // (a MISSING or null target, or no rows asked for)
            }
            let target = UnsafeRawBufferPointer(start: sqlite3_value_blob(argv[1]), count: Int(sqlite3_value_bytes(argv[1])))
            let probes = max(1, Int(clamping: sqlite3_value_int64(argv[5])))
            rows = try VectorTableCache.shared.withVectors(of: table, metric: metric, on: db) { vectors in
                vectors.nearest(to: target, metric: metric, k: k, probes: probes)
            }
        }
    }

    private static func cursor(_ base: UnsafeMutablePointer<sqlite3_vtab_cursor>?) -> Cursor {
        VirtualTable.cursor(base, as: Cursor.self)
    }

    /// The module, set up once and never written after.
    nonisolated(unsafe) private static let module: UnsafeMutablePointer<sqlite3_module> = {
        let module = VirtualTable.module()
        module.pointee.xBestIndex = { _, info in
            // The only plan: every argument given (`doc_vector_search(a, b, c, d, e, f)` binds the hidden columns).
            let info = info!
            var given = 0
            for i in 0..<Int(info.pointee.nConstraint) {
                let constraint = info.pointee.aConstraint[i]
                let argument = constraint.iColumn - VectorSearchTable.firstArgument
                guard (0..<VectorSearchTable.argumentCount).contains(argument), constraint.op == UInt8(SQLITE_INDEX_CONSTRAINT_EQ) else { continue }
                guard constraint.usable != 0 else { return SQLITE_CONSTRAINT }
                info.pointee.aConstraintUsage[i].argvIndex = argument + 1
                info.pointee.aConstraintUsage[i].omit = 1
                given += 1
            }
            guard given == VectorSearchTable.argumentCount else { return SQLITE_CONSTRAINT }
            info.pointee.estimatedCost = 100
            info.pointee.estimatedRows = 10
            return SQLITE_OK
        }
        module.pointee.xFilter = { base, _, _, argc, argv in
            guard argc == VectorSearchTable.argumentCount, let argv else { return SQLITE_ERROR }
            do {
                try VectorSearchTable.cursor(base).search(argv)
                return SQLITE_OK
            } catch {
                let failure = error as? VectorTableCache.Failure ?? VectorTableCache.Failure(code: SQLITE_ERROR, message: "\(error)")
                let table = base!.pointee.pVtab!
                sqlite3_free(table.pointee.zErrMsg)
                let text = Array(failure.message.utf8CString)   // (SQLite frees the message with sqlite3_free)
                if let copy = sqlite3_malloc(Int32(text.count))?.bindMemory(to: CChar.self, capacity: text.count) {
                    copy.initialize(from: text, count: text.count)
                    table.pointee.zErrMsg = copy
                }
                return failure.code
            }
        }
        module.pointee.xColumn = { base, context, column in
            let cursor = VectorSearchTable.cursor(base)
            switch column {
            case VectorSearchTable.sequenceColumn: sqlite3_result_int64(context, cursor.rows[cursor.index].sequence)
            case VectorSearchTable.distanceColumn: sqlite3_result_double(context, cursor.rows[cursor.index].distance)
            default: sqlite3_result_null(context)
            }
            return SQLITE_OK
        }
        return module
    }()
}

/// The `k` nearest of the vectors offered: a max-heap on the distance (ties: the
/// larger sequence is the farther), so each offer costs O(log k).
struct Nearest {
    let k: Int
    private var heap: [(sequence: Int64, distance: Double)] = []

    init(k: Int) { self.k = k }

    /// Whether `a` is farther than `b`.
    private static func farther(_ a: (sequence: Int64, distance: Double), _ b: (sequence: Int64, distance: Double)) -> Bool {
        a.distance > b.distance || (a.distance == b.distance && a.sequence > b.sequence)
    }

    mutating func offer(sequence: Int64, distance: Double) {
        let item = (sequence: sequence, distance: distance)
        if heap.count < k {
            heap.append(item)
            var child = heap.count - 1
            while child > 0, case let parent = (child - 1) / 2, Self.farther(heap[child], heap[parent]) {
                heap.swapAt(child, parent)
                child = parent
            }
        } else if Self.farther(heap[0], item) {
            heap[0] = item
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var largest = parent
                if left < heap.count && Self.farther(heap[left], heap[largest]) { largest = left }
                if right < heap.count && Self.farther(heap[right], heap[largest]) { largest = right }
                if largest == parent { break }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
    }

    /// The rows, nearest first.
    var sorted: [(sequence: Int64, distance: Double)] { heap.sorted { Self.farther($1, $0) } }
}
