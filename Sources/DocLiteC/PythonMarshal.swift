import DocLite

/// Writes values in the form of Python's `marshal` module: the type codes every
/// version since 2 reads (Python/marshal.c), without its reference flag.
enum PythonMarshal {
    static let none = UInt8(ascii: "N")

    static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(none)
        case .bool(let flag): out.append(UInt8(ascii: flag ? "T" : "F"))
        case .int(let number): appendInt(number, to: &out)
        case .unsigned(let number): appendLong(magnitude: number, negative: false, to: &out)
        case .double(let number):
            out.append(UInt8(ascii: "g"))
            appendLittleEndian(number.bitPattern, to: &out)
        case .string(var text):
            text.withUTF8 { appendString($0, to: &out) }
        case .array(let items):
            appendListHeader(count: items.count, to: &out)
            for item in items { append(item, to: &out) }
        case .dictionary(let members):
            out.append(UInt8(ascii: "{"))
            for (key, member) in members {
                append(.string(key.string), to: &out)
                append(member, to: &out)
            }
            out.append(UInt8(ascii: "0"))
        }
    }

    /// A str: its UTF-8 bytes.
    static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "u"))
        appendLittleEndian(UInt32(utf8.count), to: &out)
        out.append(contentsOf: utf8)
    }

    static func appendListHeader(count: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        appendLittleEndian(UInt32(count), to: &out)
    }

    static func appendInt(_ number: Int64, to out: inout [UInt8]) {
        if let small = Int32(exactly: number) {
            out.append(UInt8(ascii: "i"))
            appendLittleEndian(UInt32(bitPattern: small), to: &out)
        } else {
            appendLong(magnitude: number.magnitude, negative: number < 0, to: &out)
        }
    }

    /// A long: its digit count (negative for a negative number), then base-2¹⁵ digits, least significant first.
    private static func appendLong(magnitude: UInt64, negative: Bool, to out: inout [UInt8]) {
        var digits: [UInt16] = []
        var rest = magnitude
        while rest != 0 {
            digits.append(UInt16(rest & 0x7FFF))
            rest >>= 15
        }
        out.append(UInt8(ascii: "l"))
        appendLittleEndian(UInt32(bitPattern: Int32(negative ? -digits.count : digits.count)), to: &out)
        for digit in digits { appendLittleEndian(digit, to: &out) }
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }
}
