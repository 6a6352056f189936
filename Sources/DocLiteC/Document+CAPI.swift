import CDocLite
import DocLite

/// The document behind a handle.
func document(_ handle: OpaquePointer?) throws -> Document {
    try HandleRegistry.shared.object(handle, as: Document.self, "document")
}

/// The mutable document behind a handle; an immutable one is an error.
func mutableDocument(_ handle: OpaquePointer?) throws -> MutableDocument {
    guard let doc = try document(handle) as? MutableDocument else {
        throw DocLiteError(.invalidParameter, "document is immutable: change a copy from CBLDocument_MutableCopy")
    }
    return doc
}

@c @implementation
public func CBLDocument_Create() -> OpaquePointer? {
    HandleRegistry.shared.register(MutableDocument())
}

@c @implementation
public func CBLDocument_CreateWithID(_ docID: UnsafePointer<CChar>?, _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        HandleRegistry.shared.register(MutableDocument(id: try optionalString(docID, "document ID")))
    }
}

@c @implementation
public func CBLDocument_MutableCopy(_ doc: OpaquePointer?) -> OpaquePointer? {
    guard let original = try? document(doc) else { return nil }
    return HandleRegistry.shared.register(original.toMutable())
}

@c @implementation
public func CBLDocument_ID(_ doc: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let id = try? document(doc).id else { return nil }
    return HandleRegistry.shared.borrowedString(doc, slot: "id", id)
}

@c @implementation
public func CBLDocument_RevisionID(_ doc: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let revisionID = try? document(doc).revisionID else { return nil }
    return HandleRegistry.shared.borrowedString(doc, slot: "revisionID", revisionID)
}

@c @implementation
public func CBLDocument_Sequence(_ doc: OpaquePointer?) -> UInt64 {
    (try? document(doc).sequence) ?? 0
}

@c @implementation
public func CBLDocument_CreateJSON(_ doc: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let json = try? document(doc).toJSON() else { return nil }
    return ownedString(json)
}

@c @implementation
public func CBLDocument_SetJSON(_ doc: OpaquePointer?, _ json: UnsafePointer<CChar>?,
                                _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let mutable = try mutableDocument(doc)
        guard let json else { throw DocLiteError(.invalidParameter, "JSON text is NULL") }
        guard let text = String(validatingCString: json) else {
            throw DocLiteError(.jsonError, "malformed JSON: the text is not valid UTF-8")
        }
        try mutable.setJSON(text)
        return true
    }
}
