
/// JSON text already checked by ``JSONValidator``: saving encodes it straight
/// into the database's body format, with the database's shared keys.
struct ValidatedJSON: Sendable {
    /// The text, made contiguous UTF-8 once.
    private let text: String
    let reservedKey: String?
    /// A top-level member that is not a property (an import's ID field).
    private let omitted: String?
    /// The omitted member's value as text (nil when absent or null).
    let omittedValue: String?

    /// Checks `json`; throws for malformed JSON, invalid UTF-8 or a non-object.
    /// `omitting`: a top-level key whose value is read (a string or scalar)
    /// and left out of the properties.
    init(_ json: String, omitting: String? = nil) throws {
        var text = json
        var validator = JSONValidator(idField: omitting)
        try text.withUTF8 { try JSONParser.encodeObject($0, into: &validator) }
        if validator.idIsContainer, let omitting {
            throw DocLiteError(.badDocID, "the ID field '\(omitting)' holds an array or an object")
        }
        self.text = text
        reservedKey = validator.reservedKey
        omitted = omitting
        omittedValue = validator.id
    }

    /// Encodes the text with `encoder` (which cannot fail: it was validated).
    func encode(into encoder: inout BodyEncoder) throws {
        var text = text
        guard let omitted else {
            try text.withUTF8 { try JSONParser.encodeObject($0, into: &encoder) }
            return
        }
        var sink = OmittingSink(encoder, omitting: omitted)
        try text.withUTF8 { try JSONParser.encodeObject($0, into: &sink) }
        encoder = sink.base
    }

    /// The text as a tree.
    var members: [ByteString: JSONValue] {
        guard case .dictionary(var members)? = try? JSONValue(json: text) else { return [:] }
        if let omitted { members[ByteString(omitted)] = nil }
        return members
    }
}

/// A document's properties: the stored body, read lazily one property at a
/// time; JSON text set on a ``MutableDocument``, encoded when saved; or a Swift
/// tree once a ``MutableDocument`` has been changed property by property.
enum DocumentContent: Sendable {
    case encoded(body: [UInt8], keys: SharedKeys)
    case json(ValidatedJSON)
    case tree([ByteString: JSONValue])

    static let empty = DocumentContent.tree([:])

    /// Sets (or with nil removes) the property `key`, in place once the content is a tree.
    mutating func set(_ value: JSONValue?, forKey key: String) {
        var members: [ByteString: JSONValue]
        if case .tree(let tree) = self {
            members = tree
            self = .empty   // (drops the enum's reference, so the members are changed in place)
        } else {
            members = self.members
        }
        if members.isEmpty { members.reserveCapacity(8) }   // (a new document's first keys: no rehash each time it doubles)
        members[ByteString(key)] = value
        self = .tree(members)
    }

    /// The property `key`, decoding only that property of an encoded body.
    func property(_ key: String) -> JSONValue? {
        switch self {
        case .tree(let members):
            return members[ByteString(key)]
        case .json(let json):
            return json.members[ByteString(key)]
        case .encoded(let body, let keys):
            return keys.lock.withLock {
                // The name is needed only to find a key that has no shared ID.
                let id = keys.id(of: key)
                let step = KeyPath.Step(index: nil, name: id == nil ? Array(key.utf8) : [], keyID: id ?? -1)
                return body.withUnsafeBytes { raw in
                    let reader = Body(raw)
                    return withUnsafePointer(to: step) { reader.member($0, ofDictAt: 0) }.map { JSONValue(reader, at: $0, keys: keys) }
                }
            }
        }
    }

    /// Every property as a tree.
    var members: [ByteString: JSONValue] {
        switch self {
        case .tree(let members):
            return members
        case .json(let json):
            return json.members
        case .encoded(let body, let keys):
            return keys.lock.withLock {
                body.withUnsafeBytes { raw in
                    guard case .dictionary(let members) = JSONValue(Body(raw), at: 0, keys: keys) else { return [:] }
                    return members
                }
            }
        }
    }

