/// A document changed both here and on the server since they last agreed.
public struct Conflict: Sendable {
    /// The document's ID.
    public let documentID: String
    /// The local revision; nil when it is deleted.
    public let localDocument: Document?
    /// The server's revision; nil when it is deleted.
    public let remoteDocument: Document?
}

/// Decides the outcome of a pull conflict (Couchbase Lite's
/// `ConflictResolverProtocol`): return `localDocument`, `remoteDocument`, a
/// new or changed document (a merge, saved as a revision after the
/// server's), or nil to delete the document.
public protocol ConflictResolverProtocol: Sendable {
    /// The resolution of `conflict`.
    func resolve(conflict: Conflict) -> Document?
}

/// Couchbase Lite's resolvers.
public enum ConflictResolver {
    /// Couchbase Lite 3.x's rule: a deletion wins; otherwise the revision with
    /// more generations (edits) wins, and between equal generations the one
    /// with the greater revision ID, so both devices choose the same.
    public static let `default`: ConflictResolverProtocol = DefaultConflictResolver()
}

struct DefaultConflictResolver: ConflictResolverProtocol {
    func resolve(conflict: Conflict) -> Document? {
        guard let local = conflict.localDocument, let remote = conflict.remoteDocument else { return nil }
        let localID = local.revisionID ?? "", remoteID = remote.revisionID ?? ""
        let localGeneration = RevisionID.generation(of: localID), remoteGeneration = RevisionID.generation(of: remoteID)
        if localGeneration != remoteGeneration { return localGeneration > remoteGeneration ? local : remote }
        return localID > remoteID ? local : remote
    }
}
