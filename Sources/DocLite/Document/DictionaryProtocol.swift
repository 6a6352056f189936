import Foundation

/// Read access to a JSON object by key, with Couchbase Lite's typed getters.
/// Adopted by ``Document``, ``DictionaryObject`` and their mutable forms.
public protocol DictionaryProtocol: AnyObject {
    /// The number of properties.
    var count: Int { get }
    /// The property names, sorted.
    var keys: [String] { get }
    /// The value: `String`, `Int`/`Int64`/`UInt64`, `Double`, `Bool`, ``ArrayObject``,
    /// ``DictionaryObject``, `NSNull` for JSON null, or nil when absent.
    func value(forKey key: String) -> Any?
    /// The object as Swift dictionaries and arrays.
    func toDictionary() -> [String: Any]
    /// The object as JSON text.
    func toJSON() -> String
}

extension DictionaryProtocol {
    /// Whether the key is present (JSON null counts as present).
    public func contains(key: String) -> Bool { value(forKey: key) != nil }
    /// The string, or nil when absent or not a string.
    public func string(forKey key: String) -> String? { value(forKey: key) as? String }
    /// The number as `Int` (a double truncated, `true` as 1), 0 when absent or not a number.
    public func int(forKey key: String) -> Int { Int(truncatingIfNeeded: AnyNumber.int64(value(forKey: key))) }
    /// The number as `Int64` (a double truncated, `true` as 1), 0 when absent or not a number.
    public func int64(forKey key: String) -> Int64 { AnyNumber.int64(value(forKey: key)) }
    /// The number as `Double` (`true` as 1), 0 when absent or not a number.
    public func double(forKey key: String) -> Double { AnyNumber.double(value(forKey: key)) }
    /// The number as `Float`, 0 when absent or not a number.
    public func float(forKey key: String) -> Float { Float(AnyNumber.double(value(forKey: key))) }
    /// The number or boolean as `NSNumber`, nil otherwise.
    public func number(forKey key: String) -> NSNumber? { AnyNumber.number(value(forKey: key)) }
    /// True for `true`, a non-zero number, or any other non-null value.
    public func boolean(forKey key: String) -> Bool { AnyNumber.boolean(value(forKey: key)) }
    /// The ISO-8601 string as a `Date`, nil when absent or not a date.
    public func date(forKey key: String) -> Date? { (value(forKey: key) as? String).flatMap(ISO8601.date(from:)) }
    /// The array, or nil when absent or not an array.
    public func array(forKey key: String) -> ArrayObject? { value(forKey: key) as? ArrayObject }
    /// The dictionary, or nil when absent or not a dictionary (a blob's metadata is a ``Blob``).
    public func dictionary(forKey key: String) -> DictionaryObject? { value(forKey: key) as? DictionaryObject }
    /// The blob, or nil when absent or not a blob's metadata dictionary.
    public func blob(forKey key: String) -> Blob? { value(forKey: key) as? Blob }
}

/// Write access to a JSON object by key. Typed setters store the value as
/// JSON does; a `Date` is stored as an ISO-8601 string; nil stores JSON null.
///
/// As in Couchbase Lite, setters do not throw: a value a document cannot hold
/// (NaN, an unsupported type, a date outside the years 0000–9999, a container
/// nested too deep) is not stored, and saving the document throws its error
/// (Couchbase Lite too reports an invalid value when the document is saved).
public protocol MutableDictionaryProtocol: DictionaryProtocol {
    /// Stores `value`: String, a number, Bool, Date, ``Blob``, an array, a
    /// dictionary, ``ArrayObject``, ``DictionaryObject``, or nil for JSON null.
    @discardableResult func setValue(_ value: Any?, forKey key: String) -> Self
    /// Removes the key.
    @discardableResult func removeValue(forKey key: String) -> Self
}

