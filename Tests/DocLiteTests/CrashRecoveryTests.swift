import Foundation
import XCTest
@testable import DocLite

#if canImport(Glibc)
import Glibc
#endif

/// The workload of the crash test, shared by the writer (child process) and the checker.
///
/// Batch `k` (1, 2, …) is one `inBatch`: it saves documents `b<k>-0` … `b<k>-49`
/// (each with a key new to the batch, `k<k>`, so shared keys are assigned in
/// every batch), marks `b<k-1>-0` as updated by `k`, deletes `b<k-1>-1`, and
/// sets the `progress` document's `batch` to `k`. So after `B` committed batches:
/// - `progress.batch == B`;
/// - every batch `k <= B` has its documents, except `b<k>-1` for `k < B` (deleted);
/// - `b<k>-0` has `updatedBy == k + 1` for `k < B` and none for `k == B`;
/// - no document of batch `B + 1` exists;
/// - so the count is `1 + 50·B − (B − 1)` = `49·B + 2` (`1` when `B == 0`).
enum CrashWorkload {
    static let batchSize = 50
    static let databaseName = "crash"
    static let environmentKey = "DOCLITE_CRASH_DIR"

    static func body(batch: Int, index: Int) -> JSONValue {
        .dictionary([
            "batch": .int(Int64(batch)),
            "index": .int(Int64(index)),
            ByteString("k\(batch)"): .string("new key of batch \(batch)"),
            "payload": .string(String(repeating: "\(batch)-\(index) ", count: 20)),
            "nested": .dictionary(["list": .array((0..<index % 5).map { .int(Int64($0)) })]),
        ])
    }

    static func expectedCount(batches: Int) -> UInt64 {
        batches == 0 ? 0 : UInt64(49 * batches + 2)
    }
}

/// The child process's side: writes batches until killed. Skipped unless
/// started by ``CrashRecoveryTests`` (with `DOCLITE_CRASH_DIR` set).
final class CrashWriter: XCTestCase {
    func testWriteBatchesUntilKilled() throws {
        guard let directory = ProcessInfo.processInfo.environment[CrashWorkload.environmentKey] else {
            throw XCTSkip("runs only as the child process of CrashRecoveryTests")
        }
        let db = try Database(name: CrashWorkload.databaseName, config: DatabaseConfiguration(directory: directory))
        let collection = try db.defaultCollection()
        let progress = try collection.document(id: "progress")?.toMutable() ?? MutableDocument(id: "progress")
        var batch = progress.int(forKey: "batch")
        let deadline = Date().addingTimeInterval(120)   // never outlive a parent that failed to kill us
        while Date() < deadline && getppid() != 1 {
            batch += 1
            try db.inBatch {
                for index in 0..<CrashWorkload.batchSize {
                    let json = CrashWorkload.body(batch: batch, index: index).json
                    try collection.save(document: MutableDocument(id: "b\(batch)-\(index)", json: json))
                }
                if batch > 1 {
                    let previous = try XCTUnwrap(collection.document(id: "b\(batch - 1)-0")).toMutable()
                    previous.setInt(batch, forKey: "updatedBy")
                    try collection.save(document: previous)
                    try collection.delete(document: XCTUnwrap(collection.document(id: "b\(batch - 1)-1")))
                }
                progress.setInt(batch, forKey: "batch")
                try collection.save(document: progress)
            }
            // Reported on stderr, unbuffered and apart from XCTest's own output on stdout.
            FileHandle.standardError.write(Data("COMMITTED \(batch)\n".utf8))
        }
        XCTFail("the crash writer was not killed")
    }
}

