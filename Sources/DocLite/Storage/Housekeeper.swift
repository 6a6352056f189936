import Foundation

/// Purges expired documents: when the database opens, and from a timer set
/// for the next expiration time (by the database's ``Scheduler``).
final class Housekeeper: @unchecked Sendable {   // `timer` is behind the database's lock
    private weak var database: Database?
    private var timer: ScheduledWork?

    init(database: Database) {
        self.database = database
    }

    /// Purges every document whose expiration has passed, in one transaction
    /// (none is begun when nothing has expired, so opening a database does not
    /// wait for another connection's write), then sets the timer for the next one.
    func purgeExpired() throws {
        guard let database else { return }
        let now = Int64((database.scheduler.now.timeIntervalSince1970 * 1000).rounded(.down))
        if let earliest = try earliestExpiration(), earliest <= now {
            try database.inTransaction {
                let connection = try database.openConnection()
                let expiring = try connection.withStatement("SELECT collection FROM \(Self.expirations) AND expiration <= ?") { select in
                    select.bind(1, now)
                    var ids: Set<Int64> = []
                    while try select.step() { ids.insert(select.int64(0)) }
                    return ids
                }
                for collection in expiring.sorted().compactMap({ database.collectionsByID[$0] }) {
                    let derived = (database.derivedRows[collection.id] ?? []).map(\.deleteExpired)   // (before their live rows go)
                    for sql in derived + collection.sql.purgeExpired {
                        try connection.withStatement(sql) { delete in
                            delete.bind(1, now)
                            try delete.run()
                        }
                    }
                    for afterChange in (database.derivedRows[collection.id] ?? []).compactMap(\.afterChange) { try afterChange(connection, .atMostOne) }
                    try connection.withStatement(collection.sql.deleteExpirations) { expired in
                        expired.bind(1, now)
                        while try expired.step() {
                            database.transaction.recordChange(database.handle(collection), expired.string(0))
                            try connection.withStatement(collection.sql.deleteRemoteRevisions) { forget in   // (as a purge does)
                                forget.bind(1, expired.string(0))
                                try forget.run()
                            }
                        }
                    }
                }
            }
        }
        try schedule()
    }

    /// Sets the timer for the earliest expiration in the database.
    func schedule() throws {
        let next = try earliestExpiration()
        setTimer(at: next.map { Double($0) / 1000 })
    }

    /// Fires a purge at `time` (seconds since 1970), or never for nil. A purge
    /// that fails (the database busy, say) is tried again a second later.
    private func setTimer(at time: Double?) {
        guard let database else { return }
        database.lock.withLock {
            timer?.cancel()
            timer = nil
            guard let time else { return }
            timer = database.scheduler.run(at: Date(timeIntervalSince1970: time)) { [weak self] in
                do {
                    try self?.purgeExpired()
                } catch let error as DocLiteError where error.is(.notOpen) {
                    return   // closed meanwhile
                } catch {
                    guard let scheduler = self?.database?.scheduler else { return }
                    self?.setTimer(at: scheduler.now.timeIntervalSince1970 + 1)
                }
            }
        }
    }

    /// The expiration times of documents of the file's collections (rows of
    /// others, which only a changed file holds, would be found expired for ever).
    /// (`+collection`: read in time order, by the index on the time.)
    private static let expirations = "expirations WHERE +collection IN (SELECT id FROM collections)"

    /// The earliest expiration time (ms) of any document, live or deleted.
    func earliestExpiration() throws -> Int64? {
        guard let database else { return nil }
        return try database.read { connection in
            try connection.withStatement("SELECT min(expiration) FROM \(Self.expirations)") { select in
                try select.step() ? select.optionalInt64(0) : nil
            }
        }
    }

    func cancel() {
        timer?.cancel()
        timer = nil
    }
}
