import Foundation
import XCTest
@testable import DocLite

/// The server schema's upgrades, and that pushes and pulls find their rows
/// through its indexes rather than by scanning a collection, whatever the
/// server's statistics say.
final class ServerSchemaTests: SyncTestCase {
    /// Takes the server's schema back to version 1: without what versions 2 and 3 added.
    private func downgradeToVersion1() throws {
        try admin("DROP TRIGGER after_channels_left ON doclite.documents")
        try admin("DROP FUNCTION doclite.record_removal()")
        try admin("DROP TRIGGER after_access_change ON doclite.channel_access")
        try admin("DROP FUNCTION doclite.access_changed(), doclite.changes(text, bigint, integer, text[], text[])")
        try admin("DROP TABLE doclite.removals")
        try admin("UPDATE doclite.schema_version SET version = 1")
    }

    func testAVersion1ServerIsRefusedUntilInitUpgradesIt() throws {
        try downgradeToVersion1()
        let collection = try openDatabase("a").defaultCollection()
        try collection.save(document: MutableDocument(id: "d", data: ["v": 1]))
        let (status, _) = replicate(try configuration([collection]))
        let error = try XCTUnwrap(status.error as? DocLiteError)
        XCTAssertTrue(error.message.contains("version 1") && error.message.contains("doclite sync init"), error.message)
        XCTAssertEqual(try admin("SELECT count(*) FROM doclite.documents"), ["0"])

        try PostgreSQLEndpoint(connectionString: serverString()).initializeServer()
        XCTAssertEqual(try admin("SELECT version FROM doclite.schema_version"), ["\(ServerSchema.version)"])
        sync(try configuration([collection]))
        XCTAssertEqual(try admin("SELECT id FROM doclite.documents"), ["d"])
    }

    func testAnEndpointThatCreatesTheSchemaUpgradesIt() throws {
        try downgradeToVersion1()
        let collection = try openDatabase("a").defaultCollection()
        try collection.save(document: MutableDocument(id: "d", data: [:]))
        var config = ReplicatorConfiguration(target: try PostgreSQLEndpoint(connectionString: serverString(), createsSchema: true))
        config.addCollection(collection)
        sync(config)
        XCTAssertEqual(try admin("SELECT version FROM doclite.schema_version"), ["\(ServerSchema.version)"])
    }

    /// Takes the server's schema back to version 2: members of doclite_sync insert
    /// into `removals` themselves (through version 2's trigger) and anyone may call
    /// `push` and `changes`.
    private func downgradeToVersion2() throws {
        try admin("DROP TRIGGER after_channels_left ON doclite.documents")
        try admin("DROP FUNCTION doclite.record_removal()")
        let recording = """
            IF TG_OP = 'UPDATE' AND NOT (OLD.channels <@ NEW.channels) THEN
                INSERT INTO doclite.removals VALUES (NEW.collection, NEW.id,
                    ARRAY(SELECT unnest(OLD.channels) EXCEPT SELECT unnest(NEW.channels)), NEW.sequence);
            END IF;
            RETURN NEW;
            """
        try admin(ServerSchema.beforeWrite.replacingOccurrences(of: "RETURN NEW;", with: recording))
        try admin("GRANT INSERT ON doclite.removals TO doclite_sync")
        try admin("CREATE POLICY recorded_by_writes ON doclite.removals FOR INSERT WITH CHECK (true)")
        try admin("GRANT EXECUTE ON FUNCTION doclite.push(text, jsonb), doclite.changes(text, bigint, integer, text[], text[]) TO PUBLIC")
        try admin("UPDATE doclite.schema_version SET version = 2")
    }

