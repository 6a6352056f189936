import CSQLite

/// The rows of one run of a query. Outside a batch they are read from one
/// snapshot of the database as they are iterated (``QueryReader``): a result
/// set holds one row at a time unless ``allResults()`` asks for the rest.
/// Single pass, like Couchbase Lite's.
public final class ResultSet: Sequence, IteratorProtocol, @unchecked Sendable {
    let database: Database
    /// The reader and statement rows come from (and the statement's key in the
    /// reader's statement cache), until the last row.
    private var source: (reader: QueryReader, statement: Statement, key: StatementKey)?
    let columns: ResultColumns
    /// Rows read ahead: the first (so that errors surface from `execute()`), or
    /// all of them inside a batch.
    private var pending: [Result] = []
    /// The error that ended iteration early, if any.
    public private(set) var error: DocLiteError?

    /// Reads the first row, or inside a batch every row; called with the
    /// database lock held. On failure the statement is given back and the
    /// reader returned.
    init(database: Database, reader: QueryReader, statement: Statement, key: StatementKey, columns: ResultColumns) throws {
        self.database = database
        self.source = (reader, statement, key)
        self.columns = columns
        do {
            while let row = try readRow() {
                pending.append(row)
                if reader.isSnapshot { break }
            }
        } catch {
            finish()
            throw error
        }
        pending.reverse()   // taken from the end
    }

    /// Rows already read (a live query's results).
    init(database: Database, rows: [Result], columns: ResultColumns) {
        self.database = database
        self.columns = columns
        pending = rows.reversed()   // taken from the end
    }

    deinit {
        if source != nil { database.lock.withLock { finish() } }
    }

    /// The column titles.
    public var columnNames: [String] { columns.names }

    /// The next row, or nil at the end (or after an error: see ``error``).
    public func next() -> Result? {
        database.lock.withLock {
            if let row = pending.popLast() { return row }
            do {
                return try readRow()
            } catch let failure as DocLiteError {
                error = failure
            } catch {
                self.error = DocLiteError(.unexpectedError, "\(error)")
            }
            finish()
            return nil
        }
    }

    /// The remaining rows.
    public func allResults() -> [Result] {
        Array(self)
    }

    /// Steps and decodes a row; nil (and the reader returned) at the end. Holds the database lock.
    private func readRow() throws -> Result? {
        guard let statement = source?.statement else { return nil }
        guard database.connection != nil else {
            throw DocLiteError(.notOpen, "the database was closed while its query results were being read")
        }
        let hasRow: Bool
        do {
            hasRow = try statement.step()
        } catch {
            throw QueryFailure.error(error)
        }
        guard hasRow else {
            finish()
            return nil
        }
        let keys = database.sharedKeys
        return Result(columns: columns, values: (0..<Int32(columns.names.count)).map { i in
            statement.queryValue(i, isBoolean: columns.isBoolean[Int(i)], keys: keys)
        })
    }

    /// Gives the statement back and ends the reader's snapshot. Holds the database lock.
    private func finish() {
        guard let (reader, statement, key) = source else { return }
        source = nil
        reader.giveBack(statement, key: key)
        database.returnReader(reader)
    }
}

/// The column titles and types of a query's rows, shared by its results.
final class ResultColumns: @unchecked Sendable {
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
        switch sqlite3_column_type(handle, i) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER:
            let value = sqlite3_column_int64(handle, i)
            return isBoolean ? .bool(value != 0) : .int(value)
        case SQLITE_FLOAT: return .double(sqlite3_column_double(handle, i))
        case SQLITE_TEXT: return .string(string(i))
        default:
            let count = Int(sqlite3_column_bytes(handle, i))
            guard count > 0, let blob = sqlite3_column_blob(handle, i) else { return .null }
            return JSONValue(Body(UnsafeRawBufferPointer(start: blob, count: count)), at: 0, keys: keys)
        }
    }
}
