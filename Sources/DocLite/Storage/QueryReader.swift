import Foundation

/// A connection that result sets read their rows through, with its own cache
/// of prepared query statements.
///
/// Outside a batch, a query runs on a reader of its own: a second SQLite
/// connection (read-only) holding one read transaction from `execute()` until
/// the last row. Its rows then come from one snapshot of the database, as
/// Couchbase Lite's (which records every row at `execute()`) do: saving
/// documents while iterating neither revisits nor skips rows, and index or
/// collection changes are not blocked by an open result set. Inside a batch, a
/// query reads the batch's own connection, so that it sees the batch's
/// uncommitted changes; its rows are then read in full at `execute()`.
/// An idle reader keeps its read transaction until something is committed, so
/// that the next query needs no new one while the database has not changed.
final class QueryReader {
    let connection: SQLiteConnection
    /// Whether this is a connection of its own (a snapshot), not the database's.
    let isSnapshot: Bool
    /// While its read transaction is open: the database's state it began in
    /// (``Database/SnapshotState``), so that an idle reader whose snapshot is
    /// still the latest serves the next query without a new one.
    var snapshotState: Database.SnapshotState?
    /// Idle statements by SQL, with the tick of their last use.
    private var statements: [StatementKey: (statement: Statement, lastUse: Int)] = [:]
    private var tick = 0
    /// Keeps at most this many idle statements; the least recently used goes first.
    static let cachedStatementLimit = 64

    init(connection: SQLiteConnection, isSnapshot: Bool) {
        self.connection = connection
        self.isSnapshot = isSnapshot
    }

    /// A prepared statement for `key`'s SQL, taken out of the cache until ``giveBack(_:key:)``.
    func statement(_ key: StatementKey) throws -> Statement {
        if let cached = statements.removeValue(forKey: key) { return cached.statement }
        do {
            return try Statement(connection: connection, sql: key.sql, persistent: true)
        } catch {
            throw QueryFailure.error(error)
        }
    }

    /// Resets `statement` and keeps it for the next run of the same SQL.
    func giveBack(_ statement: Statement, key: StatementKey) {
        statement.reset()
        tick += 1
        statements[key] = (statement, tick)
        if statements.count > Self.cachedStatementLimit,
           let oldest = statements.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            statements[oldest] = nil
        }
    }

    /// Drops the idle statements (their tables changed).
    func clearStatements() {
        statements.removeAll()
    }
}

extension Database {
    /// Keeps at most this many idle snapshot readers open.
    static let idleReaderLimit = 4

    /// What a snapshot reader's read transaction saw: the file's data version
    /// (other connections' commits) and the count of this connection's commits.
    struct SnapshotState: Equatable {
        let dataVersion: Int64
        let commits: Int
    }

    /// The reader for a query run now, after ``syncBeforeQuery()``: inside a
    /// batch the database's own connection; otherwise an idle snapshot reader
    /// (or a new one) in a read transaction that sees the database as it is now
    /// and whose snapshot's shared keys are loaded. An idle reader keeps its read
    /// transaction while nothing is committed, which spares a query three
    /// statements (BEGIN, the shared-key check and COMMIT). Holds the database lock.
    func checkOutReader() throws -> QueryReader {
        let connection = try openConnection()
        if transaction.depth > 0 {
            if batchReader?.connection !== connection { batchReader = QueryReader(connection: connection, isSnapshot: false) }
            return batchReader!
        }
        var reader = try idleReaders.popLast() ?? openReader()
        let now = SnapshotState(dataVersion: dataVersion, commits: commitCount)
        if reader.snapshotState == now { return reader }
        if reader.snapshotState != nil, (try? endSnapshot(of: reader)) == nil {
            reader.connection.close()   // (its transaction was lost, an I/O error say: a fresh reader)
            reader = try openReader()
        }
        do {
            try reader.connection.withStatement(SQLiteConnection.begin) { try $0.run() }
            // Starts the snapshot and loads the keys it has that this database
            // has not seen yet (committed by another connection since its last sync).
            try loadSharedKeys(from: reader.connection)
            reader.snapshotState = now
        } catch {
            try? reader.connection.execute("ROLLBACK")
            reader.connection.close()
            throw error
        }
        return reader
    }

    /// Keeps `reader`, its snapshot open, for the next query, and has idle
    /// snapshots ended half a second later if no commit ends them sooner
    /// (another connection's checkpoints would wait for them). Holds the database lock.
    func returnReader(_ reader: QueryReader) {
        guard reader.isSnapshot else { return }
        if connection == nil || idleReaders.count >= Self.idleReaderLimit {
            reader.connection.close()
            return
        }
        idleReaders.append(reader)
        guard !snapshotSweepIsScheduled else { return }
        snapshotSweepIsScheduled = true
        _ = scheduler.run(at: scheduler.now.addingTimeInterval(0.5)) { [weak self] in
            guard let self else { return }
            lock.withLock {
                snapshotSweepIsScheduled = false
                endIdleSnapshots()
            }
        }
    }

    /// Ends the idle readers' snapshots: an open read transaction keeps SQLite
    /// from checkpointing the write-ahead log past it. Holds the database lock.
    func endIdleSnapshots() {
        idleReaders.removeAll { reader in
            guard reader.snapshotState != nil else { return false }
            do {
                try endSnapshot(of: reader)
                return false
            } catch {
                reader.connection.close()
                return true
            }
        }
    }

    private func endSnapshot(of reader: QueryReader) throws {
        reader.snapshotState = nil
        try reader.connection.withStatement(SQLiteConnection.commit) { try $0.run() }
    }

    /// Closes every idle reader (the database closes); readers in use close when their results end.
    func closeReaders() {
        idleReaders.forEach { $0.connection.close() }
        idleReaders.removeAll()
        batchReader = nil
    }

    /// Drops every reader's idle statements (a collection's tables were dropped).
    func clearReaderStatements() {
        idleReaders.forEach { $0.clearStatements() }
        batchReader?.clearStatements()
    }

    private func openReader() throws -> QueryReader {
        let connection = try SQLiteConnection(path: filePath)
        do {
            try connection.execute("PRAGMA query_only = ON")
            FunctionLibrary.register(on: connection, for: self)
        } catch {
            connection.close()
            throw error
        }
        return QueryReader(connection: connection, isSnapshot: true)
    }
}
