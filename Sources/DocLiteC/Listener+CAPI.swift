import CDocLite
import DocLite
#if canImport(Glibc)
import Glibc
#endif

/// A C callback and its context, called from whichever thread commits.
private struct CCallback<Function>: @unchecked Sendable {
    let function: Function
    let context: UnsafeMutableRawPointer?
}

@c @implementation
public func CBLCollection_AddChangeListener(_ handle: OpaquePointer?, _ listener: CBLCollectionChangeListener?,
                                            _ context: UnsafeMutableRawPointer?,
                                            _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let collection = try collection(handle)
        guard let listener else { throw DocLiteError(.invalidParameter, "listener is NULL") }
        let callback = CCallback(function: listener, context: context)
        let collectionHandle = CollectionHandleBox(handle!)
        let token = try collection.addChangeListener { change in
            let ids = change.documentIDs.map { strdup($0) }
            defer { ids.forEach { free($0) } }
            ids.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
                var cChange = CBLCollectionChange(collection: collectionHandle.handle, numDocs: UInt32(buffer.count),
                                                  docIDs: buffer.baseAddress)
                callback.function(callback.context, &cChange)
            }
        }
        return HandleRegistry.shared.register(ListenerTokenRef(token: token, collectionHandle: handle!))
    }
}

@c @implementation
public func CBLCollection_AddDocumentChangeListener(_ handle: OpaquePointer?, _ docID: UnsafePointer<CChar>?,
                                                    _ listener: CBLDocumentChangeListener?,
                                                    _ context: UnsafeMutableRawPointer?,
                                                    _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let collection = try collection(handle)
        let id = try string(docID, "document ID")
        guard let listener else { throw DocLiteError(.invalidParameter, "listener is NULL") }
        let callback = CCallback(function: listener, context: context)
        let collectionHandle = CollectionHandleBox(handle!)
        let token = try collection.addDocumentChangeListener(id: id) { change in
            change.documentID.withCString { cID in
                var cChange = CBLDocumentChange(collection: collectionHandle.handle, docID: cID)
                callback.function(callback.context, &cChange)
            }
        }
        return HandleRegistry.shared.register(ListenerTokenRef(token: token, collectionHandle: handle!))
    }
}

@c @implementation
public func CBLListener_Remove(_ token: OpaquePointer?) {
    guard let ref = try? HandleRegistry.shared.object(token, as: ListenerTokenRef.self, "listener token") else { return }
    ref.token.remove()
    HandleRegistry.shared.release(UnsafeRawPointer(token))
}

/// A handle value captured by a listener closure.
private struct CollectionHandleBox: @unchecked Sendable {
    let handle: OpaquePointer
    init(_ handle: OpaquePointer) { self.handle = handle }
}
