#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Parses JSON text (UTF-8) straight into a ``JSONSink`` — the body format,
/// without an intermediate tree. Integers stay integers (every `Int64` and
/// `UInt64`), numbers written with a fraction or exponent stay doubles,
/// strings are validated UTF-8.
struct JSONParser {
    /// Nesting deeper than this is rejected rather than risking the stack: a
    /// document is walked recursively (written as JSON, encoded, compared),
    /// and a debug build takes about 2 KiB of stack a level there, so 128
    /// levels (serde_json's default too) fit a dispatch worker's 512 KiB
    /// with room to spare (DocumentDepthTests walks the deepest document on one).
    static let maxDepth = 128

    private let text: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0
    private var scratch: [UInt8] = []

    private init(_ text: UnsafeBufferPointer<UInt8>) {
        self.text = text
    }

    /// Encodes the JSON object in `json` with `encoder`; anything but one object throws.
    static func encodeObject<Sink: JSONSink>(_ json: UnsafeBufferPointer<UInt8>, into encoder: inout Sink) throws {
        var parser = JSONParser(json)
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "{") else {
            throw parser.error(parser.position < json.count
                ? "a document body must be a JSON object" : "empty JSON text")
        }
        try parser.parseValue(into: &encoder)
        parser.skipWhitespace()
        guard parser.position == json.count else { throw parser.error("unexpected text after the JSON object") }
    }

    /// Encodes any one JSON value in `json` with `encoder`.
    static func encodeValue<Sink: JSONSink>(_ json: UnsafeBufferPointer<UInt8>, into encoder: inout Sink) throws {
        var parser = JSONParser(json)
        try parser.parseValue(into: &encoder)
        parser.skipWhitespace()
        guard parser.position == json.count else { throw parser.error("unexpected text after the JSON value") }
    }

    // MARK: Grammar

    private mutating func parseValue<Sink: JSONSink>(into encoder: inout Sink) throws {
        skipWhitespace()
        guard let byte = peek() else { throw error("unexpected end of JSON text") }
        switch byte {
        case UInt8(ascii: "{"): try parseObject(into: &encoder)
        case UInt8(ascii: "["): try parseArray(into: &encoder)
        case UInt8(ascii: "\""):
            try parseString { encoder.writeString($0) }
        case UInt8(ascii: "t"): try expectLiteral("true"); encoder.writeBool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); encoder.writeBool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); encoder.writeNull()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber(into: &encoder)
        default: throw error("unexpected character '\(Self.describe(byte))'")
        }
    }

    private mutating func parseObject<Sink: JSONSink>(into encoder: inout Sink) throws {
        encoder.beginDict()
        if try !openContainer(closing: UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key") }
                try parseString { encoder.writeKey($0) }
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                position += 1
                try parseValue(into: &encoder)
            } while try !closeMember(closing: UInt8(ascii: "}"), of: "object")
        }
        encoder.endDict()
    }

    private mutating func parseArray<Sink: JSONSink>(into encoder: inout Sink) throws {
        encoder.beginArray()
        if try !openContainer(closing: UInt8(ascii: "]")) {
            repeat {
                try parseValue(into: &encoder)
            } while try !closeMember(closing: UInt8(ascii: "]"), of: "array")
        }
        encoder.endArray()
    }

    /// Consumes an opening bracket; true (and the container closed) when it is empty.
    @inline(__always)
    private mutating func openContainer(closing: UInt8) throws -> Bool {
        depth += 1
        if depth > Self.maxDepth { throw error("JSON nested deeper than \(Self.maxDepth) levels") }
        position += 1
        skipWhitespace()
        guard peek() == closing else { return false }
        position += 1
        depth -= 1
        return true
    }

    /// Consumes the ',' after a member (false: another follows) or the closing
    /// bracket (true: the container is done).
    @inline(__always)
    private mutating func closeMember(closing: UInt8, of container: String) throws -> Bool {
        skipWhitespace()
        guard let next = peek() else { throw error("unterminated \(container)") }
        position += 1
        if next == closing {
            depth -= 1
            return true
        }
        guard next == UInt8(ascii: ",") else {
            position -= 1
            throw error("expected ',' or '\(Character(UnicodeScalar(closing)))' in the \(container)")
        }
        return false
    }

    /// Parses a string literal and hands its unescaped, validated UTF-8 to `use`.
    @inline(__always)
    private mutating func parseString(_ use: (UnsafeBufferPointer<UInt8>) -> Void) throws {
        position += 1  // opening quote
        let start = position
        // Fast path: find the closing quote with memchr, then check the span in one
        // vectorizable pass for escapes, control characters and non-ASCII bytes.
        if let quote = memchr(text.baseAddress! + start, Int32(UInt8(ascii: "\"")), text.count - start) {
            let end = UnsafeRawPointer(quote) - UnsafeRawPointer(text.baseAddress!)
            let slice = UnsafeBufferPointer(rebasing: text[start..<end])
            var lowest: UInt8 = 0xFF, highest: UInt8 = 0, backslashes: UInt8 = 0
            for byte in slice {
                lowest = min(lowest, byte)
                highest = max(highest, byte)
                backslashes |= byte == UInt8(ascii: "\\") ? 1 : 0
            }
            if backslashes == 0 && lowest >= 0x20 {
                if highest >= 0x80, !UTF8Validation.isValid(slice) { throw error("invalid UTF-8 in a string") }
                position = end + 1
                use(slice)
                return
            }
        }
        // General path: escapes, control characters (reported where they are), unterminated strings.
        var ascii = true
        while position < text.count {
            let byte = text[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: text[start..<position])
                if !ascii, !UTF8Validation.isValid(slice) {
                    position = start
                    throw error("invalid UTF-8 in a string")
                }
                position += 1
                use(slice)
                return
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("unescaped control character in a string") }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        // Slow path: the string has escapes; unescape into scratch.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: text[start..<position])
        while position < text.count {
            let byte = text[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                let valid = scratch.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
                guard valid else { throw error("invalid UTF-8 in a string") }
                scratch.withUnsafeBufferPointer { use($0) }
                return
            case UInt8(ascii: "\\"):
                position += 1
                try parseEscape()
            case 0..<0x20:
                throw error("unescaped control character in a string")
            default:
                scratch.append(byte)
                position += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseEscape() throws {
        guard let byte = peek() else { throw error("unterminated string") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard peek() == UInt8(ascii: "\\"), position + 1 < text.count, text[position + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate in \\u escape")
                }
                position += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("unpaired surrogate in \\u escape")
            }
            for unit in UTF8.encode(Unicode.Scalar(scalar)!)! { scratch.append(unit) }
        default:
            position -= 1
            throw error("invalid escape '\\\(Self.describe(byte))'")
        }
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard position + 4 <= text.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = text[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func parseNumber<Sink: JSONSink>(into encoder: inout Sink) throws {
        let start = position
        let negative = peek() == UInt8(ascii: "-")
        if negative { position += 1 }
        var magnitude: UInt64 = 0
        var overflow = false
        let digitsStart = position
        let digitCount = accumulateDigits(into: &magnitude, overflow: &overflow)
        guard digitCount > 0 else { throw error("expected a digit") }
        if digitCount > 1 && text[digitsStart] == UInt8(ascii: "0") {
            position = digitsStart
            throw error("leading zero in a number")
        }
        var isDouble = false
        var fractionDigits = 0
        if peek() == UInt8(ascii: ".") {
            isDouble = true
            position += 1
            fractionDigits = accumulateDigits(into: &magnitude, overflow: &overflow)
            if fractionDigits == 0 { throw error("expected a digit") }
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            isDouble = true
            position += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            try skipDigits()
            fractionDigits = Int.max   // exponents take the general path
        }
        // Clinger's fast path: a mantissa below 2^53 divided by an exact power of ten
        // (at most 10^22) is correctly rounded, and needs no string conversion.
        if isDouble && !overflow && magnitude < 1 << 53 && fractionDigits <= 22 {
            let value = Double(magnitude) / Self.powersOfTen[fractionDigits]
            encoder.writeDouble(negative ? -value : value)
            return
        }
        if !isDouble && !overflow {
            if !negative {
                encoder.writeUnsigned(magnitude)
                return
            }
            if magnitude <= UInt64(Int64.max) + 1 {
                encoder.writeInt(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
                return
            }
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: text[start..<position]), as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            position = start
            throw error("number out of range")
        }
        encoder.writeDouble(value)
    }

    /// Reads decimal digits into `magnitude` (noting overflow); returns how many.
    @inline(__always)
    private mutating func accumulateDigits(into magnitude: inout UInt64, overflow: inout Bool) -> Int {
        let start = position
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            magnitude = sum
            position += 1
        }
        return position - start
    }

    /// 10^0 … 10^22, every one exactly representable as a double.
    private static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                                1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    private mutating func skipDigits() throws {
        let start = position
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        if position == start { throw error("expected a digit") }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard position + count <= text.count,
              memcmp(text.baseAddress! + position, literal.utf8Start, count) == 0 else {
            throw error("invalid literal")
        }
        position += count
    }

    // MARK: Helpers

    private func peek() -> UInt8? { position < text.count ? text[position] : nil }

    private mutating func skipWhitespace() {
        while position < text.count {
            switch text[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private func error(_ message: String) -> DocLiteError {
        var error = DocLiteError(.jsonError, "malformed JSON at byte \(position): \(message)")
        error.position = position
        return error
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
    }
}
