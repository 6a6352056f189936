/// The errors of values a mutable document, dictionary or array could not
/// store: Couchbase Lite's setters do not throw, so the container keeps them and
/// saving the document throws the first, never a trap. By key: a key set again,
/// or removed, drops its error; an array's error stays until the array is replaced.
struct UnstorableErrors: Sendable {
    private var byKey: [String: DocLiteError] = [:]
    private var inArray: DocLiteError?

    /// Keeps `error` for the value set under `key` (nil: appended to an array).
    mutating func keep(_ error: Error, key: String?) {
        let error = error as? DocLiteError ?? DocLiteError(.invalidParameter, "\(error)")
        let place = key.map { "for key '\($0)'" } ?? "in an array"
        let kept = DocLiteError(domain: error.domain, code: error.code, message: "the value set \(place) cannot be stored: \(error.message)")
        if let key { byKey[key] = byKey[key] ?? kept } else { inArray = inArray ?? kept }
    }

    /// `key` now holds a stored value (or none).
    mutating func stored(key: String) {
        if !byKey.isEmpty { byKey[key] = nil }
    }

    /// The error a save throws: the array's, else the first key's; nil when every value was stored.
    var first: DocLiteError? { inArray ?? byKey.keys.sorted().first.flatMap { byKey[$0] } }
}

/// A value given to a setter, converted for storing: its JSON value, and the
/// new blobs inside it whose content the document's save must store.
struct StorableValue {
    let json: JSONValue
    let blobs: [Blob]

    /// Throws for a value a document cannot hold (the error the container keeps).
    init(_ value: Any?) throws {
        json = try JSONValue(any: value)
        blobs = Blob.blobs(in: value)   // (after the conversion, which refuses values nested too deep)
    }

    /// A value already converted by a typed setter.
    init(converted json: JSONValue, blobs: [Blob] = []) {
        self.json = json
        self.blobs = blobs
    }
}

/// DocLite's mutable documents and dictionaries, which the typed setters give
/// values already converted (a `String` stays a string: no `Any` to inspect).
protocol PropertyStore: AnyObject {
    /// Stores the value, or keeps its error for the save.
    func store(_ value: Swift.Result<StorableValue, Error>, forKey key: String)
}

/// DocLite's mutable arrays, as ``PropertyStore`` for the typed adders.
protocol ItemStore: AnyObject {
    /// Appends the value, or keeps its error for the save.
    func append(_ value: Swift.Result<StorableValue, Error>)
}

extension MutableDictionaryProtocol {
    /// A typed setter's value: converted here for DocLite's containers, else through `setValue`.
    func set(_ converted: @autoclosure () -> Swift.Result<StorableValue, Error>, _ value: Any?, forKey key: String) -> Self {
        guard let store = self as? PropertyStore else { return setValue(value, forKey: key) }
        store.store(converted(), forKey: key)
        return self
    }
}

extension MutableArrayProtocol {
    /// A typed adder's value: converted here for DocLite's arrays, else through `addValue`.
    func add(_ converted: @autoclosure () -> Swift.Result<StorableValue, Error>, _ value: Any?) -> Self {
        guard let store = self as? ItemStore else { return addValue(value) }
        store.append(converted())
        return self
    }
}

extension Swift.Result<StorableValue, Error> {
    /// A scalar a typed setter converted.
    static func scalar(_ json: JSONValue) -> Self { .success(StorableValue(converted: json)) }
    /// A string, or JSON null for nil.
    static func string(_ text: String?) -> Self { .scalar(text.map(JSONValue.string) ?? .null) }
    /// A double JSON can hold, or the error for NaN and infinities.
    static func double(_ number: Double) -> Self { Self { StorableValue(converted: try .finite(number)) } }
    /// A copy of an array (nil: JSON null).
    static func array(_ array: ArrayObject?) -> Self { container(array?.state, JSONValue.array) }
    /// A copy of a dictionary (nil: JSON null).
    static func dictionary(_ dictionary: DictionaryObject?) -> Self { container(dictionary?.state, JSONValue.dictionary) }

    private static func container<Values>(_ state: Locked<ContainerState<Values>>?, _ make: (Values) -> JSONValue) -> Self {
        guard let state else { return .scalar(.null) }
        return Self {
            let (json, blobs) = try JSONValue.of(state, make)
            return StorableValue(converted: json, blobs: blobs)
        }
    }

    /// Any other value, converted as `setValue` converts it.
    static func any(_ value: Any?) -> Self { Self { try StorableValue(value) } }
}
