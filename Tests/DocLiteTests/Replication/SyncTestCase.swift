import Foundation
import XCTest
@testable import DocLite

/// A PostgreSQL server of the tests' own (scripts/postgres-server), started
/// once for every sync test and stopped when the tests end.
final class TestPostgreSQLServer: @unchecked Sendable {   // set once, before any test reads it
    static let shared = TestPostgreSQLServer()

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/postgres-server").path

    let directory = "/tmp/doclite-pg-\(getpid())"
    /// The superuser's connection string, or why there is no server.
    private let started: Swift.Result<String, XCTSkip>

    private init() {
        do {
            let output = try Self.run(["start", directory])
            started = .success(output.trimmingCharacters(in: .whitespacesAndNewlines))
            atexit { TestPostgreSQLServer.shared.stop() }
        } catch let skip as XCTSkip {
            started = .failure(skip)
        } catch {
            started = .failure(XCTSkip("the test PostgreSQL server did not start: \(error)"))
        }
    }

    /// The superuser's connection string to database `name`; skips the test when PostgreSQL is not installed.
    func connectionString(database name: String = "postgres", user: String? = nil, password: String? = nil) throws -> String {
        var string = try started.get().replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)")
        if let user, let password {
            string = string.replacingOccurrences(of: "user=doclite_admin password=doclite-admin-secret", with: "user=\(user) password=\(password)")
        }
        return string
    }

    func restart() throws {
        _ = try Self.run(["restart", directory])
    }

    private func stop() {
        _ = try? Self.run(["stop", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs the script; its standard output. Exit 3 (no PostgreSQL) skips the test.
    /// (popen, not Foundation's Process, whose waitUntilExit hangs here once
    /// the script's server outlives it.)
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let command = ([script] + arguments).map { "'\($0)'" }.joined(separator: " ") + " 2>&1"
        guard let pipe = popen(command, "r") else { throw DocLiteError(.unexpectedError, "cannot run \(script)") }
        var output = [UInt8](), buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            output += buffer[..<count]
        }
        let status = pclose(pipe)
        let text = String(decoding: output, as: UTF8.self)
        let exitCode = (status >> 8) & 0xFF
        if exitCode == 3 { throw XCTSkip(text) }
        guard status == 0 else {
            throw DocLiteError(.unexpectedError, "postgres-server \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }
}

/// A sync test: a fresh PostgreSQL database on the test server, its schema
/// made, and local databases in a fresh directory.
class SyncTestCase: XCTestCase {
    var directory: String!
    var serverDatabase: String!
    var databases: [Database] = []

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "doclite-sync-tests-" + UUID().uuidString
        serverDatabase = "sync_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        try admin("CREATE DATABASE \(serverDatabase!)", database: "postgres")
        try PostgreSQLEndpoint(connectionString: try serverString()).initializeServer()
    }

    override func tearDownWithError() throws {
        for database in databases { try? database.close() }
        try? FileManager.default.removeItem(atPath: directory)
        if let serverDatabase { _ = try? admin("DROP DATABASE IF EXISTS \(serverDatabase) WITH (FORCE)", database: "postgres") }
    }

    /// The connection string of the test's server database (as the superuser, or as `user`).
    func serverString(user: String? = nil, password: String? = nil) throws -> String {
        try TestPostgreSQLServer.shared.connectionString(database: serverDatabase, user: user, password: password)
    }

    /// Runs `sql` on the server as the superuser; the first column of each row.
    @discardableResult
    func admin(_ sql: String, database: String? = nil) throws -> [String?] {
        let connection = try PostgreSQLConnection(TestPostgreSQLServer.shared.connectionString(database: database ?? serverDatabase))
        defer { connection.close() }
        return try connection.query(sql) { rows in (0..<rows.count).map { rows.string($0, 0) } }
    }

    /// Waits until `condition`, a state of the server's own sessions that no client is
    /// told of (a statement waiting for a lock), holds: asks the server again every
    /// 10 ms, the tests' one wait by the clock; false after `timeout` seconds.
    func pollServer(timeout: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }

    /// Makes a login role that may sync.
    func makeUser(_ name: String, password: String) throws {
        try admin("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(name)') THEN "
                  + "CREATE ROLE \(name) LOGIN PASSWORD '\(password)'; END IF; END $$")
        try admin("GRANT doclite_sync TO \(name)")
    }

    /// A new local database.
    func openDatabase(_ name: String) throws -> Database {
        let database = try Database(name: name, config: DatabaseConfiguration(directory: directory))
        databases.append(database)
        return database
    }

    /// A configuration syncing `collections` with the test's server.
    func configuration(_ collections: [DocLite.Collection], type: ReplicatorType = .pushAndPull,
                       user: String? = nil, password: String? = nil,
                       _ change: (inout CollectionConfiguration) -> Void = { _ in }) throws -> ReplicatorConfiguration {
        var config = ReplicatorConfiguration(target: try PostgreSQLEndpoint(connectionString: serverString(user: user, password: password)))
        config.replicatorType = type
        for collection in collections {
            var collectionConfig = CollectionConfiguration()
            change(&collectionConfig)
            config.addCollection(collection, config: collectionConfig)
        }
        return config
    }

    /// Runs a one-shot replicator until it stops; its final status and the documents it reported.
    @discardableResult
    func replicate(_ config: ReplicatorConfiguration, reset: Bool = false, file: StaticString = #filePath, line: UInt = #line)
        -> (status: Replicator.Status, documents: [ReplicatedDocument]) {
        let replicator = Replicator(config: config)
        let documents = DocumentLog(), queue = DispatchQueue(label: "replication events"), stopped = DispatchSemaphore(value: 0)
        let tokens = [replicator.addDocumentReplicationListener(withQueue: queue) { documents.add($0.documents) },
                      replicator.addChangeListener(withQueue: queue) { if $0.status.activity == .stopped { stopped.signal() } }]
        defer { tokens.forEach { $0.remove() } }
        replicator.start(reset: reset)
        XCTAssertEqual(stopped.wait(timeout: .now() + 60), .success, "the replicator did not stop", file: file, line: line)
        queue.sync {}   // (the document events reported before the stop)
        return (replicator.status, documents.all)
    }

    /// Replicates and fails the test on an error.
    func sync(_ config: ReplicatorConfiguration, file: StaticString = #filePath, line: UInt = #line) {
        let (status, documents) = replicate(config, file: file, line: line)
        XCTAssertNil(status.error, "the replicator failed: \(String(describing: status.error))", file: file, line: line)
        for document in documents where document.error != nil {
            XCTFail("document '\(document.id)' failed: \(document.error!)", file: file, line: line)
        }
    }

    /// Every live document of `collection`, by ID (properties as a tree: key order is not kept by the server's JSONB).
    func contents(_ collection: DocLite.Collection) throws -> [String: JSONValue] {
        var contents: [String: JSONValue] = [:]
        for row in try collection.database.createQuery("SELECT META().id, * FROM \(collection.scopeName).\(collection.name)").execute() {
            let id = row.string(at: 0)!
            contents[id] = try JSONValue(json: collection.document(id: id)!.toJSON())
        }
        return contents
    }
}

/// Activity levels a change listener received, from its queue.
final class LevelLog: @unchecked Sendable {   // `token` is set once, in init
    private let levels = Recorder<Replicator.ActivityLevel>()
    private var token: ListenerToken?

    /// Records the levels `replicator` reports until the log is dropped.
    init(_ replicator: Replicator) {
        token = replicator.addChangeListener(withQueue: DispatchQueue(label: "levels")) { [levels] in levels.append($0.status.activity) }
    }

    deinit { token?.remove() }

    var all: [Replicator.ActivityLevel] { levels.all }

    /// Waits until `test` holds for the levels reported, woken by each; false after `timeout` seconds.
    func wait(timeout: TimeInterval, until test: ([Replicator.ActivityLevel]) -> Bool) -> Bool {
        levels.wait(timeout: timeout, until: test)
    }
}

/// The documents a replicator's listener received, from its queue.
final class DocumentLog: @unchecked Sendable {   // `documents` is behind `lock`
    private let lock = NSLock()
    private var documents: [ReplicatedDocument] = []
    func add(_ batch: [ReplicatedDocument]) { lock.withLock { documents += batch } }
    var all: [ReplicatedDocument] { lock.withLock { documents } }
}
