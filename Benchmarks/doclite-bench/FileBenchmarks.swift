import CSQLite
import DocLite
import Foundation

/// What the scale benchmark (``ScaleBenchmark``) adds to the standard one,
/// on the files the standard one made: saving the documents again without
/// IDs (DocLite generates them; R numbers its rows), opening the file, and
/// compacting it (R: `VACUUM`). CPU time of the calling thread, as elsewhere.
enum FileBenchmarks {
    static func rows(hotels: [Dataset.Hotel], work: URL, rounds: Int) throws -> [Row] {
        var rows: [Row] = []

        var noIDs = Row(scenario: "insert N docs without IDs, one batch", unit: "docs/s")
        try? Database.delete(withName: "bench-noid", inDirectory: work.path)
        noIDs.medians["DocLite"] = Double(hotels.count) / (try Measure.seconds {
            let db = try Database(name: "bench-noid", config: DatabaseConfiguration(directory: work.path))
            let collection = try db.defaultCollection()
            try db.inBatch {
                for hotel in hotels { try collection.save(document: try MutableDocument(json: hotel.json)) }
            }
            try db.close()
        })
        try Database.delete(withName: "bench-noid", inDirectory: work.path)
        let rNoIDsPath = work.appendingPathComponent("r-noid.sqlite").path
        noIDs.medians["R"] = Double(hotels.count) / Measure.seconds {
            let db = openBaseline(rNoIDsPath)
            execute(db, "CREATE TABLE hotels (type TEXT, name TEXT, city TEXT, rating REAL, price INTEGER, tags TEXT, "
                        + "description TEXT, street TEXT, zip TEXT); BEGIN")
            let insert = RawStatement(db, "INSERT INTO hotels VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            for h in hotels {
                insert.bind([.text(h.type), .text(h.name), .text(h.city), .double(h.rating), .int(h.price),
                             .text(h.tags), .text(h.description), .text(h.street), .text(h.zip)])
                _ = insert.run()
            }
            insert.finalize()
            execute(db, "COMMIT")
            sqlite3_close(db)
        }
        for suffix in ["", "-wal", "-shm"] { unlink(rNoIDsPath + suffix) }
        rows.append(noIDs)

        let rPath = work.appendingPathComponent("r.sqlite").path
        var open = Row(scenario: "open the file and its default collection (R: its schema read)", unit: "ms")
        var opens: [String: [Double]] = [:]
        for _ in 0..<rounds {
            opens["DocLite", default: []].append(try Measure.seconds {
                let db = try Database(name: "bench", config: DatabaseConfiguration(directory: work.path))
                _ = try db.defaultCollection()
                try db.close()
            })
            opens["R", default: []].append(Measure.seconds {
                let db = openExisting(rPath)
                RawStatement(db, "SELECT * FROM hotels LIMIT 1").finalize()
                sqlite3_close(db)
            })
        }
        for (side, times) in opens { open.medians[side] = Measure.median(times) * 1000 }
        rows.append(open)

        var compact = Row(scenario: "compact the file (R: VACUUM)", unit: "ms")
        compact.medians["DocLite"] = try Measure.seconds {
            let db = try Database(name: "bench", config: DatabaseConfiguration(directory: work.path))
            try db.performMaintenance(type: .compact)
            try db.close()
        } * 1000
        compact.medians["R"] = Measure.seconds {
            let db = openExisting(rPath)
            execute(db, "VACUUM")
            sqlite3_close(db)
        } * 1000
        rows.append(compact)
        return rows
    }

    /// Opens R's file as it is (``openBaseline`` starts a new one).
    private static func openExisting(_ path: String) -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK, let db else { fatalError("cannot open \(path)") }
        return db
    }
}
