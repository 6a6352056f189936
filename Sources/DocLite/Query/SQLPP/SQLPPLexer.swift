/// A token of SQL++ text and the byte range it covers.
struct SQLPPToken: Equatable {
    enum Kind: Equatable {
        /// A reserved word (`SELECT`, `AND`, …) as written; matched ignoring case.
        case keyword(String)
        /// A name: a function, property, alias or non-reserved word (`ALL`,
        /// `EXISTS`, `META`). `quoted`: written in backquotes.
        case identifier(String, quoted: Bool)
        case number(JSONValue)
        case string(String)
        /// `$name`.
        case parameter(String)
        /// An operator or punctuation: `(`, `<=`, `||`, …
        case symbol(String)
        case end
    }

    let kind: Kind
    /// Byte offsets of the first byte and of the byte after the token.
    let start: Int, end: Int

    /// The keyword this token is (upper case), nil for any other token.
    var keyword: String? { if case .keyword(let word) = kind { word.uppercased() } else { nil } }
}

/// Splits SQL++ text into tokens as LiteCore's grammar reads it, working on
/// the UTF-8 bytes so that every offset is a byte offset (the C API's
/// `outErrorPos`). Whitespace is space, tab, CR and LF; there are no comments
/// (`--` is two minus signs, as in Couchbase Lite).
struct SQLPPLexer {
    /// The words that are never names (unless backquoted).
    static let reservedWords: Set<String> = [
        "AND", "ANY", "AS", "ASC", "BETWEEN", "BY", "CASE", "COLLATE", "CROSS", "DESC", "DISTINCT", "ELSE", "END",
        "EVERY", "FALSE", "FROM", "GROUP", "HAVING", "IN", "INNER", "IS", "JOIN", "LEFT", "LIKE", "LIMIT", "MISSING",
        "NATURAL", "NOT", "NULL", "OFFSET", "ON", "OR", "ORDER", "OUTER", "RIGHT", "SATISFIES", "SELECT", "THEN",
        "TRUE", "UNNEST", "USING", "VALUED", "WHEN", "WHERE",
    ]

    private static let symbols = ["==", "!=", "<>", "<=", ">=", "||", "<<", ">>", "=", "<", ">", "+", "-", "*", "/",
                                  "%", "&", "|", "(", ")", "[", "]", "{", "}", ",", ".", ":", ";"]

    private let bytes: [UInt8]
    private var position = 0

    private init(_ text: String) { bytes = Array(text.utf8) }

    /// Every token of `text`, ending with `.end`.
    static func tokens(_ text: String) throws -> [SQLPPToken] {
        var lexer = SQLPPLexer(text)
        var tokens: [SQLPPToken] = []
        repeat { tokens.append(try lexer.next()) } while tokens.last!.kind != .end
        return tokens
    }

