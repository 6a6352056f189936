/// JSON text already checked by ``JSONValidator``: saving encodes it straight
/// into the database's body format, with the database's shared keys.
struct ValidatedJSON {
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
enum DocumentContent {
    case encoded(body: [UInt8], keys: SharedKeys)
    case json(ValidatedJSON)
    case tree([ByteString: JSONValue])

    static let empty = DocumentContent.tree([:])

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

/// A saved document as read from a collection: its ID, revision, sequence and
/// properties (read-only). Call ``toMutable()`` to change it.
public class Document: DictionaryProtocol, @unchecked Sendable {
    /// The document ID, unique within its collection.
    public let id: String
    /// The current revision (`<generation>-<digest>`), nil before the first save.
    public internal(set) var revisionID: String?
    /// The collection sequence of the current revision, 0 before the first save.
    public internal(set) var sequence: UInt64
    /// The collection the document was read from or saved to.
    public internal(set) weak var collection: Collection?
    var content: DocumentContent
    /// Blobs set in the document whose content its save must store.
    var newBlobs: [Blob] = []

    init(id: String, revisionID: String?, sequence: UInt64, collection: Collection?, content: DocumentContent) {
        self.id = id
        self.revisionID = revisionID
        self.sequence = sequence
        self.collection = collection
        self.content = content
    }

    public var count: Int { readableContent.members.count }
    public var keys: [String] { readableContent.members.keys.sorted().map(\.string) }
    public func value(forKey key: String) -> Any? { readableContent.property(key)?.anyValue(in: collection?.database) }
    public func toDictionary() -> [String: Any] { readableContent.members.mapValues(\.plainValue).stringKeyed }

    /// The content for reading: JSON set with `setJSON` is parsed once, not per read.
    private var readableContent: DocumentContent {
        if case .json(let json) = content { content = .tree(json.members) }
        return content
    }
    public func toJSON() -> String { content.json }

    /// A mutable copy with the same ID and revision, to change and save.
    public func toMutable() -> MutableDocument {
        let copy = MutableDocument(id: id, revisionID: revisionID, sequence: sequence, collection: collection, content: content)
        copy.newBlobs = newBlobs
        if let kept = (self as? UnstorableValues)?.unstorable { copy.unstorable = kept }
        return copy
    }
}

/// A document that can be changed and saved. A new one gets a random ID unless given one.
public final class MutableDocument: Document, MutableDictionaryProtocol, UnstorableValues, @unchecked Sendable {
    var unstorable = UnstorableErrors()

    /// A new, empty document with an automatic ID (`~` and 22 random characters).
    public convenience init() {
        self.init(id: nil)
    }

    /// A new, empty document; nil asks for an automatic ID. The ID is validated on save.
    public init(id: String?) {
        super.init(id: id ?? DocumentID.generate(), revisionID: nil, sequence: 0, collection: nil, content: .empty)
    }

    /// A new document with properties; throws for a value type JSON cannot hold.
    public convenience init(id: String? = nil, data: [String: Any?]) throws {
        self.init(id: id)
        try setData(data)
    }

    /// A new document with parsed properties (keys as bytes: none merged).
    package convenience init(id: String?, properties: [ByteString: JSONValue]) {
        self.init(id: id)
        content = .tree(properties)
    }

    /// A new document from one imported JSON object: its ID is the value of the
    /// top-level member `idField` (a string, or a scalar's JSON text; generated
    /// when absent or null), which is left out of the properties. Saving encodes
    /// the text straight into the body, as for ``init(id:json:)``.
    package convenience init(json: String, idField: String) throws {
        let validated = try ValidatedJSON(json, omitting: idField)
        self.init(id: validated.omittedValue)
        content = .json(validated)
    }

    /// A new document whose properties are the JSON object `json`.
    public convenience init(id: String? = nil, json: String) throws {
        self.init(id: id)
        try setJSON(json)
    }

    override init(id: String, revisionID: String?, sequence: UInt64, collection: Collection?, content: DocumentContent) {
        super.init(id: id, revisionID: revisionID, sequence: sequence, collection: collection, content: content)
    }

    @discardableResult
    public func setValue(_ value: Any?, forKey key: String) throws -> Self {
        let newValue = try JSONValue(any: value)
        var members = content.members
        members[ByteString(key)] = newValue
        content = .tree(members)
        unstorable.stored(key: key)
        newBlobs += Blob.blobs(in: value)
        return self
    }

    @discardableResult
    public func removeValue(forKey key: String) -> Self {
        var members = content.members
        members[ByteString(key)] = nil
        content = .tree(members)
        unstorable.stored(key: key)
        return self
    }

    /// Replaces every property; throws for a value type JSON cannot hold.
    public func setData(_ data: [String: Any?]) throws {
        content = .tree(Dictionary(stringKeys: try data.mapValues { try JSONValue(any: $0) }))
        unstorable = UnstorableErrors()
        newBlobs = Blob.blobs(in: data)
    }

    /// Replaces every property with the JSON object `json`. Throws, changing
    /// nothing, for malformed JSON, invalid UTF-8 or a body that is not an object.
    public func setJSON(_ json: String) throws {
        content = .json(try ValidatedJSON(json))
        unstorable = UnstorableErrors()
    }
}
