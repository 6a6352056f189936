import CDocLite
import Foundation
import DocLite
#if canImport(Glibc)
import Glibc
#endif

/// A C callback and its context, called from whichever thread commits.
struct CCallback<Function>: @unchecked Sendable {   // a C function and its context: couchbase-lite-C's contract lets any thread call them
    let function: Function
    let context: UnsafeMutableRawPointer?
}

/// Makes a C listener call now, or queues it while the database buffers notifications;
/// a call whose token was removed meanwhile is dropped (its context may be gone).
typealias Delivery = @Sendable (@escaping () -> Void) -> Void

/// Registers a C listener of the collection behind `handle`: `register` adds the Swift
/// listener, making its C calls through the delivery it is given. Returns the token (+1).
private func addCollectionListener(_ handle: OpaquePointer?,
                                   _ register: (DocLite.Collection, @escaping Delivery) throws -> ListenerToken) throws -> OpaquePointer {
    let collectionRef = try HandleRegistry.shared.object(handle, as: CollectionRef.self, "collection")
    let ref = ListenerTokenRef(ownerHandle: handle!)
    weak let database = collectionRef.database
    ref.listen(try register(collectionRef.collection) { [weak ref] call in
        guard let database else { return }
        NotificationBuffers.shared.deliver(for: database) { [weak ref] in
            ref?.call(call)
        }
    })
    return HandleRegistry.shared.register(ref)
}

@c @implementation
public func CBLCollection_AddChangeListener(_ handle: OpaquePointer?, _ listener: CBLCollectionChangeListener?,
                                            _ context: UnsafeMutableRawPointer?,
                                            _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        try addCollectionListener(handle) { collection, deliver in
            guard let listener else { throw DocLiteError(.invalidParameter, "listener is NULL") }
            let callback = CCallback(function: listener, context: context)
            let collectionHandle = HandleBox(handle!)
            _ = try collection.openDatabase()   // (an error for C, where Swift's listener only warns)
            return collection.addChangeListener { change in
                deliver {
                    let ids = change.documentIDs.map { strdup($0) }
                    defer { ids.forEach { free($0) } }
                    ids.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
                        var cChange = CBLCollectionChange(collection: collectionHandle.handle, numDocs: UInt32(buffer.count),
                                                          docIDs: buffer.baseAddress)
                        callback.function(callback.context, &cChange)
                    }
                }
            }
        }
    }
}

@c @implementation
public func CBLCollection_AddDocumentChangeListener(_ handle: OpaquePointer?, _ docID: UnsafePointer<CChar>?,
                                                    _ listener: CBLDocumentChangeListener?,
                                                    _ context: UnsafeMutableRawPointer?,
                                                    _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        try addCollectionListener(handle) { collection, deliver in
            let id = try string(docID, "document ID")
            guard let listener else { throw DocLiteError(.invalidParameter, "listener is NULL") }
            let callback = CCallback(function: listener, context: context)
            let collectionHandle = HandleBox(handle!)
            _ = try collection.openDatabase()
            return collection.addDocumentChangeListener(id: id) { change in
                deliver {
                    change.documentID.withCString { cID in
                        var cChange = CBLDocumentChange(collection: collectionHandle.handle, docID: cID)
                        callback.function(callback.context, &cChange)
                    }
                }
            }
        }
    }
}

@c @implementation
public func CBLQuery_AddChangeListener(_ handle: OpaquePointer?, _ listener: CBLQueryChangeListener?,
                                       _ context: UnsafeMutableRawPointer?,
                                       _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let query = try query(handle)
        guard let listener else { throw DocLiteError(.invalidParameter, "listener is NULL") }
        try query.checkCollections()
        let callback = CCallback(function: listener, context: context)
        let ref = ListenerTokenRef(ownerHandle: handle!)
        let queryHandle = HandleBox(handle!)
        let tokenHandle = HandleBox(HandleRegistry.shared.register(ref))
        let database = query.database
        ref.listen(query.addChangeListenerOnQueryThread { [weak ref] change in
            let latest: Swift.Result<ResultSnapshot, Error> = change.results.map { .success($0.snapshot()) }
                ?? .failure(change.error ?? DocLiteError(.unexpectedError, "a live query run gave neither rows nor an error"))
            NotificationBuffers.shared.deliver(for: database) { [weak ref] in
                guard let ref else { return }   // removed before this call was made
                ref.latest = latest
                ref.call { callback.function(callback.context, queryHandle.handle, tokenHandle.handle) }
            }
        })
        return tokenHandle.handle
    }
}

