/// Scopes and collections.
extension Database {
    /// The default collection, `_default._default`.
    public func defaultCollection() throws -> Collection {
        guard let collection = try collection(name: Collection.defaultName, scope: Collection.defaultName) else {
            throw DocLiteError(.notFound, "the default collection was not found")
        }
        return collection
    }

    /// The default scope.
    public func defaultScope() throws -> Scope {
        _ = try read { _ in }
        return Scope(name: Collection.defaultName, database: self)
    }

    /// The scope `name`, or nil when it holds no collection.
    public func scope(name: String) throws -> Scope? {
        try read { _ in collectionsByID.values.contains { $0.scopeName == name } ? Scope(name: name, database: self) : nil }
    }

    /// Every scope that holds a collection.
    public func scopes() throws -> [Scope] {
        try read { _ in Set(collectionsByID.values.map(\.scopeName)).sorted().map { Scope(name: $0, database: self) } }
    }

    /// The collection `name` in `scope`, or nil when it does not exist.
    public func collection(name: String, scope: String = Collection.defaultName) throws -> Collection? {
        try read { _ in collectionsByID.values.first { $0.name == name && $0.scopeName == scope }.map(handle) }
    }

    /// The collections of `scope`, sorted by name.
    public func collections(scope: String = Collection.defaultName) throws -> [Collection] {
        try read { _ in collectionsByID.values.filter { $0.scopeName == scope }.sorted { $0.name < $1.name }.map(handle) }
    }

    /// Creates the collection `name` in `scope`, or returns it if it exists.
    /// Names are 1–251 letters, digits, `_`, `-` or `%`, not starting with `_` or `%`.
    @discardableResult
    public func createCollection(name: String, scope: String = Collection.defaultName) throws -> Collection {
        try Self.validate(scopeName: scope)
        try Self.validate(collectionName: name, scope: scope)
        return try inTransaction {
            if let existing = try collection(name: name, scope: scope) { return existing }
            let connection = try openConnection()
            let id = try connection.atomically {   // all or nothing, also inside a batch
                try connection.withStatement("INSERT INTO collections (scope, name) VALUES (?, ?)") { insert in
                    insert.bind(1, scope)
                    insert.bind(2, name)
                    try insert.run()
                }
                let id = connection.lastInsertRowID
                try connection.execute(Schema.createCollectionTables(id: id))
                return id
            }
            let collection = CollectionState(id: id, scope: scope, name: name, lastSequence: 0)
            collectionsByID[id] = collection
            return handle(collection)
        }
    }

    /// Deletes the collection `name` in `scope` and all its documents. The
    /// default collection cannot be deleted; a missing collection is not an error.
    public func deleteCollection(name: String, scope: String = Collection.defaultName) throws {
        if name == Collection.defaultName && scope == Collection.defaultName {
            throw DocLiteError(.invalidParameter, "the default collection cannot be deleted")
        }
        try inTransaction {
            guard let collection = try collection(name: name, scope: scope) else { return }
            let connection = try openConnection()
            try connection.atomically {   // all or nothing, also inside a batch
                try connection.withStatement("DELETE FROM collections WHERE id = ?") { delete in
                    delete.bind(1, collection.id)
                    try delete.run()
                }
                for index in try storedIndexes(of: connection) where index.collection == collection.id {
                    try dropIndex(index)
                }
                try connection.execute(Schema.dropCollectionTables(id: collection.id))
                try indexesChanged()
            }
            connection.clearStatementCache()
            clearReaderStatements()
            let state = collection.state
            collectionsByID[state.id] = nil
            state.detached = .deleted
            listeners.removeAll(collectionID: state.id)
            transaction.undo.append { [unowned self] in
                state.detached = nil
                collectionsByID[state.id] = state
            }
        }
    }

    /// The handle on `collection`: the one users hold, else a new one. Called with the lock held.
    func handle(_ collection: CollectionState) -> Collection {
        if let handle = collection.handle { return handle }
        let handle = Collection(database: self, state: collection)
        collection.handle = handle
        return handle
    }

    static func validate(collectionName name: String, scope: String) throws {
        guard isValid(name), name != Collection.defaultName || scope == Collection.defaultName else {
            throw DocLiteError(.invalidParameter, "invalid collection name \(DocLiteError.quoted(name)) in scope \(DocLiteError.quoted(scope)): use 1–251 letters, digits, '_', '-' or '%', not starting with '_' or '%' ('_default' only in the default scope)")
        }
    }

    static func validate(scopeName name: String) throws {
        guard isValid(name) else {
            throw DocLiteError(.invalidParameter, "invalid scope name \(DocLiteError.quoted(name)): use 1–251 letters, digits, '_', '-' or '%', not starting with '_' or '%'")
        }
    }

    /// Couchbase Lite's rule for scope and collection names.
    private static func isValid(_ name: String) -> Bool {
        if name == Collection.defaultName { return true }
        let bytes = Array(name.utf8)
        guard (1...251).contains(bytes.count), bytes[0] != UInt8(ascii: "_"), bytes[0] != UInt8(ascii: "%") else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "%"):
                return true
            default:
                return false
            }
        }
    }
}
