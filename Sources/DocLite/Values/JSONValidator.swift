/// A ``JSONSink`` that writes nothing: checks that text is a JSON object the
/// body format can hold, notes a reserved top-level key, and reads the value
/// of the top-level ID field an import names (the field is then no property).
struct JSONValidator: JSONSink {
    private var depth = 0
    /// The first top-level key Couchbase Lite reserves (`_id`, `_rev`, `_deleted`), if any.
    private(set) var reservedKey: String?
    /// The top-level key whose value is the document's ID, if any.
    private let idField: [UInt8]?
    /// That key's value as text (a string as is, a number or boolean as JSON); nil when absent or null.
    private(set) var id: String?
    /// Whether that key's value was an array or an object (which is no ID).
    private(set) var idIsContainer = false
    private var readsID = false

    init(idField: String? = nil) {
        self.idField = idField.map { Array($0.utf8) }
    }

    mutating func writeNull() { readsID = false }
    mutating func writeBool(_ value: Bool) { takeID(value ? "true" : "false") }
    mutating func writeInt(_ value: Int64) { takeID(String(value)) }
    mutating func writeUnsigned(_ value: UInt64) { takeID(String(value)) }
    mutating func writeDouble(_ value: Double) { if readsID { takeID(JSONValue.double(value).json) } }
    mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>) { if readsID { takeID(String(decoding: utf8, as: UTF8.self)) } }
    mutating func beginDict() { beginContainer() }
    mutating func endDict() { depth -= 1 }
    mutating func beginArray() { beginContainer() }
    mutating func endArray() { depth -= 1 }

    mutating func writeKey(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard depth == 1 else { return }
        if let idField, utf8.elementsEqual(idField) { readsID = true; return }
        guard reservedKey == nil, utf8.first == UInt8(ascii: "_"), utf8.count <= 8 else { return }
        let key = String(decoding: utf8, as: UTF8.self)
        if Self.reservedKeys.contains(key) { reservedKey = key }
    }

    private mutating func takeID(_ text: @autoclosure () -> String) {
        guard readsID else { return }
        id = text()
        readsID = false
    }

    private mutating func beginContainer() {
        depth += 1
        if readsID { idIsContainer = true; readsID = false }
    }

    /// The top-level keys Couchbase Lite rejects in a document body.
    static let reservedKeys: Set<String> = ["_id", "_rev", "_deleted"]
}
