/// The database file's schema: tables, their names, and the version recorded in
/// `PRAGMA user_version` so that later releases can migrate.
enum Schema {
    /// The current schema version (2 added the `indexes` table, 3 the
    /// tombstones' `body`, 4 the `blobs` table; 5 dropped the triggers that
    /// kept derived-row indexes, which the save path now keeps; 6 added the
    /// replication tables; 7 moved tombstones and expiration times from tables of
    /// each collection to tables every collection shares; 8 added the buckets and
    /// centroids of vector indexes).
    static let version: Int64 = 8

    /// Creates the tables of a new database and its default collection.
    static let create: [String] = [
        createSharedKeysTable,
        createCollectionsTable,
        "INSERT INTO collections (id, scope, name) VALUES (1, '_default', '_default')",
    ] + createCollectionTables(id: 1) + [createIndexesTable, createBlobsTable] + createReplicationTables
        + createSharedDocumentTables + ["PRAGMA user_version = \(version)"]

    /// The keys of dicts stored by ID in bodies (``SharedKeys``).
    static let createSharedKeysTable = "CREATE TABLE shared_keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE)"

    /// The collections, by scope and name; IDs are never reused.
    static let createCollectionsTable = """
        CREATE TABLE collections (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scope TEXT NOT NULL,
            name TEXT NOT NULL,
            last_sequence INTEGER NOT NULL DEFAULT 0,
            UNIQUE (scope, name))
        """

    /// The indexes of every collection: the user's name, the collection, the
    /// definition as JSON (compared when an index is created again), the SQL
    /// index name and the compiled expressions (a JSON array of SQL texts).
    static let createIndexesTable = """
        CREATE TABLE indexes (
            collection INTEGER NOT NULL,
            name TEXT NOT NULL,
            type TEXT NOT NULL,
            definition TEXT NOT NULL,
            sql_name TEXT NOT NULL UNIQUE,
            sql_expressions TEXT NOT NULL,
            PRIMARY KEY (collection, name))
        """

    /// Blob content, once per digest (`sha1-…`); a row ID so that content can be
    /// read and written in chunks (SQLite's incremental blob I/O).
    static let createBlobsTable = """
        CREATE TABLE blobs (
            id INTEGER PRIMARY KEY,
            digest TEXT NOT NULL UNIQUE,
            content BLOB NOT NULL)
        """

    /// What replicators keep: the peers a database syncs with (by address,
    /// with the random client ID it has there), their checkpoints, and per
    /// document the revision last known to be on each peer (its remote ancestor).
    static let createReplicationTables = [
        "CREATE TABLE replication_peers (id INTEGER PRIMARY KEY, address TEXT NOT NULL UNIQUE, client TEXT NOT NULL)",
        """
        CREATE TABLE replication_checkpoints (
            peer INTEGER NOT NULL,
            id TEXT NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (peer, id)) WITHOUT ROWID
        """,
        """
        CREATE TABLE remote_revisions (
            peer INTEGER NOT NULL,
            collection INTEGER NOT NULL,
            key TEXT NOT NULL,
            revid BLOB NOT NULL,
            PRIMARY KEY (peer, collection, key)) WITHOUT ROWID
        """,
    ]

    /// Brings a verified file of schema `version` (``SchemaVerifier``) up to date.
    static func upgrade(from version: Int64, _ file: SchemaVerifier.Verified) -> [String] {
        var statements: [String] = []
        if version < 5 { statements += file.triggers.map { "DROP TRIGGER IF EXISTS main.\(SQLLiteral.identifier($0))" } }
        if version < 2 { statements.append(createIndexesTable) }
        if version < 3 { statements += file.collectionIDs.map { "ALTER TABLE \(Version6.deletedTable($0)) ADD COLUMN body BLOB" } }
        if version < 4 { statements.append(createBlobsTable) }
        if version < 6 { statements += createReplicationTables }
        if version < 7 {
            statements += file.expirationIndexes.flatMap(\.drop) + createSharedDocumentTables
                + file.collectionIDs.flatMap(Version6.moveToSharedTables)
        }
        statements += file.indexUpgrades
        return statements + ["PRAGMA user_version = \(Self.version)"]
    }

