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
        let collectionHandle = HandleBox(handle!)
        let ref = ListenerTokenRef(ownerHandle: handle!)
        ref.listen(try collection.addChangeListener { change in
            let ids = change.documentIDs.map { strdup($0) }
            defer { ids.forEach { free($0) } }
            ids.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
                var cChange = CBLCollectionChange(collection: collectionHandle.handle, numDocs: UInt32(buffer.count),
                                                  docIDs: buffer.baseAddress)
                callback.function(callback.context, &cChange)
            }
        })
        return HandleRegistry.shared.register(ref)
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
        let collectionHandle = HandleBox(handle!)
        let ref = ListenerTokenRef(ownerHandle: handle!)
        ref.listen(try collection.addDocumentChangeListener(id: id) { change in
            change.documentID.withCString { cID in
                var cChange = CBLDocumentChange(collection: collectionHandle.handle, docID: cID)
                callback.function(callback.context, &cChange)
            }
        })
        return HandleRegistry.shared.register(ref)
    }
}

@c @implementation
public func CBLQuery_AddChangeListener(_ handle: OpaquePointer?, _ listener: CBLQueryChangeListener?,
                                       _ context: UnsafeMutableRawPointer?,
                                       _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let query = try HandleRegistry.shared.object(handle, as: Query.self, "query")
        guard let listener else { throw DocLiteError(.invalidParameter, "listener is NULL") }
        let callback = CCallback(function: listener, context: context)
        let ref = ListenerTokenRef(ownerHandle: handle!)
        let queryHandle = HandleBox(handle!)
        let tokenHandle = HandleBox(HandleRegistry.shared.register(ref))
        ref.listen(query.addChangeListenerOnQueryThread { [weak ref] change in
            guard let ref else { return }   // removed while this run was announced
            ref.latest = change.results.map { .success($0.snapshot()) } ?? .failure(change.error!)
            callback.function(callback.context, queryHandle.handle, tokenHandle.handle)
        })
        return tokenHandle.handle
    }
}

@c @implementation
public func CBLQuery_CopyCurrentResults(_ handle: OpaquePointer?, _ token: OpaquePointer?,
                                        _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let query = try HandleRegistry.shared.object(handle, as: Query.self, "query")
        let ref = try HandleRegistry.shared.object(token, as: ListenerTokenRef.self, "listener token")
        guard ref.ownerHandle == handle else {
            throw DocLiteError(.notFound, "the listener token is not a listener of this query")
        }
        guard let latest = ref.latest else {
            throw DocLiteError(.notFound, "the query has announced no results to this listener yet")
        }
        return HandleRegistry.shared.register(ResultSetRef(query: query, results: try latest.get().resultSet()))
    }
}

@c @implementation
public func CBLListener_Remove(_ token: OpaquePointer?) {
    guard let ref = try? HandleRegistry.shared.object(token, as: ListenerTokenRef.self, "listener token") else { return }
    ref.remove()
    HandleRegistry.shared.release(UnsafeRawPointer(token))
}

/// A handle value captured by a listener closure.
private struct HandleBox: @unchecked Sendable {
    let handle: OpaquePointer
    init(_ handle: OpaquePointer) { self.handle = handle }
}
