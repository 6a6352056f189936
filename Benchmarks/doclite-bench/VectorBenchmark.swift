import CSQLite
import DocLite
import Foundation

/// Vector search on seeded synthetic data (`--vectors N`: N vectors of 384 dimensions in
/// 100 clusters, and 20 query vectors drawn the same way): DocLite's vector index, coded
/// by SQ8 (the default) and not coded (its build, and the k = 10 nearest by squared
/// Euclidean distance through `APPROX_VECTOR_DISTANCE`) beside, in the same run, relational SQLite (R: a table of
/// float32 blobs ordered by a distance function registered on it), a brute-force scan in
/// Swift (the limit for recall: the exact neighbours) and, when `DOCLITE_SQLITE_VEC` names
/// its loadable extension (scripts/bench fetches it from PyPI), sqlite-vec's exact k-NN,
/// and when `DOCLITE_FAISS` names a Python path holding faiss-cpu, FAISS alone (the same
/// inverted-file indexes, `Benchmarks/faiss-contender.py`). Recall@10 of each against the
/// brute force.
struct VectorBenchmark {
    static let dimensions = 384, clusters = 100, k = 10, queryCount = 20
    /// The index's centroids, and what DocLite's defaults make of them: the training
    /// sample (256 a centroid) and the probes (0.5%, at least 8).
    static let centroids = 256, trainingSize = 256 * centroids, probes = 8

    let count: Int
    let rounds: Int
    let work: URL

    func run() throws {
        print("Vector search: \(count) vectors of \(Self.dimensions) dimensions in \(Self.clusters) clusters, "
              + "k = \(Self.k), \(Self.queryCount) queries, medians of \(rounds) rounds (thread CPU time)\n")
        var random = SeededRandom(seed: 42)
        let centers = (0..<Self.clusters).map { _ in (0..<Self.dimensions).map { _ in Float(random.normal()) } }
        func draw() -> [Float] { centers[Int(random.next() % UInt64(Self.clusters))].map { $0 + 0.3 * Float(random.normal()) } }
        let vectors = (0..<count).map { _ in draw() }
        let queries = (0..<Self.queryCount).map { _ in draw() }
        let flat = vectors.flatMap { $0 }
        let exact = queries.map { BruteForce.nearest(to: $0, in: flat, dimensions: Self.dimensions, k: Self.k) }

        // DocLite: the documents, then the index (timed), then the searches.
        try? Database.delete(withName: "vectors", inDirectory: work.path)
        let database = try Database(name: "vectors", config: DatabaseConfiguration(directory: work.path))
        defer { try? database.close() }
        let collection = try database.defaultCollection()
        func insertAll(into collection: Collection) throws -> Double {
            try Measure.seconds {
                try database.inBatch {
                    for (i, vector) in vectors.enumerated() {
                        try collection.save(document: MutableDocument(id: "v\(i)").setValue(vector.map(Double.init), forKey: "vector"))
                    }
                }
            }
        }
        let insert = try insertAll(into: collection)
        let query = try database.createQuery("SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target) LIMIT \(Self.k)")
        let docLiteIDs: ([Float]) throws -> [Int] = { target in
            query.parameters = Parameters().setValue(target.map(Double.init), forName: "target")
            return try query.execute().allResults().map { Int($0.string(at: 0)!.dropFirst())! }
        }

        /// Each contender's row: build seconds (nil: none), median query milliseconds, recall@10.
        var rows: [(name: String, build: Double?, milliseconds: Double, recall: Double)] = []
        func recall(_ results: [[Int]]) -> Double {
            Double(zip(results, exact).map { Set($0).intersection($1).count }.reduce(0, +)) / Double(queries.count * Self.k)
        }
        func measure(_ name: String, build: Double?, _ search: ([Float]) throws -> [Int]) throws {
            var times: [Double] = [], results: [[Int]] = []
            for round in 0...rounds {
                let seconds = try Measure.seconds { results = try queries.map(search) }
                if round > 0 { times.append(seconds / Double(queries.count)) }
            }
            rows.append((name, build, Measure.median(times) * 1e3, recall(results)))
        }

        // DocLite, with each encoding: the index built (timed), searched, dropped.
        for (label, encoding) in [("SQ8, the default", VectorEncoding.scalarQuantizer(type: .SQ8)), ("no encoding", .none)] {
            var config = VectorIndexConfiguration(expression: "vector", dimensions: UInt32(Self.dimensions), centroids: UInt32(Self.centroids))
            config.encoding = encoding
            let build = try Measure.seconds { try collection.createIndex(withName: "vectors", config: config) }
            try measure("DocLite (\(label))", build: build, docLiteIDs)
            try collection.deleteIndex(forName: "vectors")
        }
        // The same documents saved into a collection whose index exists (trained by the save of the 6,400th).
        let indexed = try database.createCollection(name: "indexed")
        try indexed.createIndex(withName: "vectors", config: VectorIndexConfiguration(expression: "vector", dimensions: UInt32(Self.dimensions),
                                                                                     centroids: UInt32(Self.centroids)))
        let indexedInsert = try insertAll(into: indexed)
        if let path = ProcessInfo.processInfo.environment["DOCLITE_FAISS"] {
            for encoding in ["SQ8", "none"] {
                let faiss = try FAISS.run(vectors: vectors, queries: queries, encoding: encoding, pythonPath: path, rounds: rounds, work: work)
                rows.append(("FAISS alone (\(encoding == "SQ8" ? "IndexIVFScalarQuantizer, SQ8" : "IndexIVFFlat"))", faiss.build,
                             faiss.queryMilliseconds, recall(faiss.found)))
            }
        } else {
            print("(FAISS: not measured; set DOCLITE_FAISS to a Python path holding faiss-cpu, as scripts/bench --vectors does)\n")
        }

        // R: the same vectors as float32 blobs in a plain table, ordered by a registered distance function.
        let r = openBaseline(work.appendingPathComponent("vectors-r.sqlite").path)
        defer { sqlite3_close(r) }
        let rBuild = Measure.seconds {
            execute(r, "CREATE TABLE vectors (id INTEGER PRIMARY KEY, vector BLOB NOT NULL)")
            insertVectors(vectors, into: r, "INSERT INTO vectors VALUES (?, ?)")
        }
        BruteForce.registerDistance(on: r)
        let rQuery = RawStatement(r, "SELECT id FROM vectors ORDER BY l2sq(vector, ?1) LIMIT \(Self.k)")
        defer { rQuery.finalize() }
        try measure("R", build: rBuild) { vectorSearchIDs(rQuery, $0) }
        try measure("brute force", build: nil) { BruteForce.nearest(to: $0, in: flat, dimensions: Self.dimensions, k: Self.k) }
        if let sqliteVec = try SQLiteVec(path: ProcessInfo.processInfo.environment["DOCLITE_SQLITE_VEC"], work: work) {
            try measure("sqlite-vec", build: try sqliteVec.load(vectors)) { sqliteVec.nearest(to: $0) }
        } else {
            print("(sqlite-vec: not measured; set DOCLITE_SQLITE_VEC to its vec0.so, as scripts/bench --vectors does)\n")
        }

        print("| contender | build (s) | k=10 query (ms) | × DocLite | recall@10 |")
        print("|---|---|---|---|---|")
        for row in rows {
            print(String(format: "| %@ | %@ | %.2f | %.2f× | %.3f |", row.name, row.build.map { String(format: "%.2f", $0) } ?? "—",
                         row.milliseconds, row.milliseconds / rows[0].milliseconds, row.recall))
        }
        print(String(format: "\nDocLite's insert of the %d documents (each a 384-number array): %.1f s; the index build reads them back.",
                     count, insert))
        print(String(format: "The same insert into a collection whose index exists (SQ8; trained by the save that brings %d vectors): %.1f s.",
                     25 * Self.centroids, indexedInsert))
    }
}

