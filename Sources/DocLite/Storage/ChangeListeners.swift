import Foundation

/// The documents of one collection changed by a committed transaction.
public struct CollectionChange: Sendable {
    /// The collection that changed.
    public let collection: Collection
    /// The IDs of the saved, deleted, purged or expired documents, in commit order.
    public let documentIDs: [String]
}

/// A change to one document, committed.
public struct DocumentChange: Sendable {
    /// The document's collection.
    public let collection: Collection
    /// The ID of the saved, deleted, purged or expired document.
    public let documentID: String
}

/// Keeps a change listener registered until ``remove()`` is called.
public final class ListenerToken: @unchecked Sendable {   // `removal` is behind `lock`
    private let lock = Lock()
    private var removal: (@Sendable () -> Void)?

    init(removal: @escaping @Sendable () -> Void) {
        self.removal = removal
    }

    /// Unregisters the listener; later changes no longer reach it. Idempotent.
    public func remove() {
        lock.withLock { removal.take() }?()
    }
}

extension Collection {
    /// Calls `listener` after each commit that changed documents of this
    /// collection, on the committing thread, outside the database lock (the
    /// listener may use the database). Couchbase Lite calls it on the main
    /// queue: ``addChangeListener(queue:listener:)`` with `nil` does so. Like
    /// Couchbase Lite's, it does not throw: on a closed database or a deleted
    /// collection it writes a warning and returns a token that is never called.
    @discardableResult
    public func addChangeListener(listener: @escaping @Sendable (CollectionChange) -> Void) -> ListenerToken {
        addListener(documentID: nil) { collection, ids in listener(CollectionChange(collection: collection, documentIDs: ids)) }
    }

    /// As ``addChangeListener(listener:)``, calling `listener` on `queue` (nil: the main queue), one change at a time.
    @discardableResult
    public func addChangeListener(queue: DispatchQueue?, listener: @escaping @Sendable (CollectionChange) -> Void) -> ListenerToken {
        let serial = ListenerQueue(queue)
        return addChangeListener { change in serial.async { listener(change) } }
    }

    /// Calls `listener` after each commit that changed the document `id`
    /// (on the committing thread; see ``addChangeListener(listener:)``).
    @discardableResult
    public func addDocumentChangeListener(id: String, listener: @escaping @Sendable (DocumentChange) -> Void) -> ListenerToken {
        addListener(documentID: id) { collection, _ in listener(DocumentChange(collection: collection, documentID: id)) }
    }

    /// As ``addDocumentChangeListener(id:listener:)``, calling `listener` on `queue` (nil: the main queue).
    @discardableResult
    public func addDocumentChangeListener(id: String, queue: DispatchQueue?,
                                          listener: @escaping @Sendable (DocumentChange) -> Void) -> ListenerToken {
        let serial = ListenerQueue(queue)
        return addDocumentChangeListener(id: id) { change in serial.async { listener(change) } }
    }

    /// The collection's changes as they are committed, for `for await` (in an
    /// actor or on the main actor alike). Iteration ends when the task is
    /// cancelled, and at once on a closed database or a deleted collection.
    /// (Couchbase Lite's Swift API offers Combine publishers for the same:
    /// Combine is Apple's only.)
    public func changes() -> AsyncStream<CollectionChange> {
        stream { continuation in self.addChangeListener { continuation.yield($0) } }
    }

    /// The committed changes of the document `id`, for `for await` (see ``changes()``).
    public func documentChanges(id: String) -> AsyncStream<DocumentChange> {
        stream { continuation in self.addDocumentChangeListener(id: id) { continuation.yield($0) } }
    }

    private func stream<Change>(_ listen: (AsyncStream<Change>.Continuation) -> ListenerToken) -> AsyncStream<Change> {
        AsyncStream { continuation in
            guard (try? openDatabase()) != nil else { return continuation.finish() }
            let token = listen(continuation)
            continuation.onTermination = { _ in token.remove() }
        }
    }

    private func addListener(documentID: String?, _ callback: @escaping ListenerRegistry.Callback) -> ListenerToken {
        do {
            return try openDatabase().listeners.add(collectionID: id, documentID: documentID, callback: callback)
        } catch {
            Log.warning("cannot add a change listener to collection '\(fullName)': \(error)")
            return ListenerToken {}
        }
    }
}

/// A serial queue delivering a listener's calls in order, on the queue the
/// caller gave (the main queue for nil, as Couchbase Lite's).
struct ListenerQueue: Sendable {
    private let queue: DispatchQueue

    init(_ target: DispatchQueue?) {
        queue = DispatchQueue(label: "DocLite.listener", target: target ?? .main)
    }

    /// `queue` itself, which the caller knows to be serial: calls given to
    /// every `ListenerQueue` of it keep the order they were made in.
    init(serial queue: DispatchQueue) {
        self.queue = queue
    }

    func async(_ call: @escaping @Sendable () -> Void) { queue.async(execute: call) }
}

/// A database's change listeners.
final class ListenerRegistry: @unchecked Sendable {   // `entries` and `nextID` are behind `lock`
    typealias Callback = @Sendable (Collection, [String]) -> Void

    private struct Entry {
        let collectionID: Int64
        let documentID: String?
        let callback: Callback
    }

    private let lock = Lock()
    private var entries: [Int: Entry] = [:]
    private var nextID = 1

    func add(collectionID: Int64, documentID: String?, callback: @escaping Callback) -> ListenerToken {
        lock.withLock {
            let id = nextID
            nextID += 1
            entries[id] = Entry(collectionID: collectionID, documentID: documentID, callback: callback)
            return ListenerToken { [weak self] in self?.remove(id) }
        }
    }

    func remove(_ id: Int) {
        lock.withLock { entries[id] = nil }
    }

    /// Drops the listeners of a deleted collection.
    func removeAll(collectionID: Int64) {
        lock.withLock { entries = entries.filter { $0.value.collectionID != collectionID } }
    }

    /// Delivers committed changes. Called with no database lock held.
    func notify(_ changes: [(collection: Collection, documentIDs: [String])]) {
        guard !changes.isEmpty else { return }
        let snapshot = lock.withLock { entries.sorted { $0.key < $1.key }.map(\.value) }
        guard !snapshot.isEmpty else { return }
        for change in changes {
            let listening = snapshot.filter { $0.collectionID == change.collection.id }
            guard !listening.isEmpty else { continue }
            var seen = Set<ByteString>()   // (IDs are byte strings: "é" and "e\u{301}" are two documents)
            let documentIDs = change.documentIDs.filter { seen.insert(ByteString($0)).inserted }   // each ID once
            for entry in listening {
                if let documentID = entry.documentID {
                    if seen.contains(ByteString(documentID)) { entry.callback(change.collection, [documentID]) }
                } else {
                    entry.callback(change.collection, documentIDs)
                }
            }
        }
    }
}
