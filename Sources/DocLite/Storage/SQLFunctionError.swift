import CSQLite

/// Errors raised inside DocLite's SQL functions (a regex that does not compile
/// or hits PCRE2's match limit, a LIMIT parameter that is not an integer, …).
/// SQLite carries the message, and the DocLite code as an extended result code
/// of `SQLITE_ERROR` (`SQLITE_ERROR | (base + code) << 8`, above SQLite's own
/// extended codes); where the statement fails, ``SQLiteConnection/error(_:context:)``
/// turns it back into the DocLite-domain error, so SQLite's domain is left
/// for SQLite's own failures.
enum SQLFunctionError {
    private static let base: Int32 = 0x40

    /// Fails the function call (and so the statement) with `error`; an error
    /// other than a DocLite-domain one is reported as an invalid query.
    static func set(_ context: OpaquePointer?, _ error: Error) {
        let docLiteError = (error as? DocLiteError).flatMap { $0.domain == .docLite ? $0 : nil }
            ?? DocLiteError(.invalidQuery, "\(error)")
        sqlite3_result_error(context, docLiteError.message, -1)
        sqlite3_result_error_code(context, SQLITE_ERROR | (base + docLiteError.code) << 8)
    }

    /// The DocLite error a statement failed with, when `rc` is one made by ``set(_:_:)``.
    static func error(resultCode rc: Int32, message: String) -> DocLiteError? {
        let extended = rc >> 8
        guard rc & 0xFF == SQLITE_ERROR, extended > base, let code = DocLiteError.Code(rawValue: extended - base) else { return nil }
        return DocLiteError(code, message)
    }
}
