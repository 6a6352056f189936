import Foundation
import XCTest
@testable import DocLite

/// Continuous replication, status, retries, and bad input: errors, never a
/// crash, and local data untouched.
final class ReplicatorLifecycleTests: SyncTestCase {
    func testAContinuousReplicatorPicksUpAnotherDevicesChangeWithinASecond() throws {
        let a = try openDatabase("a"), b = try openDatabase("b")
        let aCollection = try a.defaultCollection(), bCollection = try b.defaultCollection()
        var config = try configuration([bCollection])
        config.continuous = true
        let replicator = Replicator(config: config)
        replicator.start()
        defer { replicator.stop() }
        XCTAssertTrue(waitUntil(replicator, timeout: 10) { replicator.status.activity == .idle }, "the replicator did not become idle")

        try aCollection.save(document: MutableDocument(id: "from-a", data: ["n": 1]))
        let pushed = Date()
        sync(try configuration([aCollection], type: .push))
        XCTAssertTrue(try waitUntil(replicator, timeout: 1) { try bCollection.document(id: "from-a") != nil },
                      "the change did not arrive within a second")
        print("sync latency: a one-shot push by A, then B's continuous pull: \(Int(Date().timeIntervalSince(pushed) * 1000)) ms")

        // A local change is pushed by the continuous replicator.
        try bCollection.save(document: MutableDocument(id: "from-b", data: ["n": 2]))
        XCTAssertTrue(try waitUntil(replicator, timeout: 2) { try self.admin("SELECT id FROM doclite.documents WHERE id = 'from-b'").count == 1 })

        replicator.stop()
        XCTAssertTrue(waitUntil(replicator, timeout: 10) { replicator.status.activity == .stopped })
        XCTAssertNil(replicator.status.error)
    }

    func testStatusChangesReachTheListenerInOrder() throws {
        let collection = try openDatabase("a").defaultCollection()
        try collection.save(document: MutableDocument(id: "d", data: [:]))
        let replicator = Replicator(config: try configuration([collection]))
        let levels = LevelLog(replicator)
        replicator.start()
        XCTAssertTrue(levels.wait(timeout: 30) { $0.last == .stopped })
        XCTAssertEqual(levels.all.first, .connecting)
        XCTAssertTrue(levels.all.contains(.busy))
        XCTAssertEqual(replicator.status.progress, Replicator.Progress(completed: 1, total: 1))
    }

    func testAnUnreachableServerIsRetriedThenReported() throws {
        let collection = try openDatabase("a").defaultCollection()
        try collection.save(document: MutableDocument(id: "d", data: ["kept": true]))
        var config = ReplicatorConfiguration(target: try PostgreSQLEndpoint(connectionString: "host=/nonexistent/socket dbname=x"))
        config.addCollection(collection)
        config.maxAttempts = 2
        config.maxAttemptWaitTime = 0.2
        let replicator = Replicator(config: config)
        let levels = LevelLog(replicator)
        replicator.start()
        XCTAssertTrue(levels.wait(timeout: 30) { $0.last == .stopped })
        XCTAssertEqual(levels.all.filter { $0 == .offline }.count, 1, "one retry: \(levels.all)")
        let error = try XCTUnwrap(replicator.status.error as? DocLiteError)
        XCTAssertEqual(error.domain, .network)
        XCTAssertEqual(error.code, DocLiteError.NetworkCode.connectionRefused.rawValue)
        XCTAssertEqual(try collection.document(id: "d")?.boolean(forKey: "kept"), true)
    }

    func testAStopCancelsAStatementTheServerHoldsAndAStartThenRunsAgain() throws {
        let collection = try openDatabase("a").defaultCollection()
        try collection.save(document: MutableDocument(id: "d", data: ["v": 1]))
        // Another session holds the documents table: the replicator's first read of it waits.
        let holder = try PostgreSQLConnection(serverString())
        defer { holder.close() }
        try holder.execute("BEGIN")
        try holder.execute("LOCK TABLE doclite.documents IN ACCESS EXCLUSIVE MODE")
        let replicator = Replicator(config: try configuration([collection], type: .push))
        let levels = LevelLog(replicator)
        replicator.start()
        XCTAssertTrue(try pollServer(timeout: 10) {
            try self.admin("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()") == ["1"]
        }, "the replicator did not wait for the table")

        replicator.stop()
        replicator.start()   // (asked while stopping: runs once the stop is done)
        XCTAssertTrue(levels.wait(timeout: 5) { $0.contains(.stopped) }, "the stop waited for the server's lock")
        XCTAssertTrue(try pollServer(timeout: 10) {
            try self.admin("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()") == ["1"]
        }, "the start asked for during the stop did not run")
        try holder.execute("ROLLBACK")
        XCTAssertTrue(waitUntil(replicator, timeout: 10) { replicator.status.activity == .stopped })
        XCTAssertNil(replicator.status.error)
        XCTAssertEqual(try admin("SELECT id FROM doclite.documents"), ["d"])
    }

