import Foundation

/// One row of a query's results, read by column index or by column title.
/// A MISSING column reads as nil and is left out of ``toDictionary()`` and
/// ``toJSON()``; a JSON null reads as nil too but is kept there (as `NSNull`).
/// Iterating a result gives its column titles.
public final class Result: ArrayProtocol, DictionaryProtocol, Sequence, Sendable {
    let columns: ResultColumns
    /// The column values; nil is MISSING.
    package let values: [JSONValue?]

    init(columns: ResultColumns, values: [JSONValue?]) {
        self.columns = columns
        self.values = values
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// Every column title, including those that are MISSING in this row.
    public var keys: [String] { columns.names }

    /// The value of column `index` (nil when MISSING, null or out of range).
    public func value(at index: Int) -> Any? {
        guard values.indices.contains(index), let value = values[index], value != .null else { return nil }
        return value.anyValue(in: columns.database.database)
    }

    /// The value of the column titled `key` (nil when MISSING, null or no such column).
    public func value(forKey key: String) -> Any? {
        columns.index(of: key).flatMap(value(at:))
    }

    /// Whether the row has column `key` with a value (null counts; MISSING does not).
    public func contains(key: String) -> Bool {
        columns.index(of: key).map { values[$0] != nil } ?? false
    }

    /// The values in column order; MISSING and null are `NSNull`.
    public func toArray() -> [Any] {
        values.map { $0?.plainValue ?? NSNull() }
    }

    /// The columns by title; MISSING ones are left out, null ones are `NSNull`.
    public func toDictionary() -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for (name, value) in zip(columns.names, values) { if let value { dictionary[name] = value.plainValue } }
        return dictionary
    }

    /// The row as a JSON object (MISSING columns left out).
    public func toJSON() -> String {
        JSONValue.dictionary(jsonMembers).json
    }

    /// The row as a JSON array (MISSING columns written as null).
    public func toJSONArray() -> String {
        JSONValue.array(values.map { $0 ?? .null }).json
    }

    var jsonMembers: [ByteString: JSONValue] {
        var members: [ByteString: JSONValue] = [:]
        for (name, value) in zip(columns.names, values) { if let value { members[ByteString(name)] = value } }
        return members
    }

    /// The column titles, in order.
    public func makeIterator() -> IndexingIterator<[String]> { columns.names.makeIterator() }
}

/// The typed getters, reading a column's value directly: the protocols'
/// defaults go through `value(at:)` and `Any`, which costs as much as reading
/// the row. Their answers are the same (``JSONValue/int64``, …).
extension Result {
    private func column(_ index: Int) -> JSONValue? { values.indices.contains(index) ? values[index] : nil }
    private func column(_ key: String) -> JSONValue? { columns.index(of: key).flatMap(column) }

    /// The string, or nil when MISSING, null or not a string.
    public func string(at index: Int) -> String? { column(index)?.stringValue }
    /// The number as `Int` (a double truncated, `true` as 1), 0 when not a number.
    public func int(at index: Int) -> Int { Int(truncatingIfNeeded: column(index)?.int64 ?? 0) }
    /// The number as `Int64` (a double truncated, `true` as 1), 0 when not a number.
    public func int64(at index: Int) -> Int64 { column(index)?.int64 ?? 0 }
    /// The number as `Double` (`true` as 1), 0 when not a number.
    public func double(at index: Int) -> Double { column(index)?.double ?? 0 }
    /// The number as `Float`, 0 when not a number.
    public func float(at index: Int) -> Float { Float(double(at: index)) }
    /// True for `true`, a non-zero number, or any other non-null value.
    public func boolean(at index: Int) -> Bool { column(index)?.boolean ?? false }

    /// The string in the column titled `key`, or nil.
    public func string(forKey key: String) -> String? { column(key)?.stringValue }
    /// The number in the column titled `key` as `Int`, 0 when not a number.
    public func int(forKey key: String) -> Int { Int(truncatingIfNeeded: column(key)?.int64 ?? 0) }
    /// The number in the column titled `key` as `Int64`, 0 when not a number.
    public func int64(forKey key: String) -> Int64 { column(key)?.int64 ?? 0 }
    /// The number in the column titled `key` as `Double`, 0 when not a number.
    public func double(forKey key: String) -> Double { column(key)?.double ?? 0 }
    /// The number in the column titled `key` as `Float`, 0 when not a number.
    public func float(forKey key: String) -> Float { Float(double(forKey: key)) }
    /// The column titled `key` as a boolean (see ``boolean(at:)``).
    public func boolean(forKey key: String) -> Bool { column(key)?.boolean ?? false }
}