/// FAISS alone: `Benchmarks/faiss-contender.py` on the same vectors and queries, with
/// DocLite's centroids, training sample and probes, and `encoding` (`none` or `SQ8`), on one thread.
enum FAISS {
    struct Result: Decodable {
        let build: Double
        let queryMilliseconds: Double
        let found: [[Int]]

        enum CodingKeys: String, CodingKey { case build, queryMilliseconds = "query_ms", found }
    }

    static func run(vectors: [[Float]], queries: [[Float]], encoding: String, pythonPath: String, rounds: Int, work: URL) throws -> Result {
        var file = Data()
        for header in [vectors.count, VectorBenchmark.dimensions, queries.count] { withUnsafeBytes(of: Int32(header)) { file.append(contentsOf: $0) } }
        for vector in vectors + queries { vector.withUnsafeBytes { file.append(contentsOf: $0) } }
        let input = work.appendingPathComponent("faiss-vectors.bin")
        try file.write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("faiss-contender.py")
        process.arguments = ["python3", script.path, input.path, encoding] + [VectorBenchmark.centroids, VectorBenchmark.trainingSize,
                                                                   VectorBenchmark.probes, VectorBenchmark.k, rounds].map(String.init)
        process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONPATH": pythonPath, "OMP_NUM_THREADS": "1"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("faiss-contender.py failed (status \(process.terminationStatus))") }
        return try JSONDecoder().decode(Result.self, from: data)
    }
}

