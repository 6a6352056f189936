/// The state of the database's one (possibly nested) transaction.
struct TransactionState {
    /// How many batches are open; 0 outside a transaction.
    var depth = 0
    /// Set when a nested batch failed: the outermost one then rolls back.
    var failed = false
    /// Shared-key count when the transaction began (IDs above it are new).
    var keyCountAtBegin = 0
    /// The collections whose last sequence the transaction changed, with the
    /// value it had before (recorded at the first change, so that a
    /// transaction costs nothing per collection it does not touch).
    var changedSequences: [Int64: (collection: CollectionState, atBegin: UInt64)] = [:]
    /// Restores collections deleted in the transaction if it rolls back.
    var undo: [() -> Void] = []
    /// Changed document IDs per collection, announced after the commit (the
    /// listener registry drops repeats, and only when someone listens).
    var changes: [(collection: Collection, documentIDs: [String])] = []

    /// Notes that `collection`'s last sequence is about to change.
    mutating func willChangeSequence(of collection: CollectionState) {
        if changedSequences[collection.id] == nil { changedSequences[collection.id] = (collection, collection.lastSequence) }
    }

    mutating func recordChange(_ collection: Collection, _ documentID: String) {
        if let index = changes.lastIndex(where: { $0.collection === collection }) {   // usually the last one
            changes[index].documentIDs.append(documentID)
        } else {
            changes.append((collection, [documentID]))
        }
    }
}

extension Database {
    /// Runs `body` as one batch: every change it makes is committed together, or
    /// none is if it throws. A batch inside a batch joins the outer one. Change
    /// listeners run after the commit, on this thread.
    public func inBatch(using body: () throws -> Void) throws {
        try inTransaction(body)
    }

    /// Runs `body` in a transaction (joining an open one) and returns its result.
    func inTransaction<R>(_ body: () throws -> R) throws -> R {
        try beginTransaction()
        let result: R
        do {
            result = try body()
        } catch {
            try? endTransaction(commit: false)
            throw error
        }
        try endTransaction(commit: true)
        return result
    }

    /// Begins a transaction, or joins the open one. The calling thread holds the
    /// database until the matching ``endTransaction(commit:)``.
    package func beginTransaction() throws {
        lock.lock()
        do {
            let connection = try openConnection()
            if transaction.depth == 0 {
                // Idle readers' snapshots end before the write: the checkpoint at its
                // commit could otherwise not reach the end of the write-ahead log.
                endIdleSnapshots()
                try connection.execute("BEGIN IMMEDIATE")
                do {
                    try syncWithFile()
                } catch {
                    try? connection.execute("ROLLBACK")
                    throw error
                }
                transaction = TransactionState()
                transaction.keyCountAtBegin = sharedKeys.count
            }
            transaction.depth += 1
        } catch {
            lock.unlock()
            throw error
        }
    }

    /// Ends the innermost transaction. The outermost one commits when every
    /// level committed, and rolls back otherwise; committing a transaction that
    /// a nested batch rolled back throws. Must run on the thread that began it.
    package func endTransaction(commit: Bool) throws {
        // The thread that began the transaction holds the (recursive) lock; no other can take it now.
        guard lock.tryLock() else {
            throw DocLiteError(.notInTransaction, "endTransaction called on a thread that did not begin the transaction")
        }
        let changes: [(collection: Collection, documentIDs: [String])]
        do {
            defer { lock.unlock() }   // the level tryLock took
            guard transaction.depth > 0 else {
                throw DocLiteError(.notInTransaction, "endTransaction called without a matching beginTransaction")
            }
            defer { lock.unlock() }   // the level beginTransaction took
            transaction.depth -= 1
            if !commit { transaction.failed = true }
            guard transaction.depth == 0 else { return }
            if transaction.failed {
                rollback()
                if commit {
                    throw DocLiteError(.unexpectedError, "the transaction was rolled back because a nested batch failed")
                }
                return
            }
            do {
                try persistSequences()
                try openConnection().execute("COMMIT")
            } catch {
                rollback()
                throw error
            }
            commitCount += 1
            changes = transaction.changes
            transaction = TransactionState()
        }
        listeners.notify(changes)
    }

    /// Rolls back SQLite and the in-memory state that followed it.
    private func rollback() {
        try? connection?.execute("ROLLBACK")
        transaction.undo.reversed().forEach { $0() }
        sharedKeys.lock.withLock { sharedKeys.rollback(to: transaction.keyCountAtBegin) }
        persistedKeyCount = min(persistedKeyCount, transaction.keyCountAtBegin)
        transaction = TransactionState()
        // Reload collections and sequences as committed (drops collections created in the transaction).
        dataVersion = -1
        try? syncWithFile()
    }

    /// Writes the last sequence of every collection that changed.
    private func persistSequences() throws {
        let connection = try openConnection()
        for (id, (collection, atBegin)) in transaction.changedSequences where collection.lastSequence != atBegin {
            try connection.withStatement("UPDATE collections SET last_sequence = ? WHERE id = ?") { update in
                update.bind(1, Int64(collection.lastSequence))
                update.bind(2, id)
                try update.run()
            }
        }
    }

    /// Stores shared keys assigned since the last call. Inside a transaction.
    func persistNewKeys() throws {
        guard persistedKeyCount < sharedKeys.count else { return }
        let connection = try openConnection()
        for id in persistedKeyCount..<sharedKeys.count {
            try connection.withStatement("INSERT INTO shared_keys (id, key) VALUES (?, ?)") { insert in
                insert.bind(1, Int64(id))
                insert.bind(2, sharedKeys.key(id))
                try insert.run()
            }
        }
        persistedKeyCount = sharedKeys.count
    }
}
