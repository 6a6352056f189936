import CSQLite

/// The rows of one run of a query. Outside a batch they are read from one
/// snapshot of the database as they are iterated (`QueryReader`): a result
/// set holds one row at a time unless ``allResults()`` asks for the rest.
/// Single pass, like Couchbase Lite's.
///
/// Sendable: its variables are read and written with its database's lock held
/// (but the C API's in-place `column(_:)`, one thread at a time).
public final class ResultSet: Sequence, IteratorProtocol, @unchecked Sendable {
    let database: Database
    /// The reader and statement rows come from (and the statement's key in the
    /// reader's statement cache), until the last row.
    private var source: (reader: QueryReader, statement: Statement, key: StatementKey)?
    let columns: ResultColumns
    /// Rows read ahead, all of them inside a batch; taken from the end.
    private var pending: [Result] = []
    /// The row the result set is on (``moveToNextRow()``).
    private var current: CurrentRow = .none
    /// The error that ended iteration early, if any.
    public var error: DocLiteError? { database.lock.withLock { failure } }
    private var failure: DocLiteError?
    /// What lets another thread stop the run (``interrupt()``).
    private let run: QueryRun

    private enum CurrentRow {
        /// No row: before the first, or after the last.
        case none
        /// No row yet, but the statement has stepped to the first (in `init`,
        /// so that errors surface from `execute()`).
        case ahead
        /// The statement's row, read in place.
        case inPlace
        case decoded(Result)
    }

    /// Steps to the first row, or inside a batch reads every row; called with
    /// the database lock held. On failure the statement is given back and the
    /// reader returned.
    init(database: Database, reader: QueryReader, statement: Statement, key: StatementKey, columns: ResultColumns,
         run: QueryRun) throws {
        self.database = database
        self.source = (reader, statement, key)
        self.columns = columns
        self.run = run
        run.attach(to: reader.connection)
        do {
            if reader.isSnapshot {
                if try step() { current = .ahead }
            } else {
                while try step() { pending.append(decodeRow(of: statement)) }
            }
        } catch {
            finish()
            throw error
        }
        pending.reverse()
    }

    /// Rows already read (a live query's results).
    init(database: Database, rows: [Result], columns: ResultColumns) {
        self.database = database
        self.columns = columns
        run = QueryRun(of: QueryInterrupts(), progress: nil)
        pending = rows.reversed()
    }

    deinit {
        if source != nil { database.lock.withLock { finish() } }
    }

    /// The column titles.
    public var columnNames: [String] { columns.names }

    /// The next row, or nil at the end (or after an error: see ``error``).
    public func next() -> Result? {
        database.lock.withLock { move() ? row() : nil }
    }

    /// The remaining rows.
    public func allResults() -> [Result] {
        Array(self)
    }

    /// Stops the run from any thread: SQLite's work on the row being read ends,
    /// and iteration ends with ``error`` set to the SQLite domain's
    /// `SQLITE_INTERRUPT`. Rows already read stay readable.
    public func interrupt() {
        run.interrupt()
    }

    /// Reads every remaining row now (the async ``Query/execute()``); throws what ended them early.
    func readAll() throws {
        try database.lock.withLock {
            guard source != nil else { return }
            var rows: [Result] = []
            while move(), let row = row() { rows.append(row) }
            current = .none
            if let failure { throw failure }
            pending = rows.reversed()
        }
    }

    // MARK: The current row, read in place (the C API's getters)

    /// Moves to the next row without decoding it; false at the end or after an
    /// error (see ``error``). Its columns are read with `column(_:)`.
    package func moveToNextRow() -> Bool {
        database.lock.withLock { move() }
    }

