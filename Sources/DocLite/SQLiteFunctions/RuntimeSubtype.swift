import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// How values without an SQL equivalent travel through SQLite, marked with
/// SQLite subtypes as Couchbase Lite's runtime does: MISSING is SQL NULL; JSON
/// null is an empty blob; booleans are integers; arrays and dicts are encoded
/// blobs (``BodyTag``).
enum RuntimeSubtype {
    static let null: UInt32 = 0x67
    static let boolean: UInt32 = 0x68
    static let container: UInt32 = 0x6A

    /// Returns the body value at `offset` as the function's SQL result; a value
    /// cut off in a corrupt body is MISSING.
    static func setResult(_ context: OpaquePointer?, _ body: Body, at offset: Int) {
        guard let tag = body.tag(at: offset), let type = BodyValueType(tag: tag) else {
            sqlite3_result_null(context)
            return
        }
        switch type {
        case .null:
            sqlite3_result_zeroblob(context, 0)
            sqlite3_result_subtype(context, null)
        case .boolean:
            sqlite3_result_int(context, tag == BodyTag.true ? 1 : 0)
            sqlite3_result_subtype(context, boolean)
        case .integer:
            guard let value = body.int64(at: offset) else { sqlite3_result_null(context); return }
            sqlite3_result_int64(context, value)
        case .unsigned:
            guard let value = body.uint64(at: offset) else { sqlite3_result_null(context); return }
            sqlite3_result_double(context, Double(value))
        case .double:
            guard let value = body.double(at: offset) else { sqlite3_result_null(context); return }
            sqlite3_result_double(context, value)
        case .string:
            guard let text = body.string(at: offset) else { sqlite3_result_null(context); return }
            if let start = text.baseAddress, !text.isEmpty {
                sqlite3_result_text(context, start.assumingMemoryBound(to: CChar.self), Int32(text.count), csqlite_transient())
            } else {
                sqlite3_result_text(context, "", 0, csqlite_transient())
            }
        case .array, .dictionary:
            guard let encoded = body.encoded(at: offset) else { sqlite3_result_null(context); return }
            sqlite3_result_blob(context, encoded.baseAddress, Int32(encoded.count), csqlite_transient())
            sqlite3_result_subtype(context, container)
        }
    }

    /// As ``setResult(_:_:at:)``, for a result column, which SQLite passes on
    /// without subtypes: booleans and unsigned integers above `Int64.max` are
    /// returned as their encoded value (a blob), so they read back exactly.
    /// A string is returned NUL-terminated, so that reading it as a C string
    /// (`sqlite3_column_text`: the C API's getters) needs no copy: SQLite
    /// re-terminated each string column, about 400 instructions (callgrind).
    static func setResultColumn(_ context: OpaquePointer?, _ body: Body, at offset: Int) {
        switch body.type(at: offset) {
        case .boolean, .unsigned:
            guard let encoded = body.encoded(at: offset) else { sqlite3_result_null(context); return }
            sqlite3_result_blob(context, encoded.baseAddress, Int32(encoded.count), csqlite_transient())
        case .string:
            guard let text = body.string(at: offset), let start = text.baseAddress, !text.isEmpty,
                  memchr(start, 0, text.count) == nil else {
                return setResult(context, body, at: offset)   // (empty, or holding a NUL: SQLite copies it)
            }
            // A length of -1 is what marks SQLite's text as terminated. A short string is
            // terminated on the stack and copied by SQLite into its own buffer (a malloc per
            // row cost GROUP BY 160 instructions a row); a long one is handed over.
            if text.count < 256 {
                withUnsafeTemporaryAllocation(byteCount: text.count + 1, alignment: 1) { buffer in
                    buffer.baseAddress!.copyMemory(from: start, byteCount: text.count)
                    buffer[text.count] = 0
                    sqlite3_result_text(context, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), -1, csqlite_transient())
                }
            } else if let copy = malloc(text.count + 1) {
                copy.copyMemory(from: start, byteCount: text.count)
                copy.storeBytes(of: 0, toByteOffset: text.count, as: UInt8.self)
                sqlite3_result_text(context, copy.assumingMemoryBound(to: CChar.self), -1, free)
            } else {
                setResult(context, body, at: offset)
            }
        default:
            setResult(context, body, at: offset)
        }
    }
}
