/// The maintenance tasks of ``Database/performMaintenance(type:)``, as Couchbase Lite's.
public enum MaintenanceType: Int, Sendable {
    /// Reclaims the space of deleted data: deletes the blobs no document refers
    /// to, rebuilds the file (VACUUM) and checkpoints the write-ahead log into it.
    case compact
    /// Rebuilds every index (REINDEX).
    case reindex
    /// Checks the file's integrity; a damaged file is a ``DocLiteError/Code/corruptData`` error.
    case integrityCheck
    /// Refreshes the query planner's statistics where SQLite thinks it worthwhile (PRAGMA optimize).
    case optimize
    /// Gathers the query planner's statistics for every index (ANALYZE).
    case fullOptimize
}

extension Database {
    /// Runs a maintenance task on the database file (not inside a batch). Open
    /// result sets keep their snapshots, so a compaction waits for them, then
    /// fails with ``DocLiteError/Code/busy``: the file is rebuilt but shrinks
    /// only at a later compaction.
    public func performMaintenance(type: MaintenanceType) throws {
        try lock.withLock {
            let connection = try openConnection()
            guard transaction.depth == 0 else {
                throw DocLiteError(.transactionNotClosed, "maintenance cannot run inside a batch or transaction")
            }
            endIdleSnapshots()
            defer { commitCount += 1 }   // (the file changed: snapshots begun before are out of date)
            switch type {
            case .compact:
                try deleteUnreferencedBlobs()
                closeReaders()   // idle readers would hold the old file's pages
                try connection.vacuum()
                // The rebuilt pages into the file. An open result set's snapshot blocks that:
                // SQLite then reports it in the pragma's row, not as an error.
                let blocked = try connection.withStatement("PRAGMA wal_checkpoint(TRUNCATE)") { row in
                    try row.step() && row.int64(0) != 0
                }
                if blocked {
                    throw DocLiteError(.busy, "the database was compacted, but open result sets keep its old pages: "
                                       + "finish reading them and compact again to shrink the file")
                }
            case .reindex:
                try connection.execute("REINDEX")
            case .integrityCheck:
                let problems = try connection.withStatement("PRAGMA integrity_check") { rows in
                    var lines: [String] = []
                    while try rows.step() { lines.append(rows.string(0)) }
                    return lines
                }
                guard problems == ["ok"] else {
                    throw DocLiteError(.corruptData, "integrity check failed: \(problems.prefix(5).joined(separator: "; "))")
                }
            case .optimize:
                try connection.execute("PRAGMA optimize")
            case .fullOptimize:
                try connection.execute("ANALYZE")
            }
        }
    }
}
