import Foundation

/// What a replicator knows of one collection before it connects: the peer's
/// local ID, the checkpoint's ID, the filters; and what the next push would
/// send (``Replicator/pendingDocumentIds(collection:)``).
struct ReplicationPlan {
    /// A checkpoint: the local sequence up to which every change was pushed,
    /// the server sequence up to which every change was pulled, and for a
    /// server with access control, how far its record of channel removals was
    /// read, the channels granted when the last pull ended (nil: no record),
    /// and of those the ones granted while it ran, whose older documents are
    /// still to pull.
    struct Checkpoint: Equatable {
        var local: UInt64 = 0
        var remote: Int64 = 0
        var removals: Int64 = 0
        var granted: Set<String>?
        var backfill: Set<String> = []

        init() {}

        init?(json: String) {
            guard case .dictionary(let members)? = try? JSONValue(json: json),
                  let local = members["local"]?.int64, let remote = members["remote"]?.int64, local >= 0, remote >= 0 else { return nil }
            self.local = UInt64(local)
            self.remote = remote
            removals = max(0, members["removals"]?.int64 ?? 0)
            if case .array(let channels)? = members["granted"] { granted = Set(channels.compactMap(\.stringValue)) }
            if case .array(let channels)? = members["backfill"] { backfill = Set(channels.compactMap(\.stringValue)) }
        }

        var json: String {
            func list(_ channels: Set<String>) -> String { JSONValue.array(channels.sorted().map(JSONValue.string)).json }
            return #"{"local":\#(local),"remote":\#(remote),"removals":\#(removals),"granted":\#(granted.map(list) ?? "null"),"#
                + #""backfill":\#(list(backfill))}"#
        }

        /// What both copies of a checkpoint vouch for: the lesser sequences;
        /// every channel either copy saw granted (a revocation of any purges),
        /// of which only those both copies pulled whole are not pulled again.
        func merged(withServers other: Checkpoint) -> Checkpoint {
            var merged = Checkpoint()
            merged.local = min(local, other.local)
            merged.remote = min(remote, other.remote)
            merged.removals = min(removals, other.removals)
            if let mine = granted, let theirs = other.granted {
                let whole = mine.subtracting(backfill).intersection(theirs.subtracting(other.backfill))
                merged.granted = mine.union(theirs)
                merged.backfill = mine.union(theirs).subtracting(whole)
            }
            return merged
        }
    }

    let collection: Collection
    let config: CollectionConfiguration
    let replicatorType: ReplicatorType
    /// The peer's ID in this database, and this database's client ID there.
    let peer: Int64
    let client: String
    /// Names the checkpoint: the collection (by name and ID: one made again
    /// starts over), the direction, the channels and document IDs (a change of
    /// any starts over, as in Couchbase Lite).
    let checkpointID: String
    let documentIDs: Set<String>?
    /// Whether documents the server no longer lets this user read are purged here.
    let autoPurge: Bool

    /// The collection's name on the server.
    var remoteName: String { collection.fullName }
    var pushes: Bool { replicatorType != .pull }
    var pulls: Bool { replicatorType != .push }

    init(config: ReplicatorConfiguration, collection: CollectionConfiguration) throws {
        guard let synced = collection.collection else {
            throw DocLiteError(.invalidParameter, "the replicator's collection configuration names no collection")
        }
        self.collection = synced
        self.config = collection
        replicatorType = config.replicatorType
        autoPurge = config.enableAutoPurge
        (peer, client) = try synced.openDatabase().replicationPeer(address: try Self.address(of: config.target))
        documentIDs = collection.documentIDs.map(Set.init)
        let identity = JSONValue.array([
            .string(synced.fullName), .int(synced.id), .int(Int64(config.replicatorType.rawValue)),
            collection.channels.map { .array($0.sorted().map(JSONValue.string)) } ?? .null,
            collection.documentIDs.map { .array($0.sorted().map(JSONValue.string)) } ?? .null,
        ]).json
        var digest: [UInt8] = []
        let sha1 = try SHA1()
        sha1.begin()
        identity.utf8CString.withUnsafeBytes { sha1.update(UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
        sha1.finish(appendingTo: &digest)
        checkpointID = "cp-" + digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The peer's identity: the server's `postgresql://user@host:port/database`, or
    /// the other database's file.
    static func address(of endpoint: Endpoint) throws -> String {
        switch endpoint {
        case let server as PostgreSQLEndpoint: return try PostgreSQLConnection.address(of: server.connectionString)
        case let other as DatabaseEndpoint: return "doclite://" + other.database.filePath
        default: throw DocLiteError(.invalidParameter, "the replicator's endpoint is not one DocLite syncs with")
        }
    }

    /// The checkpoint saved here (zero when none).
    func localCheckpoint() throws -> Checkpoint? {
        try collection.openDatabase().checkpoint(peer: peer, id: checkpointID).map { Checkpoint(json: $0) ?? Checkpoint() }
    }

    func saveLocalCheckpoint(_ checkpoint: Checkpoint) throws {
        try collection.openDatabase().saveCheckpoint(peer: peer, id: checkpointID, body: checkpoint.json)
    }

    /// The revisions the next push would send.
    func pendingRevisions(documentID: String?) throws -> [LocalRevision] {
        let since = try localCheckpoint()?.local ?? 0
        var pending: [LocalRevision] = []
        var after = since
        while true {
            let batch = try collection.changes(since: after, limit: 1000, peer: peer)
            guard let last = batch.last else { return pending }
            pending += try batch.filter { try ($0.id == documentID || documentID == nil) && shouldPush($0) }
            after = last.sequence
        }
    }

    /// Whether `revision` is to be pushed: the server does not have it, and
    /// the document IDs and the push filter allow it.
    func shouldPush(_ revision: LocalRevision) throws -> Bool {
        guard revision.remoteRevisionID != revision.revisionID, allows(revision.id) else { return false }
        guard let filter = config.pushFilter else { return true }
        return filter(try document(revision.id, revisionID: revision.revisionID, json: revision.json),
                      revision.deleted ? .deleted : [])
    }

    func allows(_ documentID: String) -> Bool { documentIDs?.contains(documentID) ?? true }

    /// A read-only document of this collection with properties `json`.
    func document(_ id: String, revisionID: String, json: String) throws -> Document {
        Document(id: id, revisionID: revisionID, sequence: 0, collection: collection, content: .json(try ValidatedJSON(json)))
    }
}
