import Foundation

/// Conversions between ``JSONValue`` and the Swift values of Couchbase Lite's
/// document API (`String`, numbers, `Bool`, `Date`, arrays, dictionaries,
/// `ArrayObject`, `DictionaryObject`, `Blob`, `NSNull`).
extension JSONValue {
    /// Converts a Swift value as Couchbase Lite accepts it in `setValue`; `nil` becomes null.
    /// A value nesting more than 255 arrays and dictionaries is refused: in a
    /// document it would be deeper than the JSON reader reads back (so every
    /// value in a document stays shallow enough to walk recursively).
    init(any value: Any?) throws {
        var blobs: [Blob] = []
        try self.init(any: value, room: JSONParser.maxDepth - 1, blobs: &blobs)
    }

    /// Converts a Swift value as ``init(any:)`` does, adding the new blobs inside it
    /// (a blob, or an `ArrayObject` or `DictionaryObject` holding some) to `blobs`.
    init(any value: Any?, blobs: inout [Blob]) throws {
        try self.init(any: value, room: JSONParser.maxDepth - 1, blobs: &blobs)
    }

    /// `room`: how many containers the value may still nest.
    private init(any value: Any?, room: Int, blobs: inout [Blob]) throws {
        func checked(_ value: JSONValue) throws -> JSONValue {
            guard value.nesting <= room else { throw Self.tooDeep }
            return value
        }
        /// A Swift array or dictionary: there must be room for it, whether or not it holds anything.
        func nest() throws {
            guard room > 0 else { throw Self.tooDeep }
        }
        func inner(_ value: Any?) throws -> JSONValue {
            try JSONValue(any: value, room: room - 1, blobs: &blobs)
        }
        func container<Values>(_ state: Locked<ContainerState<Values>>, _ make: (Values) -> JSONValue) throws -> JSONValue {
            let (json, inside) = try Self.of(state, room: room, make)
            blobs += inside
            return json
        }
        // The common scalars by their exact type, before the casts below try collections.
        if let value {
            let type = Swift.type(of: value)
            if type == String.self, let v = value as? String { self = .string(v); return }
            if type == Int.self, let v = value as? Int { self = .int(Int64(v)); return }
            if type == Double.self, let v = value as? Double { self = try .finite(v); return }
            if type == Bool.self, let v = value as? Bool { self = .bool(v); return }
            // (An embedding: casting it to [Any?] would box each number.)
            if type == [Double].self, let v = value as? [Double] { try nest(); self = .array(try v.map(JSONValue.finite)); return }
            if type == [Float].self, let v = value as? [Float] { try nest(); self = .array(try v.map { try .finite(Double($0)) }); return }
        }
        switch value {
        // Swift collections first: casting one to a class (NSNull, NSNumber…)
        // bridges it to Foundation, recursively, however deep it is.
        case let v as [Any?]: try nest(); self = .array(try v.map(inner))
        case let v as [Any]: try nest(); self = .array(try v.map(inner))
        case let v as [String: Any?]: try nest(); self = .dictionary(Dictionary(stringKeys: try v.mapValues(inner)))
        case let v as [String: Any]: try nest(); self = .dictionary(Dictionary(stringKeys: try v.mapValues(inner)))
        case nil, is NSNull: self = .null
        case let v as JSONValue: self = try checked(v)
        case let v as String: self = .string(v)
        case let v as NSNumber where Swift.type(of: value!) is NSNumber.Type:
            // A real NSNumber (JSONSerialization's, Objective-C's): its stored type decides,
            // so that 0 and 1 stay integers (`as Bool` would take them).
            self = try JSONValue(number: v)
        case let v as Bool: self = .bool(v)
        case let v as Int: self = .int(Int64(v))
        case let v as Int64: self = .int(v)
        case let v as Int32: self = .int(Int64(v))
        case let v as Int16: self = .int(Int64(v))
        case let v as Int8: self = .int(Int64(v))
        case let v as UInt64: self = .unsigned(v)
        case let v as UInt: self = .unsigned(UInt64(v))
        case let v as UInt32: self = .int(Int64(v))
        case let v as UInt16: self = .int(Int64(v))
        case let v as UInt8: self = .int(Int64(v))
        case let v as Double: self = try .finite(v)
        case let v as Float: self = try .finite(Double(v))
        case let v as Date:
            // (ISO-8601 writes years 0000–9999; beyond, the text would not read back as a date.)
            guard (-62_167_219_200.0..<253_402_300_800.0).contains(v.timeIntervalSince1970) else {
                throw DocLiteError(.invalidParameter, "the date \(v) is outside the years 0000–9999 that ISO-8601 text holds")
            }
            self = .string(ISO8601.string(from: v))
        case let v as ArrayObject: self = try container(v.state, JSONValue.array)
        case let v as DictionaryObject: self = try container(v.state, JSONValue.dictionary)
        case let v as Blob:
            self = .dictionary(v.metadata)
            blobs.append(v)
        default:
            throw DocLiteError(.invalidParameter, "unsupported value type \(type(of: value!)) (use String, a number, Bool, Date, Blob, an array, a dictionary or nil)")
        }
    }

