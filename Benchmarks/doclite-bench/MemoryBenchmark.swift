import DocLite
import Foundation

/// `doclite-bench --memory 1000000,10000000`: the peak memory of each path
/// that reads or writes every document, at each size, every step in a process
/// of its own (`--memory-step STEP N`) so that its peak is its own: importing
/// the standard hotels streamed from the generator (batches of 10,000, as
/// `doclite import`), a query streaming every document, creating a value
/// index and a full-text index, and compacting. Prints each step's CPU time and
/// peak RSS by size, and whether the peak keeps within DocLite's bound.
enum MemoryBenchmark {
    static let steps = ["import", "stream", "value index", "full-text index", "compact"]
    /// The bound on every step's peak RSS (docs/performance.md, "Memory").
    static let boundMB = 64.0

    private struct Measured: Decodable {
        let seconds: Double
        let peakKB: Int
    }

    static func run(sizes: [Int], shared: URL, work: URL) throws {
        guard !sizes.isEmpty, sizes == sizes.sorted() else {
            throw BenchmarkError("--memory takes one or more ascending sizes, e.g. --memory 1000000,10000000")
        }
        var results: [[Measured]] = []
        for size in sizes {
            results.append(try steps.map { step in
                FileHandle.standardError.write(Data("\(step), \(size) documents…\n".utf8))
                return try measure(step, size: size)
            })
            try? Database.delete(withName: database(size), inDirectory: work.path)
        }
        print("Peak memory of the paths over every document (CPU seconds and peak RSS of the step's own process; "
              + "bound \(Int(boundMB)) MB)\n")
        print("| step | " + sizes.map { "CPU @\($0) | peak RSS @\($0)" }.joined(separator: " | ") + " | within the bound |")
        print("|---|" + String(repeating: "---:|", count: sizes.count * 2) + "---|")
        for (index, step) in steps.enumerated() {
            let cells = results.map { String(format: "%.2f s | %.1f MB", $0[index].seconds, Double($0[index].peakKB) / 1024) }
            let within = results.allSatisfy { Double($0[index].peakKB) / 1024 <= boundMB }
            print("| \(step) | " + cells.joined(separator: " | ") + " | \(within ? "yes" : "NO") |")
        }
    }

    /// Runs `step` in a child process; what it measured.
    private static func measure(_ step: String, size: Int) throws -> Measured {
        let data = try Measure.runThisProgram(["--memory-step", step, "\(size)"], failure: "the step '\(step)' on \(size) documents failed")
        return try JSONDecoder().decode(Measured.self, from: data)
    }

    private static func database(_ size: Int) -> String { "memory-\(size)" }

    /// Runs `step` on the database of `size` documents, in this process; prints its CPU time and peak RSS as JSON.
    static func step(_ step: String, size: Int, shared: URL, work: URL) throws {
        let config = DatabaseConfiguration(directory: work.path)
        if step == "import" { try? Database.delete(withName: database(size), inDirectory: work.path) }
        let db = try Database(name: database(size), config: config)
        let collection = try db.defaultCollection()
        let before = cpuSeconds()
        switch step {
        case "import":
            try importGenerated(size, into: collection, shared: shared)
        case "stream":
            var count = 0
            for row in try db.createQuery("SELECT META().id, * FROM _").execute() where row.string(at: 0) != nil { count += 1 }
            guard count == size else { throw BenchmarkError("the stream read \(count) of \(size) documents") }
        case "value index":
            try collection.createIndex(withName: "city_price", config: ValueIndexConfiguration(["city", "price"]))
        case "full-text index":
            try collection.createIndex(withName: "description", config: FullTextIndexConfiguration(["description"], language: "en"))
        case "compact":
            try db.performMaintenance(type: .compact)
        default:
            throw BenchmarkError("no memory step '\(step)' (\(steps.joined(separator: ", ")))")
        }
        let seconds = cpuSeconds() - before
        try db.close()
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print(#"{"seconds":\#(seconds),"peakKB":\#(usage.ru_maxrss)}"#)
    }

    /// Saves `size` standard hotels read line by line from the generator, committing every 10,000.
    private static func importGenerated(_ size: Int, into collection: DocLite.Collection, shared: URL) throws {
        let script = shared.appendingPathComponent("bench/gen_hotels.py").path
        guard let generator = popen("python3 '\(script)' \(size) /dev/stdout", "r") else {
            throw BenchmarkError("cannot run \(script)")
        }
        defer { pclose(generator) }
        var line: UnsafeMutablePointer<CChar>?, capacity = 0
        defer { free(line) }
        var saved = 0, finished = false
        while !finished && saved < size {
            try collection.database.inBatch {
                // (The generator's last line, after the documents, says how many it wrote.)
                for _ in 0..<min(10_000, size - saved) {
                    let length = getline(&line, &capacity, generator)
                    guard length > 0, let line else { finished = true; return }
                    try collection.save(document: try MutableDocument(json: String(cString: line)))
                    saved += 1
                }
            }
        }
        guard saved == size else { throw BenchmarkError("the generator gave \(saved) of \(size) documents") }
    }

    /// CPU time of this process so far (user and system).
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
