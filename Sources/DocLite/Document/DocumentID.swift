/// A document model's type, as Couchbase Lite's: a class, saved with
/// ``Collection/save(from:)`` and read with ``Collection/document(id:as:)``.
public typealias DocumentEncodable = Encodable & AnyObject
/// A document model's type that can be read (see ``DocumentEncodable``).
public typealias DocumentDecodable = Decodable & AnyObject
/// A document model's type that can be saved and read (see ``DocumentEncodable``).
public typealias DocumentCodable = Codable & AnyObject

/// Marks the property of a document model that holds its document ID, as
/// Couchbase Lite's `@DocumentID`. The ID is never stored among the document's
/// properties. A model whose ID is nil is saved as a new document with an
/// automatic ID, which the property then holds; a model read with
/// ``Collection/document(id:as:)``, or saved, also knows its revision, so that
/// saving it again replaces that revision (`failOnConflict` then fails if
/// another write came first). Decoded from anything else (a query row with
/// `META().id` selected under the property's name), it reads the ID from its key.
///
/// Giving the property another ID makes the model another document, to be
/// saved as new (Couchbase Lite stops the program instead).
@propertyWrapper
public final class DocumentID: Codable {
    /// The document ID (nil: not saved yet).
    public var wrappedValue: String? {
        didSet { if wrappedValue != oldValue { revisionID = nil } }
    }

    /// The revision the model was read as or saved as.
    var revisionID: String?
    /// Set while the model is encoded into a document's properties, which leave the ID out.
    var isEncodingIntoDocument = false

    /// A model's ID; nil for a document not saved yet.
    public init(wrappedValue: String?) {
        self.wrappedValue = wrappedValue
    }

    /// The ID from a decoder's value (a string, or null).
    public convenience init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(String.self))
    }

    /// Writes the ID (a string, or null).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }

    /// Records a save or delete of the model as `document`.
    func update(from document: Document) {
        wrappedValue = document.id
        revisionID = document.revisionID
    }

    /// The `@DocumentID` property of `object` (its class's or a superclass's).
    static func of(_ object: AnyObject) -> DocumentID? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            if let found = current.children.lazy.compactMap({ $0.value as? DocumentID }).first { return found }
            mirror = current.superclassMirror
        }
        return nil
    }
}

extension KeyedDecodingContainer {
    /// A `@DocumentID` property: a document's properties never hold it, so its key may be absent.
    public func decode(_ type: DocumentID.Type, forKey key: Key) throws -> DocumentID {
        try decodeIfPresent(type, forKey: key) ?? DocumentID(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// A `@DocumentID` property: left out of a document's properties, written elsewhere.
    public mutating func encode(_ value: DocumentID, forKey key: Key) throws {
        guard !value.isEncodingIntoDocument else { return }
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}
