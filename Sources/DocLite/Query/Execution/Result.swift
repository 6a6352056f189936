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

    public func makeIterator() -> IndexingIterator<[String]> { columns.names.makeIterator() }
}
