import CSQLite
import DocLite
import Foundation

/// Many collections: the CPU time to create each successive block of them
/// (each collection in its own transaction, as an app adding one would), to
/// save one document in its own transaction once they exist, and to open the
/// file that holds them and list them all, DocLite next to relational SQLite
/// (R) creating the same tables and indexes in the same run. Linear growth shows as a flat
/// time per collection from block to block, and a flat time per save.
enum CollectionsBenchmark {
    static func run(count: Int, work: URL) throws {
        let blocks = max(1, min(10, count / 100))
        let perBlock = count / blocks
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try? Database.delete(withName: "collections", inDirectory: work.path)
        let rPath = work.appendingPathComponent("collections-r.sqlite").path
        var db = try Database(name: "collections", config: DatabaseConfiguration(directory: work.path))
        let r = openBaseline(rPath)
        execute(r, "CREATE TABLE collections (id INTEGER PRIMARY KEY AUTOINCREMENT, scope TEXT NOT NULL, name TEXT NOT NULL, UNIQUE (scope, name))")
        print("Creating \(count) collections, \(perBlock) per block (each in its own transaction): ms per collection\n")
        print("collections    DocLite      R   ratio   save: DocLite µs   R µs")
        for block in 0..<blocks {
            let range = (block * perBlock)..<((block + 1) * perBlock)
            let docLite = try Measure.seconds {
                for i in range { try db.createCollection(name: "c\(i)", scope: "s\(i % 7)") }
            }
            let relational = Measure.seconds {
                for i in range {
                    execute(r, """
                        BEGIN IMMEDIATE;
                        INSERT INTO collections (scope, name) VALUES ('s\(i % 7)', 'c\(i)');
                        CREATE TABLE kv_\(i) (sequence INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, revid BLOB NOT NULL, body BLOB NOT NULL);
                        COMMIT
                        """)
                }
            }
            let saves = 200
            let first = try db.collection(name: "c0", scope: "s0")!
            let docLiteSave = try Measure.seconds {
                for i in 0..<saves { try first.save(document: MutableDocument(id: "b\(block)-\(i)", data: ["n": i])) }
            }
            let relationalSave = Measure.seconds {
                for i in 0..<saves {
                    execute(r, "BEGIN IMMEDIATE; INSERT INTO kv_0 (key, revid, body) VALUES ('b\(block)-\(i)', x'01', x'02'); COMMIT")
                }
            }
            let n = Double(perBlock)
            print(String(format: "%6d–%-6d %7.3f %7.3f %6.2f %18.1f %6.1f", range.lowerBound + 1, range.upperBound,
                         docLite * 1000 / n, relational * 1000 / n, docLite / relational,
                         docLiteSave * 1e6 / Double(saves), relationalSave * 1e6 / Double(saves)))
        }
        try db.close()
        sqlite3_close(r)
        var opens: [String: [Double]] = [:]
        for _ in 0..<3 {
            opens["DocLite", default: []].append(try Measure.seconds {
                db = try Database(name: "collections", config: DatabaseConfiguration(directory: work.path))
                for scope in try db.scopes() { _ = try scope.collections() }
            })
            try db.close()
            opens["R", default: []].append(Measure.seconds {
                var r: OpaquePointer?
                sqlite3_open(rPath, &r)
                let names = RawStatement(r!, "SELECT id, scope, name FROM collections")
                _ = names.run()
                names.finalize()
                sqlite3_close(r)
            })
        }
        let (docLite, relational) = (Measure.median(opens["DocLite"]!), Measure.median(opens["R"]!))
        print(String(format: "\nopening the file of %d collections and listing them: DocLite %.1f ms, R %.1f ms (its schema parsed), ratio %.1f",
                     blocks * perBlock, docLite * 1000, relational * 1000, docLite / relational))
        try Database.delete(withName: "collections", inDirectory: work.path)
        for suffix in ["", "-wal", "-shm"] { unlink(rPath + suffix) }
    }
}
