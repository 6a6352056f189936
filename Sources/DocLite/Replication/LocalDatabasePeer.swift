import Foundation

/// Another DocLite database as a replication peer (``DatabaseEndpoint``): its
/// collections take pushed revisions with the server's compare-and-set, their
/// sequences are its change sequence, and it keeps no ancestors (a pull from
/// it fast-forwards only documents unchanged here since the last sync). The
/// checkpoints of the clients that sync with it are kept under peer 0.
final class LocalDatabasePeer: ReplicationPeer {
    private static let clientCheckpoints: Int64 = 0
    private let database: Database
    private let wake: @Sendable () -> Void
    private var tokens: [ListenerToken] = []
    private var listened: Set<String> = []

    /// `wake` is called when one of its collections the replicator uses changes.
    init(_ database: Database, wake: @escaping @Sendable () -> Void) throws {
        _ = try database.openConnection()
        self.database = database
        self.wake = wake
    }

    func interrupt() {}   // (its steps are local and short: a stop waits for them)

    func close() {
        tokens.forEach { $0.remove() }
        tokens = []
    }

    /// The collection `scope.name`, made when `create` is set; listened to once found.
    private func collection(_ fullName: String, create: Bool) throws -> Collection? {
        let parts = fullName.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        let found = create ? try database.createCollection(name: parts[1], scope: parts[0])
            : try database.collection(name: parts[1], scope: parts[0])
        if let found, listened.insert(fullName).inserted {
            tokens.append(found.addChangeListener(queue: DispatchQueue.global()) { [wake] _ in wake() })
        }
        return found
    }

    func checkpoint(client: String) throws -> ReplicationPlan.Checkpoint? {
        try database.checkpoint(peer: Self.clientCheckpoints, id: client).flatMap(ReplicationPlan.Checkpoint.init(json:))
    }

    func saveCheckpoint(_ checkpoint: ReplicationPlan.Checkpoint, client: String) throws {
        try database.saveCheckpoint(peer: Self.clientCheckpoints, id: client, body: checkpoint.json)
    }

    func push(_ revisions: [LocalRevision], collection name: String) throws -> [PushOutcome] {
        guard let target = try collection(name, create: true) else { return [] }
        var outcomes: [PushOutcome] = []
        try database.inBatch {
            for revision in revisions {
                guard let revisionID = RevisionID.parse(revision.revisionID) else {
                    outcomes.append(PushOutcome(id: revision.id, status: 400, current: nil))
                    continue
                }
                let current = try target.localStates(of: [revision.id], peer: Self.clientCheckpoints)[revision.id]
                if let current, current.revisionID == revision.revisionID {
                    outcomes.append(PushOutcome(id: revision.id, status: 304, current: current.revisionID))
                } else if current == nil || current?.revisionID == revision.remoteRevisionID
                            || current?.deleted == true && revision.remoteRevisionID == nil {
                    let stored = try target.storeRevision(revisionID, of: revision.id, deleted: revision.deleted, json: revision.json,
                                                          remote: nil, replacing: current?.revisionID)
                    outcomes.append(PushOutcome(id: revision.id, status: stored ? 0 : 409, current: current?.revisionID))
                } else {
                    outcomes.append(PushOutcome(id: revision.id, status: 409, current: current?.revisionID))
                }
            }
        }
        return outcomes
    }

    func revisions(collection name: String, since sequence: Int64, channels: [String]?, documentIDs: Set<String>?, limit: Int) throws -> RemoteBatch {
        var batch = RemoteBatch()
        guard let source = try collection(name, create: false) else { return batch }
        for change in try source.changes(since: UInt64(max(0, sequence)), limit: limit, peer: Self.clientCheckpoints) {
            let allowed = documentIDs?.contains(change.id) ?? true
            if allowed, channels.map({ Self.channels(of: change.json).contains(where: $0.contains) }) ?? true {
                batch.add(sequence: Int64(change.sequence), id: change.id, revisionID: change.revisionID, history: [],
                          deleted: change.deleted, json: change.json)
            } else {
                batch.lastSequence = Int64(change.sequence)
            }
        }
        return batch
    }

    func revisions(collection name: String, ids: [String]) throws -> RemoteBatch {
        var batch = RemoteBatch()
        guard let source = try collection(name, create: false) else { return batch }
        for (id, state) in try source.localStates(of: ids, peer: Self.clientCheckpoints) {
            let json = state.deleted ? "{}" : try source.document(id: id)?.toJSON() ?? "{}"
            batch.add(sequence: 0, id: id, revisionID: state.revisionID, history: [], deleted: state.deleted, json: json)
        }
        return batch
    }

    /// A document's channels: its `channels` property, a string or an array of strings.
    private static func channels(of json: String) -> [String] {
        guard case .dictionary(let members)? = try? JSONValue(json: json) else { return [] }
        switch members["channels"] {
        case .string(let channel)?: return [channel]
        case .array(let channels)?: return channels.compactMap(\.stringValue)
        default: return []
        }
    }

    func storedBlobs(_ digests: Set<String>) throws -> Set<String> {
        try digests.filter { try database.hasBlob(digest: $0) }
    }

    func storeBlob(digest: String, content: Data) throws {
        let blob = Blob(contentType: nil, data: content)
        if blob.digest == digest { try database.saveBlob(blob: blob) }
    }

    func blob(digest: String) throws -> Data? {
        try database.hasBlob(digest: digest) ? database.blobContent(digest: digest) : nil
    }

    func waitForChanges(timeout: TimeInterval, wakeUp: Int32) throws -> Bool {
        waitUntilReadable(wakeUp, timeout: timeout)
        _ = try database.openConnection()   // (a closed peer ends the replicator with the error)
        return false
    }
}
