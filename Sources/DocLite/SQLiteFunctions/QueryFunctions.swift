import CSQLite

/// SQL functions the query compiler emits besides the body accessors
/// (``BodyFunctions``), registered on every connection:
///
/// - `doc_result(body, path)` / `doc_result(value)`: a result column; a boolean
///   comes back as an encoded blob so that it reads back as a boolean.
/// - `doc_element(element)`: an UNNEST's element, given in result form (`doc_each`'s
///   `element`, or an array index's stored element), as a runtime value.
/// - `doc_bool(x)`: x marked as a boolean (subtype), for the constructors below.
/// - `doc_array(v…)`, `doc_dict(k, v, …)`: array and dictionary literals (MISSING values dropped).
/// - `doc_concat(v…)`: `||`: text of each value (null → "null", booleans → "true"/"false",
///   containers → JSON); MISSING if any value is MISSING.
/// - `doc_array_contains(collection, value)`: `IN` with an array- or dict-valued right side.
/// - `doc_like(value, pattern)`: case-sensitive LIKE with `\` escape; blobs never match.
/// - `doc_revid(revid)`: a stored revision ID as text.
/// - `doc_limit(x, clause)`: a LIMIT or OFFSET that is not a literal, as a count: a whole
///   number (or numeric text, as SQLite's LIMIT reads it), negative is 0; an error naming the
///   clause when it is MISSING, null or not a whole number (LiteCore's `max(x, 0)` fails
///   there with SQLite's bare "datatype mismatch").
/// - aggregate `doc_array_agg(v)`: the values as an array (MISSING skipped).
///
enum QueryFunctions {
    static func register(with registrar: FunctionRegistrar) {
        func add(_ name: String, _ arity: Int32, readsSubtypes: Bool = false, _ function: @escaping BodyFunctions.Function) {
            registrar.add(name, arity, readsSubtypes: readsSubtypes, function)
        }
        add("doc_result", 2) { context, _, argv in
            BodyFunctions.withProperty(context, argv) { body, offset in
                RuntimeSubtype.setResultColumn(context, body, at: offset)
            }
        }
        add("doc_result", 1, readsSubtypes: true) { context, _, argv in
            FunctionResult.setResultForm(context, argv![0])
        }
        add("doc_element", 1, readsSubtypes: true) { context, _, argv in
            FunctionResult.setRuntimeForm(context, argv![0])
        }
        add("doc_bool", 1, readsSubtypes: true) { context, _, argv in
            // MISSING and JSON null (a boolean function's null result) pass through.
            guard sqlite3_value_type(argv![0]) != SQLITE_NULL, !RuntimeValue.isNull(argv![0]) else {
                FunctionResult.setArgument(context, argv![0])
                return
            }
            sqlite3_result_int(context, sqlite3_value_int64(argv![0]) != 0 ? 1 : 0)
            sqlite3_result_subtype(context, RuntimeSubtype.boolean)
        }
        add("doc_array", -1, readsSubtypes: true) { context, argc, argv in
            QueryFunctions.encode(context) { encoder in
                encoder.beginArray()
                for i in 0..<Int(argc) { QueryFunctions.write(argv![i], into: &encoder) }
                encoder.endArray()
            }
        }
        add("doc_dict", -1, readsSubtypes: true) { context, argc, argv in
            guard argc % 2 == 0 else { SQLFunctionError.set(context, DocLiteError(.assertionFailed, "doc_dict takes key/value pairs")); return }
            QueryFunctions.encode(context) { encoder in
                encoder.beginDict()
                for i in stride(from: 0, to: Int(argc), by: 2) where sqlite3_value_type(argv![i + 1]) != SQLITE_NULL {
                    encoder.writeKey(BodyFunctions.rawText(argv![i]).assumingMemoryBound(to: UInt8.self))
                    QueryFunctions.write(argv![i + 1], into: &encoder)
                }
                encoder.endDict()
            }
        }
        add("doc_concat", -1, readsSubtypes: true) { context, argc, argv in
            var text: [UInt8] = []
            for i in 0..<Int(argc) {
                guard QueryFunctions.appendText(argv![i], keys: BodyFunctions.keys(context), to: &text) else {
                    sqlite3_result_null(context)   // a MISSING argument
                    return
                }
            }
            text.append(0)
            text.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    sqlite3_result_text(context, $0.baseAddress, Int32($0.count - 1), csqlite_transient())
                }
            }
        }
        add("doc_limit", 2) { context, _, argv in
            // Numeric text counts, as SQLite's LIMIT converts it; SQL NULL is MISSING or JSON null.
            let value = argv![0], clause = String(cString: sqlite3_value_text(argv![1]))
            switch sqlite3_value_numeric_type(value) {
            case SQLITE_INTEGER:
                sqlite3_result_int64(context, max(sqlite3_value_int64(value), 0))
            case SQLITE_FLOAT where sqlite3_value_double(value).rounded() == sqlite3_value_double(value):
                let count = sqlite3_value_double(value)
                sqlite3_result_int64(context, count <= 0 ? 0 : count >= 0x1p63 ? Int64.max : Int64(count))
            case SQLITE_NULL:
                SQLFunctionError.set(context, DocLiteError(.invalidQueryParam, "\(clause) is MISSING or null (is its query parameter unset?)"))
            default:
                SQLFunctionError.set(context, DocLiteError(.invalidQueryParam, "\(clause) must be an integer"))
            }
        }
        add("doc_array_contains", 2, readsSubtypes: true) { context, _, argv in
            QueryFunctions.arrayContains(context, argv![0], argv![1])
        }
        add("doc_like", 2) { context, _, argv in
            let value = argv![0], pattern = argv![1]
            guard sqlite3_value_type(value) != SQLITE_NULL, sqlite3_value_type(pattern) != SQLITE_NULL else {
                sqlite3_result_null(context)
                return
            }
            guard sqlite3_value_type(value) != SQLITE_BLOB else { sqlite3_result_int(context, 0); return }
            let matched = BodyFunctions.withAuxiliary(context, argument: 1, argv, {
                BodyFunctions.Cached(LikePattern(BodyFunctions.rawText(pattern)))
            }) { $0.value.matches(BodyFunctions.rawText(value)) }
            sqlite3_result_int(context, matched == true ? 1 : 0)
        }
        add("doc_revid", 1) { context, _, argv in
            let count = Int(sqlite3_value_bytes(argv![0]))
            guard let blob = sqlite3_value_blob(argv![0]) else { sqlite3_result_null(context); return }
            var text = RevisionID.decode(stored: UnsafeRawBufferPointer(start: blob, count: count))
            text.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) {
                    sqlite3_result_text(context, $0.baseAddress, Int32($0.count), csqlite_transient())
                }
            }
        }
        ArrayAggregate.register(with: registrar)
    }

    /// Builds a value with an encoder over the database's shared keys (assigning
    /// none) and returns it as the function's blob result.
    static func encode(_ context: OpaquePointer?, _ build: (inout BodyEncoder) -> Void) {
        var encoder = BodyEncoder(sharedKeys: BodyFunctions.keys(context).takeUnretainedValue(), assignsNewKeys: false)
        build(&encoder)
        encoder.output.withUnsafeBytes {
            sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), csqlite_transient())
        }
        sqlite3_result_subtype(context, RuntimeSubtype.container)
    }

    /// Writes an SQL runtime value; MISSING (NULL) writes nothing.
    static func write(_ value: OpaquePointer?, into encoder: inout BodyEncoder) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            if sqlite3_value_subtype(value) == RuntimeSubtype.boolean {
                encoder.writeBool(sqlite3_value_int64(value) != 0)
            } else {
                encoder.writeInt(sqlite3_value_int64(value))
            }
        case SQLITE_FLOAT:
            encoder.writeDouble(sqlite3_value_double(value))
        case SQLITE_TEXT:
            encoder.writeString(BodyFunctions.rawText(value).assumingMemoryBound(to: UInt8.self))
        case SQLITE_BLOB:
            let bytes = blob(value)
            if bytes.isEmpty { encoder.writeNull() } else { encoder.writeEncoded(bytes) }
        default:
            break
        }
    }

    static func blob(_ value: OpaquePointer?) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: sqlite3_value_blob(value), count: Int(sqlite3_value_bytes(value)))
    }

    /// Appends the text of a value for `||`; false when it is MISSING.
    private static func appendText(_ value: OpaquePointer?, keys: Unmanaged<SharedKeys>, to text: inout [UInt8]) -> Bool {
        switch sqlite3_value_type(value) {
        case SQLITE_NULL:
            return false
        case SQLITE_INTEGER:
            let number = sqlite3_value_int64(value)
            if sqlite3_value_subtype(value) == RuntimeSubtype.boolean {
                text += (number != 0 ? "true" : "false").utf8
            } else {
                text += String(number).utf8
            }
        case SQLITE_FLOAT:
            JSONWriter.appendDouble(sqlite3_value_double(value), to: &text)
        case SQLITE_TEXT:
            text += BodyFunctions.rawText(value)
        default:
            let bytes = blob(value)
            if bytes.isEmpty { text += "null".utf8; return true }
            keys._withUnsafeGuaranteedRef { JSONWriter.append(Body(bytes), at: 0, keys: $0, to: &text) }
        }
        return true
    }

    /// `value IN array`: MISSING when either is MISSING, null when the value is
    /// null or the array is not an array; numbers compare numerically, strings exactly.
    /// `array_contains(collection, value)` as LiteCore's: the items of an array or the values of a
    /// dict; an integer target matches numbers and booleans by their integer part (1.5 matches 1),
    /// a real one by value, a string equal bytes; MISSING → MISSING, a null target or a
    /// non-collection → null. (Containers match equal containers, where LiteCore matches none.)
    private static func arrayContains(_ context: OpaquePointer?, _ array: OpaquePointer?, _ value: OpaquePointer?) {
        guard sqlite3_value_type(array) != SQLITE_NULL, sqlite3_value_type(value) != SQLITE_NULL else {
            sqlite3_result_null(context)
            return
        }
        guard !RuntimeValue.isNull(value) else { FunctionResult.setNull(context); return }
        let body = Body(blob(array))
        guard sqlite3_value_type(array) == SQLITE_BLOB, let type = body.type(at: 0), type == .array || type == .dictionary else {
            sqlite3_result_zeroblob(context, 0)   // JSON null
            return
        }
        func matches(_ element: Int) -> Bool {
            switch sqlite3_value_type(value) {
            case SQLITE_INTEGER:
                let target = sqlite3_value_int64(value)
                if let stored = body.int64(at: element) { return stored == target }
                if let stored = body.double(at: element) { return stored.rounded(.towardZero) == Double(target) }
                return false
            case SQLITE_FLOAT:
                let target = sqlite3_value_double(value)
                if let stored = body.double(at: element) { return stored == target }
                if let stored = body.int64(at: element) { return Double(stored) == target }
                return false
            case SQLITE_TEXT:
                return body.string(at: element)?.elementsEqual(BodyFunctions.rawText(value)) ?? false
            default:
                return body.encoded(at: element)?.elementsEqual(blob(value)) ?? false
            }
        }
        var found = false
        if type == .array {
            body.forEachElement(ofArrayAt: 0) { element in if !found { found = matches(element) } }
        } else {
            BodyFunctions.keys(context)._withUnsafeGuaranteedRef { keys in
                body.forEachMember(ofDictAt: 0, keys: keys) { _, element in if !found { found = matches(element) } }
            }
        }
        sqlite3_result_int(context, found ? 1 : 0)
    }
}

/// The `doc_array_agg` aggregate: collects its arguments into an array.
private enum ArrayAggregate {
    final class State {
        var encoder: BodyEncoder
        init(keys: SharedKeys) {
            encoder = BodyEncoder(sharedKeys: keys, assignsNewKeys: false)
            encoder.beginArray()
        }
    }

    static func register(with registrar: FunctionRegistrar) {
        registrar.addAggregate("doc_array_agg", 1, step: { context, _, argv in
            AggregateState.current(context) { State(keys: BodyFunctions.keys(context).takeUnretainedValue()) }?.encoder.write(argv![0])
        }, final: { context in
            let state = AggregateState.final(context, as: State.self) ?? State(keys: BodyFunctions.keys(context).takeUnretainedValue())
            state.encoder.endArray()
            state.encoder.output.withUnsafeBytes {
                sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), csqlite_transient())
            }
            sqlite3_result_subtype(context, RuntimeSubtype.container)
        })
    }
}

private extension BodyEncoder {
    mutating func write(_ value: OpaquePointer?) { QueryFunctions.write(value, into: &self) }
}
