/// A named set of documents inside a scope; every database has the default
/// collection `_default._default`.
public final class Collection: @unchecked Sendable {   // its variables change under its database's lock
    /// The default scope's and collection's name.
    public static let defaultName = "_default"

    /// The collection name.
    public let name: String
    /// The name of the scope it belongs to.
    public let scopeName: String
    /// The database, nil once it is closed or the collection deleted.
    public internal(set) weak var database: Database?
    /// Whether the collection was deleted (its `database` is then nil).
    /// Changed only under the database lock.
    @exclusivity(unchecked) var isDeleted = false
    let id: Int64
    /// The highest sequence used by the collection (persisted at commit). This
    /// and `hasTombstones` are used only under the database lock (hence unchecked).
    @exclusivity(unchecked) var lastSequence: UInt64
    /// Whether the collection may hold tombstones (false only when it surely has
    /// none); nil until a save needs to know, and again after another
    /// connection's commit (so opening a file of many collections asks nothing).
    @exclusivity(unchecked) var hasTombstones: Bool?
    let sql: CollectionSQL

    init(database: Database, id: Int64, scope: String, name: String, lastSequence: UInt64) {
        self.database = database
        self.id = id
        self.scopeName = scope
        self.name = name
        self.lastSequence = lastSequence
        self.sql = CollectionSQL(collectionID: id)
    }

    /// `scope.collection`.
    public var fullName: String { "\(scopeName).\(name)" }

    /// The scope the collection belongs to.
    public var scope: Scope { Scope(name: scopeName, database: database) }

    /// The collection's database, or `notOpen` when it is closed or the collection deleted.
    package func openDatabase() throws -> Database {
        guard let database else {
            throw DocLiteError(.notOpen, isDeleted ? "collection '\(fullName)' was deleted"
                                                   : "collection '\(fullName)' is not open: its database was closed")
        }
        return database
    }

    /// Runs `body` under the database lock, checking that the collection still exists.
    func read<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        let database = try openDatabase()
        return try database.read { connection in
            _ = try openDatabase()  // deleted while waiting for the lock?
            return try body(connection)
        }
    }

    /// Runs `body` in a transaction on the database, checking that the collection still exists.
    func write<R>(_ body: (Database, SQLiteConnection) throws -> R) throws -> R {
        let database = try openDatabase()
        return try database.inTransaction {
            _ = try openDatabase()
            return try body(database, database.openConnection())
        }
    }

    /// The number of live documents.
    public var count: UInt64 {
        (try? read { connection in
            try connection.withStatement(sql.count) { statement in
                try statement.step()
                return UInt64(clamping: statement.int64(0))
            }
        }) ?? 0
    }
}

/// A namespace of collections.
public struct Scope: Sendable {
    /// The scope name.
    public let name: String
    weak var database: Database?

    /// The collections in this scope.
    public func collections() throws -> [Collection] {
        guard let database else { throw DocLiteError(.notOpen, "the scope's database is closed") }
        return try database.collections(scope: name)
    }

    /// The collection `name` in this scope, or nil.
    public func collection(name: String) throws -> Collection? {
        guard let database else { throw DocLiteError(.notOpen, "the scope's database is closed") }
        return try database.collection(name: name, scope: self.name)
    }
}
