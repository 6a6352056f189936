// doclite-crashloop: kills a writer process with SIGKILL at random moments and
// checks, after each kill, that every batch whose commit returned is whole, that
// none that did not return is visible even in part, that SQLite finds the file
// sound, and that revision IDs, tombstones and sequences agree (``Verifier``).
//
// Usage: doclite-crashloop [--kills N] [--seed S] [--directory DIR]
//   (scripts/crashloop N builds and runs it; `writer DIR` is the child's mode.)
import DocLite
import Foundation

#if canImport(Glibc)
import Glibc
#endif

var kills = 20
var seed = UInt64(Date().timeIntervalSince1970 * 1000)
var directory: String?
var arguments = CommandLine.arguments.dropFirst()
if arguments.first == "writer", let target = arguments.dropFirst().first {
    do { try Workload.write(directory: target) } catch {
        FileHandle.standardError.write(Data("writer failed: \(error)\n".utf8))
        exit(1)
    }
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--kills": kills = Int(arguments.popFirst() ?? "") ?? kills
    case "--seed": seed = UInt64(arguments.popFirst() ?? "") ?? seed
    case "--directory": directory = arguments.popFirst()
    default:
        print("usage: doclite-crashloop [--kills N] [--seed S] [--directory DIR]")
        exit(2)
    }
}

/// Starts the writer, kills it after `delay` seconds, and returns the last batch it reported.
func runWriter(killingAfter delay: Double, in directory: String) throws -> Int? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    process.arguments = ["writer", directory]
    let pipe = Pipe()   // (a report line a batch: far below what the pipe holds before the kill)
    process.standardError = pipe
    try process.run()
    usleep(UInt32(delay * 1_000_000))
    let wasRunning = process.isRunning
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let reports = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard wasRunning, process.terminationReason == .uncaughtSignal else {
        throw CrashLoopError("the writer exited by itself (status \(process.terminationStatus)): \(reports.suffix(2000))")
    }
    return reports.split(separator: "\n").compactMap { line in line.range(of: "COMMITTED ").flatMap { Int(line[$0.upperBound...]) } }.last
}

srand48(Int(truncatingIfNeeded: seed))   // the kill moments repeat for a seed
let workDirectory = directory ?? NSTemporaryDirectory() + "doclite-crashloop-\(getpid())"
try? FileManager.default.removeItem(atPath: workDirectory)
try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
let verifier = Verifier(directory: workDirectory)
var committed = 0
var unreported = 0
var beforeFirstCommit = 0
let start = Date()
do {
    for round in 1...max(1, kills) {
        // Up to 400 ms: some kills land while the database opens or recovers, most in a batch or its commit.
        let delay = drand48() * 0.4
        let report = try runWriter(killingAfter: delay, in: workDirectory)
        if report == nil { beforeFirstCommit += 1 }
        let reported = report ?? committed
        let batches = try verifier.check(reported: reported, everyDocument: round == kills || round % 25 == 0)
        if batches > reported { unreported += 1 }
        committed = batches
    }
} catch {
    print("FAILED (seed \(seed), data in \(workDirectory)): \(error)")
    exit(1)
}
try? FileManager.default.removeItem(atPath: workDirectory)
print(String(format: "crash loop passed: %d kills (seed %llu), %d batches committed (%llu documents); %d kills before the writer's first commit (while it opened the database or wrote its first batch), %d between a commit and its report; %.0f s",
             kills, seed, committed, Workload.expectedCount(batches: committed), beforeFirstCommit, unreported, Date().timeIntervalSince(start)))
