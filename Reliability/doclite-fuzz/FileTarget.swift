import CSQLite
import DocLite
import Foundation

/// A database file made by someone else (docs/security.md): any bytes, mutated
/// from a small DocLite file holding every kind of index. Opening it, reading
/// every document, querying every collection, saving, deleting and checking
/// it either work or fail with an error: no crash, no hang, no sanitizer report.
enum FileTarget {
    static let target = FuzzTarget(name: "file", summary: "a database file's bytes: open, read, query, save (seeds: make-file-seed)") {
        Database.prediction.registerModel(EchoModel(), withName: EchoModel.name)
        let folder = FuzzDatabase.folder + "/file"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = DatabaseConfiguration(directory: folder)
        let path = folder + "/fuzz.\(Database.fileExtension)"
        return { input in
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            guard FileManager.default.createFile(atPath: path, contents: Data(input)),
                  let database = try? Database(name: "fuzz", config: config) else { return }
            exercise(database)
            try? database.close()
        }
    }

    /// Reads, queries and writes every collection of `database`, ignoring errors.
    private static func exercise(_ database: Database) {
        let queries = ["SELECT META().id, * FROM %@ LIMIT 50",
                       "SELECT n, count(*) FROM %@ WHERE n > 2 GROUP BY n ORDER BY n",
                       "SELECT META().id FROM %@ WHERE MATCH(fts_s, 'fox')",
                       "SELECT t FROM %@ AS d UNNEST d.tags AS t WHERE t = 'red'",
                       "SELECT META().id FROM %@ WHERE PREDICTION('\(EchoModel.name)', {'s': s}).s = 'same'"]
        for scope in (try? database.scopes()) ?? [] {
            for collection in (try? scope.collections()) ?? [] {
                let name = "`\(scope.name)`.`\(collection.name)`"
                var ids: [String] = []
                for sql in queries {
                    guard let rows = try? database.createQuery(sql.replacingOccurrences(of: "%@", with: name)).execute() else { continue }
                    for row in rows.prefix(50) { if let id = row.string(at: 0) { ids.append(id) } }
                }
                for id in ids.prefix(5) { _ = try? collection.document(id: id)?.toJSON() }
                if let document = try? MutableDocument(id: "fuzz-new", json: #"{"n": 3, "s": "the quick fox", "tags": ["red"]}"#) {
                    try? collection.save(document: document)
                    try? collection.purge(id: "fuzz-new")
                }
            }
        }
        try? database.performMaintenance(type: .integrityCheck)
    }

    /// The seed: the query targets' dataset with an array and a predictive index
    /// too, in a file of 512-byte pages without a write-ahead log (small, whole).
    static func makeSeed(into folder: String) throws {
        Database.prediction.registerModel(EchoModel(), withName: EchoModel.name)
        let path = FuzzDatabase.folder + "/file-seed.\(Database.fileExtension)"
        try raw(path, "PRAGMA page_size = 512", "PRAGMA user_version = 0")   // (an empty file DocLite fills)
        let database = try FuzzDatabase.openWithDataset(name: "file-seed")
        let documents = try database.defaultCollection()
        try documents.createIndex(withName: "tags", config: ArrayIndexConfiguration(path: "tags"))
        try documents.createIndex(withName: "echo", config: PredictiveIndexConfiguration(model: EchoModel.name, input: "{'s': s}",
                                                                                          properties: ["s"]))
        try database.close()
        try raw(path, "PRAGMA journal_mode = DELETE")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let seed = folder + "/seed.doclite"
        try? FileManager.default.removeItem(atPath: seed)
        try FileManager.default.copyItem(atPath: path, toPath: seed)
    }

    /// Runs `statements` on the file at `path` through a connection of its own.
    private static func raw(_ path: String, _ statements: String...) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK else { throw CocoaError(.fileReadUnknown) }
        defer { sqlite3_close(handle) }
        for sql in statements where sqlite3_exec(handle, sql, nil, nil, nil) != SQLITE_OK {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: sqlite3_errmsg(handle))])
        }
    }
}

/// A predictive model giving back its input.
private final class EchoModel: PredictiveModel, @unchecked Sendable {
    static let name = "echo"
    func predict(input: DictionaryObject) -> DictionaryObject? { input }
}
