import Foundation

/// Reading, saving, deleting, purging and expiring documents.
extension Collection {
    /// The current revision of a stored document: live, or a tombstone.
    struct StoredRevision {
        let revisionID: String
        let isDeleted: Bool
    }

    /// The document with `id`, or nil when there is none (or it is deleted).
    public func document(id: String) throws -> Document? {
        try read { connection in
            let database = try openDatabase()
            return try connection.withStatement(sql.getDocument) { select in
                select.bind(1, id)
                guard try select.step() else { return nil }
                guard let body = select.documentBody(2, keyCount: database.sharedKeys.count) else {
                    throw DocLiteError(.corruptData, "document \(DocLiteError.quoted(id)) in collection \(DocLiteError.quoted(fullName)) "
                                        + "has a damaged body in the database file")
                }
                var content = DocumentContent.encoded(body: body, keys: database.sharedKeys)
                // A body may name keys this open transaction assigned, which a rollback would forget.
                if database.sharedKeys.count > database.transaction.keyCountAtBegin, database.transaction.depth > 0 {
                    content = .tree(content.members)
                }
                return Document(id: id, revisionID: select.revisionID(1), sequence: UInt64(clamping: select.int64(0)),
                                collection: self, content: content)
            }
        }
    }

    /// Saves `document`; the last write wins over a concurrent change.
    public func save(document: MutableDocument) throws {
        _ = try save(document: document, concurrencyControl: .lastWriteWins)
    }

    /// Saves `document` as a new revision, with the content of the blobs set in
    /// it (in the same transaction). Returns `false`, saving nothing, when
    /// `concurrencyControl` is `.failOnConflict` and the stored document changed
    /// since it was read (or a new document's ID is taken). Throws for other errors:
    /// an invalid ID, a reserved top-level key (`_id`, `_rev`, `_deleted`), a closed database.
    public func save(document: MutableDocument, concurrencyControl: ConcurrencyControl) throws -> Bool {
        try DocumentIDs.validate(document.id)
        try checkOwnership(of: document)
        let saving = document.state.withLock { $0 }   // (changes made meanwhile are not part of this save)
        if let error = saving.unstorable.first { throw error }
        if let key = saving.content.reservedKey {
            throw DocLiteError(.corruptRevisionData, "illegal top-level key '\(key)' in document: '_id', '_rev' and '_deleted' are reserved")
        }
        let blobs = saving.newBlobs.isEmpty ? [] : try saving.newBlobs.map { try $0.prepared(for: openDatabase()) }
        return try write { database, connection in
            let keys = database.sharedKeys
            let body = try keys.lock.withLock { try saving.content.encoded(with: &database.encoder) }
            if database.encoder.mayHoldBlobMetadata {
                try database.checkBlobsStored(for: body, of: document.id, newDigests: Set(blobs.map(\.digest)), connection)
            }
            try database.persistNewKeys()
            // A new document, where no tombstone can share its ID, is inserted
            // directly: the unique ID column tells whether the ID was taken.
            if saving.revisionID == nil, try !mayHoldTombstones(connection) {
                let revisionID = RevisionID.next(after: nil, deleted: false, body: body, sha1: database.sha1)
                let inserted = try storing(blobs, in: database, connection) {
                    try updatingDerivedRows(of: document.id, in: database, connection) {
                        try connection.withStatement(sql.insertLive) { insert in
                            insert.bind(1, Int64(lastSequence + 1))
                            insert.bind(2, document.id)
                            insert.bind(3, revisionID.stored)
                            return try body.withUnsafeBytes { body in
                                insert.bind(4, borrowing: body)
                                return try insert.runUnlessDuplicate()
                            }
                        }
                    }
                }
                if inserted {
                    didSave(document, generation: saving.generation, revisionID: revisionID.text, body: body, in: database)
                    return true
                }
            }
            let stored = try storedRevision(id: document.id, connection)
            let parent: String?
            if let stored, stored.revisionID != saving.revisionID, !(stored.isDeleted && saving.revisionID == nil) {
                guard concurrencyControl == .lastWriteWins else { return false }
                parent = stored.revisionID
            } else {
                parent = stored?.revisionID
            }
            let revisionID = RevisionID.next(after: parent, deleted: false, body: body, sha1: database.sha1)
            for blob in blobs { try database.installBlob(blob, connection) }   // (before the row: an index may read them)
            if stored?.isDeleted == true { try run(sql.deleteTombstone, id: document.id, connection) }
            try updatingDerivedRows(of: document.id, in: database, connection) {
                try connection.withStatement(sql.upsertLive) { upsert in
                    upsert.bind(1, Int64(lastSequence + 1))
                    upsert.bind(2, document.id)
                    upsert.bind(3, revisionID.stored)
                    try body.withUnsafeBytes { body in
                        upsert.bind(4, borrowing: body)
                        try upsert.run()
                    }
                }
            }
            didSave(document, generation: saving.generation, revisionID: revisionID.text, body: body, in: database)
            return true
        }
    }

