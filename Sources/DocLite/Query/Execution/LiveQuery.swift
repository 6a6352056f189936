import Foundation

/// A change to a live query's results (``Query/addChangeListener(withQueue:_:)``):
/// the whole new result set, or the error that stopped a run.
public struct QueryChange: @unchecked Sendable {
    /// The query whose results changed.
    public let query: Query
    /// Every row of the new results (read from the start); nil when the run failed.
    public let results: ResultSet?
    /// Why the run failed; nil when it did not.
    public let error: Error?
}

extension Query {
    /// Makes the query live, as Couchbase Lite's: `listener` gets the current
    /// results soon after it is added, then the whole new results after each
    /// commit (through this database object) that changes them, or that changes
    /// the query's ``parameters``. Calls are made on `queue` (the main queue
    /// when nil), one at a time. The query keeps running, and stays alive,
    /// while a listener is registered; ``ListenerToken/remove()`` removes one.
    @discardableResult
    public func addChangeListener(withQueue queue: DispatchQueue? = nil,
                                  _ listener: @escaping @Sendable (QueryChange) -> Void) -> ListenerToken {
        liveQuery().add(queue: queue ?? .main, listener)
    }

    /// As ``addChangeListener(withQueue:_:)``, calling `listener` on the thread
    /// that ran the query (the C API's rule: "an arbitrary thread").
    package func addChangeListenerOnQueryThread(_ listener: @escaping @Sendable (QueryChange) -> Void) -> ListenerToken {
        liveQuery().add(queue: nil, listener)
    }
}

extension ResultSet {
    /// The remaining rows, kept so that they can be read again and again (the C
    /// API's `CBLQuery_CopyCurrentResults` reads a live query's results so).
    package func snapshot() -> ResultSnapshot {
        ResultSnapshot(database: database, rows: allResults(), columns: columns)
    }
}

/// Rows that make a new result set, read from the first row, each time they are asked for.
package struct ResultSnapshot: @unchecked Sendable {
    let database: Database
    let rows: [Result]
    let columns: ResultColumns

    /// A result set of the rows, from the first.
    package func resultSet() -> ResultSet {
        ResultSet(database: database, rows: rows, columns: columns)
    }
}

/// Runs a query again after each commit to a collection it reads, and tells
/// its listeners when the rows differ from those last announced (LiteCore's
/// LiveQuerier): a change within 250 ms of the previous one waits 500 ms, so
/// that a burst of commits costs one run; a run after the listeners are gone
/// is skipped. Runs are made one at a time on a queue of the live query's own.
final class LiveQuery: @unchecked Sendable {
    private struct Listener {
        /// Where the listener is called; nil: on the run queue.
        let queue: DispatchQueue?
        let callback: @Sendable (QueryChange) -> Void
    }

    private typealias Rows = (rows: [Result], columns: ResultColumns)

    /// Kept alive while the live query is: a token holds the live query, the live query its query.
    let query: Query
    private let lock = Lock()
    private let runQueue = DispatchQueue(label: "DocLite.LiveQuery")
    private var listeners: [Int: Listener] = [:]
    private var nextID = 1
    /// The database's commit listeners for the collections the query reads.
    private var commitTokens: [ListenerToken] = []
    /// The rows last announced; nil until the first run since the query went live.
    private var current: Rows?
    private var lastCommit: DispatchTime?
    private var runPending = false
    /// Bumped when the query stops being live: runs scheduled before then do nothing.
    private var generation = 0

    init(query: Query) {
        self.query = query
    }

    /// Registers a listener; the first one starts the query, a later one gets the current rows.
    func add(queue: DispatchQueue?, _ callback: @escaping @Sendable (QueryChange) -> Void) -> ListenerToken {
        let listener = Listener(queue: queue, callback: callback)
        let (id, isFirst, rows) = lock.withLock { () -> (Int, Bool, Rows?) in
            let id = nextID
            nextID += 1
            listeners[id] = listener
            return (id, listeners.count == 1, current)
        }
        if isFirst {
            start()
        } else if let rows {
            runQueue.async { self.announce(.success(rows), to: [listener]) }
        }
        return ListenerToken { self.remove(id) }
    }

    /// The query's parameters changed: run it again now.
    func parametersChanged() {
        schedule(after: 0)
    }

    private func start() {
        let database = query.database
        let tokens = query.collectionIDs.map { collectionID in
            database.listeners.add(collectionID: collectionID, documentID: nil) { [weak self] _, _ in self?.committed() }
        }
        lock.withLock { commitTokens = tokens }
        schedule(after: 0)
    }

    private func remove(_ id: Int) {
        let stopped: [ListenerToken] = lock.withLock {
            guard listeners.removeValue(forKey: id) != nil, listeners.isEmpty else { return [] }
            generation += 1
            current = nil
            lastCommit = nil
            defer { commitTokens = [] }
            return commitTokens
        }
        stopped.forEach { $0.remove() }
    }

    private func committed() {
        let now = DispatchTime.now()
        let soon = lock.withLock { () -> Bool in
            defer { lastCommit = now }
            guard let last = lastCommit else { return false }
            return now.uptimeNanoseconds - last.uptimeNanoseconds < 250_000_000
        }
        schedule(after: soon ? 0.5 : 0)
    }

    private func schedule(after delay: Double) {
        let scheduled: Int? = lock.withLock {
            guard !runPending, !listeners.isEmpty else { return nil }
            runPending = true
            return generation
        }
        guard let scheduled else { return }
        runQueue.asyncAfter(deadline: .now() + delay) { self.run(generation: scheduled) }
    }

    private func run(generation scheduled: Int) {
        let live = lock.withLock { () -> Bool in
            runPending = false
            return generation == scheduled
        }
        guard live else { return }
        let outcome: Swift.Result<Rows, Error>
        do {
            let results = try query.execute()
            let rows = results.allResults()
            if let error = results.error { throw error }
            outcome = .success((rows, results.columns))
        } catch let error as DocLiteError where error.is(.notOpen) {
            return   // the database was closed: nothing more will change
        } catch {
            outcome = .failure(error)
        }
        let targets: [Listener] = lock.withLock {
            guard generation == scheduled else { return [] }
            if case .success(let rows) = outcome {
                if let current, current.rows.map(\.values) == rows.rows.map(\.values) { return [] }   // unchanged
                current = rows
            }
            return listeners.sorted { $0.key < $1.key }.map(\.value)
        }
        announce(outcome, to: targets)
    }

    /// Calls each listener with its own result set of the rows, or with the error.
    private func announce(_ outcome: Swift.Result<Rows, Error>, to targets: [Listener]) {
        for listener in targets {
            let change: QueryChange
            switch outcome {
            case .success(let rows):
                let results = ResultSet(database: query.database, rows: rows.rows, columns: rows.columns)
                change = QueryChange(query: query, results: results, error: nil)
            case .failure(let error):
                change = QueryChange(query: query, results: nil, error: error)
            }
            if let queue = listener.queue {
                queue.async { listener.callback(change) }
            } else {
                listener.callback(change)
            }
        }
    }
}