extension MutableDictionaryProtocol {
    /// Stores a string (nil: JSON null).
    @discardableResult public func setString(_ value: String?, forKey key: String) -> Self { set(.string(value), value, forKey: key) }
    /// Stores a number (nil: JSON null).
    @discardableResult public func setNumber(_ value: NSNumber?, forKey key: String) -> Self { setValue(value, forKey: key) }
    /// Stores an integer.
    @discardableResult public func setInt(_ value: Int, forKey key: String) -> Self { set(.scalar(.int(Int64(value))), value, forKey: key) }
    /// Stores a 64-bit integer.
    @discardableResult public func setInt64(_ value: Int64, forKey key: String) -> Self { set(.scalar(.int(value)), value, forKey: key) }
    /// Stores a double (NaN and infinities, which JSON cannot hold, fail the save).
    @discardableResult public func setDouble(_ value: Double, forKey key: String) -> Self { set(.double(value), value, forKey: key) }
    /// Stores a float (NaN and infinities, which JSON cannot hold, fail the save).
    @discardableResult public func setFloat(_ value: Float, forKey key: String) -> Self { set(.double(Double(value)), value, forKey: key) }
    /// Stores a boolean.
    @discardableResult public func setBoolean(_ value: Bool, forKey key: String) -> Self { set(.scalar(.bool(value)), value, forKey: key) }
    /// Stores a date as its ISO-8601 string (nil: JSON null).
    @discardableResult public func setDate(_ value: Date?, forKey key: String) -> Self { setValue(value, forKey: key) }
    /// Stores a copy of an array (nil: JSON null).
    @discardableResult public func setArray(_ value: ArrayObject?, forKey key: String) -> Self { set(.array(value), value, forKey: key) }
    /// Stores a copy of a dictionary (nil: JSON null).
    @discardableResult public func setDictionary(_ value: DictionaryObject?, forKey key: String) -> Self { set(.dictionary(value), value, forKey: key) }
    /// Stores a blob: its metadata in the properties, its content when the document is saved.
    @discardableResult public func setBlob(_ value: Blob?, forKey key: String) -> Self { setValue(value, forKey: key) }
}

/// Read access to a JSON array by index, with Couchbase Lite's typed getters.
public protocol ArrayProtocol: AnyObject {
    /// The number of values.
    var count: Int { get }
    /// The value at `index` (types as ``DictionaryProtocol/value(forKey:)``), nil when out of range.
    func value(at index: Int) -> Any?
    /// The array as Swift arrays and dictionaries.
    func toArray() -> [Any]
    /// The array as JSON text.
    func toJSON() -> String
}

extension ArrayProtocol {
    /// The string, or nil when absent or not a string.
    public func string(at index: Int) -> String? { value(at: index) as? String }
    /// The number as `Int` (a double truncated, `true` as 1), 0 when absent or not a number.
    public func int(at index: Int) -> Int { Int(truncatingIfNeeded: AnyNumber.int64(value(at: index))) }
    /// The number as `Int64` (a double truncated, `true` as 1), 0 when absent or not a number.
    public func int64(at index: Int) -> Int64 { AnyNumber.int64(value(at: index)) }
    /// The number as `Double` (`true` as 1), 0 when absent or not a number.
    public func double(at index: Int) -> Double { AnyNumber.double(value(at: index)) }
    /// The number as `Float`, 0 when absent or not a number.
    public func float(at index: Int) -> Float { Float(AnyNumber.double(value(at: index))) }
    /// The number or boolean as `NSNumber`, nil otherwise.
    public func number(at index: Int) -> NSNumber? { AnyNumber.number(value(at: index)) }
    /// True for `true`, a non-zero number, or any other non-null value.
    public func boolean(at index: Int) -> Bool { AnyNumber.boolean(value(at: index)) }
    /// The ISO-8601 string as a `Date`, nil when absent or not a date.
    public func date(at index: Int) -> Date? { (value(at: index) as? String).flatMap(ISO8601.date(from:)) }
    /// The array, or nil when absent or not an array.
    public func array(at index: Int) -> ArrayObject? { value(at: index) as? ArrayObject }
    /// The dictionary, or nil when absent or not a dictionary (a blob's metadata is a ``Blob``).
    public func dictionary(at index: Int) -> DictionaryObject? { value(at: index) as? DictionaryObject }
    /// The blob, or nil when absent or not a blob's metadata dictionary.
    public func blob(at index: Int) -> Blob? { value(at: index) as? Blob }
}

