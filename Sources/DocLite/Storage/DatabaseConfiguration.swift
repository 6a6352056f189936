import Foundation

/// Where a database lives and how durably it commits.
public struct DatabaseConfiguration: Sendable {
    /// The directory holding the database file; created when missing.
    public var directory: String
    /// With `true`, every commit is synced to disk (`synchronous=FULL`) and survives
    /// power loss; with `false` (the default, `synchronous=NORMAL` in WAL mode) a
    /// commit survives a crash of the process but the last commits may be lost on
    /// power loss. The file is never corrupted either way.
    public var fullSync: Bool

    /// A configuration; the directory defaults to the current one.
    public init(directory: String = FileManager.default.currentDirectoryPath, fullSync: Bool = false) {
        self.directory = directory
        self.fullSync = fullSync
    }
}
