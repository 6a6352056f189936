import CSQLite

/// SQL functions that read stored bodies one property at a time, registered
/// on every connection. The property path argument is parsed once per
/// statement (cached as SQLite auxiliary data) and its keys resolved to
/// shared-key IDs; no Swift object is created per row.
///
/// - `doc_body(body)`: the stored body of a whole document, checked whole
///   (``Body/isWellFormedDocument(keyCount:)``): a damaged one fails the query with `corruptData`.
/// - `doc_value(body, path)`: the property as a runtime value (``RuntimeSubtype``); NULL when missing.
/// - `doc_eq(body, path, value)`: fused `doc_value(body, path) = value`: 1 or 0, NULL when missing.
/// - `doc_range(body, path, low, lowInclusive, high, highInclusive)`: fused `low <(=) value <(=) high`
///   (a NULL bound is no bound), with SQLite's order across types: 1 or 0, NULL when missing.
/// - `doc_like(body, path, pattern)`: fused `doc_value(body, path) LIKE pattern ESCAPE '\'`
///   (case-sensitive): 1 or 0, NULL when missing.
enum BodyFunctions {
    typealias Function = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

    static func register(with registrar: FunctionRegistrar) {
        func add(_ name: String, _ arity: Int32, _ function: @escaping Function) {
            registrar.add(name, arity, readsSubtypes: false, function)
        }
        add("doc_value", 2) { context, _, argv in
            BodyFunctions.withProperty(context, argv) { body, offset in
                RuntimeSubtype.setResult(context, body, at: offset)
            }
        }
        add("doc_body", 1) { context, _, argv in
            // A whole stored document, checked whole before a result row carries it.
            let keys = BodyFunctions.keys(context).takeUnretainedValue()
            guard let argv, sqlite3_value_type(argv[0]) == SQLITE_BLOB, let blob = sqlite3_value_blob(argv[0]),
                  Body(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_value_bytes(argv[0])))).isWellFormedDocument(keyCount: keys.count) else {
                return SQLFunctionError.set(context, DocLiteError(.corruptData, "a document in the database file has a damaged body"))
            }
            sqlite3_result_value(context, argv[0])
        }
        add("doc_eq", 3) { context, _, argv in
            // The operand is a literal: read once per statement, with the path.
            BodyFunctions.withProperty(context, argv, operand: 2, { Operand(argv![2]) }) { body, offset, operand in
                sqlite3_result_int(context, operand.equals(body, offset) ? 1 : 0)
            }
        }
        add("doc_range", 6) { context, _, argv in
            // The bounds are literals: read once per statement (cached on the constant argument 3).
            BodyFunctions.withProperty(context, argv, operand: 3, { Range(argv!) }) { body, offset, range in
                sqlite3_result_int(context, range.contains(body, offset) ? 1 : 0)
            }
        }
        add("doc_like", 3) { context, _, argv in
            BodyFunctions.withProperty(context, argv, operand: 2, {
                LikePattern(BodyFunctions.rawText(argv![2]))
            }) { body, offset, pattern in
                let matched = BodyFunctions.withText(of: body, at: offset) { pattern.matches($0) }
                sqlite3_result_int(context, matched == true ? 1 : 0)
            }
        }
    }

    /// The shared keys a function was registered with.
    @inline(__always)
    static func keys(_ context: OpaquePointer?) -> Unmanaged<SharedKeys> {
        Unmanaged<SharedKeys>.fromOpaque(sqlite3_user_data(context))
    }

    /// Calls `use` with the value's text as SQLite's LIKE sees it: a string as
    /// is, a number (a boolean is 0 or 1, as LiteCore gives it to SQLite) as
    /// SQLite prints it; nil for null and containers (which never match, as
    /// blobs never do in SQLite).
    @inline(__always)
    static func withText<R>(of body: Body, at offset: Int, _ use: (UnsafeRawBufferPointer) -> R?) -> R? {
        if let text = body.string(at: offset) { return use(text) }
        let printed: String
        switch body.type(at: offset) {
        case .boolean, .integer: guard let value = body.int64(at: offset) else { return nil }; printed = String(value)
        case .unsigned: guard let value = body.uint64(at: offset) else { return nil }; printed = String(value)
        case .double:
            guard let value = body.double(at: offset),
                  let cText = withVaList([value], { sqlite3_vmprintf("%!.15g", $0) }) else { return nil }
            defer { sqlite3_free(cText) }
            printed = String(cString: cText)
        default: return nil
        }
        var utf8 = printed
        return utf8.withUTF8 { use(UnsafeRawBufferPointer($0)) }
    }

    /// A per-statement cache cell for a parsed argument.
    final class Cached<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// A statement's parse of a fused call's constant arguments: the property
    /// path (argument 1) and its operand (a literal, bounds, a pattern…).
    final class Probe<Operand> {
        let path: KeyPath
        let operand: Operand
        init(path: KeyPath, operand: Operand) {
            self.path = path
            self.operand = operand
        }
    }

    /// Finds the property named by argument 1 in the body in argument 0 and calls
    /// `use` with it; sets a NULL (MISSING) result when either is absent.
    @inline(__always)
    static func withProperty(_ context: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>?,
                             _ use: (Body, Int) -> Void) {
        withProperty(context, argv, operand: 1, {}) { body, offset, _ in use(body, offset) }
    }

    /// As ``withProperty(_:_:_:)`` for a fused predicate whose argument `argument`
    /// is a constant: the path and `make`'s parse of that argument are cached
    /// together on it, one auxiliary-data lookup per row instead of two.
    @inline(__always)
    static func withProperty<Operand>(_ context: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>?,
                                      operand argument: Int32, _ make: () throws -> Operand,
                                      _ use: (Body, Int, Operand) -> Void) {
        // Only a blob is an encoded value (text or a number has no properties).
        guard let argv, sqlite3_value_type(argv[0]) == SQLITE_BLOB, let blob = sqlite3_value_blob(argv[0]) else {
            sqlite3_result_null(context)
            return
        }
        let body = Body(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_value_bytes(argv[0]))))
        _ = withAuxiliary(context, argument: argument, argv, {
            Probe(path: try KeyPath(parsing: String(decoding: rawText(argv[1]), as: UTF8.self)), operand: try make())
        }) { probe in
            keys(context)._withUnsafeGuaranteedRef { probe.path.resolve(with: $0) }
            guard let offset = body.offset(of: probe.path) else {
                sqlite3_result_null(context)
                return
            }
            use(body, offset, probe.operand)
        }
    }

    /// Calls `use` with the parse of argument `argument`, made on first use in a
    /// statement and cached as SQLite auxiliary data; nil (with the SQL error
    /// set) when `make` throws.
    @inline(__always)
    static func withAuxiliary<Value: AnyObject, R>(_ context: OpaquePointer?, argument: Int32,
                                                               _ argv: UnsafeMutablePointer<OpaquePointer?>?,
                                                               _ make: () throws -> Value,
                                                               _ use: (Value) -> R) -> R? {
        if let cached = sqlite3_get_auxdata(context, argument) {
            return Unmanaged<Value>.fromOpaque(cached)._withUnsafeGuaranteedRef(use)
        }
        do {
            let value = try make()
            sqlite3_set_auxdata(context, argument, Unmanaged.passRetained(value).toOpaque()) {
                Unmanaged<AnyObject>.fromOpaque($0!).release()
            }
            return use(value)
        } catch {
            SQLFunctionError.set(context, error)
            return nil
        }
    }

    /// The UTF-8 text of an SQL argument (numbers converted by SQLite).
    static func rawText(_ value: OpaquePointer?) -> UnsafeRawBufferPointer {
        guard let text = sqlite3_value_text(value) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
    }

    /// The bounds of `doc_range` (arguments 2–5); a NULL bound is no bound.
    fileprivate struct Range {
        let lower: Operand?, lowerInclusive: Bool
        let upper: Operand?, upperInclusive: Bool

        init(_ argv: UnsafeMutablePointer<OpaquePointer?>) {
            func bound(_ i: Int) -> Operand? { sqlite3_value_type(argv[i]) == SQLITE_NULL ? nil : Operand(argv[i]) }
            lower = bound(2)
            lowerInclusive = sqlite3_value_int(argv[3]) != 0
            upper = bound(4)
            upperInclusive = sqlite3_value_int(argv[5]) != 0
        }

        @inline(__always)
        func contains(_ body: Body, _ offset: Int) -> Bool {
            let stored = StoredScalar(body, offset)   // read once for both bounds
            if let lower {
                let order = lower.compare(stored)
                guard order > 0 || (lowerInclusive && order == 0) else { return false }
            }
            if let upper {
                let order = upper.compare(stored)
                guard order < 0 || (upperInclusive && order == 0) else { return false }
            }
            return true
        }
    }

    /// A stored value as SQLite's ordering sees it: a number (booleans are 0
    /// and 1, unsigned values above `Int64.max` doubles), text, or anything
    /// else (null, containers), which sorts after both.
    fileprivate enum StoredScalar {
        case integer(Int64)
        case real(Double)
        case text(UnsafeRawBufferPointer)
        case other

        @inline(__always)
        init(_ body: Body, _ offset: Int) {
            guard let tag = body.tag(at: offset) else { self = .other; return }
            if tag >= BodyTag.false && tag <= BodyTag.int64 {
                self = body.int64(at: offset).map { .integer($0) } ?? .other
            } else if tag == BodyTag.double {
                self = body.double(at: offset).map { .real($0) } ?? .other
            } else if tag == BodyTag.uint64 {
                self = body.uint64(at: offset).map { .real(Double($0)) } ?? .other
            } else if let text = body.string(at: offset) {
                self = .text(text)
            } else {
                self = .other
            }
        }
    }

    /// An SQL value compared with stored values by `doc_eq`.
    fileprivate enum Operand {
        case text([UInt8])
        case integer(Int64)
        case real(Double)
        case never   // NULL and blobs equal nothing

        init(_ value: OpaquePointer?) {
            switch sqlite3_value_type(value) {
            case SQLITE_TEXT: self = .text(Array(BodyFunctions.rawText(value)))
            case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
            case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
            default: self = .never
            }
        }

        /// SQLite's `=`: numbers (and booleans) compare numerically, text bytewise.
        @inline(__always)
        func equals(_ body: Body, _ offset: Int) -> Bool {
            switch self {
            case .text(let text):
                guard let stored = body.string(at: offset), stored.count == text.count else { return false }
                return text.withUnsafeBytes { text.isEmpty || memcmp(stored.baseAddress!, $0.baseAddress!, text.count) == 0 }
            case .integer(let value):
                if let stored = body.int64(at: offset) { return stored == value }
                if let stored = body.double(at: offset) { return stored == Double(value) }
                return false
            case .real(let value):
                if let stored = body.double(at: offset) { return stored == value }
                if let stored = body.int64(at: offset) { return Double(stored) == value }
                return false
            case .never:
                return false
            }
        }

        /// SQLite's order of the stored value against this operand (negative,
        /// zero or positive): numbers < text < everything else.
        @inline(__always)
        func compare(_ stored: StoredScalar) -> Int {
            switch (self, stored) {
            case (.integer(let value), .integer(let number)): return number < value ? -1 : number == value ? 0 : 1
            case (.integer(let value), .real(let number)): return Self.order(number, Double(value))
            case (.real(let value), .integer(let number)): return Self.order(Double(number), value)
            case (.real(let value), .real(let number)): return Self.order(number, value)
            case (.integer, _), (.real, _): return 1   // stored text or other sorts after a number
            case (.text, .integer), (.text, .real): return -1
            case (.text(let text), .text(let string)):
                let common = min(string.count, text.count)
                let order = common == 0 ? 0 : text.withUnsafeBytes { Int(memcmp(string.baseAddress!, $0.baseAddress!, common)) }
                return order != 0 ? order : string.count - text.count
            case (.text, .other): return 1
            case (.never, _): return 0
            }
        }

        @inline(__always)
        private static func order(_ stored: Double, _ operand: Double) -> Int {
            stored < operand ? -1 : stored == operand ? 0 : 1
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
