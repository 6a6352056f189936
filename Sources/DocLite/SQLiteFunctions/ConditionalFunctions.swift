import CSQLite

/// N1QL conditional functions. They return one of their
/// arguments as is (a boolean stays a boolean).
///
/// - `doc_ifmissing(v…)`: the first argument that is not MISSING, else MISSING.
/// - `doc_ifnull(v…)`: the first argument that is not null; MISSING counts as a
///   value and can be returned, as in Couchbase Lite. All null: null.
/// - `doc_ifmissingornull(v…)`: the first argument neither MISSING nor null, else null.
/// - `doc_missingif(a, b)`, `doc_nullif(a, b)`: MISSING/null as N1QL's rule says;
///   else MISSING (`missingif`) or null (`nullif`) when `a` equals `b`, and `a` when
///   not. Numbers (and booleans) compare numerically, other values by type and bytes.
enum ConditionalFunctions {
    /// What a conditional function skips over.
    private enum Skip { case missing, null, missingOrNull }

    static func register(with registrar: FunctionRegistrar) {
        registrar.add("doc_ifmissing", -1) { context, argc, argv in
            ConditionalFunctions.first(context, argc, argv, skipping: .missing)
        }
        registrar.add("doc_ifnull", -1) { context, argc, argv in
            ConditionalFunctions.first(context, argc, argv, skipping: .null)
        }
        registrar.add("doc_ifmissingornull", -1) { context, argc, argv in
            ConditionalFunctions.first(context, argc, argv, skipping: .missingOrNull)
        }
        registrar.add("doc_missingif", 2) { context, argc, argv in
            guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
            if ConditionalFunctions.equal(argv![0], argv![1]) { sqlite3_result_null(context) }
            else { FunctionResult.setArgument(context, argv![0]) }
        }
        registrar.add("doc_nullif", 2) { context, argc, argv in
            guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
            if ConditionalFunctions.equal(argv![0], argv![1]) { FunctionResult.setNull(context) }
            else { FunctionResult.setArgument(context, argv![0]) }
        }
    }

    /// Returns the first argument not skipped; when all are, MISSING
    /// (`ifmissing`) or null (the others).
    private static func first(_ context: OpaquePointer?, _ argc: Int32, _ argv: UnsafeMutablePointer<OpaquePointer?>?,
                              skipping skip: Skip) {
        for i in 0..<Int(argc) {
            let value = argv![i]
            let isMissing = sqlite3_value_type(value) == SQLITE_NULL, isNull = RuntimeValue.isNull(value)
            let skipped = switch skip {
            case .missing: isMissing
            case .null: isNull
            case .missingOrNull: isMissing || isNull
            }
            if !skipped { FunctionResult.setArgument(context, value); return }
        }
        if skip == .missing { sqlite3_result_null(context) } else { FunctionResult.setNull(context) }
    }

    /// Couchbase Lite's equality for `missingif`/`nullif`: numbers numerically
    /// (integers exactly), anything else of the same SQL type byte for byte.
    private static func equal(_ a: OpaquePointer?, _ b: OpaquePointer?) -> Bool {
        let typeA = sqlite3_value_type(a), typeB = sqlite3_value_type(b)
        switch (typeA, typeB) {
        case (SQLITE_INTEGER, SQLITE_INTEGER):
            return sqlite3_value_int64(a) == sqlite3_value_int64(b)
        case (SQLITE_INTEGER, SQLITE_FLOAT), (SQLITE_FLOAT, SQLITE_INTEGER), (SQLITE_FLOAT, SQLITE_FLOAT):
            return sqlite3_value_double(a) == sqlite3_value_double(b)
        case (SQLITE_TEXT, SQLITE_TEXT):
            return BodyFunctions.rawText(a).elementsEqual(BodyFunctions.rawText(b))
        case (SQLITE_BLOB, SQLITE_BLOB):
            return QueryFunctions.blob(a).elementsEqual(QueryFunctions.blob(b))
        default:
            return false
        }
    }
}
