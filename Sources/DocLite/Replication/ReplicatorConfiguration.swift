import Foundation

/// Where a replicator syncs to (Couchbase Lite's `Endpoint`).
public protocol Endpoint: Sendable {}

/// A PostgreSQL server as a replication peer: a libpq connection string
/// (`postgresql://alice:secret@db.example.com/app?sslmode=verify-full`, or
/// `host=… user=… dbname=…`). TLS and every other connection setting are
/// libpq's, passed through. With `createsSchema`, the first connection
/// creates DocLite's server schema when the database has none, or upgrades
/// an older version (the role then needs the right to create schemas and
/// roles); otherwise it must have been made with `doclite sync init` or
/// ``initializeServer()``.
public struct PostgreSQLEndpoint: Endpoint {
    /// The libpq connection string.
    public let connectionString: String
    /// Whether connecting creates the server schema when it is missing, or upgrades an older one.
    public let createsSchema: Bool

    /// An endpoint; throws `invalidURL` (network domain) for a malformed
    /// connection string, and `unsupported` when libpq is not installed.
    public init(connectionString: String, createsSchema: Bool = false) throws {
        try PostgreSQLConnection.validate(connectionString)
        self.connectionString = connectionString
        self.createsSchema = createsSchema
    }

    /// Creates DocLite's schema in the server's database, upgrades an older
    /// version, or checks the one there: what `doclite sync init` does.
    public func initializeServer() throws {
        let connection = try PostgreSQLConnection(connectionString)
        defer { connection.close() }
        try ServerSchema.prepare(connection, create: true)
    }
}

/// Another DocLite database as a replication peer (Couchbase Lite's
/// `DatabaseEndpoint`): two files on one device kept in sync, or a test's
/// second device. It must not be the replicator's own database.
public struct DatabaseEndpoint: Endpoint {
    /// The other database.
    public let database: Database

    /// An endpoint syncing with `database`.
    public init(database: Database) {
        self.database = database
    }
}

/// Which way a replicator moves revisions.
public enum ReplicatorType: UInt8, Sendable {
    /// Both ways (the default).
    case pushAndPull = 0
    /// Local changes to the server only.
    case push
    /// Server changes to the local database only.
    case pull
}

/// A document's flags as a filter or a replication event sees them.
public struct DocumentFlags: OptionSet, Sendable {
    /// The flags as bits (Couchbase Lite's `CBLDocumentFlags`).
    public let rawValue: Int
    /// The flags of `rawValue`'s bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The revision is a deletion.
    public static let deleted = DocumentFlags(rawValue: 1 << 0)
    /// The server no longer lets this user read the document.
    public static let accessRemoved = DocumentFlags(rawValue: 1 << 1)
}

/// Decides whether a document is pushed or pulled: true replicates it.
public typealias ReplicationFilter = @Sendable (Document, DocumentFlags) -> Bool

/// How one collection replicates (Couchbase Lite's `CollectionConfiguration`).
public struct CollectionConfiguration: Sendable {
    /// The collection (nil when the configuration is passed to
    /// ``ReplicatorConfiguration/addCollection(_:config:)``, which names it).
    public var collection: Collection?
    /// Pull only the documents in these channels (their `channels` property);
    /// nil: every document the server lets this user read.
    public var channels: [String]?
    /// Push and pull only these documents.
    public var documentIDs: [String]?
    /// Resolves pull conflicts; nil: ``ConflictResolver/default``.
    public var conflictResolver: ConflictResolverProtocol?
    /// Pushes only the documents for which it returns true.
    public var pushFilter: ReplicationFilter?
    /// Keeps only the pulled documents for which it returns true.
    public var pullFilter: ReplicationFilter?

    /// A configuration with no filter and the default resolver.
    public init() {}

    /// A configuration of `collection`.
    public init(collection: Collection) {
        self.collection = collection
    }
}

