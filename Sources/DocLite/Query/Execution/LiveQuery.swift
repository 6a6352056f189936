import Foundation

/// A change to a live query's results (``Query/addChangeListener(withQueue:_:)``):
/// the whole new result set, or the error that stopped a run.
public struct QueryChange: Sendable {
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

    /// The query's results as they change, for `for await` (in an actor or on
    /// the main actor alike): the current results first, then the new results
    /// after each commit that changes them (see ``addChangeListener(withQueue:_:)``).
    /// A consumer slower than the commits gets the newest results, not every one.
    /// Iteration ends when the task is cancelled, or after the one change that
    /// says the database is closed.
    public func changes() -> AsyncStream<QueryChange> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let token = addChangeListenerOnQueryThread { change in
                continuation.yield(change)
                if let error = change.error as? DocLiteError, error.is(.notOpen) { continuation.finish() }
            }
            continuation.onTermination = { _ in token.remove() }
        }
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
package struct ResultSnapshot: Sendable {
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
/// LiveQuerier): a commit within 250 ms of the previous one waits 500 ms, so
/// that the rest of a burst costs one more run; a run after the listeners are
/// gone is skipped. Runs are made one at a time on a queue of the live query's
/// own; each listener is called one call at a time, in order.
///
/// While it has listeners its query holds it (and it holds its query), so a
/// listener lives until its token is removed, kept or not; the last removal
/// lets both go.
final class LiveQuery: @unchecked Sendable {   // its variables are behind `lock`
    private struct Listener {
        /// A serial queue that calls the listener (targeting the caller's queue); nil: the run queue.
        let queue: DispatchQueue?
        let callback: @Sendable (QueryChange) -> Void
    }

    private typealias Rows = (rows: [Result], columns: ResultColumns)

    let query: Query
    private let lock = Lock()
    private let runQueue = DispatchQueue(label: "DocLite.LiveQuery")
    private var listeners: [Int: Listener] = [:]
    private var nextID = 1
    /// The database's commit listeners for the collections the query reads.
    private var commitTokens: [ListenerToken] = []
    /// The rows last announced; nil until a run since the query went live has succeeded.
    private var current: Rows?
    /// The listeners the current rows were announced to: a listener added while a run
    /// was under way may have had them from that run, and is not given them again.
    private var informed: Set<Int> = []
    private var lastCommit: Date?
    /// Bumped when the query starts and stops being live: runs scheduled before then do nothing.
    private var generation = 0
    /// The generation a run is scheduled for, if any.
    private var pending: Int?
    /// Runs made (for tests).
    private(set) var runCount = 0

    init(query: Query) {
        self.query = query
    }

    deinit {
        commitTokens.forEach { $0.remove() }
    }

    /// Registers a listener; the first one starts the query, a later one gets the current rows.
    func add(queue: DispatchQueue?, _ callback: @escaping @Sendable (QueryChange) -> Void) -> ListenerToken {
        let listener = Listener(queue: queue.map { DispatchQueue(label: "DocLite.LiveQuery.listener", target: $0) },
                                callback: callback)
        let database = query.database
        if let closed = database.lock.withLock({ () -> Error? in
            do { _ = try database.openConnection(); return nil } catch { return error }
        }) {
            // Added after the database closed: the listener is told so, once, instead of never hearing.
            runQueue.async { self.announce(.failure(closed), to: [(0, listener)], always: true) }
            return ListenerToken {}
        }
        let collectionIDs = query.collectionIDs   // taken first: never the query's lock inside this one
        let (id, isFirst) = lock.withLock { () -> (Int, Bool) in
            let id = nextID
            nextID += 1
            listeners[id] = listener
            if listeners.count == 1 {
                generation += 1
                commitTokens = collectionIDs.map { collectionID in
                    database.listeners.add(collectionID: collectionID, documentID: nil) { [weak self] _, _ in self?.committed() }
                }
            }
            return (id, listeners.count == 1)
        }
        if isFirst {
            schedule(after: 0)
        } else {
            // On the run queue, after any run in progress: the rows current then.
            runQueue.async {
                guard let rows = self.lock.withLock({ () -> Rows? in
                    guard self.listeners[id] != nil, !self.informed.contains(id) else { return nil }
                    self.informed.insert(id)
                    return self.current
                }) else { return }
                self.announce(.success(rows), to: [(id, listener)])
            }
        }
        return ListenerToken { self.remove(id) }
    }

    /// The query's parameters changed: run it again now.
    func parametersChanged() {
        schedule(after: 0)
    }

    /// Whether it has no listener (it is not running).
    var isStopped: Bool { lock.withLock { listeners.isEmpty } }

    private func remove(_ id: Int) {
        let stopped: [ListenerToken]? = lock.withLock {
            guard listeners.removeValue(forKey: id) != nil, listeners.isEmpty else { return nil }
            generation += 1
            pending = nil
            current = nil
            informed = []
            lastCommit = nil
            defer { commitTokens = [] }
            return commitTokens
        }
        guard let stopped else { return }
        stopped.forEach { $0.remove() }
        query.liveQueryStopped(self)
    }

    private func isListening(_ id: Int) -> Bool {
        lock.withLock { listeners[id] != nil }
    }

    /// A commit within 250 ms of the last one waits 500 ms, on the database's scheduler,
    /// so that a burst of commits costs one more run.
    private func committed() {
        let now = query.database.scheduler.now
        let soon = lock.withLock { () -> Bool in
            defer { lastCommit = max(now, lastCommit ?? now) }
            guard let last = lastCommit else { return false }
            return now < last.addingTimeInterval(0.25)
        }
        schedule(after: soon ? 0.5 : 0)
    }

    private func schedule(after delay: TimeInterval) {
        let scheduled: Int? = lock.withLock {
            guard pending != generation, !listeners.isEmpty else { return nil }
            pending = generation
            return generation
        }
        guard let scheduled else { return }
        let start: @Sendable () -> Void = { self.runQueue.async { self.run(generation: scheduled) } }
        guard delay > 0 else { return start() }
        let scheduler = query.database.scheduler
        _ = scheduler.run(at: scheduler.now.addingTimeInterval(delay), start)   // (a later generation's run ignores it)
    }

    /// Waits for the run under way or queued to start now, and its announcements'
    /// dispatch (for tests: a run the scheduler holds for later is not waited for).
    func drain() {
        runQueue.sync {}
    }

    private func run(generation scheduled: Int) {
        let live = lock.withLock { () -> Bool in
            guard generation == scheduled else { return false }
            pending = nil
            runCount += 1
            return true
        }
        guard live else { return }
        let outcome: Swift.Result<Rows, Error>
        do {
            let results = try query.execute()
            let rows = results.allResults()
            if let error = results.error { throw error }
            outcome = .success((rows, results.columns))
        } catch let error as DocLiteError where error.is(.notOpen) {
            return   // the database was closed: the live query ends quietly, as Couchbase Lite's
        } catch {
            outcome = .failure(error)
        }
        let targets: [(Int, Listener)] = lock.withLock {
            guard generation == scheduled else { return [] }
            switch outcome {
            case .success(let rows):
                if let current, current.columns.names == rows.columns.names, current.columns.isBoolean == rows.columns.isBoolean,
                   current.rows.elementsEqual(rows.rows, by: { $0.values == $1.values }) { return [] }   // unchanged
                current = rows
                informed = Set(listeners.keys)
            case .failure:
                current = nil   // the next good rows are news, whatever they are
                informed = []
            }
            return listeners.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        announce(outcome, to: targets)
    }

    /// Calls each listener (still registered when its call is made) with its own
    /// result set of the rows, or with the error.
    private func announce(_ outcome: Swift.Result<Rows, Error>, to targets: [(Int, Listener)], always: Bool = false) {
        for (id, listener) in targets {
            let change: QueryChange
            switch outcome {
            case .success(let rows):
                let results = ResultSet(database: query.database, rows: rows.rows, columns: rows.columns)
                change = QueryChange(query: query, results: results, error: nil)
            case .failure(let error):
                change = QueryChange(query: query, results: nil, error: error)
            }
            guard let queue = listener.queue else {
                if always || isListening(id) { listener.callback(change) }
                continue
            }
            queue.async { if always || self.isListening(id) { listener.callback(change) } }
        }
    }
}
