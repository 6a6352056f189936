import Foundation

extension Replicator {
    /// What a replicator is doing (Couchbase Lite's `ActivityLevel`).
    public enum ActivityLevel: UInt8, Sendable {
        /// Not running: never started, finished, stopped, or failed (see ``Status/error``).
        case stopped = 0
        /// The server cannot be reached; it will try again.
        case offline
        /// Connecting to the server.
        case connecting
        /// Caught up, waiting for changes (continuous).
        case idle
        /// Moving revisions.
        case busy
    }

    /// How far a replicator got: documents done out of those found to move
    /// (Couchbase Lite's counts are as approximate).
    public struct Progress: Sendable, Equatable {
        /// Documents replicated.
        public let completed: UInt64
        /// Documents found to replicate so far.
        public let total: UInt64
    }

    /// A replicator's activity, progress and last error.
    public struct Status: Sendable {
        /// What it is doing.
        public let activity: ActivityLevel
        /// How far it got.
        public let progress: Progress
        /// Why it is offline or stopped, if not by request.
        public let error: (any Error)?
    }
}

/// A change of a replicator's status, as its change listeners receive it.
public struct ReplicatorChange: Sendable {
    /// The replicator.
    public let replicator: Replicator
    /// Its new status.
    public let status: Replicator.Status
}

/// A document pushed or pulled (or that failed to be).
public struct ReplicatedDocument: Sendable {
    /// The document's ID.
    public let id: String
    /// Whether the revision is a deletion, or the user lost access to it.
    public let flags: DocumentFlags
    /// Why it was not replicated; nil when it was.
    public let error: (any Error)?
    /// Its scope's name.
    public let scope: String
    /// Its collection's name.
    public let collection: String
}

/// Documents a replicator pushed or pulled, as its document listeners receive them.
public struct DocumentReplication: Sendable {
    /// The replicator.
    public let replicator: Replicator
    /// Whether they were pushed (else pulled).
    public let isPush: Bool
    /// The documents.
    public let documents: [ReplicatedDocument]
}
