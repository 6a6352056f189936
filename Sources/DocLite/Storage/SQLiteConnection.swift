import CSQLite

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe by itself: ``Database`` serializes every use behind its lock.
final class SQLiteConnection {
    let handle: OpaquePointer
    private var statementCache: [StatementKey: Statement] = [:]   // (by bytes: the SQL may hold literals)

    /// The statements every query or read runs, their keys hashed once.
    static let begin = StatementKey("BEGIN"), commit = StatementKey("COMMIT"), dataVersion = StatementKey("PRAGMA data_version")

    /// Opens (creating if needed) the SQLite file at `path`.
    init(path: String) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw DocLiteError(.cantOpenFile, "cannot open database file '\(path)': \(message)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 10_000)
        do {
            try harden()
        } catch {
            sqlite3_close_v2(db)
            throw error
        }
    }

    /// SQLite's settings for a file that may come from anyone (its "defense
    /// against the dark arts"; docs/security.md gives the reason for each).
    private func harden() throws {
        for (option, value) in [(SQLITE_DBCONFIG_DEFENSIVE, 1), (SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0),
                                (SQLITE_DBCONFIG_ENABLE_VIEW, 0), (SQLITE_DBCONFIG_ENABLE_TRIGGER, 0),
                                (SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0),
                                (SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0)] {
            guard csqlite_db_config(handle, option, Int32(value)) == SQLITE_OK else {
                throw DocLiteError(.unsupported, "this SQLite (\(String(cString: sqlite3_libversion()))) cannot set option \(option): DocLite needs 3.35 or later")
            }
        }
        for (limit, value) in Self.limits { sqlite3_limit(handle, limit, value) }
        try execute("PRAGMA cell_size_check = ON")
        // fts3_tokenizer(name) tells a tokenizer's address; nothing DocLite runs calls it.
        for arity: Int32 in [1, 2] {
            sqlite3_create_function_v2(handle, "fts3_tokenizer", arity, SQLITE_UTF8 | SQLITE_DIRECTONLY, nil, { context, _, _ in
                sqlite3_result_error(context, "fts3_tokenizer() is disabled", -1)
            }, nil, nil, nil)
        }
    }

    /// The limits DocLite runs SQLite with: no attached databases, no trigger
    /// fired by another's statement (DocLite's triggers write tables that have
    /// none), SQL text and expression depth bounded well above what the
    /// compiler writes for the deepest query it accepts.
    static let limits: [(Int32, Int32)] = [
        (SQLITE_LIMIT_ATTACHED, 0),
        (SQLITE_LIMIT_TRIGGER_DEPTH, 1),
        (SQLITE_LIMIT_SQL_LENGTH, 64 << 20),
        (SQLITE_LIMIT_EXPR_DEPTH, 1000),
        (SQLITE_LIMIT_LENGTH, 1_000_000_000),
    ]

