// DocLite's benchmark on the standard data of ../shared/bench: insert, get by
// ID, and the queries Q0–Q4 (Q0, Q1 also with their indexes), an UNNEST without
// and with an array index, a predictive query without and with a predictive
// index, a join and a full-text search (MATCH + RANK) on the beer sample, run through the public
// query API (compiled once, every row iterated), each side by side with
// relational SQLite (R) doing the same work in the same run (and JSON text
// with json_extract (J) for the insert): interleaved rounds, medians, row
// counts checked equal. Then what parsing SQL++ costs next to compiling.
// Usage: doclite-bench [--rounds N] [--docs N] [--insert-only] [--profile SCENARIO N] [--collections N] [--sync]
//                      [--scale N,N,…] [--rows-json] [--memory N,N,…] [--vectors N]
// (--vectors N: vector search on N synthetic vectors, VectorBenchmark, and stops.)
// (--scale runs the benchmark at each size in a process of its own and prints how each figure grows:
// ScaleBenchmark; --memory runs each path over every document in a process of its own and prints its
// peak RSS: MemoryBenchmark; --rows-json prints the rows as JSON lines, for it; --sync pushes and pulls through a PostgreSQL server beside COPY, times an edit's round trip, and
// stops: SyncBenchmark; --collections N creates N collections and opens their file, and stops: CollectionsBenchmark;
// --profile runs one query scenario, q0 … q4, q0-indexed or q1-indexed, N times on each
// side and stops: scripts/bench-instructions runs it under callgrind for instructions per query.)
import CSQLite
import DocLite
import Foundation

var rounds = 7
var documentCount = 100_000
var insertOnly = false
var profiled: (scenario: String, count: Int)?
var collectionCount: Int?
var syncOnly = false
var scaleSizes: [Int]?
var rowsJSON = false
var memorySizes: [Int]?
var memoryStep: (name: String, size: Int)?
var vectorCount: Int?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rounds": rounds = Int(arguments.popFirst() ?? "") ?? rounds
    case "--docs": documentCount = Int(arguments.popFirst() ?? "") ?? documentCount
    case "--insert-only": insertOnly = true   // for profiling the insert path
    case "--profile": profiled = (arguments.popFirst() ?? "", Int(arguments.popFirst() ?? "") ?? 100)
    case "--collections": collectionCount = Int(arguments.popFirst() ?? "") ?? 10_000
    case "--sync": syncOnly = true
    case "--scale": scaleSizes = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
    case "--rows-json": rowsJSON = true
    case "--memory": memorySizes = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
    case "--memory-step": memoryStep = (arguments.popFirst() ?? "", Int(arguments.popFirst() ?? "") ?? 0)
    case "--vectors": vectorCount = Int(arguments.popFirst() ?? "") ?? 100_000
    default:
        print("usage: doclite-bench [--rounds N] [--docs N] [--insert-only] [--profile SCENARIO N] [--collections N] [--sync] "
              + "[--scale N,N,…] [--rows-json] [--memory N,N,…] [--vectors N]")
        exit(2)
    }
}

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let shared = root.deletingLastPathComponent().appendingPathComponent("shared")
let work = root.appendingPathComponent("Benchmarks/data")
if let collectionCount {
    try CollectionsBenchmark.run(count: collectionCount, work: work)
    exit(0)
}
if let scaleSizes {
    try ScaleBenchmark.run(sizes: scaleSizes, rounds: rounds)
    exit(0)
}
if let vectorCount {   // (synthetic data: no need of ../shared)
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    try VectorBenchmark(count: vectorCount, rounds: rounds, work: work).run()
    exit(0)
}
guard FileManager.default.fileExists(atPath: shared.appendingPathComponent("bench/gen_hotels.py").path) else {
    print("skipped: ../shared/bench/gen_hotels.py not found next to the repository (the standard data comes from it)")
    exit(0)
}
if let memorySizes {
    try MemoryBenchmark.run(sizes: memorySizes, shared: shared, work: work)
    exit(0)
}
if let memoryStep {
    try MemoryBenchmark.step(memoryStep.name, size: memoryStep.size, shared: shared, work: work)
    exit(0)
}
let data = try Dataset.load(count: documentCount, shared: shared, cache: work)
let hotels = data.hotels
if syncOnly {
    try SyncBenchmark.run(hotels: hotels, root: root, work: work)
    exit(0)
}
if !rowsJSON { print("DocLite benchmark: \(hotels.count) documents, \(rounds) interleaved rounds, medians of thread CPU time\n") }

// MARK: Insert

func insertDocLite() throws -> Database {
    try? Database.delete(withName: "bench", inDirectory: work.path)
    let db = try Database(name: "bench", config: DatabaseConfiguration(directory: work.path))
    let collection = try db.defaultCollection()
    try db.inBatch {
        for hotel in hotels { try collection.save(document: MutableDocument(id: hotel.id, json: hotel.json)) }
    }
    return db
}

func insertJ() -> OpaquePointer {
    let db = openBaseline(work.appendingPathComponent("j.sqlite").path)
    execute(db, "CREATE TABLE docs (id TEXT PRIMARY KEY, body TEXT NOT NULL); BEGIN")
    let insert = RawStatement(db, "INSERT INTO docs (id, body) VALUES (?, ?)")
    for hotel in hotels {
        insert.bind([.text(hotel.id), .text(hotel.json)])
        _ = insert.run()
    }
    insert.finalize()
    execute(db, "COMMIT")
    return db
}

