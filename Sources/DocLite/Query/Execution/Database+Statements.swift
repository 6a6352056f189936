import CSQLite

/// The prepared statements of queries, cached per database and keyed by SQL.
/// A statement is checked out by one result set at a time; running the same
/// query twice at once prepares a second one.
extension Database {
    /// Keeps at most this many idle statements per SQL text.
    static let idleStatementsPerQuery = 4

    /// A prepared statement for `sql`. Holds the database lock.
    func checkOutStatement(_ sql: String) throws -> Statement {
        if let statement = idleQueryStatements[sql]?.popLast() { return statement }
        return try Statement(connection: try openConnection(), sql: sql, persistent: true)
    }

    /// Resets `statement` and keeps it for reuse. Holds the database lock.
    func returnStatement(_ statement: Statement) {
        guard connection != nil else { return }   // closed: the statement is finalized when released
        statement.reset()
        var idle = idleQueryStatements[statement.sql, default: []]
        guard idle.count < Self.idleStatementsPerQuery else { return }
        idle.append(statement)
        idleQueryStatements[statement.sql] = idle
    }

    /// Whether `expression` (SQL over unqualified columns) is indexed in collection `collection`.
    func isIndexed(collection: Int64, expression: String) -> Bool {
        indexedExpressions[collection]?.contains(expression) ?? false
    }
}

extension Statement {
    /// The SQL the statement was prepared from.
    var sql: String { String(cString: sqlite3_sql(handle)) }

    var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The name of parameter `index` (1-based), with its prefix (`$_name`).
    func parameterName(_ index: Int) -> String? {
        sqlite3_bind_parameter_name(handle, Int32(index)).map { String(cString: $0) }
    }

    /// Binds a query parameter as Couchbase Lite does: null stays unbound
    /// (MISSING), booleans are 0/1, containers are encoded blobs.
    func bind(_ index: Int32, _ value: JSONValue, keys: SharedKeys) {
        switch value {
        case .null: break
        case .bool(let flag): bind(index, Int64(flag ? 1 : 0))
        case .int(let number): bind(index, number)
        case .unsigned(let number):
            if number <= UInt64(Int64.max) { bind(index, Int64(number)) } else { sqlite3_bind_double(handle, index, Double(number)) }
        case .double(let number): sqlite3_bind_double(handle, index, number)
        case .string(let text): bind(index, text)
        case .array, .dictionary:
            var encoder = BodyEncoder(sharedKeys: keys, assignsNewKeys: false)
            value.encode(into: &encoder)
            bind(index, encoder.output)
        }
    }
}