/// What a ``Replicator`` syncs, with whom and how (Couchbase Lite's
/// `ReplicatorConfiguration`).
public struct ReplicatorConfiguration: Sendable {
    /// The peer.
    public let target: Endpoint
    /// Which way revisions move; ``ReplicatorType/pushAndPull`` by default.
    public var replicatorType: ReplicatorType = .pushAndPull
    /// Whether the replicator keeps running, sending and receiving changes as
    /// they happen, instead of stopping once caught up. Unless ``maxAttempts``
    /// was set, also chooses its default.
    public var continuous = false {
        didSet { if !maxAttemptsSet { maxAttempts = 0 } }
    }
    /// How often an idle continuous replicator checks the connection, in seconds (300).
    public var heartbeat: TimeInterval = 300
    /// How many times a replicator tries to reach the server before it stops
    /// with the error; 0: the default, 10 for one-shot, unlimited for continuous.
    public var maxAttempts: UInt = 0 {
        didSet { maxAttemptsSet = true }
    }
    /// The longest wait between two attempts, in seconds (300).
    public var maxAttemptWaitTime: TimeInterval = 300
    /// Whether a document the user lost access to is purged when pulled (on by default).
    public var enableAutoPurge = true
    private var maxAttemptsSet = false
    private var configs: [CollectionConfiguration] = []

    /// A configuration syncing nothing yet with `target`: add collections.
    public init(target: Endpoint) {
        self.target = target
    }

    /// A configuration syncing `collections` (each naming its collection) with `target`.
    public init(collections: [CollectionConfiguration], target: Endpoint) {
        self.target = target
        for config in collections {
            if let collection = config.collection { addCollection(collection, config: config) }
        }
    }

    /// The collections synced, in the order added.
    public var collections: [Collection] { configs.compactMap(\.collection) }

    /// Syncs `collection` with `config` (replacing its earlier configuration).
    public mutating func addCollection(_ collection: Collection, config: CollectionConfiguration? = nil) {
        var config = config ?? CollectionConfiguration()
        config.collection = collection
        configs.removeAll { $0.collection === collection }
        configs.append(config)
    }

    /// Syncs each of `collections` with `config`.
    public mutating func addCollections(_ collections: [Collection], config: CollectionConfiguration? = nil) {
        for collection in collections { addCollection(collection, config: config) }
    }

    /// Stops syncing `collection`.
    public mutating func removeCollection(_ collection: Collection) {
        configs.removeAll { $0.collection === collection }
    }

    /// The configuration of `collection`, nil when it is not synced.
    public func collectionConfig(_ collection: Collection) -> CollectionConfiguration? {
        configs.first { $0.collection === collection }
    }

    /// The attempts a replicator makes: `maxAttempts`, or its default.
    var effectiveMaxAttempts: UInt {
        maxAttempts != 0 ? maxAttempts : continuous ? UInt.max : 10
    }

    var collectionConfigs: [CollectionConfiguration] { configs }

    /// Checks what Couchbase Lite checks when a replicator is made.
    func validate() throws {
        guard heartbeat >= 0, maxAttemptWaitTime >= 0 else {
            throw DocLiteError(.invalidParameter, "the replicator's heartbeat and maxAttemptWaitTime must not be negative")
        }
        guard let first = configs.first?.collection else {
            throw DocLiteError(.invalidParameter, "the replicator configuration has no collection: add one")
        }
        for config in configs {
            guard let collection = config.collection, collection.database === first.database else {
                throw DocLiteError(.invalidParameter, "the replicator's collections belong to different databases")
            }
            _ = try collection.openDatabase()
        }
        switch target {
        case is PostgreSQLEndpoint:
            break
        case let endpoint as DatabaseEndpoint where endpoint.database !== first.database:
            _ = try endpoint.database.openConnection()
        case is DatabaseEndpoint:
            throw DocLiteError(.invalidParameter, "a replicator cannot sync a database with itself")
        default:
            throw DocLiteError(.invalidParameter, "the replicator's endpoint is not one DocLite syncs with")
        }
    }
}