    /// Saves `document`, resolving a conflict with `conflictHandler`, as
    /// Couchbase Lite's: when the stored document changed since `document` was
    /// read (or a new document's ID is taken), the handler gets `document` and
    /// the stored document (nil when it is deleted) and may change `document`;
    /// returning true saves it over that revision (the handler is called again if
    /// yet another write came first), false gives up and returns false. Throws
    /// `notFound` when the conflicting document was purged meanwhile.
    public func save(document: MutableDocument, conflictHandler: (MutableDocument, Document?) -> Bool) throws -> Bool {
        while true {
            if try save(document: document, concurrencyControl: .failOnConflict) { return true }
            guard let stored = try read({ try storedRevision(id: document.id, $0) }) else {
                throw DocLiteError(.notFound, "document \(DocLiteError.quoted(document.id)) was purged during the save")
            }
            let current = stored.isDeleted ? nil : try self.document(id: document.id)
            guard conflictHandler(document, current) else { return false }
            document.state.withLock { $0.revisionID = current?.revisionID ?? stored.revisionID }   // the revision it now replaces
        }
    }

    /// Runs `write` with `blobs` stored before it (an index on a prediction may
    /// read their content as the row is written), all undone when `write`
    /// returns false: a save that saves nothing stores no blob.
    private func storing(_ blobs: [Blob], in database: Database, _ connection: SQLiteConnection,
                         _ write: () throws -> Bool) throws -> Bool {
        guard !blobs.isEmpty else { return try write() }
        struct NothingWritten: Error {}
        do {
            return try connection.atomically {
                for blob in blobs { try database.installBlob(blob, connection) }
                guard try write() else { throw NothingWritten() }
                return true
            }
        } catch is NothingWritten {
            return false
        }
    }

    /// Records a saved revision: the next sequence, the change, and the
    /// document's new state (its properties only if they are still those saved:
    /// `generation` unchanged).
    private func didSave(_ document: MutableDocument, generation: Int, revisionID: String, body: [UInt8], in database: Database) {
        lastSequence += 1
        database.transaction.recordChange(self, document.id)
        // The stored body replaces the document's content only when it names no
        // shared key assigned in this transaction: a rollback would forget those.
        let keysKept = database.sharedKeys.count == database.transaction.keyCountAtBegin
        document.state.withLock { state in
            state.revisionID = revisionID
            state.sequence = lastSequence
            state.collection = self
            guard state.generation == generation else { return }
            state.newBlobs = []   // stored
            if keysKept { state.content = .encoded(body: body, keys: database.sharedKeys) }
        }
    }

    /// Deletes `document`, leaving a tombstone; the last write wins.
    public func delete(document: Document) throws {
        _ = try delete(document: document, concurrencyControl: .lastWriteWins)
    }

    /// Deletes `document`, leaving a tombstone (a new revision without properties)
    /// that keeps its ID, revision and sequence. Returns `false` on a conflict
    /// with `.failOnConflict`. Throws `notFound` for a document never saved.
    public func delete(document: Document, concurrencyControl: ConcurrencyControl) throws -> Bool {
        try delete(document: document, concurrencyControl: concurrencyControl, keepingProperties: false)
    }

    /// Deletes `document` as ``delete(document:concurrencyControl:)`` does, but
    /// with `keepingProperties` the tombstone keeps the stored properties, as a
    /// deleted revision that arrives with a body does in Couchbase Lite (its
    /// public API never makes one; LiteCore's tests and replication do). Queries
    /// that read `_deleted` see them.
    package func delete(document: Document, concurrencyControl: ConcurrencyControl, keepingProperties: Bool) throws -> Bool {
        guard document.revisionID != nil else {
            throw DocLiteError(.notFound, "cannot delete a document that has not been saved")
        }
        try checkOwnership(of: document)
        return try write { database, connection in
            guard let stored = try storedRevision(id: document.id, connection) else {
                return concurrencyControl == .lastWriteWins   // purged meanwhile: nothing to delete
            }
            if stored.revisionID != document.revisionID && concurrencyControl == .failOnConflict { return false }
            if stored.isDeleted { return true }
            let revisionID = RevisionID.next(after: stored.revisionID, deleted: true, body: [], sha1: database.sha1)
            let sequence = lastSequence + 1
            try updatingDerivedRows(of: document.id, in: database, connection) {
                try connection.withStatement(sql.insertTombstone) { insert in
                    insert.bind(1, Int64(sequence))
                    insert.bind(2, document.id)
                    insert.bind(3, revisionID.stored)
                    insert.bind(4, keepingProperties ? 1 : 0)
                    try insert.run()
                }
                try run(sql.deleteLive, id: document.id, connection)
            }
            lastSequence = sequence
            hasTombstones = true
            database.transaction.recordChange(self, document.id)
            document.state.withLock { state in
                state.revisionID = revisionID.text
                state.sequence = sequence
            }
            return true
        }
    }