@c @implementation
public func CBLQuery_CopyCurrentResults(_ handle: OpaquePointer?, _ token: OpaquePointer?,
                                        _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let query = try query(handle)
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
public func CBLDatabase_BufferNotifications(_ db: OpaquePointer?, _ callback: CBLNotificationsReadyCallback?,
                                            _ context: UnsafeMutableRawPointer?) {
    guard let database = try? database(db) else { return }
    NotificationBuffers.shared.buffer(database, handle: db!, ready: callback.map { CCallback(function: $0, context: context) })
}

@c @implementation
public func CBLDatabase_SendNotifications(_ db: OpaquePointer?) {
    guard let database = try? database(db) else { return }
    NotificationBuffers.shared.send(database)
}

@c @implementation
public func CBLListener_Remove(_ token: OpaquePointer?) {
    guard let ref = try? HandleRegistry.shared.object(token, as: ListenerTokenRef.self, "listener token") else { return }
    ref.remove()
    HandleRegistry.shared.release(UnsafeRawPointer(token))
}

/// A handle value captured by a listener closure.
struct HandleBox: @unchecked Sendable {   // a number, looked up in the locked HandleRegistry
    let handle: OpaquePointer
    init(_ handle: OpaquePointer) { self.handle = handle }
}

/// couchbase-lite-C's buffered notifications: while a database buffers, its C
/// listeners' calls wait in a queue, the ready callback says when the queue
/// stops being empty, and CBLDatabase_SendNotifications makes the calls, in
/// order, on the thread that asks.
final class NotificationBuffers: @unchecked Sendable {   // `buffers` is behind `lock`; sends are serialized by `sendLock`
    static let shared = NotificationBuffers()

    private struct Buffer {
        weak var database: Database?
        let handle: OpaquePointer
        var ready: CCallback<CBLNotificationsReadyCallback>?
        var pending: [() -> Void] = []
    }

    private let lock = Lock()
    /// Held while sending, so that two threads sending at once keep the calls in order
    /// (recursive: a listener may send again).
    private let sendLock = NSRecursiveLock()
    private var buffers: [ObjectIdentifier: Buffer] = [:]

    /// Starts buffering `database`'s notifications (`ready` nil: stops; the queued ones wait for `send`).
    func buffer(_ database: Database, handle: OpaquePointer, ready: CCallback<CBLNotificationsReadyCallback>?) {
        lock.withLock {
            buffers = buffers.filter { $0.value.database != nil }   // the entries of freed databases
            var buffer = current(database) ?? Buffer(database: database, handle: handle)
            buffer.ready = ready
            buffers[ObjectIdentifier(database)] = buffer
        }
    }

    /// Makes `call` now, or queues it while `database` buffers (telling its ready callback if the queue was empty).
    func deliver(for database: Database, _ call: @escaping () -> Void) {
        enum Outcome { case callNow, queued, queuedFirst(CCallback<CBLNotificationsReadyCallback>, OpaquePointer) }
        let outcome: Outcome = lock.withLock {
            guard var buffer = current(database), let ready = buffer.ready else { return .callNow }
            buffer.pending.append(call)
            buffers[ObjectIdentifier(database)] = buffer
            return buffer.pending.count == 1 ? .queuedFirst(ready, buffer.handle) : .queued
        }
        switch outcome {
        case .callNow: call()
        case .queued: break
        case .queuedFirst(let ready, let handle): ready.function(ready.context, handle)
        }
    }

    /// Makes the queued calls of `database`.
    func send(_ database: Database) {
        sendLock.withLock {
            let calls: [() -> Void] = lock.withLock {
                guard var buffer = current(database) else { return [] }
                let calls = buffer.pending
                buffer.pending = []
                buffers[ObjectIdentifier(database)] = buffer.ready == nil ? nil : buffer   // no longer buffering: forget it
                return calls
            }
            calls.forEach { $0() }
        }
    }

    /// The buffer of `database`, if it has one (a stale entry of a freed database is dropped).
    private func current(_ database: Database) -> Buffer? {
        let key = ObjectIdentifier(database)
        guard let buffer = buffers[key] else { return nil }
        guard buffer.database === database else { buffers[key] = nil; return nil }
        return buffer
    }
}
