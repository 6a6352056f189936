import Foundation

/// A revision of the local database to push: the document's current one.
struct LocalRevision {
    let sequence: UInt64
    let id: String
    let revisionID: String
    let deleted: Bool
    /// The properties as JSON (`{}` for a tombstone without properties).
    let json: String
    /// The revision last known to be on the peer, if any.
    let remoteRevisionID: String?
    /// The digests of the blobs it refers to.
    let blobDigests: Set<String>
}

/// A document's state here, as a pull decides what to do with a revision.
struct LocalState {
    let revisionID: String
    let deleted: Bool
    let remoteRevisionID: String?
}

/// What replication reads and writes in the local database: the peers,
/// checkpoints, remote ancestors, the changes to push, and revisions that
/// arrive (``Schema/createReplicationTables``).
extension Database {
    /// The local ID of the peer at `address` and the client ID this database
    /// has there (random, made at the first sync).
    func replicationPeer(address: String) throws -> (id: Int64, client: String) {
        try inTransaction {
            let connection = try openConnection()
            let found: (Int64, String)? = try connection.withStatement("SELECT id, client FROM replication_peers WHERE address = ?") { select in
                select.bind(1, address)
                return try select.step() ? (select.int64(0), select.string(1)) : nil
            }
            if let found { return found }
            let client = UUID().uuidString.lowercased()
            return try connection.withStatement("INSERT INTO replication_peers (address, client) VALUES (?, ?) RETURNING id") { insert in
                insert.bind(1, address)
                insert.bind(2, client)
                _ = try insert.step()
                return (insert.int64(0), client)
            }
        }
    }

    /// The checkpoint `id` kept for `peer`, as JSON.
    func checkpoint(peer: Int64, id: String) throws -> String? {
        try read { connection in
            try connection.withStatement("SELECT body FROM replication_checkpoints WHERE peer = ? AND id = ?") { select in
                select.bind(1, peer)
                select.bind(2, id)
                return try select.step() ? select.string(0) : nil
            }
        }
    }

    func saveCheckpoint(peer: Int64, id: String, body: String) throws {
        try inTransaction {
            try openConnection().withStatement("INSERT OR REPLACE INTO replication_checkpoints (peer, id, body) VALUES (?, ?, ?)") { insert in
                insert.bind(1, peer)
                insert.bind(2, id)
                insert.bind(3, body)
                try insert.run()
            }
        }
    }
}

extension Collection {
    /// The current revisions changed after `sequence`, in sequence order, at most `limit`.
    func changes(since sequence: UInt64, limit: Int, peer: Int64) throws -> [LocalRevision] {
        let live = Schema.liveTable(id)
        let sql = """
            SELECT c.sequence, c.key, c.revid, c.deleted, c.body, r.revid FROM (
                SELECT sequence, key, revid, 0 AS deleted, body FROM \(live) WHERE sequence > ?1
                UNION ALL SELECT sequence, key, revid, 1, body FROM tombstones WHERE collection = ?4 AND sequence > ?1
                ORDER BY sequence LIMIT ?2) c
            LEFT JOIN remote_revisions r ON r.peer = ?3 AND r.collection = ?4 AND r.key = c.key
            ORDER BY c.sequence
            """
        return try read { connection in
            let database = try openDatabase()
            return try connection.withStatement(sql) { select in
                select.bind(1, Int64(clamping: sequence))
                select.bind(2, Int64(limit))
                select.bind(3, peer)
                select.bind(4, id)
                var revisions: [LocalRevision] = []
                while try select.step() {
                    let key = select.string(1)
                    var json = "{}"
                    var digests = Set<String>()
                    if !select.isNull(4) {
                        guard let body = select.documentBody(4, keyCount: database.sharedKeys.count) else {
                            throw DocLiteError(.corruptData, "document \(DocLiteError.quoted(key)) in collection \(DocLiteError.quoted(fullName)) "
                                                + "has a damaged body in the database file")
                        }
                        json = DocumentContent.encoded(body: body, keys: database.sharedKeys).json
                        if json.containsUTF8(#""digest""#) {
                            database.sharedKeys.lock.withLock {
                                body.withUnsafeBytes { BlobReferences.collect(in: Body($0), keys: database.sharedKeys, includingAttachments: false, into: &digests) }
                            }
                        }
                    }
                    revisions.append(LocalRevision(sequence: UInt64(select.int64(0)), id: key, revisionID: select.revisionID(2),
                                                   deleted: select.int64(3) != 0, json: json,
                                                   remoteRevisionID: select.isNull(5) ? nil : select.revisionID(5), blobDigests: digests))
                }
                return revisions
            }
        }
    }

