import CSQLite
import DocLite
import Foundation

/// Checks the database the writer left, against ``Workload``'s invariant.
struct Verifier {
    let directory: String

    /// Opens the database (recovering it), checks it and returns the committed
    /// batch count. `reported`: the last batch the writer reported committed.
    /// `everyDocument`: read every document one by one (otherwise only the last
    /// three batches are read so; aggregates cover the others).
    func check(reported: Int, everyDocument: Bool) throws -> Int {
        let db = try Database(name: Workload.databaseName, config: DatabaseConfiguration(directory: directory))
        defer { try? db.close() }
        try checkIntegrity()
        let collection = try db.defaultCollection()
        let batches = try collection.document(id: "progress").map { $0.int(forKey: "batch") } ?? 0
        guard batches >= reported else { throw CrashLoopError("batch \(reported) was reported committed, but the database holds \(batches)") }
        guard batches <= reported + 1 else { throw CrashLoopError("\(batches) batches stored, but only \(reported) reported: at most one can be unreported") }
        guard collection.count == Workload.expectedCount(batches: batches) else {
            throw CrashLoopError("\(collection.count) documents after \(batches) batches, expected \(Workload.expectedCount(batches: batches))")
        }
        if batches > 0, let progress = try collection.document(id: "progress"), generation(progress.revisionID) != batches {
            throw CrashLoopError("progress is at revision \(progress.revisionID ?? "nil") after \(batches) saves")
        }
        try checkAggregates(db, batches: batches)
        for batch in (everyDocument ? 1 : max(1, batches - 2))...max(1, batches) where batches > 0 {
            try checkDocuments(of: batch, in: collection, batches: batches)
        }
        for index in 0..<Workload.batchSize where try collection.document(id: "b\(batches + 1)-\(index)") != nil {
            throw CrashLoopError("b\(batches + 1)-\(index) of the uncommitted batch \(batches + 1) is stored")
        }
        try checkTombstonesAndSequences(db, collection, batches: batches)
        return batches
    }

    /// SQLite's own check of the file's structure.
    private func checkIntegrity() throws {
        var connection: OpaquePointer?
        let path = (directory as NSString).appendingPathComponent("\(Workload.databaseName).doclite")
        defer { sqlite3_close(connection) }
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw CrashLoopError("cannot open \(path) for PRAGMA integrity_check")
        }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        sqlite3_prepare_v2(connection, "PRAGMA integrity_check", -1, &statement, nil)
        var problems: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            let line = String(cString: sqlite3_column_text(statement, 0))
            if line != "ok" { problems.append(line) }
        }
        guard problems.isEmpty else { throw CrashLoopError("integrity_check: \(problems.joined(separator: "; "))") }
    }

    /// Sums over every batch document, compared with the workload's arithmetic.
    private func checkAggregates(_ db: Database, batches: Int) throws {
        let query = try db.createQuery(
            "SELECT count(*), sum(batch), sum(`index`), sum(length(payload)), sum(array_length(nested.list)), count(updatedBy), sum(updatedBy) FROM _ WHERE meta().id LIKE 'b%'")
        let row = try query.execute().allResults().first
        var expected = [0, 0, 0, 0, 0, 0, 0]
        for batch in stride(from: 1, through: batches, by: 1) {
            for index in 0..<Workload.batchSize where !(index == 1 && batch < batches) {
                expected[0] += 1
                expected[1] += batch
                expected[2] += index
                expected[3] += 20 * ("\(batch)-\(index) ".count)
                expected[4] += index % 5
            }
            if batch < batches {
                expected[5] += 1
                expected[6] += batch + 1
            }
        }
        let found = (0..<7).map { row?.int(at: $0) ?? -1 }
        guard found == expected else {
            throw CrashLoopError("aggregates over the batch documents (count, batch, index, payload length, list length, updates, updatedBy) are \(found), expected \(expected)")
        }
    }

    /// Every document of `batch`, read by ID and compared with what the writer saved.
    private func checkDocuments(of batch: Int, in collection: Collection, batches: Int) throws {
        for index in 0..<Workload.batchSize {
            let id = "b\(batch)-\(index)"
            let document = try collection.document(id: id)
            if index == 1 && batch < batches {
                if document != nil { throw CrashLoopError("\(id) should have been deleted by batch \(batch + 1)") }
                continue
            }
            guard let document else { throw CrashLoopError("\(id) of committed batch \(batch) is missing") }
            let updated = index == 0 && batch < batches
            let expected = Workload.body(batch: batch, index: index, updatedBy: updated ? batch + 1 : nil)
            guard try object(document.toJSON(), id) == object(expected, id) else {
                throw CrashLoopError("\(id) reads \(document.toJSON()), expected \(expected)")
            }
            guard generation(document.revisionID) == (updated ? 2 : 1) else {
                throw CrashLoopError("\(id) is at revision \(document.revisionID ?? "nil")")
            }
        }
    }

    /// The tombstones are exactly `b<k>-1` for `k < batches`, each at generation 2; no
    /// two rows share a sequence, and the next save takes a sequence above them all.
    private func checkTombstonesAndSequences(_ db: Database, _ collection: Collection, batches: Int) throws {
        var sequences: [Int] = []
        var tombstones: [String: String] = [:]
        for row in try db.createQuery("SELECT meta().id, meta().revisionID, meta().sequence FROM _ WHERE meta().deleted").execute() {
            tombstones[row.string(at: 0) ?? ""] = row.string(at: 1) ?? ""
            sequences.append(row.int(at: 2))
        }
        let expected = Set((1..<max(1, batches)).map { "b\($0)-1" })
        guard Set(tombstones.keys) == expected else {
            throw CrashLoopError("tombstones \(tombstones.keys.sorted()), expected \(expected.sorted())")
        }
        if let (id, revision) = tombstones.first(where: { generation($0.value) != 2 }) {
            throw CrashLoopError("tombstone \(id) is at revision \(revision)")
        }
        for row in try db.createQuery("SELECT meta().sequence FROM _").execute() { sequences.append(row.int(at: 0)) }
        guard Set(sequences).count == sequences.count else { throw CrashLoopError("two rows share a sequence") }
        let probe = MutableDocument(id: "probe")
        try collection.save(document: probe)
        defer { try? collection.purge(id: "probe") }
        guard probe.sequence > UInt64(sequences.max() ?? 0) else {
            throw CrashLoopError("a new save took sequence \(probe.sequence), not above the stored \(sequences.max() ?? 0)")
        }
    }

    /// `json` parsed by Foundation, to compare regardless of member order.
    private func object(_ json: String, _ id: String) throws -> NSDictionary {
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary else {
            throw CrashLoopError("\(id): not a JSON object: \(json)")
        }
        return object
    }

    /// The generation of a revision ID (`3-…` → 3).
    private func generation(_ revisionID: String?) -> Int {
        revisionID.flatMap { Int($0.prefix { $0 != "-" }) } ?? 0
    }
}
