import Foundation

/// Syncs collections with a server (Couchbase Lite's `Replicator`): pushes
/// local changes, pulls the server's, resolves conflicts, and keeps
/// checkpoints so that a restart resumes where it was. The work runs on a
/// thread of its own; status and document events reach the listeners on
/// their queues (the main queue when none is given, as Couchbase Lite's).
public final class Replicator: @unchecked Sendable {   // `state` is behind `lock`
    private struct State {
        var status = Status(activity: .stopped, progress: Progress(completed: 0, total: 0), error: nil)
        var worker: ReplicationWorker?
        /// A start asked for while the worker stops (its `reset`): it runs once the worker ends.
        var startAfterStop: Bool?
        var changeListeners = Listeners<ReplicatorChange>()
        var documentListeners = Listeners<DocumentReplication>()
        var nextListenerID = 1
    }

    /// The listeners of one kind of event, in the order they were added.
    private struct Listeners<Event> {
        private var entries: [(id: Int, queue: ListenerQueue, call: @Sendable (Event) -> Void)] = []

        mutating func add(id: Int, _ queue: ListenerQueue, _ call: @escaping @Sendable (Event) -> Void) {
            entries.append((id, queue, call))
        }

        mutating func remove(id: Int) {
            entries.removeAll { $0.id == id }
        }

        /// Queues each listener's call with `event`.
        func tell(_ event: Event) where Event: Sendable {
            for entry in entries { entry.queue.async { entry.call(event) } }
        }
    }

    /// The configuration, as it was when the replicator was made.
    public let config: ReplicatorConfiguration
    private let lock = Lock()
    private var state = State()

    /// A replicator for `config`; it starts with ``start()``. A configuration
    /// DocLite cannot run (no collection, collections of two databases, a
    /// closed database) makes ``start()`` stop at once with the error.
    public init(config: ReplicatorConfiguration) {
        self.config = config
    }

    /// The current status.
    public var status: Status { lock.withLock { state.status } }

    /// Starts replicating from the saved checkpoints; nothing when it runs already.
    public func start() {
        start(reset: false)
    }

    /// Starts replicating; with `reset`, from the beginning, as if never run
    /// (documents the server has already are not sent again). The status is
    /// ``ActivityLevel/connecting`` when it returns, unless a stop is under
    /// way: then it starts again once stopped.
    public func start(reset: Bool) {
        lock.withLock {
            if let worker = state.worker {
                if worker.isStopping { state.startAfterStop = (state.startAfterStop ?? false) || reset }
                return
            }
            startWorker(reset: reset)
        }
    }

    /// Starts a new worker. Under `lock`, so that a stop is never asked of no worker while one starts.
    private func startWorker(reset: Bool) {
        let worker = ReplicationWorker(replicator: self, reset: reset)
        state.worker = worker
        state.status = Status(activity: .connecting, progress: Progress(completed: 0, total: 0), error: nil)
        worker.start()
    }

    /// Stops the replicator; it reports ``ActivityLevel/stopped`` once its
    /// current step ends.
    public func stop() {
        lock.withLock {
            state.startAfterStop = nil
            return state.worker
        }?.stop()
    }

    /// The IDs of the documents of `collection` that the next push would
    /// send: changed since the last push, and allowed by its document IDs and
    /// push filter. Throws `unsupported` for a pull-only replicator and
    /// `invalidParameter` for a collection it does not sync.
    public func pendingDocumentIds(collection: Collection) throws -> Set<String> {
        Set(try pendingRevisions(collection: collection, documentID: nil).map(\.id))
    }

    /// Whether the next push would send document `documentID` of `collection`.
    public func isDocumentPending(_ documentID: String, collection: Collection) throws -> Bool {
        try !pendingRevisions(collection: collection, documentID: documentID).isEmpty
    }

    private func pendingRevisions(collection: Collection, documentID: String?) throws -> [LocalRevision] {
        guard config.replicatorType != .pull else {
            throw DocLiteError(.unsupported, "a pull-only replicator pushes no document")
        }
        guard let collectionConfig = config.collectionConfig(collection) else {
            throw DocLiteError(.invalidParameter, "the replicator does not sync collection '\(collection.fullName)'")
        }
        let plan = try ReplicationPlan(config: config, collection: collectionConfig)
        return try plan.pendingRevisions(documentID: documentID)
    }

