import Foundation

// Usage: doclite-grdb-bench DATA.jsonl [--rounds N] [--gets N] [--only NAME]
// (--only runs one contender, as a profiler wants).
// Each round gives every contender a new database in a temporary directory.
// Times are wall-clock medians (commits included); the checksums of the reads
// must agree, or the program fails.

let arguments = CommandLine.arguments
func option(_ name: String, default value: Int) -> Int {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? value
}
guard arguments.count > 1, !arguments[1].hasPrefix("--") else {
    FileHandle.standardError.write(Data("usage: doclite-grdb-bench DATA.jsonl [--rounds N] [--gets N] [--only NAME]\n".utf8))
    exit(2)
}
let rounds = option("--rounds", default: 5), getCount = option("--gets", default: 10_000)
let lines = try HotelLine.load(URL(fileURLWithPath: arguments[1]))
// A fixed sample of IDs, the same each run.
let ids = (0..<getCount).map { lines[($0 &* 7_919) % lines.count].id }

let allContenders: [any Contender.Type] = [DocLiteObjects.self, DocLiteJSON.self, GRDBRelational.self, GRDBJSONText.self]
let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
let contenders = allContenders.filter { only == nil || $0.name == only }
enum Work: String, CaseIterable {
    case insert, read, get
}
var times: [String: [Work: [Double]]] = [:]
var checksums: [Work: Set<Int>] = [:]

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let elapsed = try clock.measure(body)
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
}

for round in 1...rounds {
    for contender in contenders {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doclite-grdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let side = try contender.init(directory: directory)
        var record: [Work: Double] = [:]
        record[.insert] = try milliseconds { try side.insert(lines) }
        record[.read] = try milliseconds { checksums[.read, default: []].insert(try side.readRows()) }
        record[.get] = try milliseconds { checksums[.get, default: []].insert(try side.get(ids)) }
        for (work, time) in record { times[contender.name, default: [:]][work, default: []].append(time) }
    }
    FileHandle.standardError.write(Data("round \(round) of \(rounds) done\n".utf8))
}

for (work, sums) in checksums where sums.count != 1 {
    FileHandle.standardError.write(Data("the contenders read different values (\(work.rawValue)): \(sums)\n".utf8))
    exit(1)
}

@MainActor func median(_ name: String, _ work: Work) -> Double {
    let sorted = (times[name]?[work] ?? []).sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

let names = contenders.map { $0.name }
let titles: [Work: String] = [.insert: "insert \(lines.count) in one transaction", .read: "read 5 typed columns of \(lines.count) rows",
                              .get: "\(ids.count) gets by ID (2 fields each)"]
print("Medians of \(rounds) rounds, ms (lower is better)\n")
print("| work | " + names.joined(separator: " | ") + " |")
print("|---|" + String(repeating: "---:|", count: names.count))
for work in Work.allCases {
    print("| \(titles[work]!) | " + names.map { String(format: "%.1f", median($0, work)) }.joined(separator: " | ") + " |")
}
@MainActor func ratio(_ a: String, _ b: String, _ work: Work) -> String { String(format: "%.2f×", median(a, work) / median(b, work)) }
let (objects, json, relational, text) = (DocLiteObjects.name, DocLiteJSON.name, GRDBRelational.name, GRDBJSONText.name)
print("""

object-path insert ÷ DocLite's JSON insert: \(ratio(objects, json, .insert))   (goal ≤ 1.5×)
object-path insert ÷ GRDB relational: \(ratio(objects, relational, .insert)), ÷ GRDB JSON text: \(ratio(objects, text, .insert))
typed row reads ÷ GRDB relational: \(ratio(objects, relational, .read))   (goal ≤ 2×), ÷ GRDB JSON text: \(ratio(objects, text, .read))
gets by ID ÷ GRDB relational: \(ratio(objects, relational, .get)), ÷ GRDB JSON text: \(ratio(objects, text, .get))
""")