    /// Removes every trace of `document` (no tombstone).
    public func purge(document: Document) throws {
        try purge(id: document.id)
    }

    /// Removes every trace of the document `id`; throws `notFound` when there is none.
    public func purge(id: String) throws {
        // "Not found" is thrown after the transaction, so it does not fail an enclosing batch.
        let removed = try write { database, connection in
            let removed = try updatingDerivedRows(of: id, in: database, connection) {
                try run(sql.deleteLive, id: id, connection) + run(sql.deleteTombstone, id: id, connection)
            }
            if removed > 0 {
                try run(sql.deleteExpiration, id: id, connection)
                try run(sql.deleteRemoteRevisions, id: id, connection)   // (a purge is not replicated: the document is as never seen)
                database.transaction.recordChange(self, id)
            }
            return removed > 0
        }
        guard removed else { throw DocLiteError(.notFound, "document \(DocLiteError.quoted(id)) not found in collection '\(fullName)'") }
    }

    /// Sets when the document `id` expires (nil: never). An expired document is
    /// purged when the database opens and by a background pass at that time.
    public func setDocumentExpiration(id: String, expiration: Date?) throws {
        var millis: Int64?
        if let expiration {
            guard let value = Int64(exactly: (expiration.timeIntervalSince1970 * 1000).rounded()) else {
                throw DocLiteError(.invalidParameter, "expiration \(expiration) is out of range")
            }
            millis = value
        }
        let updated = try write { _, connection in
            guard try storedRevision(id: id, connection) != nil else { return false }
            if let millis {
                try connection.withStatement(sql.setExpiration) { set in
                    set.bind(1, id)
                    set.bind(2, millis)
                    try set.run()
                }
            } else {
                try run(sql.deleteExpiration, id: id, connection)
            }
            return true
        }
        guard updated else { throw DocLiteError(.notFound, "document \(DocLiteError.quoted(id)) not found in collection '\(fullName)'") }
        try openDatabase().housekeeper.schedule()
    }

    /// When the document `id` expires, or nil when it never does (or does not exist).
    public func getDocumentExpiration(id: String) throws -> Date? {
        try read { connection in
            try connection.withStatement(sql.expiration) { select in
                select.bind(1, id)
                return try select.step() ? Date(timeIntervalSince1970: Double(select.int64(0)) / 1000) : nil
            }
        }
    }

    // MARK: Helpers

    /// Whether the collection may hold tombstones, asked of the file once (``hasTombstones``).
    func mayHoldTombstones(_ connection: SQLiteConnection) throws -> Bool {
        if let known = hasTombstones { return known }
        let exists = try connection.withStatement(sql.hasTombstones) { exists in
            try exists.step()
            return exists.int64(0) != 0
        }
        hasTombstones = exists
        return exists
    }

    /// Runs `change`, a write of document `id`'s live row, keeping the
    /// collection's derived-row indexes (``DerivedRows``) in step: the
    /// document's rows are removed before and added after, all or nothing (a
    /// predictive model that fails fails the write).
    func updatingDerivedRows<R>(of id: String, in database: Database, _ connection: SQLiteConnection,
                                        _ change: () throws -> R) throws -> R {
        guard let indexes = database.derivedRows[self.id], !indexes.isEmpty else { return try change() }
        return try connection.atomically {
            for index in indexes { try run(index.deleteDocument, id: id, connection) }
            let result = try change()
            for statement in indexes.compactMap(\.insertDocument) { try run(statement, id: id, connection) }
            for afterChange in indexes.compactMap(\.afterChange) { try afterChange(connection, .atMostOne) }
            return result
        }
    }

    /// The revision ID of the live document `id` (nil when there is none, or it
    /// is deleted), read without its body.
    func liveRevisionID(of id: String) throws -> String? {
        try read { try storedRevision(id: id, $0) }.flatMap { $0.isDeleted ? nil : $0.revisionID }
    }

    func storedRevision(id: String, _ connection: SQLiteConnection) throws -> StoredRevision? {
        try connection.withStatement(sql.storedRevision) { select in
            select.bind(1, id)
            guard try select.step() else { return nil }
            return StoredRevision(revisionID: select.revisionID(0), isDeleted: select.int64(1) != 0)
        }
    }

    /// Runs `sql` with document ID `id` as `?1`; the number of rows it changed.
    @discardableResult
    func run(_ sql: StatementKey, id: String, _ connection: SQLiteConnection) throws -> Int {
        try connection.withStatement(sql) { statement in
            statement.bind(1, id)
            try statement.run()
            return connection.changes
        }
    }

    /// A document read from or saved to another collection cannot be saved here.
    private func checkOwnership(of document: Document) throws {
        if let owner = document.collection, owner !== self {
            throw DocLiteError(.invalidParameter, "document '\(document.id)' belongs to collection '\(owner.fullName)', not '\(fullName)'")
        }
    }

}
