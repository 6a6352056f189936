import CDocLite
import DocLite
import Foundation

/// An endpoint handle (the Swift endpoint is a value).
final class EndpointRef {
    let endpoint: Endpoint

    init(_ endpoint: Endpoint) {
        self.endpoint = endpoint
    }
}

/// A replicator handle: the replicator and the one serial queue its C
/// listeners are called on, so that each sees the events in the order they
/// happened and a listener told of the stop knows the others were told too
/// (couchbase-lite-C calls them on one thread).
final class ReplicatorRef {
    let replicator: Replicator
    let listenerQueue = DispatchQueue(label: "DocLite replicator listeners")

    init(_ replicator: Replicator) {
        self.replicator = replicator
    }
}

private func replicatorRef(_ handle: OpaquePointer?) throws -> ReplicatorRef {
    try HandleRegistry.shared.object(handle, as: ReplicatorRef.self, "replicator")
}

private func replicator(_ handle: OpaquePointer?) throws -> Replicator {
    try replicatorRef(handle).replicator
}

/// The strings of a JSON array argument (nil for NULL).
private func stringArray(_ json: UnsafePointer<CChar>?, _ role: String) throws -> [String]? {
    guard let text = try optionalString(json, role) else { return nil }
    guard case .array(let elements) = try JSONValue(json: text) else {
        throw DocLiteError(.invalidParameter, "\(role) is not a JSON array")
    }
    return try elements.map { element in
        guard case .string(let value) = element else { throw DocLiteError(.invalidParameter, "\(role) holds a value that is not a string") }
        return value
    }
}

@c @implementation
public func CBLEndpoint_CreateWithPostgreSQL(_ connectionString: UnsafePointer<CChar>?, _ createsSchema: Bool,
                                             _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        HandleRegistry.shared.register(EndpointRef(try PostgreSQLEndpoint(connectionString: string(connectionString, "connection string"),
                                                                          createsSchema: createsSchema)))
    }
}

@c @implementation
public func CBLEndpoint_CreateWithLocalDB(_ handle: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        HandleRegistry.shared.register(EndpointRef(DatabaseEndpoint(database: try database(handle))))
    }
}

@c @implementation
public func CBLEndpoint_InitializeServer(_ endpoint: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        guard let server = try HandleRegistry.shared.object(endpoint, as: EndpointRef.self, "endpoint").endpoint as? PostgreSQLEndpoint else {
            throw DocLiteError(.invalidParameter, "the endpoint is not a PostgreSQL server")
        }
        try server.initializeServer()
        return true
    }
}

/// A C replication filter as Swift's: the document is a handle for the call.
private func replicationFilter(_ filter: CBLReplicationFilter?, _ context: UnsafeMutableRawPointer?) -> ReplicationFilter? {
    guard let filter else { return nil }
    let callback = CCallback(function: filter, context: context)
    return { document, flags in
        let handle = HandleRegistry.shared.register(document)
        defer { HandleRegistry.shared.release(UnsafeRawPointer(handle)) }
        return callback.function(callback.context, handle, CBLDocumentFlags(flags.rawValue))
    }
}

/// A C conflict resolver as Swift's: the two sides are handles for the call; a
/// document it made is taken (+1) and released.
private struct CConflictResolver: ConflictResolverProtocol {
    let callback: CCallback<CBLConflictResolver>

    func resolve(conflict: Conflict) -> Document? {
        let local = conflict.localDocument.map { HandleRegistry.shared.register($0) }
        let remote = conflict.remoteDocument.map { HandleRegistry.shared.register($0) }
        defer { [local, remote].compactMap { $0 }.forEach { HandleRegistry.shared.release(UnsafeRawPointer($0)) } }
        guard let result = conflict.documentID.withCString({ callback.function(callback.context, $0, local, remote) }) else { return nil }
        if result == local { return conflict.localDocument }
        if result == remote { return conflict.remoteDocument }
        defer { HandleRegistry.shared.release(UnsafeRawPointer(result)) }
        guard let made = try? HandleRegistry.shared.object(result, as: Document.self, "resolved document") else {
            Log.warning("the conflict resolver of document '\(conflict.documentID)' returned no document handle: the server's revision is kept")
            return conflict.remoteDocument
        }
        return made
    }
}

@c @implementation
public func CBLReplicator_Create(_ config: UnsafePointer<CBLReplicatorConfiguration>?,
                                 _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        guard let c = config?.pointee else { throw DocLiteError(.invalidParameter, "config is NULL") }
        let endpoint = try HandleRegistry.shared.object(c.endpoint, as: EndpointRef.self, "endpoint").endpoint
        guard c.collectionCount > 0, let collections = c.collections else {
            throw DocLiteError(.invalidParameter, "the replicator configuration has no collection")
        }
        var swift = ReplicatorConfiguration(target: endpoint)
        for entry in UnsafeBufferPointer(start: collections, count: c.collectionCount) {
            let collectionRef = try HandleRegistry.shared.object(entry.collection, as: CollectionRef.self, "collection")
            var collectionConfig = CollectionConfiguration()
            collectionConfig.channels = try stringArray(entry.channelsJSON, "channelsJSON")
            collectionConfig.documentIDs = try stringArray(entry.documentIDsJSON, "documentIDsJSON")
            collectionConfig.pushFilter = replicationFilter(entry.pushFilter, c.context)
            collectionConfig.pullFilter = replicationFilter(entry.pullFilter, c.context)
            collectionConfig.conflictResolver = entry.conflictResolver.map { CConflictResolver(callback: CCallback(function: $0, context: c.context)) }
            swift.addCollection(collectionRef.collection, config: collectionConfig)
        }
        guard let database = swift.collections.first?.database, swift.collections.allSatisfy({ $0.database === database }) else {
            throw DocLiteError(.invalidParameter, "the replicator's collections belong to different databases")
        }
        guard c.replicatorType <= UInt8(kCBLReplicatorTypePull), let type = ReplicatorType(rawValue: c.replicatorType) else {
            throw DocLiteError(.invalidParameter, "replicatorType \(c.replicatorType) is not a CBLReplicatorType")
        }
        swift.replicatorType = type
        swift.continuous = c.continuous
        if c.maxAttempts > 0 { swift.maxAttempts = UInt(c.maxAttempts) }
        if c.maxAttemptWaitTime > 0 { swift.maxAttemptWaitTime = TimeInterval(c.maxAttemptWaitTime) }
        if c.heartbeat > 0 { swift.heartbeat = TimeInterval(c.heartbeat) }
        swift.enableAutoPurge = !c.disableAutoPurge
        return HandleRegistry.shared.register(ReplicatorRef(Replicator(config: swift)))
    }
}

