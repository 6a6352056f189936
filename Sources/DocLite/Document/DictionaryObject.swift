
/// What can change in a dictionary or an array (its values, when mutable), read
/// and written under the object's lock.
struct ContainerState<Values: Sendable> {
    var values: Values
    /// Blobs set in the object (or nested in it) whose content a save must store.
    var newBlobs: [Blob] = []
    var unstorable = UnstorableErrors()
}

extension ContainerState<[ByteString: JSONValue]> {
    /// Stores a converted value under `key`, or keeps its error.
    mutating func store(_ value: Conversion, forKey key: String) {
        switch value {
        case .storable(let newValue):
            values[ByteString(key)] = newValue.json
            unstorable.stored(key: key)
            newBlobs += newValue.blobs
        case .unstorable(let error):
            unstorable.keep(error, key: key)
        }
    }
}

extension ContainerState<[JSONValue]> {
    /// Appends a converted value, or keeps its error.
    mutating func append(_ value: Conversion) {
        switch value {
        case .storable(let newValue):
            values.append(newValue.json)
            newBlobs += newValue.blobs
        case .unstorable(let error):
            unstorable.keep(error, key: nil)
        }
    }
}

/// A JSON object inside a document (read-only).
///
/// Sendable: its stored properties are constants and its members are behind a
/// lock (checked by hand only because the class is open to ``MutableDictionaryObject``).
public class DictionaryObject: DictionaryProtocol, @unchecked Sendable {
    let state: Locked<ContainerState<[ByteString: JSONValue]>>
    /// The database whose blobs the values refer to.
    let database: WeakDatabase

    package init(_ members: [ByteString: JSONValue], database: Database? = nil) {
        state = Locked(ContainerState(values: members))
        self.database = WeakDatabase(database)
    }

    /// The members, as they are now.
    var members: [ByteString: JSONValue] { state.withLock { $0.values } }

    /// The number of members.
    public var count: Int { members.count }
    /// The member names, sorted.
    public var keys: [String] { members.keys.sorted().map(\.string) }
    /// The member `key` (see ``DictionaryProtocol/value(forKey:)``), nil when absent.
    public func value(forKey key: String) -> Any? {
        state.withLock { $0.values[ByteString(key)] }?.anyValue(in: database.database)
    }
    /// The members as Swift dictionaries and arrays.
    public func toDictionary() -> [String: Any] { members.mapValues(\.plainValue).stringKeyed }
    /// The dictionary as JSON text.
    public func toJSON() -> String { JSONValue.dictionary(members).json }
    /// A mutable copy.
    public func toMutable() -> MutableDictionaryObject {
        MutableDictionaryObject(state.withLock { $0 }, database: database.database)
    }
}

/// A JSON object that can be changed and then stored in a document. Each call
/// takes the object's lock, as ``MutableDocument``'s do.
public final class MutableDictionaryObject: DictionaryObject, MutableDictionaryProtocol, @unchecked Sendable {
    /// An empty dictionary.
    public convenience init() { self.init([:]) }

    fileprivate convenience init(_ copied: ContainerState<[ByteString: JSONValue]>, database: Database?) {
        self.init(copied.values, database: database)
        state.withLock { $0 = copied }
    }

    /// A dictionary from a JSON object's text; malformed JSON or another kind of value throws.
    public convenience init(json: String) throws {
        guard case .dictionary(let members) = try JSONValue(json: json) else {
            throw DocLiteError(.jsonError, "malformed JSON: a dictionary must be a JSON object")
        }
        self.init(members)
    }

    /// A dictionary holding `data`. A value a document cannot hold is not
    /// stored: saving the document it is put in throws its error.
    public convenience init(data: [String: Any?]) {
        self.init([:])
        setData(data)
    }

    /// Replaces every member with `data` (see ``init(data:)``).
    @discardableResult
    public func setData(_ data: [String: Any?]) -> Self {
        let converted = data.map { ($0.key, Conversion.any($0.value)) }
        state.withLock { state in
            state = ContainerState(values: [:])
            for (key, value) in converted { state.store(value, forKey: key) }
        }
        return self
    }

    /// Stores `value` (the types of ``MutableDocument/setValue(_:forKey:)``); a value
    /// a document cannot hold is not stored, and the save of the document it is put in throws.
    @discardableResult
    public func setValue(_ value: Any?, forKey key: String) -> Self {
        store(.any(value), forKey: key)
        return self
    }

    func store(_ value: Conversion, forKey key: String) {
        state.withLock { $0.store(value, forKey: key) }
    }

    /// Removes the member `key`.
    @discardableResult
    public func removeValue(forKey key: String) -> Self {
        state.withLock { state in
            state.values[ByteString(key)] = nil
            state.unstorable.stored(key: key)
        }
        return self
    }
}