    /// The JSON text of the properties (an encoded body is written without building a tree).
    var json: String {
        switch self {
        case .tree(let members):
            return JSONValue.dictionary(members).json
        case .json(let json):
            return JSONValue.dictionary(json.members).json
        case .encoded(let body, let keys):
            var out: [UInt8] = []
            out.reserveCapacity(body.count * 2)
            keys.lock.withLock {
                body.withUnsafeBytes { JSONWriter.append(Body($0), at: 0, keys: keys, to: &out) }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The body encoded with `encoder`'s shared keys (re-encoded when it was
    /// written with other keys). The caller holds the
    /// database lock and the keys' lock.
    func encoded(with encoder: inout BodyEncoder) throws -> [UInt8] {
        encoder.reset()
        switch self {
        case .encoded(let body, let bodyKeys):
            if bodyKeys === encoder.sharedKeys { return body }
            body.withUnsafeBytes { encoder.writeValue(from: Body($0), at: 0, keys: bodyKeys) }
        case .json(let json):
            try json.encode(into: &encoder)
        case .tree(let members):
            JSONValue.dictionary(members).encode(into: &encoder)
        }
        return encoder.output
    }

    /// The first reserved top-level key (`_id`, `_rev`, `_deleted`) present, if any.
    var reservedKey: String? {
        if case .json(let json) = self { return json.reservedKey }
        return JSONValidator.reservedKeys.sorted().first { property($0) != nil }
    }
}

/// What can change in a document (its revision after a save, its properties
/// when mutable), read and written under the document's lock.
struct DocumentState {
    var revisionID: String?
    var sequence: UInt64
    var collection: Collection?
    var content: DocumentContent
    /// Blobs set in the document whose content its save must store.
    var newBlobs: [Blob] = []
    var unstorable = UnstorableErrors()
    /// Counts changes to the properties: a save replaces them with the stored
    /// body only if none was made while it wrote.
    var generation = 0

    /// The content for reading: JSON set with `setJSON` is parsed once, not per read.
    mutating func readableContent() -> DocumentContent {
        if case .json(let json) = content { content = .tree(json.members) }
        return content
    }
}

/// A saved document as read from a collection: its ID, revision, sequence and
/// properties (read-only). Call ``toMutable()`` to change it.
///
/// Sendable: every stored property is a constant, and what changes is in
/// `state`, behind its lock (checked by hand only because the class is open
/// to ``MutableDocument``).
public class Document: DictionaryProtocol, @unchecked Sendable {
    /// The document ID, unique within its collection.
    public let id: String
    let state: Locked<DocumentState>

    init(id: String, revisionID: String?, sequence: UInt64, collection: Collection?, content: DocumentContent) {
        self.id = id
        state = Locked(DocumentState(revisionID: revisionID, sequence: sequence, collection: collection, content: content))
    }

    /// The current revision (`<generation>-<digest>`), nil before the first save.
    public var revisionID: String? { state.withLock { $0.revisionID } }
    /// The collection sequence of the current revision, 0 before the first save.
    public var sequence: UInt64 { state.withLock { $0.sequence } }
    /// The collection the document was read from or saved to (kept, and with
    /// it its database, as Couchbase Lite's document keeps them).
    public var collection: Collection? { state.withLock { $0.collection } }

    /// The number of properties.
    public var count: Int { members.count }
    /// The property names, sorted.
    public var keys: [String] { members.keys.sorted().map(\.string) }
    /// The property `key` (see ``DictionaryProtocol/value(forKey:)``), nil when absent.
    public func value(forKey key: String) -> Any? {
        let (property, collection) = state.withLock { ($0.readableContent().property(key), $0.collection) }
        return property?.anyValue(in: collection?.database)
    }
    /// The properties as Swift dictionaries and arrays.
    public func toDictionary() -> [String: Any] { members.mapValues(\.plainValue).stringKeyed }
    /// The properties as JSON text.
    public func toJSON() -> String { state.withLock { $0.content }.json }

    /// Every property, as a tree.
    var members: [ByteString: JSONValue] { state.withLock { $0.readableContent() }.members }

    /// A mutable copy with the same ID and revision, to change and save.
    public func toMutable() -> MutableDocument {
        let copy = state.withLock { $0 }
        return MutableDocument(id: id, state: copy)
    }
}

/// A document that can be changed and saved. A new one gets a random ID unless given one.
///
/// Its setters and readers take the document's lock, so one document shared by
/// several tasks loses no change and never crashes; each call is atomic, a
/// sequence of calls is not.
public final class MutableDocument: Document, MutableDictionaryProtocol, @unchecked Sendable {
    /// A new, empty document with an automatic ID (`~` and 22 random characters).
    public convenience init() {
        self.init(id: nil)
    }

    /// A new, empty document; nil asks for an automatic ID. The ID is validated on save.
    public init(id: String?) {
        super.init(id: id ?? DocumentIDs.generate(), revisionID: nil, sequence: 0, collection: nil, content: .empty)
    }

    /// A new document with properties. A value a document cannot hold is not
    /// stored: saving the document throws its error.
    public convenience init(id: String? = nil, data: [String: Any?]) {
        self.init(id: id)
        setData(data)
    }

    /// A new document from one imported JSON object (what `doclite import`
    /// saves each line as): its ID is the value of the top-level member
    /// `idField` (a string, or a scalar's JSON text; generated when absent or
    /// null), which is left out of the properties. Saving encodes the text
    /// straight into the body, as for ``init(id:json:)``. Throws for malformed
    /// JSON, a body that is not an object, or an ID member that is an array or an object.
    public convenience init(json: String, idField: String) throws {
        let validated = try ValidatedJSON(json, omitting: idField)
        self.init(id: validated.omittedValue)
        state.withLock { $0.content = .json(validated) }
    }

    /// A new document whose properties are the JSON object `json`.
    public convenience init(id: String? = nil, json: String) throws {
        self.init(id: id)
        try setJSON(json)
    }

    /// A copy of another document's state.
    fileprivate init(id: String, state copied: DocumentState) {
        super.init(id: id, revisionID: copied.revisionID, sequence: copied.sequence, collection: copied.collection,
                   content: copied.content)
        state.withLock {
            $0.newBlobs = copied.newBlobs
            $0.unstorable = copied.unstorable
        }
    }

    /// Stores `value` (String, a number, Bool, Date, Blob, an array, a
    /// dictionary, ArrayObject, DictionaryObject or nil for JSON null). A value
    /// a document cannot hold is not stored, and saving the document throws its error.
    @discardableResult
    public func setValue(_ value: Any?, forKey key: String) -> Self {
        store(.any(value), forKey: key)
        return self
    }

    /// Removes the property `key`.
    @discardableResult
    public func removeValue(forKey key: String) -> Self {
        state.withLock { state in
            state.content.set(nil, forKey: key)
            state.unstorable.stored(key: key)
            state.generation += 1
        }
        return self
    }

    func store(_ value: Conversion, forKey key: String) {
        state.withLock { state in
            switch value {
            case .storable(let newValue):
                state.content.set(newValue.json, forKey: key)
                state.unstorable.stored(key: key)
                state.newBlobs += newValue.blobs
                state.generation += 1
            case .unstorable(let error):
                state.unstorable.keep(error, key: key)
            }
        }
    }

    /// Replaces every property. A value a document cannot hold is not stored:
    /// saving the document throws its error.
    @discardableResult
    public func setData(_ data: [String: Any?]) -> Self {
        var members: [ByteString: JSONValue] = [:]
        var unstorable = UnstorableErrors()
        var blobs: [Blob] = []
        for (key, value) in data {
            do {
                let storable = try StorableValue(value)
                members[ByteString(key)] = storable.json
                blobs += storable.blobs
            } catch {
                unstorable.keep(error, key: key)
            }
        }
        state.withLock { state in
            state.content = .tree(members)
            state.unstorable = unstorable
            state.newBlobs = blobs
            state.generation += 1
        }
        return self
    }

    /// Replaces every property with the JSON object `json`. Throws, changing
    /// nothing, for malformed JSON, invalid UTF-8 or a body that is not an object.
    @discardableResult
    public func setJSON(_ json: String) throws -> Self {
        let validated = try ValidatedJSON(json)
        state.withLock { state in
            state.content = .json(validated)
            state.unstorable = UnstorableErrors()
            state.generation += 1
        }
        return self
    }
}