    func testAVersion2ServerUpgradedRecordsRemovalsItselfAndOnce() throws {
        try downgradeToVersion2()
        try makeUser("pat", password: "pat-pw")
        let asPat = try PostgreSQLConnection(serverString(user: "pat", password: "pat-pw"))
        defer { asPat.close() }
        try asPat.execute("INSERT INTO doclite.removals VALUES ('_default._default', 'x', '{team}', 1)")   // (version 2 let it)

        try PostgreSQLEndpoint(connectionString: serverString()).initializeServer()
        XCTAssertEqual(try admin("SELECT version FROM doclite.schema_version"), ["3"])
        assertThrows(domain: .webSocket, code: 403) {
            try asPat.execute("INSERT INTO doclite.removals VALUES ('_default._default', 'y', '{team}', 2)")
        }
        try admin("CREATE ROLE outsider")
        defer { _ = try? admin("DROP OWNED BY outsider; DROP ROLE outsider") }
        XCTAssertEqual(try admin("SELECT has_function_privilege('outsider', 'doclite.push(text, jsonb)', 'EXECUTE')::text"), ["false"])

        let collection = try openDatabase("pat").defaultCollection()
        try collection.save(document: MutableDocument(id: "plan", data: ["channels": ["team", "news"]]))
        sync(try configuration([collection], user: "pat", password: "pat-pw"))
        let moved = try XCTUnwrap(collection.document(id: "plan")).toMutable()
        moved.setValue(["news"], forKey: "channels")
        try collection.save(document: moved)
        sync(try configuration([collection], user: "pat", password: "pat-pw"))
        XCTAssertEqual(try admin("SELECT array_to_string(channels, ',') FROM doclite.removals WHERE id = 'plan'"), ["team"],
                       "one record of the channel left")
    }

    func testPushesAndPullsScanNoTable() throws {
        try makeUser("scanner", password: "pw")
        let a = try openDatabase("a"), b = try openDatabase("b")
        let aCollection = try a.defaultCollection(), bCollection = try b.defaultCollection()
        try a.inBatch {
            for i in 0..<3000 { try aCollection.save(document: MutableDocument(id: "doc-\(i)", data: ["i": i, "text": "row \(i)"])) }
        }
        sync(try configuration([aCollection], user: "scanner", password: "pw"))
        sync(try configuration([bCollection], user: "scanner", password: "pw"))
        try admin("ANALYZE doclite.documents")
        let before = try documentTableScans()

        try a.inBatch {
            for i in stride(from: 0, to: 3000, by: 100) { try aCollection.save(document: MutableDocument(id: "doc-\(i)", data: ["i": -i])) }
        }
        sync(try configuration([aCollection], user: "scanner", password: "pw"))
        sync(try configuration([bCollection], user: "scanner", password: "pw"))
        XCTAssertEqual(try bCollection.document(id: "doc-100")?.int(forKey: "i"), -100)
        XCTAssertEqual(try documentTableScans(), before, "a push or a pull of 30 edits read the whole documents table")
    }

    func testAPullRightAfterABulkPushReadsEachRowOnce() throws {
        // (No autovacuum: the statistics still describe the table as it was made, empty.)
        try admin("ALTER TABLE doclite.documents SET (autovacuum_enabled = false)")
        let a = try openDatabase("a"), b = try openDatabase("b")
        let aCollection = try a.defaultCollection(), bCollection = try b.defaultCollection()
        try a.inBatch {
            for i in 0..<5000 { try aCollection.save(document: MutableDocument(id: "doc-\(i)", data: ["i": i])) }
        }
        sync(try configuration([aCollection], type: .push))
        let before = try XCTUnwrap(sequenceIndexReads().flatMap { Int($0) })
        sync(try configuration([bCollection], type: .pull))
        XCTAssertEqual(bCollection.count, 5000)
        let read = try XCTUnwrap(sequenceIndexReads().flatMap { Int($0) }) - before
        XCTAssertLessThan(read, 5000 + 100, "the pull's 10 batches read \(read) index entries, not each row once")
    }

    /// How many sequential scans of `doclite.documents` the server has counted.
    private func documentTableScans() throws -> String? {
        try statistic("SELECT seq_scan FROM pg_stat_user_tables WHERE schemaname = 'doclite' AND relname = 'documents'")
    }

    /// How many entries of the sequence index scans have read.
    private func sequenceIndexReads() throws -> String? {
        try statistic("SELECT idx_tup_read FROM pg_stat_user_indexes WHERE schemaname = 'doclite' AND indexrelname = 'documents_by_sequence'")
    }

    /// A server statistic, once every other connection has ended (a backend's counts
    /// reach the statistics when it exits at the latest): `pg_terminate_backend` with a
    /// timeout returns when the backend has gone.
    private func statistic(_ sql: String) throws -> String? {
        let ended = try admin("SELECT bool_and(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity "
                              + "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        XCTAssertNotEqual(ended, ["f"], "a session did not end")
        return try admin(sql).first ?? nil
    }
}