/// A JSON array inside a document (read-only).
///
/// Sendable as ``DictionaryObject`` is: constants, and the items behind a lock.
public class ArrayObject: ArrayProtocol, @unchecked Sendable {
    let state: Locked<ContainerState<[JSONValue]>>
    /// The database whose blobs the values refer to.
    let database: WeakDatabase

    init(_ items: [JSONValue], database: Database? = nil) {
        state = Locked(ContainerState(values: items))
        self.database = WeakDatabase(database)
    }

    /// The items, as they are now.
    var items: [JSONValue] { state.withLock { $0.values } }

    /// The number of values.
    public var count: Int { state.withLock { $0.values.count } }
    /// The value at `index` (see ``ArrayProtocol/value(at:)``), nil when out of range.
    public func value(at index: Int) -> Any? {
        state.withLock { $0.values.indices.contains(index) ? $0.values[index] : nil }?.anyValue(in: database.database)
    }
    /// The values as Swift arrays and dictionaries.
    public func toArray() -> [Any] { items.map(\.plainValue) }
    /// The array as JSON text.
    public func toJSON() -> String { JSONValue.array(items).json }
    /// A mutable copy.
    public func toMutable() -> MutableArrayObject {
        MutableArrayObject(state.withLock { $0 }, database: database.database)
    }
}

/// A JSON array that can be changed and then stored in a document. Each call
/// takes the array's lock. As Couchbase Lite's, its setters do not throw: a
/// value a document cannot hold, or an index out of range, changes nothing, and
/// saving the document the array is put in throws its error (Couchbase Lite
/// raises an exception for the index).
public final class MutableArrayObject: ArrayObject, MutableArrayProtocol, @unchecked Sendable {
    /// An empty array.
    public convenience init() { self.init([]) }

    fileprivate convenience init(_ copied: ContainerState<[JSONValue]>, database: Database?) {
        self.init(copied.values, database: database)
        state.withLock { $0 = copied }
    }

    /// An array from a JSON array's text; malformed JSON or another kind of value throws.
    public convenience init(json: String) throws {
        guard case .array(let items) = try JSONValue(json: json) else {
            throw DocLiteError(.jsonError, "malformed JSON: an array must be a JSON array")
        }
        self.init(items)
    }

    /// An array holding `data`. A value a document cannot hold is not added:
    /// saving the document it is put in throws its error.
    public convenience init(data: [Any?]) {
        self.init([])
        setData(data)
    }

    /// Replaces every value with `data` (see ``init(data:)``).
    @discardableResult
    public func setData(_ data: [Any?]) -> Self {
        let converted = data.map(Conversion.any)
        state.withLock { state in
            state = ContainerState(values: [])
            for value in converted { state.append(value) }
        }
        return self
    }

    /// Appends a value.
    @discardableResult
    public func addValue(_ value: Any?) -> Self {
        append(.any(value))
        return self
    }

    func append(_ value: Conversion) {
        state.withLock { $0.append(value) }
    }

    /// Replaces the value at `index`.
    @discardableResult
    public func setValue(_ value: Any?, at index: Int) -> Self {
        change(.any(value), at: index, upTo: -1) { items, newValue in items[index] = newValue }
    }

    /// Inserts a value at `index` (0...count).
    @discardableResult
    public func insertValue(_ value: Any?, at index: Int) -> Self {
        change(.any(value), at: index, upTo: 0) { items, newValue in items.insert(newValue, at: index) }
    }

    /// Removes the value at `index`.
    @discardableResult
    public func removeValue(at index: Int) -> Self {
        state.withLock { state in
            if state.values.indices.contains(index) {
                state.values.remove(at: index)
            } else {
                state.unstorable.keep(Self.outOfRange(index, last: state.values.count - 1), key: nil)
            }
        }
        return self
    }

    /// When `index` is within `0...count + offset`, applies `edit` to the
    /// converted value; otherwise keeps the error for the save.
    private func change(_ converted: Conversion, at index: Int, upTo offset: Int,
                        _ edit: (inout [JSONValue], JSONValue) -> Void) -> Self {
        state.withLock { state in
            let last = state.values.count + offset
            if index < 0 || index > last {
                state.unstorable.keep(Self.outOfRange(index, last: last), key: nil)
                return
            }
            switch converted {
            case .storable(let newValue):
                edit(&state.values, newValue.json)
                state.newBlobs += newValue.blobs
            case .unstorable(let error):
                state.unstorable.keep(error, key: nil)
            }
        }
        return self
    }

    private static func outOfRange(_ index: Int, last: Int) -> DocLiteError {
        DocLiteError(.invalidParameter, "array index \(index) out of range 0...\(last)")
    }
}
