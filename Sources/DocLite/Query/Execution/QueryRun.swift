import CSQLite
import Synchronization

/// Called while a query runs, every `steps` of SQLite's virtual-machine steps
/// (``Query/setProgressHandler(steps:_:)``); returning false interrupts the run.
public typealias QueryProgressHandler = @Sendable () -> Bool

/// The interrupts of one query (``Query/interrupt()``): a count that every run
/// compares with the one it started with, so that interrupting needs no list of runs.
final class QueryInterrupts: Sendable {
    private let count = Atomic<Int>(0)

    /// Interrupts every run started before now.
    func interruptRunning() {
        count.add(1, ordering: .relaxed)
    }

    var current: Int { count.load(ordering: .relaxed) }
}

/// One run of a query, from ``Query/execute()`` to its result set's last row:
/// what lets another thread stop it. While the run's statement steps, SQLite
/// calls the run's progress handler on the statement's connection every few
/// virtual-machine steps; the handler stops the statement (SQLITE_INTERRUPT)
/// once the run or its query was interrupted or the query's own progress
/// handler returned false, and every later read of the run fails the same way.
final class QueryRun: Sendable {
    /// How many virtual-machine steps pass between two checks of the flag when
    /// the query has no progress handler of its own: about 10 µs of work, so an
    /// interrupt lands within microseconds and the check costs nothing measurable.
    static let checkInterval: Int32 = 1000

    private let interrupted = Atomic<Bool>(false)
    private let queryInterrupts: QueryInterrupts
    private let startedAfter: Int
    private let progress: (steps: Int32, handler: QueryProgressHandler)?

    init(of queryInterrupts: QueryInterrupts, progress: (steps: Int32, handler: QueryProgressHandler)?) {
        self.queryInterrupts = queryInterrupts
        startedAfter = queryInterrupts.current
        self.progress = progress
    }

    /// Stops the run: the statement stepping now ends, and every later read fails.
    func interrupt() {
        interrupted.store(true, ordering: .relaxed)
    }

    var isInterrupted: Bool {
        interrupted.load(ordering: .relaxed) || queryInterrupts.current != startedAfter
    }

    /// The error of an interrupted run.
    static let interruptedError = DocLiteError(domain: .sqlite, code: SQLITE_INTERRUPT,
                                               message: "the query was interrupted")

    /// Installs the run's handler on `connection` until ``detach(from:)``; the
    /// run must live until then (its result set holds it).
    func attach(to connection: SQLiteConnection) {
        let steps = progress?.steps ?? Self.checkInterval
        sqlite3_progress_handler(connection.handle, steps, { context in
            guard let context else { return 0 }
            return Unmanaged<QueryRun>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    func detach(from connection: SQLiteConnection) {
        sqlite3_progress_handler(connection.handle, 0, nil, nil)
    }

    private func shouldStop() -> Bool {
        if isInterrupted { return true }
        if let progress, !progress.handler() {
            interrupt()
            return true
        }
        return false
    }
}
