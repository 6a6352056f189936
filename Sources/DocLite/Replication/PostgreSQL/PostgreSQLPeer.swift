import Foundation

/// A PostgreSQL server as a replication peer: the statements of DocLite's
/// server schema (``ServerSchema``), over one connection.
final class PostgreSQLPeer: ReplicationPeer {
    private let connection: PostgreSQLConnection
    private let continuous: Bool

    /// Connects, checks (or makes) the schema, and for a continuous replicator listens for changes.
    init(_ endpoint: PostgreSQLEndpoint, continuous: Bool) throws {
        connection = try PostgreSQLConnection(endpoint.connectionString)
        self.continuous = continuous
        try ServerSchema.prepare(connection, create: endpoint.createsSchema)
        if continuous { try connection.execute("LISTEN doclite_changes") }
    }

    func close() { connection.close() }

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
        var condition = "sequence > $2"
        var parameters: [PostgreSQLConnection.Parameter] = [.text(collection), .text(String(sequence))]
        if let channels {
            parameters.append(.text(Self.arrayLiteral(channels)))
            condition += " AND channels && $\(parameters.count)::text[]"
        }
        if let documentIDs {
            parameters.append(.text(Self.arrayLiteral(documentIDs.sorted())))
            condition += " AND id = ANY ($\(parameters.count)::text[])"
        }
        return try select(condition + " ORDER BY collection, sequence LIMIT \(limit)", parameters)
    }

    func revisions(collection: String, ids: [String]) throws -> RemoteBatch {
        try select("id = ANY ($2::text[])", [.text(collection), .text(Self.arrayLiteral(ids))])
    }

    /// The rows of the collection ($1) that meet `condition`.
    private func select(_ condition: String, _ parameters: [PostgreSQLConnection.Parameter]) throws -> RemoteBatch {
        // (The rows are chosen first, then written as text: a plan that sorts would otherwise
        // write every row after the checkpoint to pick 500, a pull's time growing as its square.)
        let sql = "SELECT sequence, id, revid, array_to_string(history, ','), deleted, body::text FROM "
            + "(SELECT * FROM doclite.documents WHERE collection = $1 AND " + condition + ") batch ORDER BY sequence"
        return try connection.query(sql, parameters) { rows in
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

    /// `values` as a PostgreSQL array literal (`{"a","b"}`), for a `text[]` parameter.
    static func arrayLiteral(_ values: some Sequence<String>) -> String {
        "{" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
