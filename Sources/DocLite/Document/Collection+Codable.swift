/// Document models (classes with a ``DocumentID`` property), as Couchbase
/// Lite's Codable API: read, saved, deleted and purged as documents.
extension Collection {
    /// The document `id` as a model of `type`, nil when there is none (or it is
    /// deleted). Throws `decodingError` when its properties do not decode as `type`.
    public func document<T: DocumentDecodable>(id: String, as type: T.Type) throws -> T? {
        try document(id: id).map { try DocumentCoding.decode(type, from: $0) }
    }

    /// Saves `object` as its document (a new one when its ``DocumentID`` is nil;
    /// the property then holds the new ID); the last write wins.
    public func save<T: DocumentEncodable>(from object: T) throws {
        _ = try save(from: object, concurrencyControl: .lastWriteWins)
    }

    /// Saves `object` as its document; with `.failOnConflict`, returns false,
    /// saving nothing, when the document changed since the model was read or saved.
    public func save<T: DocumentEncodable>(from object: T, concurrencyControl: ConcurrencyControl) throws -> Bool {
        let (document, reference) = try mutableDocument(for: object)
        guard try save(document: document, concurrencyControl: concurrencyControl) else { return false }
        reference.update(from: document)
        return true
    }

    /// Saves `object`, resolving a conflict with `conflictHandler` (see
    /// ``save(document:conflictHandler:)``): it gets `object` and the stored
    /// document as a model (nil when deleted), may change `object`, and says
    /// whether to save it. A stored document that does not decode as `T` gives up.
    public func save<T: DocumentCodable>(from object: T, conflictHandler: (T, T?) -> Bool) throws -> Bool {
        let (document, reference) = try mutableDocument(for: object)
        let saved = try save(document: document) { document, stored in
            guard let existing = try? stored.map({ try DocumentCoding.decode(T.self, from: $0) }),
                  conflictHandler(object, existing) else { return false }
            return (try? DocumentCoding.encode(object, into: document)) != nil   // with the handler's changes
        }
        if saved { reference.update(from: document) }
        return saved
    }

    /// Deletes `object`'s document; the last write wins.
    public func delete<T: DocumentEncodable>(for object: T) throws {
        _ = try delete(for: object, concurrencyControl: .lastWriteWins)
    }

    /// Deletes `object`'s document (its revision the model's, or the stored one);
    /// returns false on a conflict with `.failOnConflict`. The model then holds
    /// the deleted revision: saving it again makes the document anew.
    public func delete<T: DocumentEncodable>(for object: T, concurrencyControl: ConcurrencyControl) throws -> Bool {
        let reference = try DocumentCoding.reference(in: object)
        let document = try storedDocument(for: reference)
        guard try delete(document: document, concurrencyControl: concurrencyControl) else { return false }
        reference.update(from: document)
        return true
    }

    /// Purges `object`'s document (no tombstone).
    public func purge<T: DocumentEncodable>(for object: T) throws {
        try purge(id: try storedDocument(for: DocumentCoding.reference(in: object)).id)
    }

    /// A document holding `object`'s properties, based on the revision the model knows, else the stored one.
    private func mutableDocument<T: DocumentEncodable>(for object: T) throws -> (MutableDocument, DocumentID) {
        let reference = try DocumentCoding.reference(in: object)
        let document = MutableDocument(id: reference.wrappedValue)
        try DocumentCoding.encode(object, into: document)
        let base = try reference.revisionID ?? reference.wrappedValue.flatMap(liveRevisionID)
        document.state.withLock { $0.revisionID = base }
        return (document, reference)
    }

    /// The document a model refers to, as a revision to delete (the model's, else the stored one);
    /// throws `notFound` when there is none.
    private func storedDocument(for reference: DocumentID) throws -> MutableDocument {
        guard let id = reference.wrappedValue else {
            throw DocLiteError(.notFound, "the model has no document ID: it was never saved")
        }
        guard let revisionID = try reference.revisionID ?? liveRevisionID(of: id) else {
            throw DocLiteError(.notFound, "document \(DocLiteError.quoted(id)) not found in collection \(DocLiteError.quoted(fullName))")
        }
        let document = MutableDocument(id: id)
        document.state.withLock { $0.revisionID = revisionID }
        return document
    }
}
