/// The database file's schema: tables, their names, and the version recorded in
/// `PRAGMA user_version` so that later releases can migrate.
enum Schema {
    /// The current schema version.
    static let version: Int64 = 1

    /// Creates the tables of a new database and its default collection.
    static let create = """
        CREATE TABLE shared_keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
        CREATE TABLE collections (
            id INTEGER PRIMARY KEY,
            scope TEXT NOT NULL,
            name TEXT NOT NULL,
            last_sequence INTEGER NOT NULL DEFAULT 0,
            UNIQUE (scope, name));
        INSERT INTO collections (id, scope, name) VALUES (1, '_default', '_default');
        \(createCollectionTables(id: 1))
        PRAGMA user_version = \(version);
        """

    /// The live-document table of collection `id`: the row ID is the sequence, so
    /// a scan runs in sequence order; `body` is the encoded body (see ``BodyTag``).
    static func liveTable(_ id: Int64) -> String { "kv_\(id)" }

    /// The tombstone table of collection `id`: deleted documents keep their
    /// revision and sequence, but no body, out of the way of queries on live ones.
    static func deletedTable(_ id: Int64) -> String { "kv_del_\(id)" }

    static func createCollectionTables(id: Int64) -> String {
        let live = liveTable(id), deleted = deletedTable(id)
        return """
            CREATE TABLE \(live) (
                sequence INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                revid TEXT NOT NULL,
                body BLOB NOT NULL,
                expiration INTEGER);
            CREATE INDEX \(live)_expiration ON \(live) (expiration) WHERE expiration IS NOT NULL;
            CREATE TABLE \(deleted) (
                sequence INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                revid TEXT NOT NULL,
                expiration INTEGER);
            CREATE INDEX \(deleted)_expiration ON \(deleted) (expiration) WHERE expiration IS NOT NULL;
            """
    }

    static func dropCollectionTables(id: Int64) -> String {
        "DROP TABLE \(liveTable(id)); DROP TABLE \(deletedTable(id));"
    }
}
