/// A value given to a setter, converted for storing: its JSON value, and the
/// new blobs inside it whose content the document's save must store.
struct StorableValue {
    let json: JSONValue
    let blobs: [Blob]

    /// Throws for a value a document cannot hold (the error the container keeps).
    init(_ value: Any?) throws {
        var blobs: [Blob] = []
        json = try JSONValue(any: value, blobs: &blobs)
        self.blobs = blobs
    }

    /// A value a typed setter converted.
    init(converted json: JSONValue, blobs: [Blob] = []) {
        self.json = json
        self.blobs = blobs
    }
}

/// A setter's value converted, or why a document cannot hold it (kept for the save).
enum Conversion {
    case storable(StorableValue)
    case unstorable(Error)

    /// A scalar a typed setter converted.
    static func scalar(_ json: JSONValue) -> Conversion { .storable(StorableValue(converted: json)) }
    /// A string, or JSON null for nil.
    static func string(_ text: String?) -> Conversion { .scalar(text.map(JSONValue.string) ?? .null) }

    /// A double JSON can hold; NaN and infinities cannot be stored.
    static func double(_ number: Double) -> Conversion {
        Conversion { StorableValue(converted: try .finite(number)) }
    }

    /// A copy of an array (nil: JSON null).
    static func array(_ array: ArrayObject?) -> Conversion { container(array?.state, JSONValue.array) }
    /// A copy of a dictionary (nil: JSON null).
    static func dictionary(_ dictionary: DictionaryObject?) -> Conversion { container(dictionary?.state, JSONValue.dictionary) }

    /// Any other value, converted as `setValue` converts it.
    static func any(_ value: Any?) -> Conversion { Conversion { try StorableValue(value) } }

    private static func container<Values>(_ state: Locked<ContainerState<Values>>?, _ make: (Values) -> JSONValue) -> Conversion {
        guard let state else { return .scalar(.null) }
        return Conversion {
            let (json, blobs) = try JSONValue.of(state, make)
            return StorableValue(converted: json, blobs: blobs)
        }
    }

    private init(_ convert: () throws -> StorableValue) {
        do { self = .storable(try convert()) } catch { self = .unstorable(error) }
    }
}

extension MutableDictionaryProtocol {
    /// A typed setter's value: converted here for DocLite's own containers (no
    /// `Any` to inspect), else given to `setValue`.
    func set(_ converted: @autoclosure () -> Conversion, _ value: Any?, forKey key: String) -> Self {
        switch self {
        case let document as MutableDocument: document.store(converted(), forKey: key)
        case let dictionary as MutableDictionaryObject: dictionary.store(converted(), forKey: key)
        default: return setValue(value, forKey: key)
        }
        return self
    }
}

extension MutableArrayProtocol {
    /// A typed adder's value: converted here for DocLite's arrays, else given to `addValue`.
    func add(_ converted: @autoclosure () -> Conversion, _ value: Any?) -> Self {
        guard let array = self as? MutableArrayObject else { return addValue(value) }
        array.append(converted())
        return self
    }
}
