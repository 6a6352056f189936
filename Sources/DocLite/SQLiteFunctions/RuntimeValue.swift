import CSQLite

/// A function argument read as a Couchbase Lite runtime value (``RuntimeSubtype``).
/// Reading allocates nothing: text and containers point into SQLite's copy of
/// the argument, valid for the duration of the function call.
enum RuntimeValue {
    case missing
    case null
    case boolean(Bool)
    case integer(Int64)
    case real(Double)
    /// UTF-8 bytes.
    case string(UnsafeRawBufferPointer)
    /// The array at an offset of an encoded value.
    case array(Body, Int)
    /// The dictionary at an offset of an encoded value.
    case dictionary(Body, Int)
    /// A blob that is no encoded value (a corrupt one).
    case binary

    /// Reads an SQL argument. A boolean is an integer with the boolean subtype,
    /// or (a projected result column) an encoded boolean.
    init(_ value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_NULL:
            self = .missing
        case SQLITE_INTEGER:
            let number = sqlite3_value_int64(value)
            self = sqlite3_value_subtype(value) == RuntimeSubtype.boolean ? .boolean(number != 0) : .integer(number)
        case SQLITE_FLOAT:
            self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            self = .string(BodyFunctions.rawText(value))
        default:
            let bytes = QueryFunctions.blob(value)
            self = bytes.isEmpty ? .null : RuntimeValue(Body(bytes), at: 0)
        }
    }

    /// Reads the value at `offset` of an encoded value.
    init(_ body: Body, at offset: Int) {
        switch body.type(at: offset) {
        case .null?: self = .null
        case .boolean?: self = .boolean(body.tag(at: offset) == BodyTag.true)
        case .integer?: self = body.int64(at: offset).map(RuntimeValue.integer) ?? .binary
        case .unsigned?: self = body.uint64(at: offset).map { .real(Double($0)) } ?? .binary
        case .double?: self = body.double(at: offset).map(RuntimeValue.real) ?? .binary
        case .string?: self = body.string(at: offset).map(RuntimeValue.string) ?? .binary
        case .array?: self = .array(body, offset)
        case .dictionary?: self = .dictionary(body, offset)
        case nil: self = .binary
        }
    }

    /// The value as a number: numbers, and booleans as 0 or 1 (SQLite's view); nil otherwise.
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        case .boolean(let flag): flag ? 1 : 0
        default: nil
        }
    }

    /// The UTF-8 bytes of a string; nil for other values.
    var string: UnsafeRawBufferPointer? {
        if case .string(let text) = self { text } else { nil }
    }

    /// Whether an SQL argument is JSON null (an empty blob, or an encoded null).
    @inline(__always)
    static func isNull(_ value: OpaquePointer?) -> Bool {
        guard sqlite3_value_type(value) == SQLITE_BLOB else { return false }
        return sqlite3_value_bytes(value) == 0 || QueryFunctions.blob(value).first == BodyTag.null
    }

    /// N1QL's rule for function arguments: when any argument is MISSING the
    /// result is MISSING, else when any is null the result is null. Sets that
    /// result and returns true; returns false when every argument has a value.
    @inline(__always)
    static func propagateMissingOrNull(_ context: OpaquePointer?, _ argc: Int32,
                                       _ argv: UnsafeMutablePointer<OpaquePointer?>?) -> Bool {
        var sawNull = false
        for i in 0..<Int(argc) {
            if sqlite3_value_type(argv![i]) == SQLITE_NULL {
                sqlite3_result_null(context)
                return true
            }
            sawNull = sawNull || isNull(argv![i])
        }
        if sawNull { FunctionResult.setNull(context) }
        return sawNull
    }
}

/// Setting a function's result as a runtime value (``RuntimeSubtype``).
enum FunctionResult {
    /// JSON null.
    static func setNull(_ context: OpaquePointer?) {
        sqlite3_result_zeroblob(context, 0)
        sqlite3_result_subtype(context, RuntimeSubtype.null)
    }

    static func setBoolean(_ context: OpaquePointer?, _ flag: Bool) {
        sqlite3_result_int(context, flag ? 1 : 0)
        sqlite3_result_subtype(context, RuntimeSubtype.boolean)
    }

    /// A double; a non-finite one (NaN, infinity) is JSON null.
    static func setDouble(_ context: OpaquePointer?, _ value: Double) {
        if value.isFinite { sqlite3_result_double(context, value) } else { setNull(context) }
    }

    /// UTF-8 text, copied by SQLite.
    static func setText(_ context: OpaquePointer?, _ utf8: UnsafeRawBufferPointer) {
        if let start = utf8.baseAddress, !utf8.isEmpty {
            sqlite3_result_text(context, start.assumingMemoryBound(to: CChar.self), Int32(utf8.count), csqlite_transient())
        } else {
            sqlite3_result_text(context, "", 0, csqlite_transient())
        }
    }

    /// An argument returned as is, with its subtype (a boolean stays a boolean).
    static func setArgument(_ context: OpaquePointer?, _ value: OpaquePointer?) {
        sqlite3_result_value(context, value)
        let subtype = sqlite3_value_subtype(value)
        if subtype != 0 { sqlite3_result_subtype(context, subtype) }
    }

    /// A runtime value in result form, which needs no subtype: a boolean as its
    /// encoded blob; anything else as it is.
    static func setResultForm(_ context: OpaquePointer?, _ value: OpaquePointer?) {
        if sqlite3_value_type(value) == SQLITE_INTEGER, sqlite3_value_subtype(value) == RuntimeSubtype.boolean {
            var tag = sqlite3_value_int64(value) != 0 ? BodyTag.true : BodyTag.false
            sqlite3_result_blob(context, &tag, 1, csqlite_transient())
        } else {
            sqlite3_result_value(context, value)
        }
    }

    /// A value in result form as a runtime value: an encoded boolean or unsigned
    /// integer decoded (a boolean with its subtype); anything else as it is.
    static func setRuntimeForm(_ context: OpaquePointer?, _ value: OpaquePointer?) {
        if sqlite3_value_type(value) == SQLITE_BLOB, case let bytes = QueryFunctions.blob(value), !bytes.isEmpty,
           case let body = Body(bytes), body.type(at: 0) == .boolean || body.type(at: 0) == .unsigned {
            RuntimeSubtype.setResult(context, body, at: 0)
        } else {
            setArgument(context, value)
        }
    }
}
