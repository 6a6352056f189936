import Foundation

/// A database: one SQLite file (WAL mode) holding scopes, collections and their
/// documents. Safe to use from several threads: every operation is serialized
/// behind the database's lock.
public final class Database: @unchecked Sendable {   // its variables are behind `lock`
    /// The name given when the database was opened.
    public let name: String
    /// The configuration it was opened with.
    public let config: DatabaseConfiguration
    /// The file extension of a database file.
    public static let fileExtension = "doclite"

    /// The path of the database file, nil once closed.
    public var path: String? { lock.withLock { connection == nil ? nil : filePath } }

    let filePath: String
    /// Serializes every use of the connection; recursive so a batch can call save.
    /// The properties marked `@exclusivity(unchecked)` are used only under it,
    /// so Swift's runtime exclusivity checks (measurable per save) are redundant.
    let lock = Lock(recursive: true)
    private(set) var connection: SQLiteConnection?
    let sharedKeys: SharedKeys
    /// Encodes bodies on save; reused so that a save allocates nothing for it.
    @exclusivity(unchecked) var encoder: BodyEncoder
    /// Digests revisions (used under ``lock``).
    let sha1: SHA1
    /// Shared keys with an ID below this are stored in `shared_keys`.
    @exclusivity(unchecked) var persistedKeyCount = 0
    @exclusivity(unchecked) var transaction = TransactionState()
    /// Open collections by ID.
    var collectionsByID: [Int64: CollectionState] = [:]
    /// `PRAGMA data_version` when the in-memory state was last synced with the file.
    var dataVersion: Int64 = -1
    let listeners = ListenerRegistry()
    lazy var housekeeper = Housekeeper(database: self)
    /// The clock and timers of the background work (``Scheduler``).
    let scheduler: Scheduler
    /// Snapshot readers not in use (``QueryReader``).
    var idleReaders: [QueryReader] = []
    /// How many transactions this connection has committed (a snapshot begun
    /// before the last one is out of date; ``checkOutReader()``).
    var commitCount = 0
    /// Whether a sweep of idle snapshots is due (``returnReader(_:)``).
    var snapshotSweepIsScheduled = false
    /// The reader on ``connection`` for queries inside a batch.
    var batchReader: QueryReader?
    /// The value-index expressions (compiled SQL) of each collection, and a
    /// counter bumped when they change, so that queries compile again.
    var indexedExpressions: [Int64: Set<ByteString>] = [:]
    /// The full-text indexes of each collection: name → FTS table.
    var fullTextIndexes: [Int64: [ByteString: String]] = [:]
    /// The predictive indexes of each collection: model and compiled input
    /// (``QueryCompiler/predictionKey(model:input:)``) → table.
    var predictiveIndexes: [Int64: [ByteString: String]] = [:]
    /// The array indexes of each collection: the array's path → table.
    var arrayIndexes: [Int64: [ByteString: String]] = [:]
    /// The vector indexes of each collection: the compiled expression → the index.
    var vectorIndexes: [Int64: [ByteString: VectorIndexTable]] = [:]
    var indexGeneration = 0
    /// The statements keeping each collection's derived-row indexes in step (``DerivedRows``).
    var derivedRows: [Int64: [DerivedRowStatements]] = [:]
    /// The compiled SQL of each index by SQL name, with the definition it was compiled from.
    var indexPlans: [String: (definition: String, plan: IndexPlan)] = [:]

    /// Opens the database `name` in `config.directory`, creating it when missing.
    public convenience init(name: String, config: DatabaseConfiguration = DatabaseConfiguration()) throws {
        try self.init(name: name, config: config, scheduler: SystemScheduler.shared)
    }