/// Kills a writer process (this test bundle re-launched with only ``CrashWriter``) with SIGKILL in the middle of its batches, several
/// times, and checks that every committed batch is there, completely, and no
/// uncommitted one is, even partly.
final class CrashRecoveryTests: DatabaseTestCase {
    /// Runs the writer until it reports `target` committed batches (or more), then
    /// kills it. Returns the last batch it reported.
    private func runWriterAndKill(after target: Int) throws -> Int {
        let executable = ProcessInfo.processInfo.arguments[0]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["DocLiteTests.CrashWriter/testWriteBatchesUntilKilled"]
        var environment = ProcessInfo.processInfo.environment
        environment[CrashWorkload.environmentKey] = directory
        process.environment = environment
        let output = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = output
        let text = Recorder<Data>()
        output.fileHandleForReading.readabilityHandler = { handle in text.append(handle.availableData) }
        try process.run()
        defer {
            output.fileHandleForReading.readabilityHandler = nil
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }

        var lastReported = 0
        func reported() -> Int {
            let lines = String(decoding: text.all.reduce(Data(), +), as: UTF8.self).split(separator: "\n")
            return lines.compactMap { line in line.range(of: "COMMITTED ").flatMap { Int(line[$0.upperBound...]) } }.last ?? 0
        }
        let reached = waitUntil(timeout: 60) {
            lastReported = reported()
            return lastReported >= target || !process.isRunning
        }
        XCTAssertTrue(process.isRunning, "the writer exited early: \(String(decoding: text.all.reduce(Data(), +), as: UTF8.self).suffix(2000))")
        XCTAssertTrue(reached, "the writer reported only \(lastReported) batches")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGKILL)
        return max(lastReported, reported())
    }

    /// Checks the invariant of ``CrashWorkload`` and returns the committed batch count.
    private func checkDatabase(reported: Int) throws -> Int {
        let path = Database.filePath(name: CrashWorkload.databaseName, directory: directory)
        let crashed = try Database(name: CrashWorkload.databaseName, config: DatabaseConfiguration(directory: directory))
        defer { try? crashed.close() }
        XCTAssertEqual(rawSQL("SELECT count(*) FROM pragma_integrity_check WHERE integrity_check != 'ok'", path: path), 0)
        let collection = try crashed.defaultCollection()
        let batches = try XCTUnwrap(collection.document(id: "progress"), "not even one batch committed").int(forKey: "batch")
        XCTAssertGreaterThanOrEqual(batches, reported, "a batch reported as committed was lost")
        XCTAssertLessThanOrEqual(batches, reported + 1, "the writer committed at most one batch it could not report")
        XCTAssertEqual(collection.count, CrashWorkload.expectedCount(batches: batches), "count after \(batches) batches")

        for batch in 1...batches {
            for index in 0..<CrashWorkload.batchSize {
                let id = "b\(batch)-\(index)"
                let doc = try collection.document(id: id)
                if index == 1 && batch < batches {
                    XCTAssertNil(doc, "\(id) should have been deleted by batch \(batch + 1)")
                    continue
                }
                guard let doc else {
                    XCTFail("\(id) of committed batch \(batch) is missing")
                    continue
                }
                var expected = CrashWorkload.body(batch: batch, index: index)
                if index == 0 && batch < batches, case .dictionary(var members) = expected {
                    members["updatedBy"] = .int(Int64(batch + 1))
                    expected = .dictionary(members)
                }
                guard let read = try? JSONValue(json: doc.toJSON()) else {
                    XCTFail("\(id): body does not decode: \(doc.toJSON())")
                    continue
                }
                if let difference = firstDifference(expected, read) { XCTFail("\(id): \(difference)") }
            }
        }
        let uncommitted = try (0..<CrashWorkload.batchSize).map { "b\(batches + 1)-\($0)" }.filter { try collection.document(id: $0) != nil }
        XCTAssertEqual(uncommitted, [], "documents of the uncommitted batch \(batches + 1) are stored")
        // Sequences continue past everything stored.
        let probe = try MutableDocument(id: "probe", json: "{}")
        try collection.save(document: probe)
        let maxSequence = try collection.document(id: "progress")!.sequence
        XCTAssertGreaterThan(probe.sequence, maxSequence)
        try collection.purge(id: "probe")
        return batches
    }

    func testCommittedBatchesSurviveSIGKILL() throws {
        let executable = ProcessInfo.processInfo.arguments[0]
        guard executable.hasSuffix(".xctest") else {
            throw XCTSkip("needs the XCTest bundle executable to re-launch, got \(executable)")
        }
        var committed = 0
        for round in 1...3 {
            let reported = try runWriterAndKill(after: committed + 6 + 4 * round)
            XCTAssertGreaterThanOrEqual(reported, committed, "round \(round)")
            committed = try checkDatabase(reported: reported)
        }
        XCTAssertGreaterThanOrEqual(committed, 30)
    }
}
