/// Checks, when a database opens and before any SQL the file holds can run,
/// that the file's schema is exactly what DocLite writes: every table, index,
/// virtual table and trigger in `sqlite_schema` must be one DocLite would have
/// created for the collections and indexes the file records, with the same SQL
/// text, and each of those must be there. Anything else (a trigger, a view, a
/// CHECK or a generated column added to a table, a changed index) refuses the
/// open with a ``DocLiteError/Code/corruptData`` error naming the object, so
/// the only schema SQL SQLite ever runs is DocLite's own (docs/security.md).
///
/// The tables DocLite reads to know what to expect (`collections`, `indexes`)
/// are checked before they are read; an index's SQL is compiled again from its
/// recorded definition (``IndexPlan``), never taken from the file.
struct SchemaVerifier {
    /// What a verified file holds that the upgrade of an older schema needs.
    struct Verified {
        let collectionIDs: [Int64]
        /// The triggers a file of schema 4 or older keeps for its derived-row indexes.
        let triggers: [String]
        /// The indexes of a file of schema 6 or older that read META().expiration,
        /// which schema 7 keeps apart from documents and cannot index.
        var expirationIndexes: [StoredIndex] = []
        /// What brings the file's indexes to the current schema (``IndexPlan/upgrade``).
        var indexUpgrades: [String] = []
    }

    private let connection: SQLiteConnection
    private let version: Int64
    /// The objects of the file, by name: type and SQL (nil for SQLite's automatic indexes).
    private var objects: [String: (type: String, table: String, sql: String?)] = [:]
    /// What DocLite writes, by name: type and the SQL texts it may have.
    private var expected: [String: (type: String, sql: [String])] = [:]
    /// Objects SQLite itself may add (ANALYZE's statistics tables).
    private var optional: Set<String> = []
    /// The triggers an older schema kept for its derived-row indexes, by name:
    /// the live table each is on. Taken whatever their text (it changed from
    /// release to release), never run (triggers are off on DocLite's
    /// connections) and dropped by the upgrade.
    private var oldTriggers: [String: String] = [:]

    /// Verifies the file of `connection`, whose `PRAGMA user_version` is `version`,
    /// inside a transaction the caller holds.
    static func verify(_ connection: SQLiteConnection, version: Int64, database: Database) throws -> Verified {
        var verifier = SchemaVerifier(connection: connection, version: version)
        try verifier.readObjects()
        if version == 0 {
            if let (name, object) = verifier.objects.min(by: { $0.key < $1.key }) {
                throw DocLiteError(.notADatabaseFile, "the file is not a DocLite database: it holds \(object.type) \(DocLiteError.quoted(name)) "
                                    + "and no DocLite schema version")
            }
            return Verified(collectionIDs: [], triggers: [])
        }
        return try verifier.verify(database: database)
    }

    private mutating func verify(database: Database) throws -> Verified {
        expect(Schema.createSharedKeysTable)
        expect(Schema.createCollectionsTable)
        expect("CREATE TABLE sqlite_sequence(name,seq)")
        if version >= 2 { expect(Schema.createIndexesTable) }
        if version >= 4 { expect(Schema.createBlobsTable) }
        if version >= 6 { Schema.createReplicationTables.forEach { expect($0) } }
        if version >= 7 { Schema.createSharedDocumentTables.forEach { expect($0) } }
        for statistics in ["CREATE TABLE sqlite_stat1(tbl,idx,stat)", "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)"] {
            expect(statistics)
            optional.insert(Self.name(of: statistics).name)
        }
        // The tables read next must be DocLite's before they are read.
        for table in ["collections"] + (version >= 2 ? ["indexes"] : []) { try check(table) }

        var collections: [Int64: (scope: String, name: String)] = [:]
        try connection.withStatement("SELECT id, scope, name FROM collections") { rows in
            while try rows.step() {
                let id = rows.int64(0)
                guard id > 0 else { throw Self.corrupt("its collections table holds the ID \(id)") }
                collections[id] = (rows.string(1), rows.string(2))
            }
        }
        for id in collections.keys { expectCollection(id) }

        var triggers: [String] = [], expirationIndexes: [StoredIndex] = [], indexUpgrades: [String] = []
        if version >= 2 {
            var fullText: [String] = []
            for index in try database.storedIndexes(of: connection) {
                guard let named = collections[index.collection],
                      let definition = IndexDefinition(json: index.definition, type: index.type) else {
                    throw Self.corrupt("its index \(DocLiteError.quoted(index.name)) of collection \(index.collection) has a definition DocLite does not write")
                }
                let plan: IndexPlan
                do {
                    let collection = Collection(database: database, state: CollectionState(id: index.collection, scope: named.scope,
                                                                                             name: named.name, lastSequence: 0))
                    plan = try IndexPlan(index: index.name, definition: definition, collection: collection, database: database,
                                         schemaVersion: version)
                    if version < 7, (try? IndexPlan(index: index.name, definition: definition, collection: collection, database: database)) == nil {
                        expirationIndexes.append(index)
                    }
                } catch let error as DocLiteError {
                    throw Self.corrupt("its index \(DocLiteError.quoted(index.name)) does not compile: \(error.message)")
                }
                guard plan.recorded == index.expressions else {
                    throw Self.corrupt("its index \(DocLiteError.quoted(index.name)) records expressions DocLite does not compile from its definition")
                }
                plan.statements.forEach { expect($0) }
                indexUpgrades += plan.upgrade
                if index.type == .fullText { fullText += plan.statements }
                if version < 5, let rows = plan.rows {
                    for name in rows.fileTriggerNames { oldTriggers[name] = Schema.liveTable(index.collection) }
                    triggers += rows.fileTriggerNames
                }
            }
            try expectShadowTables(of: fullText)
        }
        try checkAll()
        return Verified(collectionIDs: collections.keys.sorted(), triggers: triggers, expirationIndexes: expirationIndexes,
                        indexUpgrades: indexUpgrades)
    }

