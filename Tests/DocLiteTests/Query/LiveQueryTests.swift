import Foundation
import XCTest
@testable import DocLite

/// Live queries: `Query.addChangeListener` gets the current rows, then the
/// whole new rows after each commit that changes them (and only then).
final class LiveQueryTests: DatabaseTestCase {
    private let queue = DispatchQueue(label: "LiveQueryTests")
    /// The database's clock: a run put off after a burst of commits waits for it to move.
    private var clock: ManualScheduler!

    override func setUpWithError() throws {
        try super.setUpWithError()
        clock = ManualScheduler()
        try db.close()
        db = try openDatabase(scheduler: clock)
    }

    /// Each notification's rows (the `name` column), or the error's message.
    private final class Changes: @unchecked Sendable {
        private let condition = NSCondition()
        private var items: [[String]] = []
        private var errors: [String] = []

        func record(_ change: QueryChange) {
            let names = change.results?.allResults().map { $0.string(forKey: "name") ?? "-" }
            condition.withLock {
                if let names { items.append(names) }
                if let error = change.error { errors.append("\(error)") }
                condition.broadcast()
            }
        }

        var all: [[String]] { condition.withLock { items } }
        var allErrors: [String] { condition.withLock { errors } }

        /// Waits until `test` holds for the rows and errors announced, woken by each
        /// announcement; false if 10 seconds pass first.
        func wait(until test: (_ rows: [[String]], _ errors: [String]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            return condition.withLock {
                while !test(items, errors) {
                    if !condition.wait(until: deadline) { return test(items, errors) }
                }
                return true
            }
        }
    }

    private func save(_ id: String, _ json: String, in collection: DocLite.Collection? = nil) throws {
        try (collection ?? defaultCollection).save(document: MutableDocument(id: id, json: json))
    }