    func testBadConnectionStringsAndCredentialsAreErrors() throws {
        assertThrows(domain: .network, code: DocLiteError.NetworkCode.invalidURL.rawValue, containing: "invalid PostgreSQL connection string") {
            _ = try PostgreSQLEndpoint(connectionString: "postgresql://[bad")
        }
        assertThrows(domain: .network, code: DocLiteError.NetworkCode.invalidURL.rawValue) {
            _ = try PostgreSQLEndpoint(connectionString: "nonsense_option=1")
        }
        try makeUser("erin", password: "right")
        let collection = try openDatabase("a").defaultCollection()
        try collection.save(document: MutableDocument(id: "d", data: [:]))
        let (status, _) = replicate(try configuration([collection], user: "erin", password: "wrong"))
        let error = try XCTUnwrap(status.error as? DocLiteError)
        XCTAssertEqual(error.domain, .webSocket)
        XCTAssertEqual(error.code, 401, error.message)
        XCTAssertEqual(collection.count, 1)
    }

    func testAConfigurationDocLiteCannotRunStopsWithTheError() throws {
        let a = try openDatabase("a"), b = try openDatabase("b")
        var config = try configuration([try a.defaultCollection()])
        config.addCollection(try b.defaultCollection())
        let (status, _) = replicate(config)
        XCTAssertTrue((status.error as? DocLiteError)?.is(.invalidParameter) == true, "\(String(describing: status.error))")
        let (empty, _) = replicate(ReplicatorConfiguration(target: try PostgreSQLEndpoint(connectionString: serverString())))
        XCTAssertTrue((empty.error as? DocLiteError)?.message.contains("no collection") == true)
    }

    func testAServerSchemaOfANewerVersionIsAnErrorAndChangesNothing() throws {
        try admin("UPDATE doclite.schema_version SET version = 99")
        let collection = try openDatabase("a").defaultCollection()
        try collection.save(document: MutableDocument(id: "d", data: ["v": 1]))
        let (status, _) = replicate(try configuration([collection]))
        let error = try XCTUnwrap(status.error as? DocLiteError)
        XCTAssertTrue(error.is(.remoteError))
        XCTAssertTrue(error.message.contains("version 99"), error.message)
        XCTAssertEqual(try admin("SELECT count(*) FROM doclite.documents"), ["0"])
        XCTAssertEqual(try collection.document(id: "d")?.int(forKey: "v"), 1)
    }

    func testAServerWithoutTheSchemaIsAnErrorUnlessTheEndpointCreatesIt() throws {
        try admin("DROP SCHEMA doclite CASCADE")
        let collection = try openDatabase("a").defaultCollection()
        try collection.save(document: MutableDocument(id: "d", data: [:]))
        let (status, _) = replicate(try configuration([collection]))
        XCTAssertTrue((status.error as? DocLiteError)?.message.contains("doclite sync init") == true)
        var config = ReplicatorConfiguration(target: try PostgreSQLEndpoint(connectionString: serverString(), createsSchema: true))
        config.addCollection(collection)
        sync(config)
        XCTAssertEqual(try admin("SELECT id FROM doclite.documents"), ["d"])
    }

    func testADocumentTheServerCannotHoldIsRefusedAlone() throws {
        let collection = try openDatabase("a").defaultCollection()
        try collection.save(document: MutableDocument(id: "nul", data: ["text": "a\u{0}b"]))
        try collection.save(document: MutableDocument(id: "fine", data: ["text": "ab"]))
        let (status, documents) = replicate(try configuration([collection], type: .push))
        XCTAssertNil(status.error)
        XCTAssertEqual((documents.first { $0.id == "nul" }?.error as? DocLiteError)?.code, 400)
        XCTAssertNil(documents.first { $0.id == "fine" }?.error)
        XCTAssertEqual(try admin("SELECT id FROM doclite.documents"), ["fine"])
    }

    func testHandCorruptedServerRowsAreReportedAndSkipped() throws {
        let a = try openDatabase("a"), b = try openDatabase("b")
        let aCollection = try a.defaultCollection(), bCollection = try b.defaultCollection()
        for id in ["good", "bad-revision", "bad-blob"] {
            try aCollection.save(document: MutableDocument(id: id, data: ["v": 1]))
        }
        sync(try configuration([aCollection]))
        // The server's trigger refuses a revision that does not descend from the stored one…
        assertThrows(domain: .webSocket, code: 403) {
            try self.admin("UPDATE doclite.documents SET revid = 'not a revision' WHERE id = 'bad-revision'")
        }
        // …so the damage is done as an administrator restoring a file would, with triggers off.
        try admin("""
            DO $$ BEGIN SET LOCAL session_replication_role = replica;
            UPDATE doclite.documents SET revid = 'not a revision', sequence = nextval('doclite.change_sequence') WHERE id = 'bad-revision';
            END $$
            """)
        try admin("""
            UPDATE doclite.documents SET body = '{"file": {"@type": "blob", "digest": "sha1-AAAAAAAAAAAAAAAAAAAAAAAAAAA=", "length": 3}}'
            WHERE id = 'bad-blob'
            """)
        try bCollection.save(document: MutableDocument(id: "bad-revision", data: ["mine": true]))
        let (status, documents) = replicate(try configuration([bCollection], type: .pull))
        XCTAssertNil(status.error)
        XCTAssertEqual(Set(documents.filter { $0.error != nil }.map(\.id)), ["bad-revision", "bad-blob"])
        XCTAssertEqual(try bCollection.document(id: "good")?.int(forKey: "v"), 1)
        XCTAssertEqual(try bCollection.document(id: "bad-revision")?.boolean(forKey: "mine"), true, "local data untouched")
        XCTAssertNil(try bCollection.document(id: "bad-blob"))
    }
}
