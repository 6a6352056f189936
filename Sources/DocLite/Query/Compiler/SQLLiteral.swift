/// SQL text for values. Every string from a query reaches SQL through here,
/// quoted, so no input ever becomes SQL syntax.
///
/// Quotes are doubled byte by byte over the UTF-8: Swift's `Character`
/// operations (`replacingOccurrences`, `contains`) see a quote followed by a
/// combining mark as one grapheme that is not a quote, while SQLite's
/// tokenizer still ends the token at the quote byte.
enum SQLLiteral {
    /// A string literal: single-quoted with `''` escaping; a string holding NUL
    /// (which SQL text cannot carry) is written as a hex blob cast to text.
    static func string(_ text: String) -> String {
        if text.utf8.contains(0) {
            let hex = text.utf8.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
            return "CAST(X'" + hex + "' AS TEXT)"
        }
        return quoted(text, by: UInt8(ascii: "'"))
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

    /// An identifier, double-quoted with `""` escaping. `name` holds no NUL
    /// (callers choose another name); SQL text holding one fails to prepare.
    static func identifier(_ name: String) -> String {
        quoted(name, by: UInt8(ascii: "\""))
    }

    /// JSON null at run time: an empty blob (MISSING is SQL NULL).
    static let null = "X''"

    /// `text` between two `quote` bytes, each `quote` byte inside doubled.
    private static func quoted(_ text: String, by quote: UInt8) -> String {
        var bytes: [UInt8] = [quote]
        bytes.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == quote { bytes.append(quote) }
        }
        bytes.append(quote)
        return String(decoding: bytes, as: UTF8.self)
    }
}