    /// Finalizes every cached statement and closes the connection.
    func close() {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one SQL statement that takes no parameters, ignoring its rows.
    /// The text must be exactly one statement: DocLite never hands SQLite a
    /// list, so text that a broken quote split in two fails instead of running.
    func execute(_ sql: String) throws {
        try Statement(connection: self, sql: sql).run()
    }

    /// Rebuilds the file. VACUUM attaches a scratch database of its own, so the
    /// limit of no attached databases is lifted for it alone.
    func vacuum() throws {
        sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 1)
        defer { sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 0) }
        try execute("VACUUM")
    }

    /// Runs `statements` in order, all or none: inside a savepoint, rolled
    /// back if one fails (so a failed index or collection leaves nothing behind,
    /// also inside an open transaction).
    func execute(_ statements: [String]) throws {
        try atomically { for sql in statements { try execute(sql) } }
    }

    /// Runs `body` inside a savepoint: its changes are kept if it returns and
    /// rolled back if it throws.
    func atomically<R>(_ body: () throws -> R) throws -> R {
        try execute("SAVEPOINT doclite_atomic")
        do {
            let result = try body()
            try execute("RELEASE doclite_atomic")
            return result
        } catch {
            try? execute("ROLLBACK TO doclite_atomic")
            try? execute("RELEASE doclite_atomic")
            throw error
        }
    }

    /// Runs `body` with the prepared statement for `sql` (from the cache), then
    /// resets it: a statement left mid-result would keep its read transaction
    /// open, hiding other connections' commits and blocking schema changes.
    func withStatement<R>(_ sql: String, _ body: (Statement) throws -> R) throws -> R {
        try withStatement(StatementKey(sql), body)
    }

    /// As ``withStatement(_:_:)-(String,_)``, for SQL whose key is kept (its hash computed once).
    func withStatement<R>(_ key: StatementKey, _ body: (Statement) throws -> R) throws -> R {
        let statement: Statement
        if let cached = statementCache[key] {
            statement = cached
        } else {
            statement = try Statement(connection: self, sql: key.sql, persistent: true)
            statementCache[key] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// Drops cached statements (after a schema change that invalidates them).
    func clearStatementCache() {
        statementCache.removeAll()
    }

    /// The error for result code `rc`, with SQLite's message for this connection.
    func error(_ rc: Int32, context: String) -> DocLiteError {
        let text = String(cString: sqlite3_errmsg(handle))
        if let functionError = SQLFunctionError.error(resultCode: rc, message: text) { return functionError }
        let primary = rc & 0xFF
        if primary == SQLITE_BUSY || primary == SQLITE_LOCKED {
            return DocLiteError(.busy, "\(context): database is busy (\(text))")
        }
        if primary == SQLITE_NOTADB {
            return DocLiteError(.notADatabaseFile, "\(context): not a database file")
        }
        if primary == SQLITE_CORRUPT {
            return DocLiteError(.corruptData, "\(context): database file is corrupt (\(text))")
        }
        return DocLiteError(domain: .sqlite, code: rc, message: "\(context): \(text)")
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    var changes: Int { Int(sqlite3_changes(handle)) }
}

/// A prepared SQLite statement. Parameters are numbered from 1, columns from 0.
final class Statement {
    let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String, persistent: Bool = false) throws {
        var stmt: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        var sql = sql
        // Prepared with its byte count, and whatever follows the first
        // statement must be white space: a NUL or a second statement is an error.
        let (rc, leftover) = sql.withUTF8 { utf8 -> (Int32, Bool) in
            var tail: UnsafePointer<CChar>?
            let start = UnsafeRawPointer(utf8.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
            let rc = sqlite3_prepare_v3(connection.handle, start, Int32(utf8.count), flags, &stmt, &tail)
            let used = tail.map { $0 - start } ?? utf8.count
            return (rc, utf8[used...].contains { !Self.isSpace($0) })
        }
        guard rc == SQLITE_OK, let stmt else {
            throw rc == SQLITE_OK ? DocLiteError(.assertionFailed, "cannot prepare SQL: no statement")
                : connection.error(rc, context: "cannot prepare SQL")
        }
        guard !leftover else {
            sqlite3_finalize(stmt)
            throw DocLiteError(.assertionFailed, "cannot prepare SQL: text follows the statement (refused: one statement at a time)")
        }
        self.handle = stmt
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: String?) {
        guard var value else { sqlite3_bind_null(handle, index); return }
        // Bound with its byte count: a NUL inside must not cut it short.
        value.withUTF8 { utf8 in
            if let start = utf8.baseAddress, !utf8.isEmpty {
                let text = UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)
                sqlite3_bind_text(handle, index, text, Int32(utf8.count), csqlite_transient())
            } else {
                sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            }
        }
    }

    func bind(_ index: Int32, _ bytes: [UInt8]?) {
        guard let bytes else { sqlite3_bind_null(handle, index); return }
        bytes.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), csqlite_transient())
        }
    }

    /// Reads a revision ID in its stored form (``RevisionID/New``).
    func revisionID(_ column: Int32) -> String {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let blob = sqlite3_column_blob(handle, column) else { return "" }
        return RevisionID.decode(stored: UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// Binds `bytes` without copying them: they must stay valid until the statement has run.
    func bind(_ index: Int32, borrowing bytes: UnsafeRawBufferPointer) {
        sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), csqlite_static())
    }

    /// Steps once: `true` when a row is available, `false` when the statement is done.
    @discardableResult
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(rc, context: "SQL statement failed")
        }
    }

    /// Runs an INSERT; `false` when a UNIQUE constraint rejected the row (nothing written).
    func runUnlessDuplicate() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_DONE { return true }
        if rc == csqlite_constraint_unique || rc == csqlite_constraint_primarykey { return false }
        throw connection.error(rc, context: "SQL statement failed")
    }

    /// Runs the statement to completion, ignoring rows.
    func run() throws {
        while try step() {}
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The stored document body in column `column`, copied; nil unless it is a
    /// blob holding a well-formed document (``Body/isWellFormedDocument(keyCount:)``).
    func documentBody(_ column: Int32, keyCount: Int) -> [UInt8]? {
        guard sqlite3_column_type(handle, column) == SQLITE_BLOB else { return nil }
        let body = bytes(column)
        return body.withUnsafeBytes { Body($0).isWellFormedDocument(keyCount: keyCount) } ? body : nil
    }

    /// The column's bytes, copied.
    func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let blob = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: blob, count: count))
    }
}
