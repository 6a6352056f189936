extension Database {
    /// Compiles a SQL++ query (Couchbase Lite's `createQuery(_:)`):
    /// `SELECT name FROM _ WHERE type = 'hotel'`. Throws
    /// ``DocLiteError/Code/invalidQuery`` for a syntax error (with the byte
    /// offset in ``DocLiteError/position``) or a query that cannot run.
    public func createQuery(_ sqlpp: String) throws -> Query {
        let statement = try SQLPPParser.parse(sqlpp)
        guard !statement.from.isEmpty else {
            // As Couchbase Lite: the JSON form defaults to the default collection, SQL++ does not.
            throw DocLiteError(.invalidQuery, "a SQL++ query needs a FROM clause (FROM _ reads the default collection)")
        }
        return try Query(database: self, statement: statement)
    }

    /// Reads SQL++ text without compiling it: the part of ``createQuery(_:)``
    /// that is parsing (the benchmark measures it).
    package static func parseSQLPP(_ sqlpp: String) throws {
        _ = try SQLPPParser.parse(sqlpp)
    }
}