    /// The state here of the documents `ids` (absent: never stored, or purged).
    func localStates(of ids: some Sequence<String>, peer: Int64) throws -> [String: LocalState] {
        try read { connection in
            var states: [String: LocalState] = [:]
            for id in ids {
                guard let stored = try storedRevision(id: id, connection) else { continue }
                states[id] = LocalState(revisionID: stored.revisionID, deleted: stored.isDeleted,
                                        remoteRevisionID: try remoteRevisionID(of: id, peer: peer, connection))
            }
            return states
        }
    }

    private func remoteRevisionID(of documentID: String, peer: Int64, _ connection: SQLiteConnection) throws -> String? {
        try connection.withStatement("SELECT revid FROM remote_revisions WHERE peer = ? AND collection = ? AND key = ?") { select in
            select.bind(1, peer)
            select.bind(2, id)
            select.bind(3, documentID)
            return try select.step() ? select.revisionID(0) : nil
        }
    }

    /// Records that the peer has `revisionID` of document `documentID`.
    func setRemoteRevisionID(_ revisionID: RevisionID.New, of documentID: String, peer: Int64) throws {
        try write { _, connection in try setRemoteRevisionID(revisionID, of: documentID, peer: peer, connection) }
    }

    private func setRemoteRevisionID(_ revisionID: RevisionID.New, of documentID: String, peer: Int64, _ connection: SQLiteConnection) throws {
        try connection.withStatement("INSERT OR REPLACE INTO remote_revisions (peer, collection, key, revid) VALUES (?, ?, ?, ?)") { insert in
            insert.bind(1, peer)
            insert.bind(2, id)
            insert.bind(3, documentID)
            insert.bind(4, revisionID.stored)
            try insert.run()
        }
    }

    /// Stores revision `revisionID` of document `documentID` as its current
    /// one (a live document with the properties `json`, or a tombstone),
    /// with `remote`'s revision as the peer's; all in one transaction, and only
    /// if the document's current revision is still `expected` (nil: none):
    /// returns false, storing nothing, when a local save came first.
    func storeRevision(_ revisionID: RevisionID.New, of documentID: String, deleted: Bool, json: String,
                       remote: (revisionID: RevisionID.New, peer: Int64)?, replacing expected: String?) throws -> Bool {
        let content = DocumentContent.json(try ValidatedJSON(json))
        if let key = content.reservedKey {
            throw DocLiteError(.corruptRevisionData, "the revision of document \(DocLiteError.quoted(documentID)) has the reserved top-level key '\(key)'")
        }
        return try write { database, connection in
            let stored = try storedRevision(id: documentID, connection)
            guard stored?.revisionID == expected else { return false }
            let body = try database.sharedKeys.lock.withLock { try content.encoded(with: &database.encoder) }
            if database.encoder.mayHoldBlobMetadata {
                try database.checkBlobsStored(for: body, of: documentID, newDigests: [], connection)
            }
            try database.persistNewKeys()
            let sequence = Int64(lastSequence + 1)
            try updatingDerivedRows(of: documentID, in: database, connection) {
                try run(sql.deleteLive, id: documentID, connection)
                try run(sql.deleteTombstone, id: documentID, connection)
                try connection.withStatement(deleted ? sql.insertReplicatedTombstone : sql.insertLive) { insert in
                    insert.bind(1, sequence)
                    insert.bind(2, documentID)
                    insert.bind(3, revisionID.stored)
                    insert.bind(4, deleted && json == "{}" ? nil : body)
                    try insert.run()
                }
            }
            if let remote { try setRemoteRevisionID(remote.revisionID, of: documentID, peer: remote.peer, connection) }
            lastSequence += 1
            if deleted { hasTombstones = true }
            database.transaction.recordChange(self, documentID)
            return true
        }
    }
}