@c @implementation
public func CBLReplicator_Start(_ handle: OpaquePointer?, _ resetCheckpoint: Bool) {
    (try? replicator(handle))?.start(reset: resetCheckpoint)
}

@c @implementation
public func CBLReplicator_Stop(_ handle: OpaquePointer?) {
    (try? replicator(handle))?.stop()
}

/// The C form of a status.
private func cStatus(_ status: Replicator.Status) -> CBLReplicatorStatus {
    let progress = status.progress
    let complete: Float = progress.total == 0 ? (status.activity == .stopped || status.activity == .idle ? 1 : 0)
        : Float(progress.completed) / Float(progress.total)
    return CBLReplicatorStatus(activity: status.activity.rawValue,
                               progress: CBLReplicatorProgress(complete: min(complete, 1), documentCount: progress.completed),
                               error: status.error.map(cblError) ?? CBLError())
}

@c @implementation
public func CBLReplicator_Status(_ handle: OpaquePointer?) -> CBLReplicatorStatus {
    guard let replicator = try? replicator(handle) else { return CBLReplicatorStatus() }
    return cStatus(replicator.status)
}

@c @implementation
public func CBLReplicator_PendingDocumentIDs2(_ handle: OpaquePointer?, _ collection: OpaquePointer?,
                                              _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    bridge(outError, failure: nil) {
        let collectionRef = try HandleRegistry.shared.object(collection, as: CollectionRef.self, "collection")
        return namesJSON(try replicator(handle).pendingDocumentIds(collection: collectionRef.collection).sorted())
    }
}

@c @implementation
public func CBLReplicator_IsDocumentPending2(_ handle: OpaquePointer?, _ docID: UnsafePointer<CChar>?, _ collection: OpaquePointer?,
                                             _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let collectionRef = try HandleRegistry.shared.object(collection, as: CollectionRef.self, "collection")
        return try replicator(handle).isDocumentPending(string(docID, "document ID"), collection: collectionRef.collection)
    }
}

/// Makes one C call of a replicator listener: the body gets the callback and the replicator's handle.
private typealias ReplicatorCall<Function> = @Sendable (_ body: (CCallback<Function>, OpaquePointer) -> Void) -> Void

/// Registers a C listener of the replicator behind `handle`: `register` adds the Swift
/// listener, on the handle's listener queue, making its C calls through the call it is
/// given. Returns the token (+1).
private func addReplicatorListener<Function>(_ handle: OpaquePointer?, _ listener: Function?, _ context: UnsafeMutableRawPointer?,
                                             _ register: (Replicator, DispatchQueue, @escaping ReplicatorCall<Function>) -> ListenerToken)
    throws -> OpaquePointer {
    guard let listener else { throw DocLiteError(.invalidParameter, "listener is NULL") }
    let replicator = try replicatorRef(handle)
    let callback = CCallback(function: listener, context: context), owner = HandleBox(handle!)
    let ref = ListenerTokenRef(ownerHandle: handle!)
    ref.listen(register(replicator.replicator, replicator.listenerQueue) { [weak ref] body in
        ref?.call { body(callback, owner.handle) }
    })
    return HandleRegistry.shared.register(ref)
}

@c @implementation
public func CBLReplicator_AddChangeListener(_ handle: OpaquePointer?, _ listener: CBLReplicatorChangeListener?,
                                            _ context: UnsafeMutableRawPointer?,
                                            _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        try addReplicatorListener(handle, listener, context) { replicator, queue, call in
            replicator.addChangeListener(serialQueue: queue) { change in
                call { callback, owner in
                    var status = cStatus(change.status)
                    callback.function(callback.context, owner, &status)
                }
            }
        }
    }
}

@c @implementation
public func CBLReplicator_AddDocumentReplicationListener(_ handle: OpaquePointer?, _ listener: CBLDocumentReplicationListener?,
                                                         _ context: UnsafeMutableRawPointer?,
                                                         _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        try addReplicatorListener(handle, listener, context) { replicator, queue, call in
            replicator.addDocumentReplicationListener(serialQueue: queue) { replication in
                call { callback, owner in
                    let strings = replication.documents.map { [strdup($0.id), strdup($0.scope), strdup($0.collection)] }
                    defer { strings.joined().forEach { free($0) } }
                    let documents = zip(replication.documents, strings).map { document, text in
                        CBLReplicatedDocument(ID: text[0], flags: CBLDocumentFlags(document.flags.rawValue),
                                              error: document.error.map(cblError) ?? CBLError(), scope: text[1], collection: text[2])
                    }
                    documents.withUnsafeBufferPointer { buffer in
                        callback.function(callback.context, owner, replication.isPush, UInt32(buffer.count), buffer.baseAddress)
                    }
                }
            }
        }
    }
}
