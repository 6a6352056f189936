import Foundation

/// The push and pull of one collection with a peer (docs/sync.md):
/// revisions move in batches, each batch's outcome is recorded here (remote
/// ancestors, then the checkpoint) before the next.
final class CollectionSync {
    static let batchSize = 500

    let plan: ReplicationPlan
    private let peer: ReplicationPeer
    private let events: ReplicationEvents
    private var checkpoint = ReplicationPlan.Checkpoint()
    /// Set by a push that found the server's revision newer: pull, then push again.
    private(set) var hasPushConflicts = false

    init(plan: ReplicationPlan, peer: ReplicationPeer, events: ReplicationEvents) {
        self.plan = plan
        self.peer = peer
        self.events = events
    }

    private var clientID: String { "\(plan.client)/\(plan.checkpointID)" }

    /// Reads the checkpoint saved here and its copy on the server: a server
    /// that lost its copy (a new or restored server) is synced from the start.
    func readCheckpoint(reset: Bool) throws {
        let local = try plan.localCheckpoint()
        let remote = try peer.checkpoint(client: clientID)
        guard !reset, let local, let remote else {
            checkpoint = ReplicationPlan.Checkpoint()
            return
        }
        checkpoint = local.merged(withServers: remote)
    }

    /// Saves the checkpoint on the server, then here (Couchbase Lite's order).
    private func saveCheckpoint() throws {
        try peer.saveCheckpoint(checkpoint, client: clientID)
        try plan.saveLocalCheckpoint(checkpoint)
    }

    // MARK: Push

    /// Pushes every change since the checkpoint.
    func push(stopRequested: () -> Bool) throws {
        hasPushConflicts = false
        while !stopRequested() {
            let batch = try plan.collection.changes(since: checkpoint.local, limit: Self.batchSize, peer: plan.peer)
            guard let last = batch.last else { return }
            let revisions = try batch.filter { try plan.shouldPush($0) }
            events.found(revisions.count)
            if !revisions.isEmpty { try push(revisions) }
            checkpoint.local = last.sequence
            try saveCheckpoint()
        }
    }