    /// Opens the database `name` with its background work timed by `scheduler`.
    init(name: String, config: DatabaseConfiguration, scheduler: Scheduler) throws {
        // (Bytes, not Characters: a '/' followed by a combining mark is still a '/' to the file system.)
        guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: "/")), !name.utf8.contains(0) else {
            throw DocLiteError(.invalidParameter, "invalid database name \(DocLiteError.quoted(name)): it must be non-empty and contain no '/'")
        }
        self.name = name
        self.config = config
        self.scheduler = scheduler
        let keys = SharedKeys()
        self.sharedKeys = keys
        self.encoder = BodyEncoder(sharedKeys: keys)
        self.sha1 = try SHA1()
        self.filePath = Database.filePath(name: name, directory: config.directory)
        do {
            try FileManager.default.createDirectory(atPath: config.directory, withIntermediateDirectories: true)
        } catch {
            throw DocLiteError(.cantOpenFile, "cannot create directory '\(config.directory)': \(error.localizedDescription)")
        }
        let connection = try SQLiteConnection(path: filePath)
        do {
            try Self.prepare(connection, for: self, fullSync: config.fullSync)
            self.connection = connection
            try lock.withLock {
                try syncWithFile()
                try housekeeper.purgeExpired()
            }
        } catch {
            connection.close()
            self.connection = nil
            throw error
        }
    }

    deinit {
        housekeeper.cancel()
        closeReaders()
        connection?.close()
    }

    /// Closes the database. Throws `transactionNotClosed` inside an open batch.
    public func close() throws {
        try lock.withLock {
            guard let connection else { return }
            guard transaction.depth == 0 else {
                throw DocLiteError(.transactionNotClosed, "cannot close the database inside a batch or transaction")
            }
            housekeeper.cancel()
            closeReaders()
            for collection in collectionsByID.values { collection.detached = .closed }
            collectionsByID.removeAll()
            connection.close()
            self.connection = nil
        }
    }

    /// Closes and deletes the database file.
    public func delete() throws {
        try close()
        try Database.delete(withName: name, inDirectory: config.directory)
    }

    /// Deletes the database file `name` in `directory` (nil: the default
    /// directory); the database must be closed.
    public static func delete(withName name: String, inDirectory directory: String? = nil) throws {
        let directory = directory ?? DatabaseConfiguration().directory
        let path = filePath(name: name, directory: directory)
        guard FileManager.default.fileExists(atPath: path) else {
            throw DocLiteError(.notFound, "no database '\(name)' in '\(directory)'")
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// Whether a database file `name` exists in `directory` (nil: the default directory).
    public static func exists(withName name: String, inDirectory directory: String? = nil) -> Bool {
        FileManager.default.fileExists(atPath: filePath(name: name, directory: directory ?? DatabaseConfiguration().directory))
    }

    static func filePath(name: String, directory: String) -> String {
        (directory as NSString).appendingPathComponent("\(name).\(fileExtension)")
    }

    /// The open connection; throws `notOpen` after ``close()``. The caller holds ``lock``.
    func openConnection() throws -> SQLiteConnection {
        guard let connection else { throw DocLiteError(.notOpen, "database '\(name)' is closed") }
        return connection
    }

    /// Runs `body` with the lock held, in one read transaction whose snapshot
    /// the in-memory state (shared keys, collections) has been synced with, so
    /// that nothing another connection committed meanwhile is half-seen.
    func read<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        try lock.withLock {
            let connection = try openConnection()
            guard transaction.depth == 0 else { return try body(connection) }
            try connection.withStatement(SQLiteConnection.begin) { try $0.run() }
            defer { try? connection.withStatement(SQLiteConnection.commit) { try $0.run() } }
            try syncWithFile()
            return try body(connection)
        }
    }

    /// Before a query runs: syncs with what other connections committed, in
    /// a read transaction, only when they committed something (one pragma otherwise).
    func syncBeforeQuery() throws {
        let connection = try openConnection()
        guard transaction.depth == 0, try fileDataVersion(connection) != dataVersion else { return }
        try read { _ in }
    }

    private func fileDataVersion(_ connection: SQLiteConnection) throws -> Int64 {
        try connection.withStatement(SQLiteConnection.dataVersion) { version in
            try version.step()
            return version.int64(0)
        }
    }

    // MARK: Opening

    private static func prepare(_ connection: SQLiteConnection, for database: Database, fullSync: Bool) throws {
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = \(fullSync ? "FULL" : "NORMAL")")
        FunctionLibrary.register(on: connection, for: database)
        func schemaVersion() throws -> Int64 {
            try connection.withStatement("PRAGMA user_version") { version in
                try version.step()
                return version.int64(0)
            }
        }
        var found = try schemaVersion()
        if found > Schema.version {
            throw DocLiteError(.databaseTooNew, "the database file was written by a newer DocLite (schema \(found), this one reads \(Schema.version))")
        }
        // Checked inside a transaction; an older file is upgraded in the same write
        // transaction (checked again there: another connection may be doing it too).
        try connection.execute(found < Schema.version ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            found = try schemaVersion()
            let file = try SchemaVerifier.verify(connection, version: found, database: database)
            if found == 0 {
                try connection.execute(Schema.create)
            } else if found < Schema.version {
                try connection.execute(Schema.upgrade(from: found, file))
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private static let newSharedKeys = StatementKey("SELECT id, key FROM shared_keys WHERE id >= ? ORDER BY id")

    /// Loads the shared keys `connection` sees that are not in memory yet. Their
    /// IDs run from 0 without a gap, as DocLite assigns them: a file whose keys
    /// are out of step would read every body with the wrong names.
    func loadSharedKeys(from connection: SQLiteConnection) throws {
        try connection.withStatement(Self.newSharedKeys) { keys in
            keys.bind(1, Int64(sharedKeys.count))
            while try keys.step() {
                var key = keys.string(1)
                guard keys.int64(0) == Int64(sharedKeys.count) else {
                    throw DocLiteError(.corruptData, "database '\(name)' has shared keys out of step: key ID \(keys.int64(0)) "
                                        + "where \(sharedKeys.count) comes next")
                }
                guard key.withUTF8(SharedKeys.isEligible) else {
                    throw DocLiteError(.corruptData, "database '\(name)' has an invalid shared key \(DocLiteError.quoted(key))")
                }
                sharedKeys.lock.withLock { sharedKeys.append(key) }
            }
        }
        persistedKeyCount = sharedKeys.count
    }

    /// Loads what another connection may have changed: new shared keys, new or
    /// deleted collections, their last sequences and whether they hold
    /// tombstones. Cheap when nothing changed.
    func syncWithFile() throws {
        let connection = try openConnection()
        let current = try fileDataVersion(connection)
        guard current != dataVersion else { return }

        try loadSharedKeys(from: connection)

        var stored: [Int64: (scope: String, name: String, lastSequence: UInt64)] = [:]
        try connection.withStatement("SELECT id, scope, name, last_sequence FROM collections") { rows in
            while try rows.step() {
                stored[rows.int64(0)] = (rows.string(1), rows.string(2), UInt64(clamping: rows.int64(3)))
            }
        }
        for (id, collection) in collectionsByID where stored[id] == nil {   // deleted by another connection
            collection.detached = .deleted
            collectionsByID[id] = nil
        }
        for (id, row) in stored {
            let collection = collectionsByID[id] ?? CollectionState(id: id, scope: row.scope, name: row.name, lastSequence: 0)
            collectionsByID[id] = collection
            collection.lastSequence = row.lastSequence
            collection.hasTombstones = nil
        }
        try loadIndexedExpressions()
        dataVersion = current
    }
}

/// What a query reads of a vector index: its table of vectors (a document's
/// sequence → its float32 items), and how its vectors are compared.
struct VectorIndexTable: Equatable {
    /// The index's name.
    let name: String
    let table: String
    let metric: DistanceMetric
    let dimensions: Int
    /// How many buckets a search of the trained index looks in, unless the query says.
    let probes: Int
}

extension Database {
    /// Runs `body` with the SQLite connection, under the database lock. For
    /// DocLite's own tools (benchmarks) that run SQL in the compiler's forms.
    package func withSQLiteConnection<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        try read { try body($0.handle) }
    }
}

extension Collection {
    /// The SQLite table of the collection's live documents (for DocLite's own tools).
    package var liveTableName: String { Schema.liveTable(id) }
}