func insertR() -> OpaquePointer {
    let db = openBaseline(work.appendingPathComponent("r.sqlite").path)
    execute(db, """
        CREATE TABLE hotels (id TEXT PRIMARY KEY, type TEXT, name TEXT, city TEXT, rating REAL, price INTEGER,
                             tags TEXT, description TEXT, street TEXT, zip TEXT);
        BEGIN
        """)
    let insert = RawStatement(db, "INSERT INTO hotels VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    for h in hotels {
        insert.bind([.text(h.id), .text(h.type), .text(h.name), .text(h.city), .double(h.rating), .int(h.price),
                     .text(h.tags), .text(h.description), .text(h.street), .text(h.zip)])
        _ = insert.run()
    }
    insert.finalize()
    execute(db, "COMMIT; PRAGMA case_sensitive_like = ON")
    return db
}

if let profiled {
    try QueryBenchmarks.profile(profiled.scenario, count: profiled.count, docLite: try insertDocLite(), r: insertR())
    exit(0)
}

var insertTimes: [String: [Double]] = [:]
var docLite: Database!
var r: OpaquePointer!
var j: OpaquePointer!
for round in 0..<max(3, rounds / 2) {
    if round > 0 { try docLite.close(); sqlite3_close(r); sqlite3_close(j) }
    insertTimes["DocLite", default: []].append(try Measure.seconds { docLite = try insertDocLite() })
    insertTimes["J", default: []].append(Measure.seconds { j = insertJ() })
    insertTimes["R", default: []].append(Measure.seconds { r = insertR() })
}
var rows: [Row] = []
var insertRow = Row(scenario: "I insert \(hotels.count) docs, one batch", unit: "docs/s", goal: "≥ 150,000 docs/s and ≥ 0.6× J")
for (name, times) in insertTimes { insertRow.medians[name] = Double(hotels.count) / Measure.median(times) }
rows.append(insertRow)
let importFile = work.appendingPathComponent("hotels_\(hotels.count)_with_ids.jsonl")
try ImportBenchmark.writeFile(hotels, to: importFile)
if let importRow = try ImportBenchmark.row(file: importFile, count: hotels.count, work: work, rounds: max(3, rounds / 2),
                                           libraryRate: insertRow.medians["DocLite"]) {
    rows.append(importRow)
}
if insertOnly {
    printTable(rows)
    exit(0)
}
let collection = try docLite.defaultCollection()
guard collection.count == UInt64(hotels.count) else { throw BenchmarkError("DocLite stored \(collection.count) documents") }

// MARK: Get by ID

var rng = SeededRandom(seed: 42)
let lookups = (0..<10_000).map { _ in hotels[Int(rng.next() % UInt64(hotels.count))].id }
var getTimes: [String: [Double]] = [:]
let rSelect = RawStatement(r, "SELECT * FROM hotels WHERE id = ?")
for _ in 0..<rounds {
    getTimes["DocLite", default: []].append(try Measure.seconds {
        for id in lookups {
            guard try collection.document(id: id)?.string(forKey: "name") != nil else { throw BenchmarkError("missing \(id)") }
        }
    })
    getTimes["R", default: []].append(Measure.seconds {
        for id in lookups {
            rSelect.bind([.text(id)])
            guard rSelect.run() == 1 else { fatalError("R missing \(id)") }
        }
    })
}
rSelect.finalize()
var getRow = Row(scenario: "get 10,000 random docs by ID", unit: "docs/s", goal: "≥ 0.8× R")
for (name, times) in getTimes { getRow.medians[name] = Double(lookups.count) / Measure.median(times) }
rows.append(getRow)

// MARK: Queries through the public API

try rows += QueryBenchmarks(docLite: docLite, r: r, rounds: rounds).run()
try rows += IndexKindsBenchmark(docLite: docLite, r: r, rounds: rounds).run()
// (The scale benchmark stores the beer sample once per 100,000 hotels.)
if let beers = try BeerSample.load(shared: shared, work: work, copies: rowsJSON ? max(1, documentCount / 100_000) : 1) {
    rows.append(try beers.joinRow(rounds: rounds))
    rows.append(try beers.fullTextRow(rounds: rounds))
    beers.close()
} else {
    print("(beer join and full-text search skipped: ../shared/data/beer-sample.jsonl not found)")
}
rows.append(try LiveQueryBenchmark.row(docLite: docLite, r: r, rounds: rounds))

if rowsJSON {
    guard let docLitePath = docLite.path else { throw BenchmarkError("the database has no file") }
    try docLite.close()
    sqlite3_close(r)
    sqlite3_close(j)
    var size = Row(scenario: "file size after the insert", unit: "MB")
    size.medians["DocLite"] = fileMegabytes(docLitePath)
    size.medians["R"] = fileMegabytes(work.appendingPathComponent("r.sqlite").path)
    let fileRows = try FileBenchmarks.rows(hotels: hotels, work: work, rounds: rounds)
    var memory = Row(scenario: "peak RSS of the whole run (both sides)", unit: "MB")
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    memory.medians["DocLite"] = Double(usage.ru_maxrss) / 1024
    printRowsJSON(rows + [size] + fileRows + [memory])
} else {
    printTable(rows)
    try SQLPPBenchmark.run(on: docLite, rounds: rounds)
    try docLite.close()
    sqlite3_close(r)
    sqlite3_close(j)
}

/// The size of a SQLite file with its write-ahead log, in MB.
func fileMegabytes(_ path: String) -> Double {
    let size = { (file: String) in (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0 }
    return Double(size(path) + size(path + "-wal")) / 1_048_576
}

