#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// N1QL type functions: the `IS*` tests and the `TO*` conversions.
///
/// - `doc_isarray`, `doc_isatom` (boolean, number or string), `doc_isboolean`,
///   `doc_isnumber`, `doc_isobject`, `doc_isstring`: booleans.
/// - `doc_type(v)`: `"missing"`, `"null"`, `"boolean"`, `"number"`, `"string"`,
///   `"array"`, `"object"` or `"binary"`; never MISSING or null itself.
/// - `doc_toarray(v)`: an array as is, anything else as `[v]`.
/// - `doc_toatom(v)`: the element of a 1-element array or the value of a 1-entry
///   dictionary; other containers are null; other values as is.
/// - `doc_toboolean(v)`: N1QL truthiness: false, 0, NaN, `""`, `[]` and `{}` are false.
/// - `doc_tonumber(v)`: booleans are 0 or 1; a string holding a decimal number
///   is that number (an integer when it has no fraction or exponent and fits);
///   anything else is null.
/// - `doc_toobject(v)`: a dictionary as is, anything else `{}`.
/// - `doc_tostring(v)`: booleans are `"true"`/`"false"`, numbers their text,
///   strings as is; containers are null.
enum TypeFunctions {
    /// A test of a value's type, as user data.
    private final class Predicate {
        let test: (RuntimeValue) -> Bool
        init(_ test: @escaping (RuntimeValue) -> Bool) { self.test = test }
    }

    static func register(with registrar: FunctionRegistrar) {
        let predicates: [(String, (RuntimeValue) -> Bool)] = [
            ("doc_isarray", { if case .array = $0 { true } else { false } }),
            ("doc_isatom", {
                switch $0 {
                case .boolean, .integer, .real, .string: true
                default: false
                }
            }),
            ("doc_isboolean", { if case .boolean = $0 { true } else { false } }),
            ("doc_isnumber", { if case .integer = $0 { true } else if case .real = $0 { true } else { false } }),
            ("doc_isobject", { if case .dictionary = $0 { true } else { false } }),
            ("doc_isstring", { if case .string = $0 { true } else { false } }),
        ]
        for (name, test) in predicates {
            registrar.add(name, 1, userData: Predicate(test)) { context, argc, argv in
                guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
                let predicate = FunctionRegistrar.userData(context, as: Predicate.self)
                FunctionResult.setBoolean(context, predicate._withUnsafeGuaranteedRef { $0.test(RuntimeValue(argv![0])) })
            }
        }
        registrar.add("doc_type", 1) { context, _, argv in
            let name: StaticString = switch RuntimeValue(argv![0]) {
            case .missing: "missing"
            case .null: "null"
            case .boolean: "boolean"
            case .integer, .real: "number"
            case .string: "string"
            case .array: "array"
            case .dictionary: "object"
            case .binary: "binary"
            }
            sqlite3_result_text(context, UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self),
                                Int32(name.utf8CodeUnitCount), nil)   // static text: SQLITE_STATIC
        }
        registrar.add("doc_toarray", 1) { context, argc, argv in
            guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
            if case .array = RuntimeValue(argv![0]) { FunctionResult.setArgument(context, argv![0]); return }
            QueryFunctions.encode(context) { encoder in
                encoder.beginArray()
                QueryFunctions.write(argv![0], into: &encoder)
                encoder.endArray()
            }
        }
        registrar.add("doc_toatom", 1) { context, argc, argv in
            guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
            switch RuntimeValue(argv![0]) {
            case .array(let body, let offset):
                guard body.count(at: offset) == 1, let element = body.element(0, ofArrayAt: offset) else {
                    FunctionResult.setNull(context)
                    return
                }
                RuntimeSubtype.setResult(context, body, at: element)
            case .dictionary(let body, let offset):
                guard body.count(at: offset) == 1 else { FunctionResult.setNull(context); return }
                BodyFunctions.keys(context)._withUnsafeGuaranteedRef { keys in
                    body.forEachMember(ofDictAt: offset, keys: keys) { _, value in RuntimeSubtype.setResult(context, body, at: value) }
                }
            case .binary:
                FunctionResult.setNull(context)
            default:
                FunctionResult.setArgument(context, argv![0])
            }
        }
        registrar.add("doc_toboolean", 1) { context, argc, argv in
            guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
            let truth = switch RuntimeValue(argv![0]) {
            case .boolean(let flag): flag
            case .integer(let value): value != 0
            case .real(let value): value != 0 && !value.isNaN
            case .string(let text): !text.isEmpty
            case .array(let body, let offset), .dictionary(let body, let offset): (body.count(at: offset) ?? 0) > 0
            case .missing, .null, .binary: false
            }
            FunctionResult.setBoolean(context, truth)
        }
        registrar.add("doc_tonumber", 1) { context, argc, argv in
            guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
            switch RuntimeValue(argv![0]) {
            case .boolean(let flag): sqlite3_result_int(context, flag ? 1 : 0)
            case .integer(let value): sqlite3_result_int64(context, value)
            case .real(let value): FunctionResult.setDouble(context, value)
            case .string(let text): TypeFunctions.parseNumber(context, text)
            default: FunctionResult.setNull(context)
            }
        }
        registrar.add("doc_toobject", 1) { context, argc, argv in
            guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
            if case .dictionary = RuntimeValue(argv![0]) { FunctionResult.setArgument(context, argv![0]); return }
            QueryFunctions.encode(context) { encoder in
                encoder.beginDict()
                encoder.endDict()
            }
        }
        registrar.add("doc_tostring", 1) { context, argc, argv in
            guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
            var text: String
            switch RuntimeValue(argv![0]) {
            case .string(let utf8): FunctionResult.setText(context, utf8); return
            case .boolean(let flag): text = flag ? "true" : "false"
            case .integer(let value): text = String(value)
            case .real(let value): text = value.description
            default: FunctionResult.setNull(context); return
            }
            text.withUTF8 { FunctionResult.setText(context, UnsafeRawBufferPointer($0)) }
        }
    }

    /// Sets the number a string holds: optional whitespace around an optional
    /// sign, digits with an optional fraction and exponent; null for anything else.
    private static func parseNumber(_ context: OpaquePointer?, _ text: UnsafeRawBufferPointer) {
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        var start = 0, end = text.count
        while start < end, StringFunctions.isWhitespace(text[start]) { start += 1 }
        while end > start, StringFunctions.isWhitespace(text[end - 1]) { end -= 1 }
        var i = start
        if i < end, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") { i += 1 }
        var digits = 0, isInteger = true
        while i < end, isDigit(text[i]) { i += 1; digits += 1 }
        if i < end, text[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            while i < end, isDigit(text[i]) { i += 1; digits += 1 }
        }
        if digits > 0, i < end, text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if i < end, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") { i += 1 }
            let exponentStart = i
            while i < end, isDigit(text[i]) { i += 1 }
            if i == exponentStart { digits = 0 }   // an exponent without digits
        }
        guard digits > 0, i == end else { FunctionResult.setNull(context); return }
        let number = UnsafeRawBufferPointer(rebasing: text[start..<end])
        if isInteger, let value = Int64(String(decoding: number, as: UTF8.self)) {
            sqlite3_result_int64(context, value)
            return
        }
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: number.count + 1) { buffer in
            number.withMemoryRebound(to: CChar.self) { _ = buffer.initialize(fromContentsOf: $0) }
            buffer[number.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
        FunctionResult.setDouble(context, value)
    }
}