    /// The live-document table of collection `id`: the row ID is the sequence, so
    /// a scan runs in sequence order; `revid` is stored binary (``RevisionID/New``),
    /// `body` is the encoded body (see ``BodyTag``). One table and its key index
    /// are all a collection adds to the schema: SQLite reads its schema again
    /// after each `CREATE`, so every object a collection adds slows the making
    /// of the next (docs/performance.md, "Many collections").
    static func liveTable(_ id: Int64) -> String { "kv_\(id)" }

    static func createCollectionTables(id: Int64) -> [String] {
        [
            """
            CREATE TABLE \(liveTable(id)) (
                sequence INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                revid BLOB NOT NULL,
                body BLOB NOT NULL)
            """,
        ]
    }

    /// Removes collection `id`'s tables and its rows in the shared ones.
    static func dropCollectionTables(id: Int64) -> [String] {
        ["DROP TABLE \(liveTable(id))", "DELETE FROM tombstones WHERE collection = \(id)",
         "DELETE FROM expirations WHERE collection = \(id)"]
    }

    /// A condition on a table's `key`: the IDs of collection `id` that expire by `?1`.
    static func expiringKeys(_ id: Int64) -> String {
        "key IN (SELECT key FROM expirations WHERE collection = \(id) AND expiration <= ?1)"
    }

    /// The tables every collection shares, keyed by collection and document ID:
    /// - `tombstones`: deleted documents keep their revision and sequence, out
    ///   of the way of queries on live ones; `body` is NULL unless the deleted
    ///   revision carries properties (as a replicated tombstone may in Couchbase
    ///   Lite). Read by ID, or by sequence for replication.
    /// - `expirations`: when a document, live or deleted, expires (ms since
    ///   1970); a document without a row never does. Read by time to purge.
    static let createSharedDocumentTables = [
        """
        CREATE TABLE tombstones (
            collection INTEGER NOT NULL,
            key TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            revid BLOB NOT NULL,
            body BLOB,
            PRIMARY KEY (collection, key)) WITHOUT ROWID
        """,
        "CREATE INDEX tombstones_by_sequence ON tombstones (collection, sequence)",
        """
        CREATE TABLE expirations (
            collection INTEGER NOT NULL,
            key TEXT NOT NULL,
            expiration INTEGER NOT NULL,
            PRIMARY KEY (collection, key)) WITHOUT ROWID
        """,
        "CREATE INDEX expirations_by_time ON expirations (expiration)",
    ]

    /// The tables a collection had up to schema 6, which a file of that schema
    /// still holds until its upgrade: its tombstones and its expiration times
    /// were its own.
    enum Version6 {
        static func deletedTable(_ id: Int64) -> String { "kv_del_\(id)" }

        static func createCollectionTables(id: Int64) -> [String] {
            let live = liveTable(id), deleted = deletedTable(id)
            return [
                """
                CREATE TABLE \(live) (
                    sequence INTEGER PRIMARY KEY,
                    key TEXT NOT NULL UNIQUE,
                    revid BLOB NOT NULL,
                    body BLOB NOT NULL,
                    expiration INTEGER)
                """,
                "CREATE INDEX \(live)_expiration ON \(live) (expiration) WHERE expiration IS NOT NULL",
                createDeletedTable(id),
                "CREATE INDEX \(deleted)_expiration ON \(deleted) (expiration) WHERE expiration IS NOT NULL",
            ]
        }

        /// The tombstone table of collection `id`; schemas before 3 wrote it without `body`.
        static func createDeletedTable(_ id: Int64, withBody: Bool = true) -> String {
            """
            CREATE TABLE \(deletedTable(id)) (
                sequence INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                revid BLOB NOT NULL,
                expiration INTEGER\(withBody ? ",\n    body BLOB" : ""))
            """
        }

