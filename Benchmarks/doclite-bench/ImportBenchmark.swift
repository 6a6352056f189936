import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `doclite import` of the standard file, run as a user runs it (a child
/// process, the tool built next to this program), timed by the CPU time the
/// process used, next to the library's batch insert of the same documents.
enum ImportBenchmark {
    /// `hotels` written as JSON lines with their IDs in `_id`, so that the
    /// import stores the same documents under the same keys as the library insert.
    /// Written 1 MiB at a time: Foundation's `String.write(to:)` on Linux repeats
    /// the text's start after its first 2 GiB (one `write` call's most).
    static func writeFile(_ hotels: [Dataset.Hotel], to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw BenchmarkError("cannot create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var chunk = Data()
        for hotel in hotels {
            chunk.append(contentsOf: "{\"_id\": \"\(hotel.id)\", ".utf8)
            chunk.append(contentsOf: hotel.json.utf8.dropFirst())
            chunk.append(UInt8(ascii: "\n"))
            if chunk.count >= 1 << 20 {
                try handle.write(contentsOf: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: chunk)
    }

    static func row(file: URL, count: Int, work: URL, rounds: Int, libraryRate: Double?) throws -> Row? {
        let tool = ProcessInfo.processInfo.environment["DOCLITE_TOOL"].map(URL.init(fileURLWithPath:))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("doclite")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            print("(doclite import skipped: no doclite tool at \(tool.path); scripts/bench sets DOCLITE_TOOL)")
            return nil
        }
        var times: [Double] = []
        for _ in 0..<rounds {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(at: work.appendingPathComponent("import.doclite" + suffix))
            }
            let before = childUsage()
            let process = Process()
            process.executableURL = tool
            process.arguments = ["import", work.appendingPathComponent("import").path, file.path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchmarkError("doclite import exited with \(process.terminationStatus)") }
            let after = childUsage()
            times.append(after - before)
        }
        var row = Row(scenario: "doclite import of the same \(count) docs (its process's CPU time)", unit: "docs/s",
                      goal: "≥ 0.8× the library's insert")
        let rate = Double(count) / Measure.median(times)
        row.medians["DocLite"] = rate
        row.note = "doclite import: \(Int(rate)) docs/s, "
            + (libraryRate.map { String(format: "%.2f× the library's batch insert", rate / $0) } ?? "")
        return row
    }

    /// The CPU time (user and system) of the finished child processes.
    private static func childUsage() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
    }
}