    // MARK: Expectations

    private mutating func expect(_ sql: String, alternatives: [String] = []) {
        let (type, name) = Self.name(of: sql)
        expected[name] = (type, [sql] + alternatives)
    }

    /// A collection's tables and indexes, in each form a schema version wrote:
    /// before schema 7 a collection had its own tombstone table and expiration
    /// indexes; before schema 3 a tombstone table had no body, and an upgraded
    /// one has it where SQLite's `ALTER TABLE … ADD COLUMN` puts it. (The
    /// upgrade to 7 drops the live table's `expiration` column, which leaves
    /// SQLite's text the same as schema 7's.)
    private mutating func expectCollection(_ id: Int64) {
        guard version < 7 else { return Schema.createCollectionTables(id: id).forEach { expect($0) } }
        Schema.Version6.createCollectionTables(id: id).forEach { expect($0) }
        let withoutBody = Schema.Version6.createDeletedTable(id, withBody: false)
        if version < 3 {
            expect(withoutBody)
        } else {
            expect(Schema.Version6.createDeletedTable(id), alternatives: [String(withoutBody.dropLast()) + ", body BLOB)"])
        }
    }

    /// The tables FTS4 makes for each full-text table, as this SQLite writes
    /// them: read from a scratch database in memory where the same statements ran.
    private mutating func expectShadowTables(of statements: [String]) throws {
        guard !statements.isEmpty else { return }
        let scratch = try SQLiteConnection(path: ":memory:")
        defer { scratch.close() }
        for sql in statements { try scratch.execute(sql) }
        try scratch.withStatement("SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL") { rows in
            while try rows.step() {
                let name = rows.string(1)
                if expected[name] == nil { expected[name] = (rows.string(0), [rows.string(2)]) }
            }
        }
    }

    // MARK: Checking

    private mutating func readObjects() throws {
        try connection.withStatement("SELECT type, name, tbl_name, sql FROM sqlite_schema") { rows in
            while try rows.step() {
                objects[rows.string(1)] = (rows.string(0), rows.string(2), rows.isNull(3) ? nil : rows.string(3))
            }
        }
    }

    /// Checks the file's object `name` against what DocLite writes.
    private func check(_ name: String) throws {
        guard let object = objects[name] else {
            guard let wanted = expected[name] else { return }
            throw Self.corrupt("it lacks the \(wanted.type) \(DocLiteError.quoted(name)) that DocLite writes")
        }
        guard let sql = object.sql else {
            // SQLite's own index for a UNIQUE or PRIMARY KEY constraint of an expected table.
            guard object.type == "index", name.hasPrefix("sqlite_autoindex_"), expected[object.table]?.type == "table" else {
                throw Self.corrupt("it holds \(object.type) \(DocLiteError.quoted(name)), which DocLite did not write")
            }
            return
        }
        if object.type == "trigger", let table = oldTriggers[name], object.table == table { return }
        guard let wanted = expected[name] else {
            throw Self.corrupt("it holds \(object.type) \(DocLiteError.quoted(name)), which DocLite did not write")
        }
        guard wanted.type == object.type, wanted.sql.contains(sql) else {
            throw Self.corrupt("its \(object.type) \(DocLiteError.quoted(name)) is not defined as DocLite defines it")
        }
    }

    private func checkAll() throws {
        for name in objects.keys.sorted() { try check(name) }
        for name in expected.keys.sorted() where objects[name] == nil && !optional.contains(name) {
            try check(name)
        }
    }

    /// The type and name a `CREATE …` statement DocLite writes defines.
    private static func name(of sql: String) -> (type: String, name: String) {
        let words = sql.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true)
        switch words[1] {
        case "VIRTUAL": return ("table", String(words[3]))
        case "INDEX": return ("index", String(words[2]))
        case "TRIGGER": return ("trigger", String(words[2]))
        default: return ("table", String(words[2].prefix { $0 != "(" }))
        }
    }

    private static func corrupt(_ problem: String) -> DocLiteError {
        DocLiteError(.corruptData, "the database file was not written by DocLite, or was changed since: \(problem)")
    }
}
