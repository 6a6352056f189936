/// A token of Apple's predicate format (`type == 'post' AND tags CONTAINS[c] $TAG`).
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        /// A name: a key of a key path, a keyword or a function (`#name` forces a key).
        case identifier(String, escaped: Bool)
        /// `$NAME`.
        case variable(String)
        /// `@count`, `@sum`, …
        case collectionOperator(String)
        case string(String)
        case integer(Int64)
        case double(Double)
        /// An operator or punctuation: `==`, `<=`, `&&`, `(`, `{`, `[`, `.`, `**`, …
        case symbol(String)
        case end
    }

    let kind: Kind
    /// The byte offset of the token's first byte in the text.
    let offset: Int
}

/// Splits predicate text into tokens, by UTF-8 bytes. Strings are single- or
/// double-quoted with backslash escapes (`\n`, `\t`, `\r`, `\0`, `\\`, `\'`,
/// `\"`, `\uXXXX`); numbers are decimal (with a fraction or exponent: a double),
/// or `0x`, `0o`, `0b` integers.
enum PredicateLexer {
    /// The symbols, longest first so that `<=` is not read as `<` then `=`.
    private static let symbols = ["**", "==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||",
                                  "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", ".", "+", "-", "*", "/"]

    static func tokens(_ text: String) throws -> [PredicateToken] {
        let bytes = Array(text.utf8)
        var tokens: [PredicateToken] = []
        var index = 0
        /// The name starting at `start` (letters, digits, `_`, any non-ASCII character) and the offset after it.
        func name(from start: Int) throws -> (String, Int) {
            var end = start
            while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else {
                throw PredicateParser.syntaxError(at: start, "the text is not valid UTF-8")
            }
            return (text, end)
        }
        while index < bytes.count {
            let byte = bytes[index]
            let start = index
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                let (value, end) = try string(bytes, from: index)
                tokens.append(PredicateToken(kind: .string(value), offset: start))
                index = end
            } else if byte >= 0x30 && byte <= 0x39 {
                let (kind, end) = try number(bytes, from: index)
                tokens.append(PredicateToken(kind: kind, offset: start))
                index = end
            } else if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "#") {
                guard index + 1 < bytes.count, isNameStart(bytes[index + 1]) else {
                    throw PredicateParser.syntaxError(at: start, "'\(Character(UnicodeScalar(byte)))' must be followed by a name")
                }
                let (text, end) = try name(from: index + 1)
                let kind: PredicateToken.Kind = switch byte {
                case UInt8(ascii: "$"): .variable(text)
                case UInt8(ascii: "@"): .collectionOperator(text.lowercased())
                default: .identifier(text, escaped: true)
                }
                tokens.append(PredicateToken(kind: kind, offset: start))
                index = end
            } else if isNameStart(byte) {
                let (text, end) = try name(from: index)
                tokens.append(PredicateToken(kind: .identifier(text, escaped: false), offset: start))
                index = end
            } else if let symbol = symbols.first(where: { bytes[index...].starts(with: $0.utf8) }) {
                tokens.append(PredicateToken(kind: .symbol(symbol), offset: start))
                index += symbol.utf8.count
            } else {
                let shown = byte < 0x80 ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
                throw PredicateParser.syntaxError(at: start, "unexpected \(shown)")
            }
        }
        tokens.append(PredicateToken(kind: .end, offset: bytes.count))
        return tokens
    }

    /// A quoted string starting at `start`; returns its value and the offset after the closing quote.
    private static func string(_ bytes: [UInt8], from start: Int) throws -> (String, Int) {
        let quote = bytes[start]
        var value: [UInt8] = []
        var index = start + 1
        while index < bytes.count, bytes[index] != quote {
            guard bytes[index] == UInt8(ascii: "\\") else {
                value.append(bytes[index])
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { throw PredicateParser.syntaxError(at: start, "unterminated string") }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "n"): value.append(0x0A)
            case UInt8(ascii: "t"): value.append(0x09)
            case UInt8(ascii: "r"): value.append(0x0D)
            case UInt8(ascii: "0"): value.append(0x00)
            case UInt8(ascii: "u"):
                guard index + 4 <= bytes.count,
                      let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                      let scalar = UnicodeScalar(code) else {
                    throw PredicateParser.syntaxError(at: index - 2, "\\u must be followed by four hex digits naming a character")
                }
                value += Array(String(Character(scalar)).utf8)
                index += 4
            default: value.append(escaped)
            }
        }
        guard index < bytes.count else { throw PredicateParser.syntaxError(at: start, "unterminated string") }
        guard let text = String(validating: value, as: UTF8.self) else {
            throw PredicateParser.syntaxError(at: start, "the string is not valid UTF-8")
        }
        return (text, index + 1)
    }

    /// A number starting at `start`; returns its token kind and the offset after it.
    private static func number(_ bytes: [UInt8], from start: Int) throws -> (PredicateToken.Kind, Int) {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        var index = start
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count,
           let radix = [UInt8(ascii: "x"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "b"): 2][bytes[index + 1] | 0x20] {
            index += 2
            let digits = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            guard let value = Int64(String(decoding: bytes[digits..<index], as: UTF8.self), radix: radix) else {
                throw PredicateParser.syntaxError(at: start, "malformed or too large a base-\(radix) number")
            }
            return (.integer(value), index)
        }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        var isDouble = false
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "."), isDigit(bytes[index + 1]) {
            isDouble = true
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            var end = index + 1
            if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
            if end < bytes.count, isDigit(bytes[end]) {
                isDouble = true
                index = end
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if !isDouble, let value = Int64(text) { return (.integer(value), index) }
        guard let value = Double(text), value.isFinite else {
            throw PredicateParser.syntaxError(at: start, "the number \(text) is out of range")
        }
        return (.double(value), index)
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte >= 0x80
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || byte >= 0x30 && byte <= 0x39
    }
}