/// Write access to a JSON array. Typed adders and setters store values as JSON
/// does (a `Date` as an ISO-8601 string, nil as JSON null). None throws: a value
/// a document cannot hold, or an index out of range, changes nothing, and saving
/// the document throws its error.
public protocol MutableArrayProtocol: ArrayProtocol {
    /// Appends a value (the types of ``MutableDictionaryProtocol/setValue(_:forKey:)``).
    @discardableResult func addValue(_ value: Any?) -> Self
    /// Replaces the value at `index` (0..<count).
    @discardableResult func setValue(_ value: Any?, at index: Int) -> Self
    /// Inserts a value at `index` (0...count).
    @discardableResult func insertValue(_ value: Any?, at index: Int) -> Self
    /// Removes the value at `index`.
    @discardableResult func removeValue(at index: Int) -> Self
}

extension MutableArrayProtocol {
    /// Appends a string (nil: JSON null).
    @discardableResult public func addString(_ value: String?) -> Self { add(.string(value), value) }
    /// Appends a number (nil: JSON null).
    @discardableResult public func addNumber(_ value: NSNumber?) -> Self { addValue(value) }
    /// Appends an integer.
    @discardableResult public func addInt(_ value: Int) -> Self { add(.scalar(.int(Int64(value))), value) }
    /// Appends a 64-bit integer.
    @discardableResult public func addInt64(_ value: Int64) -> Self { add(.scalar(.int(value)), value) }
    /// Appends a double (NaN and infinities fail the save).
    @discardableResult public func addDouble(_ value: Double) -> Self { add(.double(value), value) }
    /// Appends a float (NaN and infinities fail the save).
    @discardableResult public func addFloat(_ value: Float) -> Self { add(.double(Double(value)), value) }
    /// Appends a boolean.
    @discardableResult public func addBoolean(_ value: Bool) -> Self { add(.scalar(.bool(value)), value) }
    /// Appends a date as its ISO-8601 string (nil: JSON null).
    @discardableResult public func addDate(_ value: Date?) -> Self { addValue(value) }
    /// Appends a copy of an array (nil: JSON null).
    @discardableResult public func addArray(_ value: ArrayObject?) -> Self { add(.array(value), value) }
    /// Appends a copy of a dictionary (nil: JSON null).
    @discardableResult public func addDictionary(_ value: DictionaryObject?) -> Self { add(.dictionary(value), value) }
    /// Appends a blob (its content is stored when the document is saved).
    @discardableResult public func addBlob(_ value: Blob?) -> Self { addValue(value) }

    /// Replaces the value at `index` with a string.
    @discardableResult public func setString(_ value: String?, at index: Int) -> Self { setValue(value, at: index) }
    /// Replaces the value at `index` with a number.
    @discardableResult public func setNumber(_ value: NSNumber?, at index: Int) -> Self { setValue(value, at: index) }
    /// Replaces the value at `index` with an integer.
    @discardableResult public func setInt(_ value: Int, at index: Int) -> Self { setValue(value, at: index) }
    /// Replaces the value at `index` with a 64-bit integer.
    @discardableResult public func setInt64(_ value: Int64, at index: Int) -> Self { setValue(value, at: index) }
    /// Replaces the value at `index` with a double.
    @discardableResult public func setDouble(_ value: Double, at index: Int) -> Self { setValue(value, at: index) }
    /// Replaces the value at `index` with a float.
    @discardableResult public func setFloat(_ value: Float, at index: Int) -> Self { setValue(value, at: index) }
    /// Replaces the value at `index` with a boolean.
    @discardableResult public func setBoolean(_ value: Bool, at index: Int) -> Self { setValue(value, at: index) }
    /// Replaces the value at `index` with a date's ISO-8601 string.
    @discardableResult public func setDate(_ value: Date?, at index: Int) -> Self { setValue(value, at: index) }
    /// Replaces the value at `index` with a copy of an array.
    @discardableResult public func setArray(_ value: ArrayObject?, at index: Int) -> Self { setValue(value, at: index) }
    /// Replaces the value at `index` with a copy of a dictionary.
    @discardableResult public func setDictionary(_ value: DictionaryObject?, at index: Int) -> Self { setValue(value, at: index) }
    /// Replaces the value at `index` with a blob.
    @discardableResult public func setBlob(_ value: Blob?, at index: Int) -> Self { setValue(value, at: index) }