    private mutating func next() throws -> SQLPPToken {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        let start = position
        func token(_ kind: SQLPPToken.Kind) -> SQLPPToken { SQLPPToken(kind: kind, start: start, end: position) }
        guard position < bytes.count else { return token(.end) }
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            let text = try quoted(by: byte, what: "string")
            return token(.string(text))
        case UInt8(ascii: "`"):
            let text = try quoted(by: byte, what: "identifier")
            // An empty name would read as a property path that names nothing.
            guard !text.isEmpty else { throw SQLPPParser.syntaxError(at: start, "an identifier cannot be empty") }
            return token(.identifier(text, quoted: true))
        case UInt8(ascii: "$"):
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "`") {   // $`name`
                return token(.parameter(try quoted(by: UInt8(ascii: "`"), what: "parameter name")))
            }
            guard position < bytes.count, Self.isWordStart(bytes[position]) else {
                throw SQLPPParser.syntaxError(at: start, "expected a parameter name after '$'")
            }
            let name = word()
            guard !Self.reservedWords.contains(name.uppercased()) else {
                throw SQLPPParser.syntaxError(at: start, "parameter name '\(name)' is a reserved word")
            }
            return token(.parameter(name))
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return token(.number(try number()))
        case UInt8(ascii: ".") where position + 1 < bytes.count && Self.isDigit(bytes[position + 1]):
            return token(.number(try number()))
        default:
            if Self.isWordStart(byte) {
                let name = word()
                return token(Self.reservedWords.contains(name.uppercased()) ? .keyword(name) : .identifier(name, quoted: false))
            }
        }
        for symbol in Self.symbols where bytes[position...].starts(with: symbol.utf8) {
            position += symbol.utf8.count
            return token(.symbol(symbol))
        }
        let character = byte < 0x80 ? "'\(String(decoding: [byte], as: UTF8.self))'" : "byte 0x\(String(byte, radix: 16))"
        throw SQLPPParser.syntaxError(at: start, "unexpected \(character) (names outside backquotes are ASCII)")
    }

    /// A name: letters, digits and `_`, then also `$` unless the letters so
    /// far are a reserved word (`end$x` is `END` followed by `$x`).
    private mutating func word() -> String {
        let start = position
        while position < bytes.count, Self.isWordByte(bytes[position]) { position += 1 }
        if !Self.reservedWords.contains(String(decoding: bytes[start..<position], as: UTF8.self).uppercased()) {
            while position < bytes.count, Self.isWordByte(bytes[position]) || bytes[position] == UInt8(ascii: "$") { position += 1 }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// Text between `quote`s, a doubled quote standing for one; no other escapes.
    private mutating func quoted(by quote: UInt8, what: String) throws -> String {
        let start = position
        position += 1
        var text: [UInt8] = []
        while true {
            guard position < bytes.count else { throw SQLPPParser.syntaxError(at: start, "unterminated \(what)") }
            let byte = bytes[position]
            position += 1
            if byte == quote {
                guard position < bytes.count, bytes[position] == quote else { break }
                position += 1
            }
            text.append(byte)
        }
        guard !text.contains(0) else { throw SQLPPParser.syntaxError(at: start, "a \(what) cannot contain a NUL character") }
        return String(decoding: text, as: UTF8.self)
    }

    /// A number as LiteCore reads one: a decimal (`17.25`, `17.`, `.25`, with
    /// an optional exponent except after a bare `.digits`) or an integer,
    /// either followed by a non-word byte. `17.x` is 17 followed by `.x`.
    /// Integers beyond Int64 are UInt64 or, beyond that, doubles.
    private mutating func number() throws -> JSONValue {
        let start = position
        func digits(from index: Int) -> Int {
            var end = index
            while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
            return end
        }
        func boundary(_ index: Int) -> Bool { index >= bytes.count || !Self.isWordByte(bytes[index]) }
        let integerEnd = digits(from: start)
        var decimalEnd: Int?
        if integerEnd < bytes.count, bytes[integerEnd] == UInt8(ascii: ".") {
            var end = digits(from: integerEnd + 1)
            if integerEnd > start, let exponent = exponentEnd(from: end) { end = exponent }
            decimalEnd = end
        } else if let exponent = exponentEnd(from: integerEnd) {
            decimalEnd = exponent
        }
        if let end = decimalEnd, boundary(end) {
            position = end
            var text = String(decoding: bytes[start..<end], as: UTF8.self)
            if text.hasUTF8Prefix(".") { text = "0" + text }
            guard let value = Double(text), value.isFinite else { throw SQLPPParser.syntaxError(at: start, "number \(text) is out of range") }
            return .double(value)
        }
        guard integerEnd > start, boundary(integerEnd) else { throw SQLPPParser.syntaxError(at: start, "malformed number") }
        position = integerEnd
        let text = String(decoding: bytes[start..<integerEnd], as: UTF8.self)
        if let value = Int64(text) { return .int(value) }
        if let value = UInt64(text) { return .unsigned(value) }
        return .double(Double(text)!)
    }

    /// The end of an exponent (`e`, an optional sign, digits) at `index`, if one is there.
    private func exponentEnd(from index: Int) -> Int? {
        guard index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") else { return nil }
        var end = index + 1
        if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
        guard end < bytes.count, Self.isDigit(bytes[end]) else { return nil }
        while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
        return end
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A byte that may start a name: an ASCII letter or `_`.
    static func isWordStart(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
    }

    /// A byte of a name after its first: a letter, a digit or `_`.
    static func isWordByte(_ byte: UInt8) -> Bool { isWordStart(byte) || isDigit(byte) }
}