        /// Moves collection `id`'s tombstones and expiration times to the shared tables.
        static func moveToSharedTables(_ id: Int64) -> [String] {
            let live = liveTable(id), deleted = deletedTable(id)
            return [
                "INSERT INTO tombstones (collection, key, sequence, revid, body) SELECT \(id), key, sequence, revid, body FROM \(deleted)",
                """
                INSERT INTO expirations (collection, key, expiration)
                SELECT \(id), key, expiration FROM \(live) WHERE expiration IS NOT NULL
                UNION ALL SELECT \(id), key, expiration FROM \(deleted) WHERE expiration IS NOT NULL
                """,
                "DROP TABLE \(deleted)",
                "DROP INDEX \(live)_expiration",
                "ALTER TABLE \(live) DROP COLUMN expiration",
            ]
        }
    }
}

/// The SQL of one collection's document operations, written once per collection
/// (the statement cache is keyed by this text).
struct CollectionSQL {
    // (The statements of every save, read and delete keep their keys, hashed once.)
    let getDocument: StatementKey
    let storedRevision: StatementKey
    let insertLive: StatementKey
    let upsertLive: StatementKey
    let hasTombstones: StatementKey
    let insertTombstone: StatementKey
    let insertReplicatedTombstone: StatementKey   // as `insertLive`, with the body given
    let deleteLive: StatementKey
    let deleteTombstone: StatementKey
    let deleteRemoteRevisions: StatementKey
    let expiration: StatementKey
    let setExpiration: StatementKey
    let deleteExpiration: StatementKey
    let purgeExpired: [StatementKey]     // the live rows and tombstones expiring by `?1`
    let deleteExpirations: StatementKey  // their times: `… RETURNING key`
    let count: StatementKey

    init(collectionID id: Int64) {
        let live = Schema.liveTable(id)
        getDocument = StatementKey("SELECT sequence, revid, body FROM \(live) WHERE key = ?")
        storedRevision = StatementKey("""
            SELECT revid, 0 FROM \(live) WHERE key = ?1
            UNION ALL SELECT revid, 1 FROM tombstones WHERE collection = \(id) AND key = ?1
            """)
        insertLive = StatementKey("INSERT INTO \(live) (sequence, key, revid, body) VALUES (?, ?, ?, ?)")
        hasTombstones = StatementKey("SELECT EXISTS (SELECT 1 FROM tombstones WHERE collection = \(id))")
        upsertLive = StatementKey("""
            INSERT INTO \(live) (sequence, key, revid, body) VALUES (?, ?, ?, ?)
            ON CONFLICT (key) DO UPDATE SET sequence = excluded.sequence, revid = excluded.revid, body = excluded.body
            """)
        // Before the live row is deleted: ?4 says whether the tombstone keeps its body.
        insertTombstone = StatementKey("""
            INSERT INTO tombstones (collection, key, sequence, revid, body)
            VALUES (\(id), ?2, ?1, ?3, CASE WHEN ?4 THEN (SELECT body FROM \(live) WHERE key = ?2) END)
            """)
        insertReplicatedTombstone = StatementKey("INSERT INTO tombstones (collection, sequence, key, revid, body) VALUES (\(id), ?, ?, ?, ?)")
        deleteLive = StatementKey("DELETE FROM \(live) WHERE key = ?")
        deleteTombstone = StatementKey("DELETE FROM tombstones WHERE collection = \(id) AND key = ?")
        deleteRemoteRevisions = StatementKey("DELETE FROM remote_revisions WHERE collection = \(id) AND key = ?")
        expiration = StatementKey("SELECT expiration FROM expirations WHERE collection = \(id) AND key = ?")
        setExpiration = StatementKey("""
            INSERT INTO expirations (collection, key, expiration) VALUES (\(id), ?1, ?2)
            ON CONFLICT DO UPDATE SET expiration = excluded.expiration
            """)
        deleteExpiration = StatementKey("DELETE FROM expirations WHERE collection = \(id) AND key = ?")
        purgeExpired = [StatementKey("DELETE FROM \(live) WHERE \(Schema.expiringKeys(id))"),
                        StatementKey("DELETE FROM tombstones WHERE collection = \(id) AND \(Schema.expiringKeys(id))")]
        deleteExpirations = StatementKey("DELETE FROM expirations WHERE collection = \(id) AND expiration <= ?1 RETURNING key")
        count = StatementKey("SELECT count(*) FROM \(live)")
    }
}