    /// Inserts a string at `index`.
    @discardableResult public func insertString(_ value: String?, at index: Int) -> Self { insertValue(value, at: index) }
    /// Inserts a number at `index`.
    @discardableResult public func insertNumber(_ value: NSNumber?, at index: Int) -> Self { insertValue(value, at: index) }
    /// Inserts an integer at `index`.
    @discardableResult public func insertInt(_ value: Int, at index: Int) -> Self { insertValue(value, at: index) }
    /// Inserts a 64-bit integer at `index`.
    @discardableResult public func insertInt64(_ value: Int64, at index: Int) -> Self { insertValue(value, at: index) }
    /// Inserts a double at `index`.
    @discardableResult public func insertDouble(_ value: Double, at index: Int) -> Self { insertValue(value, at: index) }
    /// Inserts a float at `index`.
    @discardableResult public func insertFloat(_ value: Float, at index: Int) -> Self { insertValue(value, at: index) }
    /// Inserts a boolean at `index`.
    @discardableResult public func insertBoolean(_ value: Bool, at index: Int) -> Self { insertValue(value, at: index) }
    /// Inserts a date's ISO-8601 string at `index`.
    @discardableResult public func insertDate(_ value: Date?, at index: Int) -> Self { insertValue(value, at: index) }
    /// Inserts a copy of an array at `index`.
    @discardableResult public func insertArray(_ value: ArrayObject?, at index: Int) -> Self { insertValue(value, at: index) }
    /// Inserts a copy of a dictionary at `index`.
    @discardableResult public func insertDictionary(_ value: DictionaryObject?, at index: Int) -> Self { insertValue(value, at: index) }
    /// Inserts a blob at `index`.
    @discardableResult public func insertBlob(_ value: Blob?, at index: Int) -> Self { insertValue(value, at: index) }
}

/// Couchbase Lite's number coercions for the typed getters.
enum AnyNumber {
    /// A getter's value as the stored value whose coercions (``JSONValue/int64``,
    /// ``JSONValue/double``, ``JSONValue/boolean``) decide: a number or a
    /// boolean as itself, nil and `NSNull` as null, any other value as a string
    /// (not a number, and true).
    private static func stored(_ value: Any?) -> JSONValue {
        switch value {
        case let v as Int: return .int(Int64(v))
        case let v as Int64: return .int(v)
        case let v as UInt64: return .unsigned(v)
        case let v as Double: return .double(v)
        case let v as Bool: return .bool(v)
        case nil, is NSNull: return .null
        default: return .string("")
        }
    }

    static func int64(_ value: Any?) -> Int64 { stored(value).int64 }

    static func double(_ value: Any?) -> Double { stored(value).double }

    /// True for `true`, a non-zero number, or any other non-null value.
    static func boolean(_ value: Any?) -> Bool { stored(value).boolean }

    static func number(_ value: Any?) -> NSNumber? {
        switch value {
        case let v as Int: return NSNumber(value: v)
        case let v as Int64: return NSNumber(value: v)
        case let v as UInt64: return NSNumber(value: v)
        case let v as Double: return NSNumber(value: v)
        case let v as Bool: return NSNumber(value: v)
        default: return nil
        }
    }
}