    /// Column `index` of the current row (nil: MISSING, out of range or no
    /// row). Text and the current row's values stay valid until the result set
    /// moves on; one thread at a time.
    package func column(_ index: Int) -> ColumnValue? {
        guard index >= 0, index < columns.names.count else { return nil }
        switch current {
        case .none, .ahead: return nil
        case .decoded(let row): return row.values[index].map(ColumnValue.value)
        case .inPlace:
            guard let statement = source?.statement else { return nil }
            let i = Int32(index)
            switch sqlite3_column_type(statement.handle, i) {
            case SQLITE_TEXT:
                // (Text the SQL functions return is NUL-terminated: no copy here.)
                guard let text = sqlite3_column_text(statement.handle, i) else { return .value(.string("")) }
                return .text(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self), count: Int(sqlite3_column_bytes(statement.handle, i)))
            case SQLITE_BLOB:   // (decoded with the shared keys: under the lock)
                return .value(database.lock.withLock { statement.encodedValue(i, keys: database.sharedKeys) })
            case let type:
                return statement.scalarValue(i, type: type, isBoolean: columns.isBoolean[index]).map(ColumnValue.value)
            }
        }
    }

    /// The current row decoded (nil when there is none).
    package func currentRow() -> Result? {
        database.lock.withLock { row() }
    }

    // MARK: Stepping (with the database lock held)

    /// Moves to the next row.
    private func move() -> Bool {
        let wasAhead = if case .ahead = current { true } else { false }
        current = .none
        if let row = pending.popLast() {
            current = .decoded(row)
            return true
        }
        do {
            if try wasAhead || step() {
                current = .inPlace
                return true
            }
        } catch let error as DocLiteError {
            failure = error
        } catch {
            failure = DocLiteError(.unexpectedError, "\(error)")
        }
        finish()
        return false
    }

    /// The current row as a ``Result``, decoded once.
    private func row() -> Result? {
        switch current {
        case .none, .ahead: return nil
        case .decoded(let row): return row
        case .inPlace:
            guard let statement = source?.statement else { return nil }
            let row = decodeRow(of: statement)
            current = .decoded(row)
            return row
        }
    }

    /// Steps the statement; false (and the reader returned) at the end.
    private func step() throws -> Bool {
        guard let statement = source?.statement else { return false }
        guard database.connection != nil else {
            throw DocLiteError(.notOpen, "the database was closed while its query results were being read")
        }
        if run.isInterrupted { throw QueryRun.interruptedError }
        let hasRow: Bool
        do {
            hasRow = try statement.step()
        } catch {
            throw run.isInterrupted ? QueryRun.interruptedError : QueryFailure.error(error)
        }
        if !hasRow { finish() }
        return hasRow
    }

    private func decodeRow(of statement: Statement) -> Result {
        let keys = database.sharedKeys
        return Result(columns: columns, values: (0..<Int32(columns.names.count)).map { i in
            statement.queryValue(i, isBoolean: columns.isBoolean[Int(i)], keys: keys)
        })
    }

    /// Gives the statement back and ends the reader's snapshot. Holds the database lock.
    private func finish() {
        guard let (reader, statement, key) = source else { return }
        source = nil
        run.detach(from: reader.connection)
        reader.giveBack(statement, key: key)
        database.returnReader(reader)
    }
}

/// A column of a result set's current row (``ResultSet/column(_:)``).
package enum ColumnValue {
    /// A string in SQLite's row: NUL-terminated, `count` bytes (a NUL in the
    /// value ends the C string early).
    case text(UnsafePointer<CChar>, count: Int)
    /// Any other value (a decoded row's strings too).
    case value(JSONValue)

    /// Appends the value's JSON text to `out`.
    package func appendJSON(to out: inout [UInt8]) {
        switch self {
        case .text(let text, let count):
            text.withMemoryRebound(to: UInt8.self, capacity: count) {
                JSONWriter.appendString(UnsafeBufferPointer(start: $0, count: count), to: &out)
            }
        case .value(let value):
            value.appendJSON(to: &out)
        }
    }
}

/// The column titles and types of a query's rows, shared by its results.
final class ResultColumns: Sendable {
    let names: [String]
    let isBoolean: [Bool]
    /// Column index by title, compared as bytes.
    let indexes: [ByteString: Int]
    /// The database whose blobs the rows' values refer to.
    let database: WeakDatabase

    init(_ columns: [ResultColumn], database: Database) {
        self.database = WeakDatabase(database)
        names = columns.map(\.name)
        isBoolean = columns.map(\.isBoolean)
        indexes = Dictionary(columns.enumerated().map { (ByteString($1.name), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The index of the column titled `name`.
    func index(of name: String) -> Int? { indexes[ByteString(name)] }
}

extension Statement {
    /// Column `i` as a query value: nil is MISSING (SQL NULL); an empty blob is
    /// JSON null; other blobs are encoded values; `isBoolean` reads 0/1 as false/true.
    func queryValue(_ i: Int32, isBoolean: Bool, keys: SharedKeys) -> JSONValue? {
        let type = sqlite3_column_type(handle, i)
        return type == SQLITE_BLOB ? encodedValue(i, keys: keys) : scalarValue(i, type: type, isBoolean: isBoolean)
    }

    /// Column `i`, of SQLite type `type` (not a blob), as a query value.
    func scalarValue(_ i: Int32, type: Int32, isBoolean: Bool) -> JSONValue? {
        switch type {
        case SQLITE_INTEGER:
            let value = sqlite3_column_int64(handle, i)
            return isBoolean ? .bool(value != 0) : .int(value)
        case SQLITE_FLOAT: return .double(sqlite3_column_double(handle, i))
        case SQLITE_TEXT: return .string(string(i))
        default: return nil
        }
    }

    /// Blob column `i` as a query value: empty is JSON null, else an encoded value.
    func encodedValue(_ i: Int32, keys: SharedKeys) -> JSONValue {
        let count = Int(sqlite3_column_bytes(handle, i))
        guard count > 0, let blob = sqlite3_column_blob(handle, i) else { return .null }
        return JSONValue(Body(UnsafeRawBufferPointer(start: blob, count: count)), at: 0, keys: keys)
    }
}
