import Foundation
import XCTest
@testable import DocLite

/// Idle snapshot readers keep their read transaction between queries while
/// nothing is committed; they must never return stale rows, pin the
/// write-ahead log, or keep another connection's checkpoint waiting for long.
final class SnapshotReaderTests: DatabaseTestCase {
    private func walSize() -> Int {
        (try? FileManager.default.attributesOfItem(atPath: databaseFilePath + "-wal")[.size] as? Int) ?? 0
    }

    func testQueriesSeeEveryCommitOfThisAndOtherConnections() throws {
        let query = try db.createQuery("SELECT count(*) FROM _")
        func count() throws -> Int { try XCTUnwrap(query.execute().next()).int(at: 0) }
        XCTAssertEqual(try count(), 0)
        try defaultCollection.save(document: MutableDocument(id: "a"))
        XCTAssertEqual(try count(), 1, "this connection's commit")
        let other = try openDatabase()
        defer { try? other.close() }
        try other.defaultCollection().save(document: MutableDocument(id: "b"))
        XCTAssertEqual(try count(), 2, "another connection's commit")
        XCTAssertEqual(try count(), 2, "the same snapshot again")
    }

    /// Queries and saves in turn (what a live query does): the checkpoint at each
    /// commit must be able to reach the end of the log, so it stays bounded.
    func testAlternatingQueriesAndSavesKeepTheLogBounded() throws {
        let query = try db.createQuery("SELECT META().id FROM _ WHERE n = 1")
        let text = String(repeating: "x", count: 16_000)
        for i in 0..<400 {   // 400 × 16 KB written: above SQLite's 1,000-page checkpoint threshold
            _ = try query.execute().allResults()
            try defaultCollection.save(document: MutableDocument(id: "d\(i % 20)", json: #"{"n": \#(i), "t": "\#(text)"}"#))
        }
        XCTAssertLessThan(walSize(), 6_000_000, "the log was restarted after a checkpoint")
    }

    /// An idle snapshot ends by itself soon after its query, so that another
    /// connection's compaction can truncate the log.
    func testAnIdleSnapshotDoesNotHoldAnotherConnectionsCompaction() throws {
        let clock = ManualScheduler()
        try db.close()
        db = try openDatabase(scheduler: clock)
        try defaultCollection.save(document: MutableDocument(id: "a"))
        _ = try db.createQuery("SELECT META().id FROM _").execute().allResults()
        let other = try openDatabase()
        defer { try? other.close() }
        XCTAssertThrowsError(try other.performMaintenance(type: .compact), "the idle snapshot holds the log")
        clock.advance(by: 0.5)
        XCTAssertNoThrow(try other.performMaintenance(type: .compact))
    }
}
