import DocLite
import Foundation

/// `doclite-bench --sync`: the standard documents pushed to a fresh
/// PostgreSQL server and pulled into a fresh database, in documents per
/// second, beside the limit measured in the same run (`psql`'s `\copy` of the
/// same JSON into the same table, and out of it); then the continuous
/// round trip of one edit, device → server → device. The server is a private
/// one (scripts/postgres-server), on a Unix socket.
enum SyncBenchmark {
    static func run(hotels: [Dataset.Hotel], root: URL, work: URL) throws {
        let script = root.appendingPathComponent("scripts/postgres-server").path
        let serverDirectory = "/tmp/doclite-bench-pg-\(getpid())"
        let admin = try shell(script, "start", serverDirectory).trimmingCharacters(in: .whitespacesAndNewlines)
        defer {
            _ = try? shell(script, "stop", serverDirectory)
            try? FileManager.default.removeItem(atPath: serverDirectory)
        }
        _ = try shell("psql", admin, "-qc", "CREATE DATABASE bench")
        let server = admin.replacingOccurrences(of: "dbname=postgres", with: "dbname=bench")
        let endpoint = try PostgreSQLEndpoint(connectionString: server)
        try endpoint.initializeServer()
        print("Sync with PostgreSQL 15 (Unix socket): \(hotels.count) documents\n")

        // The limit: the same rows through COPY, in and out.
        let rows = work.appendingPathComponent("sync_copy.csv")
        var csv = ""
        csv.reserveCapacity(hotels.count * 600)
        for (i, hotel) in hotels.enumerated() {
            csv += "_default._default,\(hotel.id),1-\(String(repeating: "0", count: 40)),\"\(hotel.json.replacingOccurrences(of: "\"", with: "\"\""))\",\(i + 1)\n"
        }
        try csv.write(to: rows, atomically: true, encoding: .utf8)
        let copyIn = try time {
            _ = try shell("psql", server, "-qc", "\\copy doclite.documents (collection, id, revid, body, sequence) FROM '\(rows.path)' WITH (FORMAT csv)")
        }
        let copyOut = try time {
            _ = try shell("psql", server, "-qc", "\\copy (SELECT id, revid, body FROM doclite.documents ORDER BY sequence) TO '/dev/null'")
        }
        _ = try shell("psql", server, "-qc", "TRUNCATE doclite.documents")
        try? FileManager.default.removeItem(at: rows)

        // DocLite: push everything from one database, pull it all into another.
        let source = try freshDatabase("sync-source", in: work)
        let collection = try source.defaultCollection()
        try source.inBatch {
            for hotel in hotels { try collection.save(document: MutableDocument(id: hotel.id, json: hotel.json)) }
        }
        let push = try time { try replicate(collection, endpoint, .push) }
        let target = try freshDatabase("sync-target", in: work)
        let pull = try time { try replicate(try target.defaultCollection(), endpoint, .pull) }
        guard try target.defaultCollection().count == UInt64(hotels.count) else { throw BenchmarkError("the pull lost documents") }

        let rate = { (seconds: Double) in Int(Double(hotels.count) / seconds) }
        print("| step | DocLite docs/s | COPY limit docs/s | DocLite ÷ limit (time) | goal |")
        print("|---|---:|---:|---:|---:|")
        print("| initial push | \(rate(push)) | \(rate(copyIn)) (`\\copy` in) | \(String(format: "%.2f", push / copyIn))× | ≤ 2× |")
        print("| initial pull | \(rate(pull)) | \(rate(copyOut)) (`\\copy` out) | \(String(format: "%.2f", pull / copyOut))× | ≤ 2× |")

        // The round trip: two continuous replicators; one edit on the first, seen on the second.
        var latencies: [Double] = []
        let sender = try continuous(collection, endpoint), receiver = try continuous(try target.defaultCollection(), endpoint)
        defer { sender.stop(); receiver.stop() }
        let arrived = DispatchSemaphore(value: 0)
        let token = try target.defaultCollection().addChangeListener(queue: DispatchQueue(label: "arrivals")) { change in
            if change.documentIDs.contains("latency-probe") { arrived.signal() }
        }
        defer { token.remove() }
        for round in 0..<21 {
            let start = Date()
            try collection.save(document: MutableDocument(id: "latency-probe", data: ["round": round]))
            guard arrived.wait(timeout: .now() + 10) == .success else { throw BenchmarkError("an edit did not arrive in 10 s") }
            latencies.append(Date().timeIntervalSince(start))
            Thread.sleep(forTimeInterval: 0.05)
        }
        latencies.sort()
        print("\nOne edit, device → server → device (two continuous replicators, 21 edits): median "
              + "\(String(format: "%.1f", latencies[10] * 1000)) ms, max \(String(format: "%.1f", latencies.last! * 1000)) ms (goal < 100 ms)\n")
    }

    private static func freshDatabase(_ name: String, in work: URL) throws -> Database {
        try? Database.delete(withName: name, inDirectory: work.path)
        return try Database(name: name, config: DatabaseConfiguration(directory: work.path))
    }

    private static func replicate(_ collection: DocLite.Collection, _ endpoint: PostgreSQLEndpoint, _ type: ReplicatorType) throws {
        var config = ReplicatorConfiguration(target: endpoint)
        config.addCollection(collection)
        config.replicatorType = type
        let replicator = Replicator(config: config)
        let stopped = DispatchSemaphore(value: 0)
        let token = replicator.addChangeListener(withQueue: DispatchQueue(label: "bench")) { if $0.status.activity == .stopped { stopped.signal() } }
        defer { token.remove() }
        replicator.start()
        stopped.wait()
        if let error = replicator.status.error { throw error }
    }

    private static func continuous(_ collection: DocLite.Collection, _ endpoint: PostgreSQLEndpoint) throws -> Replicator {
        var config = ReplicatorConfiguration(target: endpoint)
        config.addCollection(collection)
        config.continuous = true
        let replicator = Replicator(config: config)
        replicator.start()
        let deadline = Date().addingTimeInterval(60)
        while replicator.status.activity != .idle {
            guard Date() < deadline else { throw BenchmarkError("a continuous replicator did not become idle") }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return replicator
    }

    private static func time(_ body: () throws -> Void) throws -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    /// Runs a program found on PATH (or a path); its standard output. (popen, not
    /// Foundation's Process: a server the script starts would keep Process's pipe open.)
    private static func shell(_ arguments: String...) throws -> String {
        let command = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        guard let pipe = popen(command, "r") else { throw BenchmarkError("cannot run \(arguments[0])") }
        var output = [UInt8](), buffer = [UInt8](repeating: 0, count: 65536)
        while case let count = fread(&buffer, 1, buffer.count, pipe), count > 0 { output += buffer[..<count] }
        guard pclose(pipe) == 0 else { throw BenchmarkError("\(arguments.joined(separator: " ")) failed") }
        return String(decoding: output, as: UTF8.self)
    }
}
