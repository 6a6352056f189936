import ArgumentParser
import DocLite
import Foundation

/// `doclite sync init URL` and `doclite sync DB URL [--push|--pull] [--continuous]`.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync a database with a PostgreSQL server (docs/sync.md).",
        subcommands: [SyncRunCommand.self, SyncInitCommand.self],
        defaultSubcommand: SyncRunCommand.self
    )
}

/// `doclite sync init URL`: creates or checks DocLite's schema on the server.
struct SyncInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create (or check) DocLite's schema in a PostgreSQL database.",
        discussion: "Run as a role that may create schemas and roles; then GRANT doclite_sync TO each role that syncs."
    )

    @Argument(help: "The server: a libpq connection string ('postgresql://admin@host/app' or 'host=… dbname=…').")
    var server: String

    func run() throws {
        try PostgreSQLEndpoint(connectionString: server).initializeServer()
        print("the DocLite schema is ready in \(server.split(separator: " ").first { $0.hasPrefix("dbname=") } ?? Substring(server))")
    }
}

/// `doclite sync DB URL`: pushes and pulls until caught up (or, continuous, until interrupted).
struct SyncRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Push and pull a database's collections to and from a PostgreSQL server.",
        discussion: "Progress goes to standard error; the exit status is 1 when the replicator stopped with an error."
    )

    @OptionGroup var location: DatabaseLocation
    @Argument(help: "The server: a libpq connection string ('postgresql://alice:secret@host/app').")
    var server: String
    @Option(name: .customLong("collection"), help: "A collection to sync, as 'name' or 'scope.name' (repeatable; default: the default collection).")
    var collections: [String] = []
    @Flag(help: "Only push local changes.")
    var push = false
    @Flag(help: "Only pull the server's changes.")
    var pull = false
    @Flag(help: "Keep running, syncing changes as they happen, until interrupted (Ctrl-C).")
    var continuous = false
    @Flag(help: "Start over, as if never synced (documents the server has are not sent again).")
    var reset = false
    @Flag(help: "Create DocLite's schema on the server when it has none, or upgrade an older one.")
    var createSchema = false
    @Option(name: .customLong("channel"), help: "Pull only documents of this channel (repeatable).")
    var channels: [String] = []
    @Option(name: .customLong("document-id"), help: "Push and pull only this document (repeatable).")
    var documentIDs: [String] = []
    @Flag(help: "Keep the documents the server no longer lets this user read (they are only reported).")
    var noAutoPurge = false

    func run() throws {
        guard !(push && pull) else { throw ValidationError("--push and --pull exclude each other: give neither to do both") }
        let database = try location.open()
        defer { try? database.close() }
        var config = ReplicatorConfiguration(target: try PostgreSQLEndpoint(connectionString: server, createsSchema: createSchema))
        var collectionConfig = CollectionConfiguration()
        collectionConfig.channels = channels.isEmpty ? nil : channels
        collectionConfig.documentIDs = documentIDs.isEmpty ? nil : documentIDs
        for name in collections.isEmpty ? [nil] : collections.map(Optional.some) {
            config.addCollection(try location.collection(name, in: database), config: collectionConfig)
        }
        config.replicatorType = push ? .push : pull ? .pull : .pushAndPull
        config.continuous = continuous
        config.enableAutoPurge = !noAutoPurge
        let replicator = Replicator(config: config)
        let queue = DispatchQueue(label: "doclite sync")
        let stopped = DispatchSemaphore(value: 0)
        replicator.addDocumentReplicationListener(withQueue: queue) { replication in
            for document in replication.documents {
                let direction = replication.isPush ? "push" : "pull"
                if let error = document.error {
                    FileHandle.standardError.write(Data("\(direction) \(document.id): \(error)\n".utf8))
                } else if document.flags.contains(.accessRemoved) {
                    FileHandle.standardError.write(Data("\(direction) \(document.id): no longer readable\(noAutoPurge ? "" : ", purged")\n".utf8))
                }
            }
        }
        replicator.addChangeListener(withQueue: queue) { change in
            let status = change.status
            var line = "\(status.activity) \(status.progress.completed)/\(status.progress.total) documents"
            if let error = status.error { line += ": \(error)" }
            FileHandle.standardError.write(Data((line + "\n").utf8))
            if status.activity == .stopped { stopped.signal() }
        }
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
        interrupt.setEventHandler { replicator.stop() }
        interrupt.resume()
        replicator.start(reset: reset)
        stopped.wait()
        queue.sync {}
        if replicator.status.error != nil { throw ExitCode.failure }
    }
}
