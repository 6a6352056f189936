import Foundation
import XCTest
@testable import DocLite

/// A client killed with SIGKILL mid-push and mid-pull, and a server restarted
/// mid-replication, lose nothing and duplicate nothing. The client runs in a
/// child process: this test binary again, running ``testChildReplicates()``.
final class ReplicationCrashTests: SyncTestCase {
    private static let documentCount = 20_000
    /// Whether this process is the child (which uses the parent's server and starts none:
    /// a server it started would outlive its SIGKILL).
    private static let isChild = ProcessInfo.processInfo.environment["DOCLITE_SYNC_CHILD_DIRECTORY"] != nil

    override func setUpWithError() throws {
        if !Self.isChild { try super.setUpWithError() }
    }

    override func tearDownWithError() throws {
        if !Self.isChild { try super.tearDownWithError() }
    }

    /// The child's part: replicates until killed (skips unless run by the crash tests).
    func testChildReplicates() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let directory = environment["DOCLITE_SYNC_CHILD_DIRECTORY"], let server = environment["DOCLITE_SYNC_CHILD_SERVER"],
              let type = environment["DOCLITE_SYNC_CHILD_TYPE"].flatMap(UInt8.init).flatMap(ReplicatorType.init(rawValue:)) else {
            throw XCTSkip("run by ReplicationCrashTests in a child process")
        }
        let database = try Database(name: "device", config: DatabaseConfiguration(directory: directory))
        var config = ReplicatorConfiguration(target: try PostgreSQLEndpoint(connectionString: server))
        config.addCollection(try database.defaultCollection())
        config.replicatorType = type
        let replicator = Replicator(config: config)
        let replicated = Recorder<Int>()
        let token = replicator.addDocumentReplicationListener(withQueue: DispatchQueue(label: "child")) { replication in
            replicated.append(replication.documents.count)
            let line = "\(Self.progressPrefix)\(replicated.all.reduce(0, +))\n"
            FileHandle.standardOutput.write(Data(line.utf8))   // (unbuffered: the parent reads it at once)
        }
        defer { token.remove() }
        replicator.start()
        _ = waitUntil(replicator, timeout: 120) { replicator.status.activity == .stopped }
    }

    /// What starts the child's lines on its standard output that count the documents it has replicated.
    private static let progressPrefix = "DOCLITE_CHILD_REPLICATED "

    /// Runs the child replicating `type` in `directory`, killed once it says it has
    /// replicated `count` documents (or run to its end when fewer are left).
    private func killChild(type: ReplicatorType, directory: String, afterReplicating count: Int) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DOCLITE_SYNC_CHILD_DIRECTORY"] = directory
        environment["DOCLITE_SYNC_CHILD_SERVER"] = try serverString()
        environment["DOCLITE_SYNC_CHILD_TYPE"] = String(type.rawValue)
        let arguments = [CommandLine.arguments[0], "DocLiteTests.ReplicationCrashTests/testChildReplicates"]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var output: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&output), 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addclose(&actions, output[0])
        var pid: pid_t = 0
        XCTAssertEqual(posix_spawn(&pid, arguments[0], &actions, nil, argv, envp), 0)
        close(output[1])
        let reader = FileHandle(fileDescriptor: output[0], closeOnDealloc: true)
        var text = ""
        while !text.split(separator: "\n").contains(where: { $0.hasPrefix(Self.progressPrefix) && Int($0.dropFirst(Self.progressPrefix.count)) ?? 0 >= count }) {
            let chunk = reader.availableData   // (blocks until the child writes; empty at its end)
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// The server's documents: revision ID and `n` by ID.
    private func serverDocuments() throws -> [String: String] {
        var documents: [String: String] = [:]
        for row in try admin("SELECT id || ' ' || revid || ' ' || (body->>'n') FROM doclite.documents").compactMap({ $0 }) {
            let parts = row.split(separator: " ", maxSplits: 1)
            documents[String(parts[0])] = String(parts[1])
        }
        return documents
    }

    private func localDocuments(_ collection: DocLite.Collection) throws -> [String: String] {
        var documents: [String: String] = [:]
        for row in try collection.database.createQuery("SELECT META().id, META().revisionID, n FROM _").execute() {
            documents[row.string(at: 0)!] = "\(row.string(at: 1)!) \(row.int(at: 2))"
        }
        return documents
    }

    func testAClientKilledMidPushAndMidPullLosesAndDuplicatesNothing() throws {
        var random = SeededRandom(seed: UInt64(Date().timeIntervalSince1970))
        let pusherDirectory = directory + "/pusher", pullerDirectory = directory + "/puller"
        do {
            let pusher = try Database(name: "device", config: DatabaseConfiguration(directory: pusherDirectory))
            let collection = try pusher.defaultCollection()
            try pusher.inBatch {
                for i in 0..<Self.documentCount {
                    try collection.save(document: MutableDocument(id: "doc-\(i)", data: ["n": i, "text": String(repeating: "x", count: 200)]))
                }
            }
            try pusher.close()
        }
        for _ in 0..<4 {
            try killChild(type: .push, directory: pusherDirectory, afterReplicating: .random(in: 1...Self.documentCount / 4, using: &random))
            print("killed mid-push: \(try admin("SELECT count(*) FROM doclite.documents").first.flatMap { $0 } ?? "?") documents on the server")
        }

        let device = try Database(name: "device", config: DatabaseConfiguration(directory: pusherDirectory))
        databases.append(device)
        sync(try configuration([try device.defaultCollection()], type: .push))
        let local = try localDocuments(try device.defaultCollection())
        XCTAssertEqual(local.count, Self.documentCount)
        XCTAssertEqual(try serverDocuments(), local, "the server holds each document once, at its local revision")

        try FileManager.default.createDirectory(atPath: pullerDirectory, withIntermediateDirectories: true)
        for _ in 0..<4 {
            try killChild(type: .pull, directory: pullerDirectory, afterReplicating: .random(in: 1...Self.documentCount / 4, using: &random))
            let puller = try Database(name: "device", config: DatabaseConfiguration(directory: pullerDirectory))
            print("killed mid-pull: \(try puller.defaultCollection().count) documents pulled")
            try puller.close()
        }
        let puller = try Database(name: "device", config: DatabaseConfiguration(directory: pullerDirectory))
        databases.append(puller)
        sync(try configuration([try puller.defaultCollection()], type: .pull))
        XCTAssertEqual(try localDocuments(try puller.defaultCollection()), local, "the puller holds each document once, at the server's revision")
    }

    func testAServerRestartMidReplicationIsRetriedAndLosesNothing() throws {
        let device = try openDatabase("device")
        let collection = try device.defaultCollection()
        try device.inBatch {
            for i in 0..<Self.documentCount {
                try collection.save(document: MutableDocument(id: "doc-\(i)", data: ["n": i, "text": String(repeating: "y", count: 400)]))
            }
        }
        var config = try configuration([collection], type: .push)
        config.continuous = true
        config.maxAttemptWaitTime = 0.5
        let replicator = Replicator(config: config)
        let levels = LevelLog(replicator)
        replicator.start()
        defer { replicator.stop() }
        XCTAssertTrue(levels.wait(timeout: 30) { $0.contains(.busy) })
        // The server goes down under the replicator; documents made meanwhile are pushed once it is back.
        try TestPostgreSQLServer.shared.restart()
        for i in Self.documentCount..<(Self.documentCount + 100) {
            try collection.save(document: MutableDocument(id: "doc-\(i)", data: ["n": i]))
        }
        XCTAssertTrue(try waitUntil(replicator, timeout: 60) { try self.serverDocuments().count == Self.documentCount + 100 },
                      "levels: \(levels.all)")
        XCTAssertTrue(levels.all.contains(.offline), "the lost connection was not reported: \(levels.all)")
        XCTAssertEqual(try serverDocuments(), try localDocuments(collection))
        replicator.stop()
        XCTAssertTrue(waitUntil(replicator, timeout: 30) { replicator.status.activity == .stopped })
        XCTAssertNil(replicator.status.error)
    }
}
