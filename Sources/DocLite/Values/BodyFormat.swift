/// The stored form of a document body: a compact binary encoding that SQL reads
/// one property at a time without decoding the rest (see README, "Body format").
///
/// Every value starts with a tag byte. Numbers are little-endian; container
/// offsets are relative to the container's first byte, so any nested container
/// is itself a valid, self-contained encoding.
///
/// | tag | value | payload |
/// |---|---|---|
/// | 0x00 / 0x01 / 0x02 | null / false / true | — |
/// | 0x03 / 0x04 / 0x05 / 0x06 | integer | 1 / 2 / 4 / 8 bytes, signed |
/// | 0x07 | unsigned integer above `Int64.max` | 8 bytes |
/// | 0x08 | double | 8 bytes |
/// | 0x09 / 0x0A | string | length in 1 / 4 bytes, then UTF-8 bytes |
/// | 0x40 … 0x7F | string of 0 … 63 bytes | (length in the tag) UTF-8 bytes |
/// | 0x0B / 0x0C / 0x0D | dict, all keys shared | width w = 1 / 2 / 4: size, count, key IDs, value offsets (w bytes each), values |
/// | 0x0E | dict with string keys | as 0x0D; a key entry with the top bit set is the offset of a string value holding the key |
/// | 0x0F / 0x10 / 0x11 | array | width w = 1 / 2 / 4: size, count, value offsets, values |
///
/// Dict members are sorted: shared key IDs ascending, then string keys bytewise.
enum BodyTag {
    static let null: UInt8 = 0x00
    static let `false`: UInt8 = 0x01
    static let `true`: UInt8 = 0x02
    static let int8: UInt8 = 0x03
    static let int16: UInt8 = 0x04
    static let int32: UInt8 = 0x05
    static let int64: UInt8 = 0x06
    static let uint64: UInt8 = 0x07
    static let double: UInt8 = 0x08
    static let shortString: UInt8 = 0x09
    static let longString: UInt8 = 0x0A
    static let dict1: UInt8 = 0x0B
    static let dict2: UInt8 = 0x0C
    static let dict4: UInt8 = 0x0D
    static let mixedDict: UInt8 = 0x0E
    static let array1: UInt8 = 0x0F
    static let array2: UInt8 = 0x10
    static let array4: UInt8 = 0x11
    /// Strings of up to 63 bytes carry their length in the tag: `tinyString + length`.
    static let tinyString: UInt8 = 0x40
    static let tinyStringMaxLength = 63

    /// Marks a key entry of a ``mixedDict`` as a string-key offset.
    static let stringKeyFlag: UInt32 = 0x8000_0000

    /// The width (1, 2 or 4 bytes) of a container tag's size, count and tables.
    static func width(_ tag: UInt8) -> Int {
        switch tag {
        case dict1, array1: return 1
        case dict2, array2: return 2
        default: return 4
        }
    }
}

/// The kind of a stored value.
enum BodyValueType: Sendable {
    case null, boolean, integer, unsigned, double, string, array, dictionary

    init?(tag: UInt8) {
        switch tag {
        case BodyTag.null: self = .null
        case BodyTag.false, BodyTag.true: self = .boolean
        case BodyTag.int8...BodyTag.int64: self = .integer
        case BodyTag.uint64: self = .unsigned
        case BodyTag.double: self = .double
        case BodyTag.shortString, BodyTag.longString, BodyTag.tinyString...0x7F: self = .string
        case BodyTag.dict1...BodyTag.mixedDict: self = .dictionary
        case BodyTag.array1...BodyTag.array4: self = .array
        default: return nil
        }
    }
}
