import DocLite
import Foundation

/// The databases the targets run against.
enum FuzzDatabase {
    /// This process's own temporary folder, removed when the process exits.
    static let folder: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doclite-fuzz-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FuzzDatabase.folder) }
        return folder
    }()

    /// A new, empty database.
    static func open(name: String) throws -> Database {
        try Database(name: name, config: DatabaseConfiguration(directory: folder))
    }

    /// A database holding one empty document.
    static func openWithOneDocument(name: String) throws -> Database {
        let database = try open(name: name)
        try database.defaultCollection().save(document: MutableDocument(id: "one"))
        return database
    }

    /// A database with a small dataset of every value type, for the query
    /// targets: 12 documents in the default collection (`n` 0…11 with a value
    /// index, `s` strings with a full-text index `fts_s`, doubles, booleans,
    /// null and missing properties, arrays, nested dictionaries, dates) and
    /// 4 in `store.items` to join them with (`owner` = a default document's `n`).
    static func openWithDataset(name: String) throws -> Database {
        let database = try open(name: name)
        let documents = try database.defaultCollection()
        let words = ["Grand Hotel", "the quick brown fox", "Ünïcødé straße", "", "50% off_sale", "naïve café", "Δelta", "line\nbreak", "a\\b", "🙂 emoji", "same", "Same"]
        try database.inBatch {
            for n in 0..<12 {
                var properties: [String: Any?] = ["n": n, "s": words[n], "x": Double(n) / 4 - 1, "even": n % 2 == 0,
                                                 "tags": Array(["red", "green", "blue", "red"].prefix(n % 5)),
                                                 "date": "2024-0\(n % 9 + 1)-1\(n % 10)T0\(n % 10):30:00Z"]
                if n % 3 == 0 { properties["address"] = ["city": n % 2 == 0 ? "Paris" : "Oslo", "geo": [Double(n), -Double(n) / 2]] }
                if n % 4 == 1 { properties["maybe"] = NSNull() }
                if n % 5 == 2 { properties["big"] = Int64.max - Int64(n) }
                let document = MutableDocument(id: "doc\(n)")
                document.setData(properties)
                try documents.save(document: document)
            }
        }
        try documents.createIndex(withName: "n_index", config: ValueIndexConfiguration(["n"]))
        try documents.createIndex(withName: "fts_s", config: FullTextIndexConfiguration(["s"]))
        let items = try database.createCollection(name: "items", scope: "store")
        for i in 0..<4 {
            try items.save(document: MutableDocument(id: "item\(i)", json: #"{"owner":\#(i * 3),"label":"item \#(i)","qty":[\#(i),\#(i + 1)]}"#))
        }
        return database
    }
}
