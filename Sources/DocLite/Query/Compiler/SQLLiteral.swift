/// SQL text for values. Every string from a query reaches SQL through here,
/// quoted, so no input ever becomes SQL syntax.
enum SQLLiteral {
    /// A string literal: single-quoted with `''` escaping; a string holding NUL
    /// (which SQL text cannot carry) is written as a hex blob cast to text.
    static func string(_ text: String) -> String {
        if text.utf8.contains(0) {
            let hex = text.utf8.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
            return "CAST(X'" + hex + "' AS TEXT)"
        }
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A number literal that SQLite reads back as the same integer.
    static func integer(_ value: Int64) -> String {
        value == .min ? "(-9223372036854775807 - 1)" : String(value)
    }

    /// A number literal that SQLite reads back as the same REAL (always with
    /// a `.` or an exponent, so that `5.0` stays a double).
    static func real(_ value: Double) -> String {
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// An identifier, double-quoted with `""` escaping.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// JSON null at run time: an empty blob (MISSING is SQL NULL).
    static let null = "X''"
}
