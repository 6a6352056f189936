#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// N1QL string functions; `concat` is `doc_concat` (``QueryFunctions``).
///
/// - `doc_contains(s, sub)`: boolean; a string or number is searched as its text,
///   other values (booleans, containers) contain nothing. `doc_contains(s, sub, collation)`
///   compares under a collation's folding (``CollationFolding``).
/// - `doc_length(s)`: the number of code points; a non-string is null.
/// - `doc_lower(s)`, `doc_upper(s)`: Unicode case mapping; a non-string is null.
/// - `doc_trim(s)`, `doc_ltrim(s)`, `doc_rtrim(s)`: whitespace removed from both
///   ends, the start, the end; a non-string is returned unchanged.
enum StringFunctions {
    static func register(with registrar: FunctionRegistrar) {
        let contains: BodyFunctions.Function = { context, argc, argv in
            guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
            guard let text = StringFunctions.searchableText(argv![0]),
                  let sub = StringFunctions.searchableText(argv![1]) else {
                FunctionResult.setBoolean(context, false)
                return
            }
            if argc == 3 {   // the collation's folding, made once per statement
                let found = BodyFunctions.withAuxiliary(context, argument: 2, argv, {
                    guard let folding = CollationFolding(sqlName: BodyFunctions.rawText(argv![2])) else {
                        throw DocLiteError(.invalidQuery, "unknown collation")
                    }
                    return folding
                }) { folding in
                    folding.fold(text).withUnsafeBytes { text in folding.fold(sub).withUnsafeBytes { StringFunctions.contains($0, in: text) } }
                }
                if let found { FunctionResult.setBoolean(context, found) }
                return
            }
            FunctionResult.setBoolean(context, StringFunctions.contains(sub, in: text))
        }
        registrar.add("doc_contains", 2, contains)
        registrar.add("doc_contains", 3, contains)
        registrar.add("doc_length", 1) { context, argc, argv in
            StringFunctions.withString(context, argc, argv) { text in
                // Every code point has exactly one byte that is not a continuation byte (10xxxxxx).
                var count: Int64 = 0
                for byte in text where byte & 0xC0 != 0x80 { count += 1 }
                sqlite3_result_int64(context, count)
            }
        }
        registrar.add("doc_lower", 1) { context, argc, argv in
            StringFunctions.withString(context, argc, argv) { StringFunctions.mapCase(context, $0, upper: false) }
        }
        registrar.add("doc_upper", 1) { context, argc, argv in
            StringFunctions.withString(context, argc, argv) { StringFunctions.mapCase(context, $0, upper: true) }
        }
        for (name, leading, trailing) in [("doc_trim", true, true), ("doc_ltrim", true, false), ("doc_rtrim", false, true)] {
            registrar.add(name, 1, userData: TrimSides(leading: leading, trailing: trailing)) { context, argc, argv in
                StringFunctions.withString(context, argc, argv, nonStringUnchanged: true) { text in
                    let sides = FunctionRegistrar.userData(context, as: TrimSides.self).takeUnretainedValue()
                    var start = 0, end = text.count
                    if sides.leading { while start < end, StringFunctions.isWhitespace(text[start]) { start += 1 } }
                    if sides.trailing { while end > start, StringFunctions.isWhitespace(text[end - 1]) { end -= 1 } }
                    FunctionResult.setText(context, UnsafeRawBufferPointer(rebasing: text[start..<end]))
                }
            }
        }
    }

    /// Which ends a trim function trims.
    private final class TrimSides {
        let leading: Bool, trailing: Bool
        init(leading: Bool, trailing: Bool) { (self.leading, self.trailing) = (leading, trailing) }
    }

    /// ASCII whitespace (C's `isspace`).
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// The text `contains` searches: a string, or a number as SQLite prints it;
    /// nil for other values.
    private static func searchableText(_ value: OpaquePointer?) -> UnsafeRawBufferPointer? {
        switch RuntimeValue(value) {
        case .string(let text): return text
        case .integer, .real: return BodyFunctions.rawText(value)
        default: return nil
        }
    }

    /// Whether `sub` occurs in `text` (bytewise; the empty string occurs everywhere).
    private static func contains(_ sub: UnsafeRawBufferPointer, in text: UnsafeRawBufferPointer) -> Bool {
        guard let first = sub.first else { return true }
        guard text.count >= sub.count else { return false }
        var start = 0
        let lastStart = text.count - sub.count
        while start <= lastStart {
            guard let found = memchr(text.baseAddress! + start, Int32(first), lastStart - start + 1) else { return false }
            let offset = UnsafeRawPointer(found) - text.baseAddress!
            if memcmp(found, sub.baseAddress!, sub.count) == 0 { return true }
            start = offset + 1
        }
        return false
    }

    /// Applies N1QL's MISSING/null rule and calls `use` with the string
    /// argument; another value gives null, or itself when `nonStringUnchanged`.
    private static func withString(_ context: OpaquePointer?, _ argc: Int32, _ argv: UnsafeMutablePointer<OpaquePointer?>?,
                                   nonStringUnchanged: Bool = false, _ use: (UnsafeRawBufferPointer) -> Void) {
        guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
        guard let text = RuntimeValue(argv![0]).string else {
            if nonStringUnchanged { FunctionResult.setArgument(context, argv![0]) } else { FunctionResult.setNull(context) }
            return
        }
        use(text)
    }

    /// `lower`/`upper`: ASCII text is mapped in SQLite-owned memory; other
    /// text through Swift's Unicode case mapping.
    private static func mapCase(_ context: OpaquePointer?, _ text: UnsafeRawBufferPointer, upper: Bool) {
        guard text.allSatisfy({ $0 < 0x80 }) else {
            let string = String(decoding: text, as: UTF8.self)
            var mapped = upper ? string.uppercased() : string.lowercased()
            mapped.withUTF8 { FunctionResult.setText(context, UnsafeRawBufferPointer($0)) }
            return
        }
        guard let output = sqlite3_malloc64(UInt64(max(text.count, 1)))?.assumingMemoryBound(to: UInt8.self) else {
            sqlite3_result_error_nomem(context)
            return
        }
        for (i, byte) in text.enumerated() {
            let isLetter = upper ? (0x61...0x7A).contains(byte) : (0x41...0x5A).contains(byte)
            output[i] = isLetter ? byte ^ 0x20 : byte
        }
        sqlite3_result_text64(context, UnsafeRawPointer(output).assumingMemoryBound(to: CChar.self), UInt64(text.count),
                              sqlite3_free, UInt8(SQLITE_UTF8))
    }
}
