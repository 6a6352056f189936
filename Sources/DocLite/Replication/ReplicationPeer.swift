import Foundation

/// A revision as the peer holds it.
struct RemoteRevision {
    let sequence: Int64
    let id: String
    let revisionID: RevisionID.New
    /// Its ancestors, newest first (bounded: ``ServerSchema/maxHistory``; none for a local database).
    let history: [String]
    let deleted: Bool
    let json: String
}

/// Revisions read from a peer: those DocLite can store, the malformed ones
/// (reported), and the sequence of the last row read (nil: none).
struct RemoteBatch {
    var revisions: [RemoteRevision] = []
    var malformed: [(id: String, error: DocLiteError)] = []
    var lastSequence: Int64?

    /// Adds a row, checking its revision ID and document ID.
    mutating func add(sequence: Int64, id: String, revisionID text: String?, history: [String], deleted: Bool, json: String) {
        lastSequence = sequence
        guard let text, let revisionID = RevisionID.parse(text), (try? DocumentIDs.validate(id)) != nil else {
            malformed.append((id, DocLiteError(domain: .webSocket, code: 400, message: "the server's revision of document '\(id)' is malformed")))
            return
        }
        revisions.append(RemoteRevision(sequence: sequence, id: id, revisionID: revisionID, history: history, deleted: deleted, json: json))
    }
}

/// What a peer answers to a pushed revision: 0 (stored), 304 (it has it already),
/// 409 (its current revision, `current`, is not the parent), 400, 403.
struct PushOutcome {
    let id: String
    let status: Int
    let current: String?
}

/// The other side of a replication: a PostgreSQL server (``PostgreSQLPeer``)
/// or another DocLite database (``LocalDatabasePeer``). A collection is named
/// `scope.name`; a client's checkpoint by the client's ID.
protocol ReplicationPeer: AnyObject {
    func checkpoint(client: String) throws -> ReplicationPlan.Checkpoint?
    func saveCheckpoint(_ checkpoint: ReplicationPlan.Checkpoint, client: String) throws
    /// Compares and sets each revision against the peer's current one.
    func push(_ revisions: [LocalRevision], collection: String) throws -> [PushOutcome]
    /// Revisions after `sequence`, in sequence order, at most `limit`.
    func revisions(collection: String, since sequence: Int64, channels: [String]?, documentIDs: Set<String>?, limit: Int) throws -> RemoteBatch
    /// The current revisions of `ids`.
    func revisions(collection: String, ids: [String]) throws -> RemoteBatch
    /// Which of `digests` the peer stores.
    func storedBlobs(_ digests: Set<String>) throws -> Set<String>
    func storeBlob(digest: String, content: Data) throws
    /// The content of blob `digest`, nil when the peer lacks it.
    func blob(digest: String) throws -> Data?
    /// Waits for a change on the peer, `wakeUp` to be readable, or `timeout`;
    /// whether the peer changed. Throws when the peer is gone.
    func waitForChanges(timeout: TimeInterval, wakeUp: Int32) throws -> Bool
    /// Cancels the statement running on the peer, if any: called from another thread, to stop.
    func interrupt()
    func close()
}

/// A peer that decides which documents each role reads (a PostgreSQL server's
/// row-level security): a pull follows its grants and its record of documents
/// that left channels (docs/sync.md, "Who sees what").
protocol AccessControlledPeer: ReplicationPeer {
    /// The channels granted to the connected role.
    func grantedChannels() throws -> Set<String>
    /// The documents of `collection` that left one of this role's channels after
    /// `sequence`, in sequence order, at most `limit`.
    func removals(collection: String, since sequence: Int64, limit: Int) throws -> [(sequence: Int64, id: String)]
    /// Which of `ids` the connected role cannot read (hidden from it, or gone).
    func unreadableIDs(collection: String, among ids: [String]) throws -> Set<String>
}