    private func hotels() throws -> Query {
        try db.createQuery(json: #"{"WHAT": [[".name"]], "WHERE": ["=", [".type"], "hotel"], "ORDER_BY": [[".name"]]}"#)
    }

    /// Moves the clock past any run a burst of commits has put off, then waits for the
    /// runs under way and their calls to listeners: an announcement that was coming has come.
    private func settle(_ query: Query) {
        clock.advance(by: 0.5)
        query.liveQuery().drain()
        queue.sync {}
    }

    func testCurrentRowsThenEveryChange() throws {
        try save("h1", #"{"type": "hotel", "name": "Ritz"}"#)
        let changes = Changes()
        let query = try hotels()
        let token = query.addChangeListener(withQueue: queue) { changes.record($0) }
        defer { token.remove() }
        XCTAssertTrue(changes.wait { rows, errors in rows.count == 1 })
        XCTAssertEqual(changes.all, [["Ritz"]], "the current rows first")

        try save("h2", #"{"type": "hotel", "name": "Adlon"}"#)
        XCTAssertTrue(changes.wait { rows, errors in rows.count == 2 })
        XCTAssertEqual(changes.all.last, ["Adlon", "Ritz"], "the whole new rows, in the query's order")

        let runs = query.liveQuery().runCount
        try save("l1", #"{"type": "landmark", "name": "Louvre"}"#)   // a commit that leaves the rows as they were
        settle(query)
        XCTAssertEqual(query.liveQuery().runCount, runs + 1, "the query ran again")
        XCTAssertEqual(changes.all.count, 2, "unchanged rows are not announced")

        try defaultCollection.delete(document: XCTUnwrap(defaultCollection.document(id: "h1")))
        settle(query)   // (a commit 250 ms or less after the last one is put off 500 ms)
        XCTAssertTrue(changes.wait { rows, errors in rows.count == 3 })
        XCTAssertEqual(changes.all.last, ["Adlon"])
    }

    func testABatchIsOneChangeAndABurstIsCoalesced() throws {
        let changes = Changes()
        let query = try hotels()
        let token = query.addChangeListener(withQueue: queue) { changes.record($0) }
        defer { token.remove() }
        XCTAssertTrue(changes.wait { rows, errors in rows == [[]] })
        try db.inBatch {
            for i in 0..<5 { try save("h\(i)", #"{"type": "hotel", "name": "H\#(i)"}"#) }
        }
        XCTAssertTrue(changes.wait { rows, errors in rows.count == 2 })
        XCTAssertEqual(changes.all.last, ["H0", "H1", "H2", "H3", "H4"])
        // Commits in quick succession: the first runs the query at once, the rest wait
        // 500 ms and cost one more run, which sees them all.
        clock.advance(by: 1)
        let runs = query.liveQuery().runCount
        for i in 5..<10 { try save("h\(i)", #"{"type": "hotel", "name": "H\#(i)"}"#) }
        settle(query)
        XCTAssertTrue(changes.wait { rows, errors in rows.last?.count == 10 })
        XCTAssertLessThanOrEqual(query.liveQuery().runCount - runs, 2, "a burst costs two runs")
    }

    func testRemovedListenerHearsNothingMore() throws {
        let changes = Changes()
        let query = try hotels()
        let token = query.addChangeListener(withQueue: queue) { changes.record($0) }
        XCTAssertTrue(changes.wait { rows, errors in rows.count == 1 })
        token.remove()
        token.remove()   // idempotent
        try save("h1", #"{"type": "hotel", "name": "Ritz"}"#)
        settle(query)
        XCTAssertEqual(changes.all, [[]])
        XCTAssertEqual(query.liveQuery().runCount, 0, "a stopped query does not run")
    }

    func testAListenerAddedAgainAfterTheLastWasRemovedGetsTheRows() throws {
        let query = try hotels()
        let first = Changes(), again = Changes()
        let token = query.addChangeListener(withQueue: queue) { first.record($0) }
        XCTAssertTrue(first.wait { rows, errors in rows.count == 1 })
        try save("h1", #"{"type": "hotel", "name": "Ritz"}"#)
        try save("h2", #"{"type": "hotel", "name": "Adlon"}"#)   // within 250 ms: its run waits 500 ms
        token.remove()                                           // the last listener goes during the wait
        let second = query.addChangeListener(withQueue: queue) { again.record($0) }
        defer { second.remove() }
        XCTAssertTrue(again.wait { rows, errors in rows == [["Adlon", "Ritz"]] }, "the new listener gets the rows")
    }

    func testAListenerWhoseTokenIsDroppedKeepsListening() throws {
        let changes = Changes()
        try hotels().addChangeListener(withQueue: queue) { changes.record($0) }   // neither query nor token kept
        XCTAssertTrue(changes.wait { rows, errors in rows.count == 1 })
        try save("h1", #"{"type": "hotel", "name": "Ritz"}"#)
        XCTAssertTrue(changes.wait { rows, errors in rows.last == ["Ritz"] })
    }

    func testCommitsFromManyThreads() throws {
        let changes = Changes()
        let query = try hotels()
        let token = query.addChangeListener(withQueue: queue) { changes.record($0) }
        defer { token.remove() }
        XCTAssertTrue(changes.wait { rows, errors in rows.count == 1 })
        let collection = defaultCollection
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            try? collection.save(document: MutableDocument(id: "h\(i)", json: #"{"type": "hotel", "name": "H\#(i)"}"#))
        }
        settle(query)
        XCTAssertTrue(changes.wait { rows, errors in rows.last?.count == 40 })
    }

    func testASecondListenerGetsTheCurrentRows() throws {
        try save("h1", #"{"type": "hotel", "name": "Ritz"}"#)
        let query = try hotels()
        let first = Changes(), second = Changes()
        let firstToken = query.addChangeListener(withQueue: queue) { first.record($0) }
        XCTAssertTrue(first.wait { rows, errors in rows.count == 1 })
        let secondToken = query.addChangeListener(withQueue: queue) { second.record($0) }
        XCTAssertTrue(second.wait { rows, errors in rows.count == 1 })
        XCTAssertEqual(second.all, [["Ritz"]])
        firstToken.remove()
        try save("h2", #"{"type": "hotel", "name": "Adlon"}"#)
        XCTAssertTrue(second.wait { rows, errors in rows.count == 2 })
        XCTAssertEqual(first.all.count, 1, "a removed listener is not called")
        secondToken.remove()
    }

    func testNewParametersRunTheQueryAgain() throws {
        try save("h1", #"{"type": "hotel", "name": "Ritz", "city": "Paris"}"#)
        try save("h2", #"{"type": "hotel", "name": "Savoy", "city": "London"}"#)
        let query = try db.createQuery(json: #"{"WHAT": [[".name"]], "WHERE": ["=", [".city"], ["$city"]]}"#)
        query.parameters = Parameters().setString("Paris", forName: "city")
        let changes = Changes()
        let token = query.addChangeListener(withQueue: queue) { changes.record($0) }
        defer { token.remove() }
        XCTAssertTrue(changes.wait { rows, errors in rows == [["Ritz"]] })
        query.parameters = Parameters().setString("London", forName: "city")
        XCTAssertTrue(changes.wait { rows, errors in rows.count == 2 })
        XCTAssertEqual(changes.all.last, ["Savoy"])
    }

    func testAFailingRunIsAnnouncedAsAnError() throws {
        let query = try db.createQuery(json: #"{"WHAT": [[".name"]], "LIMIT": ["$n"]}"#)
        let changes = Changes()
        let token = query.addChangeListener(withQueue: queue) { changes.record($0) }
        defer { token.remove() }
        XCTAssertTrue(changes.wait { rows, errors in errors.count == 1 })
        XCTAssertTrue(changes.allErrors[0].contains("LIMIT is MISSING"), changes.allErrors[0])
        query.parameters = Parameters().setInt(5, forName: "n")
        XCTAssertTrue(changes.wait { rows, errors in rows == [[]] }, "the next run's rows")
    }

    func testOnlyCollectionsTheQueryReadsRunItAgain() throws {
        let other = try db.createCollection(name: "other")
        let changes = Changes()
        let query = try hotels()
        let token = query.addChangeListener(withQueue: queue) { changes.record($0) }
        defer { token.remove() }
        XCTAssertTrue(changes.wait { rows, errors in rows.count == 1 })
        settle(query)
        let runs = query.liveQuery().runCount
        try save("o1", #"{"type": "hotel", "name": "Elsewhere"}"#, in: other)
        settle(query)
        XCTAssertEqual(query.liveQuery().runCount, runs, "a commit to another collection does not run the query")
        XCTAssertEqual(changes.all.count, 1)
    }

    func testBuilderQueriesAreLiveToo() throws {
        let changes = Changes()
        let token = QueryBuilder.select(SelectResult.property("name"))
            .from(DataSource.collection(defaultCollection))
            .where(Expression.property("type").equalTo(Expression.string("hotel")))
            .addChangeListener(withQueue: queue) { changes.record($0) }
        defer { token.remove() }
        XCTAssertTrue(changes.wait { rows, errors in rows.count == 1 })
        try save("h1", #"{"type": "hotel", "name": "Ritz"}"#)
        XCTAssertTrue(changes.wait { rows, errors in rows.last == ["Ritz"] })
    }

    func testTheMainQueueByDefault() throws {
        let delivered = expectation(description: "a change on the main thread")
        let token = try hotels().addChangeListener { _ in
            XCTAssertTrue(Thread.isMainThread)
            delivered.fulfill()
        }
        defer { token.remove() }
        wait(for: [delivered], timeout: 5)
    }

    func testClosingTheDatabaseEndsTheLiveQuery() throws {
        let changes = Changes()
        let query = try db.createQuery(json: #"{"WHAT": [[".name"]], "WHERE": ["=", [".city"], ["$city"]]}"#)
        let token = query.addChangeListener(withQueue: queue) { changes.record($0) }
        XCTAssertTrue(changes.wait { rows, errors in rows.count == 1 })
        try db.close()
        query.parameters = Parameters().setString("Paris", forName: "city")   // a run on a closed database
        settle(query)
        XCTAssertEqual(query.liveQuery().runCount, 2)
        token.remove()
        XCTAssertEqual(changes.all.count, 1)
        XCTAssertEqual(changes.allErrors, [], "a closed database ends the live query quietly")
    }

    /// Issue 41: a listener added after the database closed used to get a token
    /// and never a call. It is told, once, why no results will come.
    func testAListenerAddedAfterCloseIsToldTheDatabaseIsClosed() throws {
        let changes = Changes()
        let query = try db.createQuery(json: #"{"WHAT": [[".name"]]}"#)
        try db.close()
        let token = query.addChangeListener(withQueue: queue) { changes.record($0) }
        defer { token.remove() }
        XCTAssertTrue(changes.wait { rows, errors in errors.count == 1 })
        XCTAssertEqual(changes.allErrors, ["database 'test' is closed"])
        XCTAssertEqual(changes.all, [], "and no results")
    }

    /// `changes()`: the current results, then new ones after a commit; ends after a closed database's error.
    func testChangesAsAnAsyncSequence() async throws {
        let query = try db.createQuery(json: #"{"WHAT": [[".name"]], "ORDER_BY": [[".name"]]}"#)
        var changes = query.changes().makeAsyncIterator()
        let first = await changes.next()
        XCTAssertEqual(first?.results?.allResults().compactMap { $0.string(at: 0) }, [])
        try save("h1", #"{"name": "Ritz"}"#)
        let second = await changes.next()
        XCTAssertEqual(second?.results?.allResults().compactMap { $0.string(at: 0) }, ["Ritz"])
        let built = try QueryBuilder.select(SelectResult.property("name")).from(DataSource.collection(defaultCollection)).changes()
        var builtChanges = built.makeAsyncIterator()
        let builtFirst = await builtChanges.next()
        XCTAssertEqual(builtFirst?.results?.allResults().count, 1)
        try db.close()
        var closed = query.changes().makeAsyncIterator()
        let error = await closed.next()?.error as? DocLiteError
        XCTAssertTrue(error?.is(.notOpen) == true)
        let end = await closed.next()
        XCTAssertNil(end)
    }
}
