import Foundation

/// Timing by the calling thread's CPU time (user + system), which the other
/// core's load disturbs far less than wall-clock time, and the medians.
enum Measure {
    /// CPU seconds the calling thread spent in `body`.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = threadCPUTime()
        try body()
        return threadCPUTime() - start
    }

    private static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Runs this program again with `arguments`, in a process of its own (so
    /// that its memory and caches are its own); what it printed.
    static func runThisProgram(_ arguments: [String], failure: String) throws -> Data {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = arguments
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else { throw BenchmarkError(failure) }
        return data
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }
}

/// Results of one scenario: median per contender, printed as a table row.
struct Row {
    let scenario: String
    let unit: String            // "ms" or "µs" (lower is better), or "docs/s" (higher is better)
    var medians: [String: Double] = [:]
    var goal: String = ""
    /// A line printed under the table (e.g. a comparison with an anchor figure).
    var note: String?

    func ratio(_ a: String, to b: String) -> Double? {
        guard let x = medians[a], let y = medians[b] else { return nil }
        return x / y
    }
}

/// Prints rows as a Markdown table with ratios to R and J, then the rows' notes.
func printTable(_ rows: [Row]) {
    func fmt(_ v: Double?, _ unit: String) -> String {
        guard let v else { return "—" }
        switch unit {
        case "ms": return String(format: "%.3f", v)
        case "µs": return String(format: "%.1f", v)
        default: return String(format: "%.0f", v)
        }
    }
    func ratio(_ v: Double?) -> String { v.map { String(format: "%.2f×", $0) } ?? "—" }
    print("| scenario | unit | DocLite | R | J | DocLite ÷ R | DocLite ÷ J | goal |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows {
        print("| \(row.scenario) | \(row.unit) | \(fmt(row.medians["DocLite"], row.unit)) | \(fmt(row.medians["R"], row.unit)) | \(fmt(row.medians["J"], row.unit)) | \(ratio(row.ratio("DocLite", to: "R"))) | \(ratio(row.ratio("DocLite", to: "J"))) | \(row.goal) |")
    }
    let notes = rows.compactMap(\.note)
    if !notes.isEmpty { print(""); for note in notes { print(note) } }
}

/// Prints each row as a JSON line: scenario, unit and the medians by side (for ``ScaleBenchmark``).
func printRowsJSON(_ rows: [Row]) {
    for row in rows {
        let object: [String: Any] = ["scenario": row.scenario, "unit": row.unit, "medians": row.medians]
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
