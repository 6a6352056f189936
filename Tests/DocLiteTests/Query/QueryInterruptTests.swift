import Foundation
import XCTest
@testable import DocLite

/// Stopping a query while it runs: Query.interrupt() from another thread, a
/// progress handler, ResultSet.interrupt() and the cancellation of an async execute.
final class QueryInterruptTests: QueryTestCase {
    /// A three-way join of 400 documents: 64 million rows to count, minutes of work unless stopped.
    private var endlessQuery: Query!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try load((0..<400).map { ("doc\($0)", #"{"n": \#($0)}"#) })
        endlessQuery = try db.createQuery(
            "SELECT COUNT(*) AS pairs FROM _ AS a JOIN _ AS b ON a.n >= 0 JOIN _ AS c ON c.n >= b.n - 1000")
    }

    private func assertInterrupted(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            let error = error as? DocLiteError
            XCTAssertEqual(error?.isInterruption, true, "\(String(describing: error))", file: file, line: line)
            XCTAssertEqual(error?.message, "the query was interrupted", file: file, line: line)
        }
    }

    /// Interrupts `query` from another thread once its run has begun (its progress handler called).
    private func interruptOnceRunning(_ query: Query) {
        let running = DispatchSemaphore(value: 0)
        query.setProgressHandler(steps: 1_000) { running.signal(); return true }
        DispatchQueue.global().async {
            running.wait()
            query.interrupt()
        }
    }

    func testInterruptFromAnotherThreadStopsTheRunningQuery() throws {
        let query = endlessQuery!
        interruptOnceRunning(query)
        assertInterrupted { _ = try query.execute() }
        // A run started after the interrupt is not affected.
        XCTAssertEqual(try db.createQuery("SELECT COUNT(*) AS n FROM _").execute().next()?.int(forKey: "n"), 400)
        let again = try db.createQuery("SELECT n FROM _ ORDER BY n LIMIT 2")
        again.interrupt()
        XCTAssertEqual(try again.execute().map { $0.int(at: 0) }, [0, 1])
    }

    func testProgressHandlerReturningFalseStopsTheRun() throws {
        let calls = Recorder<Int>()
        endlessQuery.setProgressHandler(steps: 10_000) {
            calls.append(1)
            return calls.all.count < 5
        }
        assertInterrupted { _ = try endlessQuery.execute() }
        XCTAssertEqual(calls.all.count, 5)

        // A handler that keeps going lets a short query finish; nil removes it.
        let short = try db.createQuery("SELECT n FROM _ WHERE n < 3 ORDER BY n")
        let shortCalls = Recorder<Int>()
        short.setProgressHandler(steps: 1) { shortCalls.append(1); return true }
        XCTAssertEqual(try short.execute().map { $0.int(at: 0) }, [0, 1, 2])
        XCTAssertGreaterThan(shortCalls.all.count, 0)
        short.setProgressHandler(nil)
        let before = shortCalls.all.count
        XCTAssertEqual(try short.execute().allResults().count, 3)
        XCTAssertEqual(shortCalls.all.count, before)
    }

    func testInterruptedResultSetEndsWithTheError() throws {
        let results = try db.createQuery("SELECT n FROM _ ORDER BY n").execute()
        XCTAssertEqual(results.next()?.int(at: 0), 0)
        results.interrupt()
        XCTAssertNil(results.next())
        XCTAssertEqual(results.error?.isInterruption, true)
        // The database goes on: the reader went back to the pool.
        XCTAssertEqual(try db.createQuery("SELECT COUNT(*) FROM _").execute().next()?.int(at: 0), 400)
    }

    func testInterruptInsideABatchLeavesTheBatchUsable() throws {
        let query = endlessQuery!
        try db.inBatch(using: {
            let doc = MutableDocument(id: "in-batch")
            doc.setInt(1, forKey: "n")
            try defaultCollection.save(document: doc)
            interruptOnceRunning(query)
            assertInterrupted { _ = try query.execute() }
            XCTAssertNotNil(try defaultCollection.document(id: "in-batch"))
        })
        XCTAssertNotNil(try defaultCollection.document(id: "in-batch"))
    }

    func testCancellingTheTaskOfAnAsyncExecuteInterruptsIt() async throws {
        let query = endlessQuery!
        let (running, started) = AsyncStream.makeStream(of: Void.self)
        query.setProgressHandler(steps: 1_000) { started.yield(); return true }
        let task = Task { try await query.execute() }
        var runs = running.makeAsyncIterator()
        await runs.next()   // (the run has begun)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("the cancelled query returned rows")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        // Not cancelled, the async form reads every row before it returns.
        let results = try await db.createQuery("SELECT n FROM _ WHERE n < 4 ORDER BY n").execute()
        XCTAssertEqual(results.map { $0.int(at: 0) }, [0, 1, 2, 3])
    }
}