    private func push(_ revisions: [LocalRevision]) throws {
        // (PostgreSQL's JSONB cannot hold U+0000: such a document is refused alone, not the batch.)
        let (unstorable, revisions) = revisions.reduce(into: ([LocalRevision](), [LocalRevision]())) {
            if $1.json.containsUTF8("\\u0000") { $0.0.append($1) } else { $0.1.append($1) }
        }
        try pushBlobs(of: revisions)
        let outcomes = try peer.push(revisions, collection: plan.remoteName)
        let byID = Dictionary(revisions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var documents = unstorable.map {
            event($0.id, $0.deleted ? .deleted : [], DocLiteError(domain: .webSocket, code: 400,
                                                                  message: "document '\($0.id)' holds U+0000 in a string, which the server's JSONB cannot store"))
        }
        var conflicting: [String] = []
        try plan.collection.openDatabase().inBatch {
            for outcome in outcomes {
                guard let revision = byID[outcome.id] else { continue }
                let flags: DocumentFlags = revision.deleted ? .deleted : []
                switch outcome.status {
                case 0, 304:
                    // (304: the server has it; unless it is the current one, the server is newer and a pull brings that.)
                    if outcome.status == 0 || outcome.current == revision.revisionID, let known = RevisionID.parse(revision.revisionID) {
                        try plan.collection.setRemoteRevisionID(known, of: revision.id, peer: plan.peer)
                    }
                    if outcome.status == 0 { documents.append(event(revision.id, flags, nil)) }
                case 409 where plan.pulls:
                    conflicting.append(revision.id)
                default:
                    let reason = outcome.status == 409 ? "conflicts with a newer server revision"
                        : outcome.status == 403 ? "is another user's on the server" : "was rejected by the server"
                    documents.append(event(revision.id, flags, DocLiteError(domain: .webSocket, code: Int32(clamping: outcome.status),
                                                                            message: "document '\(revision.id)' \(reason)")))
                }
            }
        }
        events.completed(documents, isPush: true)
        if !conflicting.isEmpty {
            try pullConflicting(conflicting)
            hasPushConflicts = true
        }
    }

    /// Sends the content of the blobs `revisions` refer to that the server lacks.
    private func pushBlobs(of revisions: [LocalRevision]) throws {
        let digests = Set(revisions.flatMap(\.blobDigests))
        guard !digests.isEmpty else { return }
        let database = try plan.collection.openDatabase()
        for digest in digests.subtracting(try peer.storedBlobs(digests)).sorted() {
            try peer.storeBlob(digest: digest, content: try database.blobContent(digest: digest))
        }
    }

    // MARK: Pull

    /// Pulls every server change since the checkpoint, following the
    /// server's access changes: read before it starts and after each batch
    /// (docs/sync.md, "Who sees what").
    func pull(stopRequested: () -> Bool) throws {
        // Pulling into an empty collection skips the server's tombstones (Couchbase Lite's "active only").
        let activeOnly = checkpoint.remote == 0 && plan.collection.lastSequence == 0
        let server = peer as? AccessControlledPeer
        let grantedBefore = try server.flatMap { try catchUpOnAccess($0, stopRequested: stopRequested) }
        var grantedNow = grantedBefore
        while !stopRequested() {
            guard let last = try pullBatch(since: checkpoint.remote, channels: plan.config.channels, skippingTombstones: activeOnly) else { break }
            checkpoint.remote = last
            if let server, let grantedBefore {
                let granted = try server.grantedChannels()
                noteGrants(granted, grantedBefore: grantedBefore)
                grantedNow = granted
            }
            try saveCheckpoint()
        }
        if let server, let grantedBefore, let grantedNow, !stopRequested() {
            try recordAccess(server, granted: grantedNow, grantedBefore: grantedBefore, stopRequested: stopRequested)
        }
    }

    /// Pulls and stores the server's next batch after `sequence`; the sequence of its last row (nil: none).
    private func pullBatch(since sequence: Int64, channels: [String]?, skippingTombstones: Bool) throws -> Int64? {
        let batch = try peer.revisions(collection: plan.remoteName, since: sequence, channels: channels,
                                       documentIDs: plan.documentIDs, limit: Self.batchSize)
        guard let last = batch.lastSequence else { return nil }
        events.found(batch.revisions.count + batch.malformed.count)
        try apply(batch.revisions.filter { !(skippingTombstones && $0.deleted) })
        events.completed(batch.malformed.map { event($0.id, [], $0.error) }, isPush: false)
        return last
    }

    /// Pulls the server's current revisions of `ids`, which a push found newer
    /// than the local ones' ancestors: the conflicts are resolved now (the
    /// pull's checkpoint may be past those revisions: a document purged here
    /// and made again), and the next push sends the outcome.
    private func pullConflicting(_ ids: [String]) throws {
        let batch = try peer.revisions(collection: plan.remoteName, ids: ids)
        try apply(batch.revisions)
        events.completed(batch.malformed.map { event($0.id, [], $0.error) }, isPush: false)
    }

    /// Stores the pulled `revisions`: fast-forwards, conflicts resolved.
    private func apply(_ revisions: [RemoteRevision]) throws {
        var documents: [ReplicatedDocument] = []
        var conflicts: [(RemoteRevision, LocalState)] = []
        try fetchBlobs(of: revisions, failing: &documents)
        let failed = Set(documents.map(\.id))
        let states = try plan.collection.localStates(of: revisions.map(\.id), peer: plan.peer)
        try plan.collection.openDatabase().inBatch {
            for revision in revisions where !failed.contains(revision.id) {
                guard try passesPullFilter(revision, &documents) else { continue }
                let local = states[revision.id]
                switch decide(revision, local) {
                case .store:
                    documents.append(try store(revision, replacing: local?.revisionID))
                case .markSynced:
                    try plan.collection.setRemoteRevisionID(revision.revisionID, of: revision.id, peer: plan.peer)
                case .keepLocal:
                    break
                case .conflict:
                    if let local { conflicts.append((revision, local)) }
                }
            }
        }
        for (revision, local) in conflicts { documents.append(try resolve(revision, local)) }
        events.completed(documents, isPush: false)
    }

    private enum Decision { case store, markSynced, keepLocal, conflict }

    /// What a pulled revision does to the document here (docs/sync.md, "Conflicts").
    private func decide(_ revision: RemoteRevision, _ local: LocalState?) -> Decision {
        guard let local else { return .store }
        if local.revisionID == revision.revisionID.text {
            return local.remoteRevisionID == local.revisionID ? .keepLocal : .markSynced
        }
        if local.remoteRevisionID == local.revisionID || revision.history.contains(local.revisionID) { return .store }
        if local.remoteRevisionID == revision.revisionID.text { return .keepLocal }   // the server has not moved; the push sends ours
        if local.deleted && revision.deleted { return .store }
        return .conflict
    }

    /// Stores `revision` over `expected` (a local save meanwhile makes it a conflict, resolved at once).
    private func store(_ revision: RemoteRevision, replacing expected: String?) throws -> ReplicatedDocument {
        let flags: DocumentFlags = revision.deleted ? .deleted : []
        do {
            if try plan.collection.storeRevision(revision.revisionID, of: revision.id, deleted: revision.deleted, json: revision.json,
                                                 remote: (revision.revisionID, plan.peer), replacing: expected) {
                return event(revision.id, flags, nil)
            }
            guard let local = try plan.collection.localStates(of: [revision.id], peer: plan.peer)[revision.id] else {
                return try store(revision, replacing: nil)
            }
            return try resolve(revision, local)
        } catch let error as DocLiteError where Self.isProblemOfTheRevision(error) {
            return event(revision.id, flags, error)
        }
    }

    /// Whether `error` concerns one revision (its body, its blobs), so the pull reports it and
    /// goes on; any other (a full disk, a closed database) stops the pull before its checkpoint.
    private static func isProblemOfTheRevision(_ error: DocLiteError) -> Bool {
        error.domain == .fleece || error.is(.corruptRevisionData) || error.is(.invalidParameter) || error.is(.badDocID)
    }

    /// Resolves a conflict with the collection's resolver and stores the
    /// outcome: the server's revision, or a new revision whose parent is the
    /// server's (so that the push that follows is accepted), holding the local
    /// properties, the resolver's merge, or a deletion.
    private func resolve(_ revision: RemoteRevision, _ local: LocalState, attempt: Int = 0) throws -> ReplicatedDocument {
        let id = revision.id
        do {
            let localDocument = local.deleted ? nil : try plan.collection.document(id: id)
            let remoteDocument = revision.deleted ? nil : try plan.document(id, revisionID: revision.revisionID.text, json: revision.json)
            let resolver = plan.config.conflictResolver ?? ConflictResolver.default
            let resolved = resolver.resolve(conflict: Conflict(documentID: id, localDocument: localDocument, remoteDocument: remoteDocument))
            let deleted: Bool, json: String
            if let resolved, resolved === remoteDocument || !(resolved is MutableDocument) && resolved.revisionID == revision.revisionID.text {
                return try store(revision, replacing: local.revisionID)
            } else if let resolved {
                deleted = false
                json = resolved.toJSON()
            } else {
                deleted = true
                json = "{}"
            }
            let sha1 = try SHA1()
            let merged = RevisionID.next(after: revision.revisionID.text, deleted: deleted, body: Array(json.utf8), sha1: sha1)
            if try plan.collection.storeRevision(merged, of: id, deleted: deleted, json: json, remote: (revision.revisionID, plan.peer),
                                                 replacing: local.revisionID) {
                return event(id, deleted ? .deleted : [], nil)
            }
            // A local save came first: resolve again against it (Couchbase Lite tries 10 times).
            guard attempt < 10, let now = try plan.collection.localStates(of: [id], peer: plan.peer)[id] else {
                return event(id, [], DocLiteError(.conflict, "document '\(id)' kept changing while its conflict was resolved"))
            }
            return try resolve(revision, now, attempt: attempt + 1)
        } catch let error as DocLiteError where Self.isProblemOfTheRevision(error) {
            return event(id, revision.deleted ? .deleted : [], error)
        }
    }

    private func passesPullFilter(_ revision: RemoteRevision, _ documents: inout [ReplicatedDocument]) throws -> Bool {
        guard let filter = plan.config.pullFilter else { return true }
        let flags: DocumentFlags = revision.deleted ? .deleted : []
        let document = try plan.document(revision.id, revisionID: revision.revisionID.text, json: revision.json)
        if filter(document, flags) { return true }
        documents.append(event(revision.id, flags, DocLiteError(domain: .webSocket, code: 403,
                                                                message: "document '\(revision.id)' was rejected by the pull filter")))
        return false
    }

    /// Fetches the blobs the revisions refer to that this database lacks,
    /// checking each against its digest; a revision whose blob fails is not stored.
    private func fetchBlobs(of revisions: [RemoteRevision], failing documents: inout [ReplicatedDocument]) throws {
        let database = try plan.collection.openDatabase()
        for revision in revisions where revision.json.containsUTF8(#""digest""#) {
            guard case .dictionary(let members)? = try? JSONValue(json: revision.json) else { continue }
            var digests = Set<String>()
            BlobReferences.collect(in: .dictionary(members), into: &digests)
            for digest in digests.sorted() where try !database.hasBlob(digest: digest) {
                let content = try peer.blob(digest: digest)
                let blob = content.map { Blob(contentType: nil, data: $0) }
                guard let blob, blob.digest == digest else {
                    let problem = content == nil ? "is not on the server" : "does not match its digest on the server"
                    documents.append(event(revision.id, [], DocLiteError(.notFound, "blob \(digest) of document '\(revision.id)' \(problem)")))
                    break
                }
                try database.saveBlob(blob: blob)
            }
        }
    }

    // MARK: Access

    /// Before a pull: purges here the documents of the channels revoked since
    /// the last pull (without a record of the grants, a checkpoint started
    /// over, every document here of some channel is checked), records the
    /// grants, then pulls the older documents of the channels granted since,
    /// which the checkpoint is already past. The channels granted now; nil when
    /// stopped midway.
    private func catchUpOnAccess(_ server: AccessControlledPeer, stopRequested: () -> Bool) throws -> Set<String>? {
        let granted = try server.grantedChannels()
        let revoked = checkpoint.granted.map { $0.subtracting(granted) }   // (nil: any channel)
        if revoked?.isEmpty != true { try removeAccess(to: try syncedDocuments(inChannels: revoked), server) }
        let whole = checkpoint.granted?.subtracting(checkpoint.backfill) ?? []
        // (Saved before any document of a new channel arrives: a pull stopped midway leaves it to pull and to purge.)
        let record = (granted, granted.subtracting(whole))
        if (checkpoint.granted, checkpoint.backfill) != record {
            (checkpoint.granted, checkpoint.backfill) = record
            try saveCheckpoint()
        }
        let wanted = plan.config.channels.map(Set.init)
        let added = granted.subtracting(whole).filter { wanted?.contains($0) ?? true }.sorted()
        var since: Int64 = 0
        while !added.isEmpty, since < checkpoint.remote {
            guard !stopRequested() else { return nil }
            guard let last = try pullBatch(since: since, channels: added, skippingTombstones: true) else { break }
            since = last
        }
        checkpoint.backfill = []
        return granted
    }

    /// Adds to the checkpoint's record the channels `granted` while the pull
    /// runs (read after each batch, so the batch's save records any channel
    /// whose documents it brought); those not granted before are still to
    /// pull whole.
    private func noteGrants(_ granted: Set<String>, grantedBefore: Set<String>) {
        checkpoint.granted = (checkpoint.granted ?? []).union(granted)
        checkpoint.backfill.formUnion(granted.subtracting(grantedBefore))
    }

    /// After a pull: purges here the documents of the channels revoked while
    /// it ran (`granted`: the grants read after its last batch) and those the
    /// server records as having left this role's channels, then records the
    /// grants.
    private func recordAccess(_ server: AccessControlledPeer, granted: Set<String>, grantedBefore: Set<String>,
                              stopRequested: () -> Bool) throws {
        let before = checkpoint
        let revoked = (checkpoint.granted ?? []).subtracting(granted)
        if !revoked.isEmpty { try removeAccess(to: try syncedDocuments(inChannels: revoked), server) }
        while !stopRequested() {
            let removed = try server.removals(collection: plan.remoteName, since: checkpoint.removals, limit: Self.batchSize)
            guard let last = removed.last else { break }
            try removeAccess(to: removed.map(\.id), server)
            checkpoint.removals = last.sequence
        }
        checkpoint.granted = granted
        checkpoint.backfill = granted.subtracting(grantedBefore)
        if checkpoint != before { try saveCheckpoint() }
    }

    /// The documents here, known to the server, whose `channels` property
    /// names one of `channels` (nil: any channel).
    private func syncedDocuments(inChannels channels: Set<String>?) throws -> [String] {
        var ids: [String] = [], after: UInt64 = 0
        while true {
            let batch = try plan.collection.changes(since: after, limit: 1000, peer: plan.peer)
            guard let last = batch.last else { return ids }
            for revision in batch where !revision.deleted && revision.remoteRevisionID != nil {
                guard case .dictionary(let members)? = try? JSONValue(json: revision.json) else { continue }
                let named: [String] = switch members["channels"] {
                case .string(let channel)?: [channel]
                case .array(let items)?: items.compactMap(\.stringValue)
                default: []
                }
                if channels.map({ !$0.isDisjoint(with: named) }) ?? !named.isEmpty { ids.append(revision.id) }
            }
            after = last.sequence
        }
    }

    /// Of the documents `ids`, those here that the server no longer lets this
    /// role read are purged (with auto-purge, unless the pull filter, asked
    /// with ``DocumentFlags/accessRemoved``, keeps them) and reported.
    private func removeAccess(to ids: [String], _ server: AccessControlledPeer) throws {
        for start in stride(from: 0, to: ids.count, by: Self.batchSize) {
            let chunk = Array(ids[start..<min(ids.count, start + Self.batchSize)])
            let states = try plan.collection.localStates(of: chunk, peer: plan.peer)
            let present = chunk.filter { states[$0] != nil }
            guard !present.isEmpty else { continue }
            var documents: [ReplicatedDocument] = []
            for id in try server.unreadableIDs(collection: plan.remoteName, among: present).sorted() {
                if let filter = plan.config.pullFilter,
                   !filter(try plan.document(id, revisionID: states[id]?.revisionID ?? "", json: "{}"), .accessRemoved) { continue }
                do {
                    if plan.autoPurge { try plan.collection.purge(id: id) }
                } catch let error as DocLiteError where error.is(.notFound) {
                    continue   // (purged here meanwhile)
                }
                documents.append(event(id, .accessRemoved, nil))
            }
            events.completed(documents, isPush: false)
        }
    }

    private func event(_ id: String, _ flags: DocumentFlags, _ error: (any Error)?) -> ReplicatedDocument {
        ReplicatedDocument(id: id, flags: flags, error: error, scope: plan.collection.scopeName, collection: plan.collection.name)
    }
}
