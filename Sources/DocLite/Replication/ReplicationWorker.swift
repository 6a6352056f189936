import Foundation

/// Progress and document events of a run, passed on to the replicator.
final class ReplicationEvents {
    private let replicator: Replicator
    private var completed: UInt64 = 0
    private var total: UInt64 = 0

    init(replicator: Replicator) {
        self.replicator = replicator
    }

    var progress: Replicator.Progress { Replicator.Progress(completed: completed, total: total) }

    /// `count` more documents to replicate.
    func found(_ count: Int) {
        total += UInt64(count)
    }

    /// Documents done (or failed): counted, and told to the document listeners.
    func completed(_ documents: [ReplicatedDocument], isPush: Bool) {
        completed = min(total, completed + UInt64(documents.count))
        replicator.report(documents, isPush: isPush)
    }
}

/// A replicator's run, on a thread of its own: connect, then pull and push
/// each collection until caught up; continuous, wait for a change here or
/// a notification from the server and go again. A failure to reach the
/// server is retried after 2, 4, 8 … seconds (at most `maxAttemptWaitTime`),
/// `maxAttempts` times in all, as Couchbase Lite's; any other error stops it.
final class ReplicationWorker: @unchecked Sendable {   // `stopRequested` and `peer` are behind `lock`; the rest is the thread's
    private let replicator: Replicator
    private let config: ReplicatorConfiguration
    private let reset: Bool
    private let lock = Lock()
    private var stopRequested = false
    /// The peer connected to, which a stop interrupts.
    private var peer: ReplicationPeer?
    /// Connection attempts since the last that succeeded.
    private var attempts: UInt = 0
    /// A pipe whose read end wakes the thread's waits (a stop, a local change).
    private var wakeUp: [Int32] = [-1, -1]

    init(replicator: Replicator, reset: Bool) {
        self.replicator = replicator
        self.config = replicator.config
        self.reset = reset
    }

    deinit {
        for descriptor in wakeUp where descriptor >= 0 { Foundation.close(descriptor) }
    }

    func start() {
        if pipe(&wakeUp) == 0 {
            _ = fcntl(wakeUp[0], F_SETFL, O_NONBLOCK)
            _ = fcntl(wakeUp[1], F_SETFL, O_NONBLOCK)
        }
        let thread = Thread { [self] in run() }
        thread.name = "DocLite replicator"
        thread.start()
    }

    /// Asks the thread to stop: a wait ends at once, a statement on the server is cancelled.
    func stop() {
        let peer = lock.withLock {
            stopRequested = true
            return self.peer
        }
        wake()
        peer?.interrupt()
    }

    /// Whether ``stop()`` was called.
    var isStopping: Bool { lock.withLock { stopRequested } }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeUp[1], &byte, 1)
    }

    /// Empties the wake-up pipe; whether anything was in it.
    private func drainWakeUps() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var any = false
        while read(wakeUp[0], &buffer, buffer.count) > 0 { any = true }
        return any
    }

    private func run() {
        let events = ReplicationEvents(replicator: replicator)
        var plans: [ReplicationPlan] = []
        do {
            try config.validate()
            plans = try config.collectionConfigs.map { try ReplicationPlan(config: config, collection: $0) }
        } catch {
            replicator.report(.stopped, error: error, finished: self)
            return
        }
        // Local changes wake a continuous replicator.
        let tokens = config.continuous ? plans.map { plan in
            plan.collection.addChangeListener(queue: DispatchQueue.global()) { [weak self] _ in self?.wake() }
        } : []
        defer { tokens.forEach { $0.remove() } }

        var reset = self.reset
        while !isStopping {
            attempts += 1
            replicator.report(.connecting, progress: events.progress)
            do {
                try runConnected(plans: plans, events: events, reset: reset)
                replicator.report(.stopped, progress: events.progress, finished: self)
                return
            } catch let error as DocLiteError where Self.isTransient(error) && attempts < config.effectiveMaxAttempts && !isStopping {
                reset = false
                replicator.report(.offline, progress: events.progress, error: error)
                let delay = min(pow(2, Double(min(attempts, 30))), config.maxAttemptWaitTime)
                waitUntilReadable(wakeUp[0], timeout: delay)
                _ = drainWakeUps()
            } catch {
                // (A stop cancels the server's statement: that failure is the stop, not an error.)
                replicator.report(.stopped, progress: events.progress, error: isStopping ? nil : error, finished: self)
                return
            }
        }
        replicator.report(.stopped, progress: events.progress, finished: self)
    }

    /// Connects and replicates until caught up (one-shot) or stopped (continuous).
    private func runConnected(plans: [ReplicationPlan], events: ReplicationEvents, reset: Bool) throws {
        let peer: ReplicationPeer
        switch config.target {
        case let endpoint as DatabaseEndpoint: peer = try LocalDatabasePeer(endpoint.database) { [weak self] in self?.wake() }
        case let endpoint as PostgreSQLEndpoint: peer = try PostgreSQLPeer(endpoint, continuous: config.continuous, heartbeat: config.heartbeat)
        default: throw DocLiteError(.invalidParameter, "the replicator's endpoint is not one DocLite syncs with")
        }
        lock.withLock { self.peer = peer }
        defer {
            lock.withLock { self.peer = nil }
            peer.close()
        }
        attempts = 0   // (each connection restores the full retry budget, as in Couchbase Lite)
        let syncs = plans.map { CollectionSync(plan: $0, peer: peer, events: events) }
        for sync in syncs { try sync.readCheckpoint(reset: reset) }
        while !isStopping {
            replicator.report(.busy, progress: events.progress)
            _ = drainWakeUps()
            try replicateOnce(syncs)
            guard config.continuous else { return }
            replicator.report(.idle, progress: events.progress)
            _ = try peer.waitForChanges(timeout: config.heartbeat, wakeUp: wakeUp[0])
        }
    }

    /// Pulls, then pushes, each collection; again while a push met a newer
    /// server revision (the pull resolves it), a few times at most.
    private func replicateOnce(_ syncs: [CollectionSync]) throws {
        for round in 0..<4 where !isStopping {
            var conflicts = false
            for sync in syncs {
                if sync.plan.pulls { try sync.pull(stopRequested: { isStopping }) }
                if sync.plan.pushes {
                    try sync.push(stopRequested: { isStopping })
                    conflicts = conflicts || sync.hasPushConflicts
                }
            }
            if !conflicts || round == 3 { return }
        }
    }


    /// Whether `error` may pass by itself (the server down or unreachable), so worth retrying.
    static func isTransient(_ error: DocLiteError) -> Bool {
        error.domain == .network && error.code != DocLiteError.NetworkCode.invalidURL.rawValue
            || error.domain == .webSocket && [408, 429, 502, 503, 504].contains(error.code)
    }
}

/// Waits until `descriptor` is readable or `timeout` seconds pass.
func waitUntilReadable(_ descriptor: Int32, timeout: TimeInterval) {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    _ = poll(&entry, 1, Int32(min(max(timeout, 0), 86_400) * 1000))
}
