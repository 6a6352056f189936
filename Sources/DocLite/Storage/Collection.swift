/// A collection's state, which its database keeps while open: a
/// ``Collection`` is a handle on it.
final class CollectionState: @unchecked Sendable {   // its variables change under its database's lock
    /// Why a collection can no longer be used.
    enum Detachment { case deleted, closed }

    let id: Int64
    let scopeName: String
    let name: String
    /// Set when the collection is deleted or its database closed (read
    /// without the lock by ``Collection/openDatabase()``: a flag).
    @exclusivity(unchecked) var detached: Detachment?
    /// The highest sequence used by the collection (persisted at commit). This
    /// and `hasTombstones` are used only under the database lock (hence unchecked).
    @exclusivity(unchecked) var lastSequence: UInt64
    /// Whether the collection may hold tombstones (false only when it surely has
    /// none); nil until a save needs to know, and again after another
    /// connection's commit (so opening a file of many collections asks nothing).
    @exclusivity(unchecked) var hasTombstones: Bool?
    let sql: CollectionSQL
    /// The handle users hold, while they hold one: weak, as a handle keeps its
    /// database, which keeps this.
    weak var handle: Collection?

    init(id: Int64, scope: String, name: String, lastSequence: UInt64) {
        self.id = id
        self.scopeName = scope
        self.name = name
        self.lastSequence = lastSequence
        self.sql = CollectionSQL(collectionID: id)
    }
}

/// A named set of documents inside a scope; every database has the default
/// collection `_default._default`. A collection keeps its database open, as
/// Couchbase Lite's does: the database may be dropped while a collection is used.
public final class Collection: @unchecked Sendable {   // its state changes under its database's lock
    /// The default scope's and collection's name.
    public static let defaultName = "_default"

    /// The database the collection belongs to.
    public let database: Database
    let state: CollectionState

    init(database: Database, state: CollectionState) {
        self.database = database
        self.state = state
    }

    /// The collection name.
    public var name: String { state.name }
    /// The name of the scope it belongs to.
    public var scopeName: String { state.scopeName }
    var id: Int64 { state.id }
    var sql: CollectionSQL { state.sql }
    /// The highest sequence used; a change is noted in the open transaction, which persists it.
    var lastSequence: UInt64 {
        get { state.lastSequence }
        set {
            database.transaction.willChangeSequence(of: state)
            state.lastSequence = newValue
        }
    }
    var hasTombstones: Bool? {
        get { state.hasTombstones }
        set { state.hasTombstones = newValue }
    }

    /// `scope.collection`.
    public var fullName: String { "\(scopeName).\(name)" }

    /// The scope the collection belongs to.
    public var scope: Scope { Scope(name: scopeName, database: database) }

    /// The collection's database, or `notOpen` when it is closed or the collection deleted.
    package func openDatabase() throws -> Database {
        switch state.detached {
        case .deleted?: throw DocLiteError(.notOpen, "collection '\(fullName)' was deleted")
        case .closed?: throw DocLiteError(.notOpen, "collection '\(fullName)' is not open: its database was closed")
        case nil: return database
        }
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

    /// The number of live documents: 0 once the collection is deleted or its
    /// database closed, as Couchbase Lite's.
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