/// Inserts each vector, in one transaction, with `insert` binding its index and its float32 blob.
func insertVectors(_ vectors: [[Float]], into db: OpaquePointer, _ insert: String) {
    execute(db, "BEGIN")
    let statement = RawStatement(db, insert)
    for (i, vector) in vectors.enumerated() {
        sqlite3_reset(statement.handle)
        sqlite3_bind_int64(statement.handle, 1, Int64(i))
        vector.withUnsafeBytes { _ = sqlite3_bind_blob(statement.handle, 2, $0.baseAddress, Int32($0.count), csqlite_transient()) }
        _ = statement.run()
    }
    statement.finalize()
    execute(db, "COMMIT")
}

/// The integer IDs (column 0) `statement` gives with `target` bound to `?1` as a float32 blob.
func vectorSearchIDs(_ statement: RawStatement, _ target: [Float]) -> [Int] {
    sqlite3_reset(statement.handle)
    target.withUnsafeBytes { _ = sqlite3_bind_blob(statement.handle, 1, $0.baseAddress, Int32($0.count), csqlite_transient()) }
    var ids: [Int] = []
    while sqlite3_step(statement.handle) == SQLITE_ROW { ids.append(Int(sqlite3_column_int64(statement.handle, 0))) }
    sqlite3_reset(statement.handle)
    return ids
}

/// Exact nearest neighbours by a scan, and the same distance as an SQL function for R.
enum BruteForce {
    /// The `k` nearest of the vectors in `flat` (each `dimensions` floats) to `target`, nearest first.
    static func nearest(to target: [Float], in flat: [Float], dimensions: Int, k: Int) -> [Int] {
        var best: [(Float, Int)] = []
        flat.withUnsafeBufferPointer { all in
            target.withUnsafeBufferPointer { t in
                for i in 0..<(all.count / dimensions) {
                    let d = squaredDistance(UnsafeBufferPointer(rebasing: all[(i * dimensions)..<((i + 1) * dimensions)]), t)
                    if best.count < k || d < best[best.count - 1].0 {
                        let at = best.firstIndex { $0.0 > d } ?? best.count
                        best.insert((d, i), at: at)
                        if best.count > k { best.removeLast() }
                    }
                }
            }
        }
        return best.map(\.1)
    }

    /// Σ (a − b)², eight lanes at a time.
    static func squaredDistance(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>) -> Float {
        var total = SIMD8<Float>()
        var i = 0
        let raw = (UnsafeRawPointer(a.baseAddress!), UnsafeRawPointer(b.baseAddress!))
        while i + 8 <= a.count {
            let d = raw.0.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) - raw.1.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            total += d * d
            i += 8
        }
        var sum = total.sum()
        while i < a.count { sum += (a[i] - b[i]) * (a[i] - b[i]); i += 1 }
        return sum
    }

    /// `l2sq(a, b)`: the squared distance between two float32 blobs of one length.
    static func registerDistance(on db: OpaquePointer) {
        sqlite3_create_function_v2(db, "l2sq", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, argv in
            let count = Int(sqlite3_value_bytes(argv![0])) / 4
            guard count * 4 == Int(sqlite3_value_bytes(argv![1])),
                  let a = sqlite3_value_blob(argv![0]), let b = sqlite3_value_blob(argv![1]) else { return sqlite3_result_null(context) }
            let d = BruteForce.squaredDistance(UnsafeBufferPointer(start: a.assumingMemoryBound(to: Float.self), count: count),
                                               UnsafeBufferPointer(start: b.assumingMemoryBound(to: Float.self), count: count))
            sqlite3_result_double(context, Double(d))
        }, nil, nil, nil)
    }
}

/// sqlite-vec's exact k-NN (a `vec0` virtual table), loaded from its extension.
struct SQLiteVec {
    let db: OpaquePointer
    let query: RawStatement

    /// Nil when `path` is nil; an error when the extension does not load.
    init?(path: String?, work: URL) throws {
        guard let path else { return nil }
        db = openBaseline(work.appendingPathComponent("vectors-vec.sqlite").path)
        sqlite3_enable_load_extension(db, 1)
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_load_extension(db, path, nil, &message) == SQLITE_OK else {
            throw BenchmarkError("sqlite-vec did not load from \(path): \(message.map { String(cString: $0) } ?? "?")")
        }
        execute(db, "CREATE VIRTUAL TABLE vectors USING vec0(embedding float[\(VectorBenchmark.dimensions)])")
        query = RawStatement(db, "SELECT rowid FROM vectors WHERE embedding MATCH ?1 AND k = \(VectorBenchmark.k) ORDER BY distance")
    }

    /// Inserts the vectors; the seconds it took.
    func load(_ vectors: [[Float]]) throws -> Double {
        Measure.seconds { insertVectors(vectors, into: db, "INSERT INTO vectors (rowid, embedding) VALUES (?, ?)") }
    }

    func nearest(to target: [Float]) -> [Int] { vectorSearchIDs(query, target) }
}

extension SeededRandom {
    /// A standard normal deviate (Box–Muller).
    mutating func normal() -> Double {
        let u = (Double(next() >> 11) + 0.5) / Double(1 << 53), v = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
