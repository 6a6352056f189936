/// A JSON object inside a document (read-only).
public class DictionaryObject: DictionaryProtocol, @unchecked Sendable {
    var members: [ByteString: JSONValue]
    /// The database whose blobs the values refer to.
    let database: WeakDatabase
    /// Blobs set in this dictionary (or nested in it) whose content a save must store.
    var newBlobs: [Blob] = []

    package init(_ members: [ByteString: JSONValue], database: Database? = nil) {
        self.members = members
        self.database = WeakDatabase(database)
    }

    public var count: Int { members.count }
    public var keys: [String] { members.keys.sorted().map(\.string) }
    public func value(forKey key: String) -> Any? { members[ByteString(key)]?.anyValue(in: database.database) }
    public func toDictionary() -> [String: Any] { members.mapValues(\.plainValue).stringKeyed }
    public func toJSON() -> String { JSONValue.dictionary(members).json }
    /// A mutable copy.
    public func toMutable() -> MutableDictionaryObject {
        let copy = MutableDictionaryObject(members, database: database.database)
        copy.newBlobs = newBlobs
        if let kept = (self as? UnstorableValues)?.unstorable { copy.unstorable = kept }
        return copy
    }
}

/// A JSON object that can be changed and then stored in a document.
public final class MutableDictionaryObject: DictionaryObject, MutableDictionaryProtocol, UnstorableValues, @unchecked Sendable {
    var unstorable = UnstorableErrors()

    public convenience init() { self.init([:]) }

    /// A dictionary from a JSON object's text; malformed JSON or another kind of value throws.
    public convenience init(json: String) throws {
        guard case .dictionary(let members) = try JSONValue(json: json) else {
            throw DocLiteError(.jsonError, "malformed JSON: a dictionary must be a JSON object")
        }
        self.init(members)
    }

    /// Creates an object from a Swift dictionary; throws for a value type JSON cannot hold.
    public convenience init(data: [String: Any?]) throws {
        self.init(Dictionary(stringKeys: try data.mapValues { try JSONValue(any: $0) }))
        newBlobs = Blob.blobs(in: data)
    }

    @discardableResult
    public func setValue(_ value: Any?, forKey key: String) throws -> Self {
        members[ByteString(key)] = try JSONValue(any: value)
        unstorable.stored(key: key)
        newBlobs += Blob.blobs(in: value)
        return self
    }

    @discardableResult
    public func removeValue(forKey key: String) -> Self {
        members[ByteString(key)] = nil
        unstorable.stored(key: key)
        return self
    }
}

/// A JSON array inside a document (read-only).
public class ArrayObject: ArrayProtocol, @unchecked Sendable {
    var items: [JSONValue]
    /// The database whose blobs the values refer to.
    let database: WeakDatabase
    /// Blobs added to this array (or nested in it) whose content a save must store.
    var newBlobs: [Blob] = []

    init(_ items: [JSONValue], database: Database? = nil) {
        self.items = items
        self.database = WeakDatabase(database)
    }

    public var count: Int { items.count }
    public func value(at index: Int) -> Any? { items.indices.contains(index) ? items[index].anyValue(in: database.database) : nil }
    public func toArray() -> [Any] { items.map(\.plainValue) }
    public func toJSON() -> String { JSONValue.array(items).json }
    /// A mutable copy.
    public func toMutable() -> MutableArrayObject {
        let copy = MutableArrayObject(items, database: database.database)
        copy.newBlobs = newBlobs
        if let kept = (self as? UnstorableValues)?.unstorable { copy.unstorable = kept }
        return copy
    }
}

/// A JSON array that can be changed and then stored in a document.
public final class MutableArrayObject: ArrayObject, MutableArrayProtocol, UnstorableValues, @unchecked Sendable {
    var unstorable = UnstorableErrors()

    public convenience init() { self.init([]) }

    /// Creates an array from Swift values; throws for a value type JSON cannot hold.
    public convenience init(data: [Any?]) throws {
        self.init(try data.map { try JSONValue(any: $0) })
        newBlobs = Blob.blobs(in: data)
    }

    /// Appends a value; throws for a type JSON cannot hold.
    @discardableResult
    public func addValue(_ value: Any?) throws -> Self {
        items.append(try JSONValue(any: value))
        newBlobs += Blob.blobs(in: value)
        return self
    }

    /// Replaces the value at `index`; throws when the index is out of range.
    @discardableResult
    public func setValue(_ value: Any?, at index: Int) throws -> Self {
        try checkIndex(index, upTo: items.count - 1)
        items[index] = try JSONValue(any: value)
        newBlobs += Blob.blobs(in: value)
        return self
    }

    /// Inserts a value at `index` (0...count).
    @discardableResult
    public func insertValue(_ value: Any?, at index: Int) throws -> Self {
        try checkIndex(index, upTo: items.count)
        items.insert(try JSONValue(any: value), at: index)
        newBlobs += Blob.blobs(in: value)
        return self
    }

    /// Removes the value at `index`; throws when the index is out of range.
    @discardableResult
    public func removeValue(at index: Int) throws -> Self {
        try checkIndex(index, upTo: items.count - 1)
        items.remove(at: index)
        return self
    }

    private func checkIndex(_ index: Int, upTo last: Int) throws {
        guard index >= 0, index <= last else {
            throw DocLiteError(.invalidParameter, "array index \(index) out of range 0...\(last)")
        }
    }
}