    /// The value of an ``ArrayObject`` or a ``DictionaryObject`` (`state`), with
    /// the new blobs in it; throws the error it keeps, or for nesting deeper than `room`.
    static func of<Values>(_ state: Locked<ContainerState<Values>>, room: Int = JSONParser.maxDepth - 1,
                           _ make: (Values) -> JSONValue) throws -> (json: JSONValue, blobs: [Blob]) {
        let (values, blobs, error) = state.withLock { ($0.values, $0.newBlobs, $0.unstorable.first) }
        if let error { throw error }
        let json = make(values)
        guard json.nesting <= room else { throw tooDeep }
        return (json, blobs)
    }

    /// An NSNumber by the C type it holds: `c` (or `B`) with 0 or 1 is a boolean,
    /// `f`/`d` a double, the unsigned types an unsigned integer, anything else an integer.
    private init(number: NSNumber) throws {
        switch String(cString: number.objCType) {
        case "c" where number.int64Value == 0 || number.int64Value == 1, "B": self = .bool(number.boolValue)
        case "f", "d": self = try .finite(number.doubleValue)
        case "Q", "L", "I", "S", "C":
            let value = number.uint64Value
            self = Int64(exactly: value).map(JSONValue.int) ?? .unsigned(value)
        default: self = .int(number.int64Value)
        }
    }

    private static let tooDeep = DocLiteError(.invalidParameter, "a document value cannot nest more than \(JSONParser.maxDepth - 1) "
                                              + "arrays and dictionaries (a document is read back to \(JSONParser.maxDepth) levels)")

    /// How many arrays and dictionaries nest in this value: 0 for a scalar.
    var nesting: Int {
        switch self {
        case .array(let items): return 1 + (items.lazy.map(\.nesting).max() ?? 0)
        case .dictionary(let members): return 1 + (members.values.lazy.map(\.nesting).max() ?? 0)
        default: return 0
        }
    }

    static func finite(_ value: Double) throws -> JSONValue {
        guard value.isFinite else { throw DocLiteError(.invalidParameter, "JSON cannot hold \(value) (it has no NaN or infinity)") }
        return .double(value)
    }

    /// The value as Couchbase Lite's `value(forKey:)` returns it: a blob's
    /// metadata dictionary as a ``Blob`` whose content `database` stores.
    func anyValue(in database: @autoclosure () -> Database?) -> Any {
        switch self {
        case .null: return NSNull()
        case .bool(let b): return b
        case .int(let i): return Int(exactly: i) ?? i
        case .unsigned(let u): return u
        case .double(let d): return d
        case .string(let s): return s
        case .array(let items): return ArrayObject(items, database: database())
        case .dictionary(let members):
            if Blob.isMetadata(members), let blob = Blob(properties: members, database: database()) { return blob }
            return DictionaryObject(members, database: database())
        }
    }

    /// The string, if this is one.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// Couchbase Lite's integer coercion, for every typed getter: a double
    /// truncated, `true` as 1, 0 for anything else.
    var int64: Int64 {
        switch self {
        case .int(let i): return i
        case .unsigned(let u): return Int64(truncatingIfNeeded: u)
        case .double(let d): return Int64(exactly: d.rounded(.towardZero)) ?? 0
        case .bool(let b): return b ? 1 : 0
        default: return 0
        }
    }

    /// Couchbase Lite's floating-point coercion: `true` as 1, 0 for anything not a number.
    var double: Double {
        switch self {
        case .int(let i): return Double(i)
        case .unsigned(let u): return Double(u)
        case .double(let d): return d
        case .bool(let b): return b ? 1 : 0
        default: return 0
        }
    }

    /// Couchbase Lite's boolean coercion: false for null, a number's non-zero, true for any other value.
    var boolean: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .int, .unsigned, .double: return double != 0
        default: return true
        }
    }

    /// The value as plain Swift collections (`toDictionary()` / `toArray()` form).
    var plainValue: Any {
        switch self {
        case .array(let items): return items.map(\.plainValue)
        case .dictionary(let members): return members.mapValues(\.plainValue).stringKeyed
        default: return anyValue(in: nil)
        }
    }

}

/// ISO-8601 dates as Couchbase Lite stores them (`2024-05-01T12:00:00.000Z`), in the
/// proleptic Gregorian calendar of the query language's date functions (``CivilTime``),
/// to the nearest millisecond. (Foundation's ISO-8601 style truncated a date's binary
/// fraction, writing 0.999 s as `.998`, and wrote dates before 1582-10-15 in the Julian
/// calendar.)
enum ISO8601 {
    static func string(from date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let day = CivilTime.date(ofWall: millis)
        let time = CivilTime.millisOfDay(millis)
        return String(format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ", day.year, day.month, day.day,
                      time / 3_600_000, time / 60_000 % 60, time / 1000 % 60, time % 1000)
    }

    /// The instant an ISO-8601 string with a zone (`Z`, `±hh:mm`) names; nil for any other text.
    static func date(from string: String) -> Date? {
        var string = string
        let parsed = string.withUTF8 { DateParser.parse(UnsafeRawBufferPointer($0)) }
        guard let parsed, parsed.offsetMinutes != nil, let instant = parsed.instant else { return nil }
        return Date(timeIntervalSince1970: Double(instant) / 1000)
    }
}
