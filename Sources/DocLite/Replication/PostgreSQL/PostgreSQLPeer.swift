import Foundation

/// A PostgreSQL server as a replication peer: the statements of DocLite's
/// server schema (``ServerSchema``), over one connection.
final class PostgreSQLPeer: AccessControlledPeer {
    private let connection: PostgreSQLConnection
    private let continuous: Bool

    /// Connects, checks (or makes) the schema, and for a continuous replicator listens for changes.
    /// Unless the connection string says otherwise, connecting gives up after 10 s, and TCP
    /// keepalives probe an idle connection after `heartbeat` seconds, so a dead network is
    /// noticed (and retried) rather than waited on.
    init(_ endpoint: PostgreSQLEndpoint, continuous: Bool, heartbeat: TimeInterval) throws {
        connection = try PostgreSQLConnection(endpoint.connectionString, defaults: [
            "connect_timeout": "10", "keepalives": "1", "keepalives_idle": String(max(1, Int(heartbeat))),
            "keepalives_interval": "10", "keepalives_count": "3",
        ])
        self.continuous = continuous
        try ServerSchema.prepare(connection, create: endpoint.createsSchema)
        if continuous { try connection.execute("LISTEN doclite_changes") }
    }

    func close() { connection.close() }

    func interrupt() {
        // (Off the stopping thread: libpq's cancel connects to the server, which a dead network stalls.)
        DispatchQueue.global().async { [connection] in connection.cancel() }
    }

    func checkpoint(client: String) throws -> ReplicationPlan.Checkpoint? {
        try connection.query("SELECT body::text FROM doclite.checkpoints WHERE client = $1", [.text(client)]) { rows in
            rows.count == 0 ? nil : rows.string(0, 0).flatMap(ReplicationPlan.Checkpoint.init(json:))
        }
    }

    func saveCheckpoint(_ checkpoint: ReplicationPlan.Checkpoint, client: String) throws {
        try connection.execute("""
            INSERT INTO doclite.checkpoints (client, body) VALUES ($1, $2::jsonb)
            ON CONFLICT (client) DO UPDATE SET body = excluded.body
            """, [.text(client), .text(checkpoint.json)])
    }

    func push(_ revisions: [LocalRevision], collection: String) throws -> [PushOutcome] {
        var json = "["
        for (i, revision) in revisions.enumerated() {
            if i > 0 { json += "," }
            // (Revision IDs are written as JSON strings too: a damaged file may hold any text there.)
            json += #"{"id":\#(JSONValue.string(revision.id).json),"rev":\#(JSONValue.string(revision.revisionID).json),"#
            json += #""parent":\#(revision.remoteRevisionID.map { JSONValue.string($0).json } ?? "null"),"deleted":\#(revision.deleted),"#
            json += #""body":\#(revision.json)}"#
        }
        json += "]"
        return try connection.query("SELECT id, status, current_revid FROM doclite.push($1, $2::jsonb)", [.text(collection), .text(json)]) { rows in
            (0..<rows.count).map { PushOutcome(id: rows.string($0, 0) ?? "", status: Int(rows.int64($0, 1) ?? 500), current: rows.string($0, 2)) }
        }
    }

    func revisions(collection: String, since sequence: Int64, channels: [String]?, documentIDs: Set<String>?, limit: Int) throws -> RemoteBatch {
        try select("SELECT * FROM doclite.changes($1, $2, $3, $4, $5)",
                   [.text(collection), .text(String(sequence)), .text(String(limit)), .text(channels.map(Self.arrayLiteral)),
                    .text(documentIDs.map { Self.arrayLiteral($0.sorted()) })])
    }

    func revisions(collection: String, ids: [String]) throws -> RemoteBatch {
        try select("""
            SELECT sequence, id, revid, array_to_string(history, ','), deleted, body::text FROM doclite.documents
            WHERE collection = $1 AND id = ANY ($2::text[]) ORDER BY sequence
            """, [.text(collection), .text(Self.arrayLiteral(ids))])
    }

    /// The revisions `sql` reads: sequence, ID, revision, history (comma-separated), deleted, body.
    private func select(_ sql: String, _ parameters: [PostgreSQLConnection.Parameter]) throws -> RemoteBatch {
        try connection.query(sql, parameters) { rows in
            var batch = RemoteBatch()
            for row in 0..<rows.count {
                batch.add(sequence: rows.int64(row, 0) ?? 0, id: rows.string(row, 1) ?? "", revisionID: rows.string(row, 2),
                          history: (rows.string(row, 3) ?? "").split(separator: ",").map(String.init),
                          deleted: rows.string(row, 4) == "t", json: rows.string(row, 5) ?? "{}")
            }
            return batch
        }
    }

    func storedBlobs(_ digests: Set<String>) throws -> Set<String> {
        try connection.query("SELECT digest FROM doclite.blobs WHERE digest = ANY ($1::text[])", [.text(Self.arrayLiteral(digests.sorted()))]) { rows in
            Set((0..<rows.count).compactMap { rows.string($0, 0) })
        }
    }

    func storeBlob(digest: String, content: Data) throws {
        try connection.execute("INSERT INTO doclite.blobs (digest, content) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                               [.text(digest), .bytes([UInt8](content))])
    }

    func blob(digest: String) throws -> Data? {
        try connection.query("SELECT content FROM doclite.blobs WHERE digest = $1", [.text(digest)], binary: true) {
            $0.count == 0 ? nil : $0.bytes(0, 0).map { Data($0) }
        }
    }

    func waitForChanges(timeout: TimeInterval, wakeUp: Int32) throws -> Bool {
        if try connection.waitForNotification(timeout: timeout, wakeUp: wakeUp) { return true }
        try connection.execute("SELECT 1")   // the heartbeat: a dead connection fails here and is retried
        return false
    }

    func grantedChannels() throws -> Set<String> {
        try connection.query("SELECT channel FROM doclite.channel_access WHERE role = current_user") { rows in
            Set((0..<rows.count).compactMap { rows.string($0, 0) })
        }
    }

    func removals(collection: String, since sequence: Int64, limit: Int) throws -> [(sequence: Int64, id: String)] {
        try connection.query("""
            SELECT sequence, id FROM doclite.removals WHERE collection = $1 AND sequence > $2 ORDER BY sequence LIMIT $3
            """, [.text(collection), .text(String(sequence)), .text(String(limit))]) { rows in
            (0..<rows.count).map { (rows.int64($0, 0) ?? 0, rows.string($0, 1) ?? "") }
        }
    }

    func unreadableIDs(collection: String, among ids: [String]) throws -> Set<String> {
        try connection.query("""
            SELECT x FROM unnest($2::text[]) x
            WHERE NOT EXISTS (SELECT FROM doclite.documents d WHERE d.collection = $1 AND d.id = x)
            """, [.text(collection), .text(Self.arrayLiteral(ids))]) { rows in
            Set((0..<rows.count).compactMap { rows.string($0, 0) })
        }
    }

    /// `values` as a PostgreSQL array literal (`{"a","b"}`), for a `text[]` parameter.
    static func arrayLiteral(_ values: some Sequence<String>) -> String {
        "{" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
