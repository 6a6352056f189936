import DocLite
import Foundation

/// The crash loop's workload, written by the writer process and checked after each kill.
///
/// Batch `k` (1, 2, …) is one `inBatch`: it saves documents `b<k>-0` … `b<k>-49`
/// (each with a key new to the batch, `k<k>`, so shared keys are assigned in
/// every batch), updates `b<k-1>-0` (`updatedBy: k`), deletes `b<k-1>-1`, and
/// sets the `progress` document's `batch` to `k`. So after `B` committed batches:
/// - `progress.batch == B`, at revision generation `B`;
/// - every batch `k <= B` has its documents, except `b<k>-1` for `k < B`, a
///   tombstone at generation 2;
/// - `b<k>-0` has `updatedBy == k + 1` (generation 2) for `k < B`, none (generation 1) for `k == B`;
/// - no document of batch `B + 1` exists;
/// - so the count is `1 + 50·B − (B − 1)` = `49·B + 2` (`0` when `B == 0`).
enum Workload {
    static let batchSize = 50
    static let databaseName = "crash"

    /// The JSON body of document `index` of batch `batch`: as first saved, or
    /// with the `updatedBy` the next batch sets.
    static func body(batch: Int, index: Int, updatedBy: Int? = nil) -> String {
        let list = (0..<index % 5).map(String.init).joined(separator: ",")
        let payload = String(repeating: "\(batch)-\(index) ", count: 20)
        let update = updatedBy.map { #","updatedBy":\#($0)"# } ?? ""
        return #"{"batch":\#(batch),"index":\#(index),"k\#(batch)":"new key of batch \#(batch)","payload":"\#(payload)","nested":{"list":[\#(list)]}\#(update)}"#
    }

    static func expectedCount(batches: Int) -> UInt64 {
        batches == 0 ? 0 : UInt64(49 * batches + 2)
    }

    /// The writer process: commits batches after the last one stored, reporting
    /// each commit on standard error (unbuffered), until it is killed or its parent dies.
    static func write(directory: String) throws -> Never {
        let db = try Database(name: databaseName, config: DatabaseConfiguration(directory: directory))
        let collection = try db.defaultCollection()
        let progress = try collection.document(id: "progress")?.toMutable() ?? MutableDocument(id: "progress")
        var batch = progress.int(forKey: "batch")
        let deadline = Date().addingTimeInterval(120)   // never outlive a parent that failed to kill us
        while Date() < deadline && getppid() != 1 {
            batch += 1
            try db.inBatch {
                for index in 0..<batchSize {
                    try collection.save(document: MutableDocument(id: "b\(batch)-\(index)", json: body(batch: batch, index: index)))
                }
                if batch > 1 {
                    guard let updated = try collection.document(id: "b\(batch - 1)-0")?.toMutable(),
                          let deleted = try collection.document(id: "b\(batch - 1)-1") else {
                        throw CrashLoopError("batch \(batch - 1) is incomplete at the start of batch \(batch)")
                    }
                    updated.setInt(batch, forKey: "updatedBy")
                    try collection.save(document: updated)
                    try collection.delete(document: deleted)
                }
                progress.setInt(batch, forKey: "batch")
                try collection.save(document: progress)
            }
            FileHandle.standardError.write(Data("COMMITTED \(batch)\n".utf8))
        }
        throw CrashLoopError("the writer was not killed within 120 s")
    }
}

/// A failed check or a broken run, with what was found.
struct CrashLoopError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
