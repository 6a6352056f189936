import CSQLite

/// How SQLite's refusal of a compiled query is reported. Its generic error
/// (`SQLITE_ERROR`) when preparing or stepping a query comes from a query that
/// cannot run: too large for its parser (a chain of about 1,000 AND operands),
/// an aggregate where none is allowed (`ORDER BY sum(x)` without GROUP BY), an
/// ORDER BY or GROUP BY position out of range (`"ORDER_BY": [7]`), a property
/// in LIMIT, a JOIN's ON naming a later source, a malformed full-text search
/// string. Each is an invalid query in DocLite's domain, with SQLite's words;
/// other failures (busy, I/O, corruption) stay as they are.
enum QueryFailure {
    static func error(_ error: Error) -> Error {
        guard let error = error as? DocLiteError, error.domain == .sqlite, error.code & 0xFF == SQLITE_ERROR else { return error }
        var message = error.message
        for context in ["cannot prepare SQL: ", "SQL statement failed: "] where message.hasUTF8Prefix(context) {
            message = message.droppingUTF8(first: context.utf8.count)
        }
        if message.contains("parser stack overflow") || message.contains("Expression tree is too large") {
            return DocLiteError(.invalidQuery, "the query is too large for SQLite to compile (\(message)): "
                                + "an AND, OR, IN or + takes at most about 1,000 operands")
        }
        return DocLiteError(.invalidQuery, "SQLite cannot run the query: \(message)")
    }
}