    // MARK: Listeners

    /// Calls `listener` with every change of status, on the main queue.
    @discardableResult
    public func addChangeListener(_ listener: @escaping @Sendable (ReplicatorChange) -> Void) -> ListenerToken {
        addChangeListener(withQueue: nil, listener)
    }

    /// Calls `listener` with every change of status, on `queue` (the main queue for nil).
    @discardableResult
    public func addChangeListener(withQueue queue: DispatchQueue?, _ listener: @escaping @Sendable (ReplicatorChange) -> Void) -> ListenerToken {
        addChangeListener(ListenerQueue(queue), listener)
    }

    /// Calls `listener` with every change of status on `queue` itself, which
    /// must be serial: the listeners sharing a queue see the events in the
    /// order they happened (as couchbase-lite-C's, called on one thread).
    package func addChangeListener(serialQueue queue: DispatchQueue,
                                   _ listener: @escaping @Sendable (ReplicatorChange) -> Void) -> ListenerToken {
        addChangeListener(ListenerQueue(serial: queue), listener)
    }

    private func addChangeListener(_ queue: ListenerQueue, _ listener: @escaping @Sendable (ReplicatorChange) -> Void) -> ListenerToken {
        addListener(\.changeListeners, queue, listener)
    }

    /// Calls `listener` with the documents pushed and pulled, batch by batch, on the main queue.
    @discardableResult
    public func addDocumentReplicationListener(_ listener: @escaping @Sendable (DocumentReplication) -> Void) -> ListenerToken {
        addDocumentReplicationListener(withQueue: nil, listener)
    }

    /// Calls `listener` with the documents pushed and pulled, on `queue` (the main queue for nil).
    @discardableResult
    public func addDocumentReplicationListener(withQueue queue: DispatchQueue?,
                                               _ listener: @escaping @Sendable (DocumentReplication) -> Void) -> ListenerToken {
        addDocumentReplicationListener(ListenerQueue(queue), listener)
    }

    /// Calls `listener` with the documents pushed and pulled on `queue` itself,
    /// which must be serial, in order with the status events of that queue.
    package func addDocumentReplicationListener(serialQueue queue: DispatchQueue,
                                                _ listener: @escaping @Sendable (DocumentReplication) -> Void) -> ListenerToken {
        addDocumentReplicationListener(ListenerQueue(serial: queue), listener)
    }

    private func addDocumentReplicationListener(_ queue: ListenerQueue,
                                                _ listener: @escaping @Sendable (DocumentReplication) -> Void) -> ListenerToken {
        addListener(\.documentListeners, queue, listener)
    }

    /// Adds a listener to `listeners`, and returns the token that removes it.
    private func addListener<Event>(_ listeners: WritableKeyPath<State, Listeners<Event>> & Sendable, _ queue: ListenerQueue,
                                    _ listener: @escaping @Sendable (Event) -> Void) -> ListenerToken {
        let id = lock.withLock {
            defer { state.nextListenerID += 1 }
            state[keyPath: listeners].add(id: state.nextListenerID, queue, listener)
            return state.nextListenerID
        }
        return ListenerToken { [weak self] in self?.lock.withLock { self?.state[keyPath: listeners].remove(id: id) } }
    }

    // MARK: What the worker reports

    /// Records a new status and tells the change listeners; a start asked for
    /// while `worker` stopped follows its end. The listeners' calls are queued under
    /// `lock`, so that they reach a queue in the order of the events: a new worker's
    /// first status never before the old one's stop.
    func report(_ activity: ActivityLevel, progress: Progress? = nil, error: (any Error)? = nil, finished worker: ReplicationWorker? = nil) {
        lock.withLock {
            state.status = Status(activity: activity, progress: progress ?? state.status.progress, error: error)
            let change = ReplicatorChange(replicator: self, status: state.status)
            state.changeListeners.tell(change)
            if let worker, state.worker === worker {
                state.worker = nil
                if let reset = state.startAfterStop {
                    state.startAfterStop = nil
                    startWorker(reset: reset)
                }
            }
        }
    }

    /// Tells the document listeners of a batch.
    func report(_ documents: [ReplicatedDocument], isPush: Bool) {
        guard !documents.isEmpty else { return }
        let event = DocumentReplication(replicator: self, isPush: isPush, documents: documents)
        lock.withLock { state.documentListeners.tell(event) }
    }
}
