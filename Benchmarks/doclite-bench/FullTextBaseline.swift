import CSQLite
import DocLite

/// Full-text search on the beer sample's descriptions: DocLite's full-text
/// index (an FTS4 table, tokenize=porter, kept by triggers) searched with
/// `MATCH()` and ranked with `RANK()`, against R's own FTS4 table over the
/// descriptions (tokenize=porter, docid = the `beers` row's rowid) with the
/// same MATCH, ranked by ``FullTextBaseline/register(on:)``'s `fts_rank`.
enum FullTextBaseline {
    /// A search matching a few dozen documents of the sample (67 with SQLite 3.40.1's Porter stemmer).
    static let search = "chocolate stout"
    static let json = """
        {"WHAT": [["._id"], ["RANK()", "desc"]], "WHERE": ["MATCH()", "desc", "\(search)"],
         "ORDER_BY": [["DESC", ["RANK()", "desc"]]], "LIMIT": 10}
        """
    static let r = """
        SELECT beers.id, fts_rank(matchinfo(beers_fts, 'pcx')) AS rank
        FROM beers_fts JOIN beers ON beers.rowid = beers_fts.docid
        WHERE beers_fts MATCH '\(search)' ORDER BY rank DESC LIMIT 10
        """
    /// Every match with its rank (run once, to count the matches and check both sides' top 10).
    static let allJSON = #"{"WHAT": [["._id"], ["RANK()", "desc"]], "WHERE": ["MATCH()", "desc", "\#(search)"]}"#
    static let allR = """
        SELECT beers.id, fts_rank(matchinfo(beers_fts, 'pcx'))
        FROM beers_fts JOIN beers ON beers.rowid = beers_fts.docid WHERE beers_fts MATCH '\(search)'
        """

    /// Registers `fts_rank(matchinfo)` on a baseline connection: Couchbase
    /// Lite's rank from FTS4's `matchinfo(t, 'pcx')`, as an application would
    /// write it: for every phrase and column, this row's hits over all rows'
    /// hits, summed (higher is better).
    static func register(on db: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let rc = sqlite3_create_function_v2(db, "fts_rank", 1, flags, nil, { context, _, argv in
            let count = Int(sqlite3_value_bytes(argv![0])) / 4
            guard count >= 2, let blob = sqlite3_value_blob(argv![0]) else { sqlite3_result_null(context); return }
            let info = UnsafeRawBufferPointer(start: blob, count: count * 4)   // native byte order
            func value(_ i: Int) -> UInt32 { info.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self) }
            let phrases = Int(value(0)), columns = Int(value(1))
            guard 2 + 3 * phrases * columns <= count else { sqlite3_result_null(context); return }
            var rank = 0.0
            for cell in 0..<(phrases * columns) {
                let hits = value(2 + 3 * cell), allHits = value(3 + 3 * cell)
                if allHits > 0 { rank += Double(hits) / Double(allHits) }
            }
            sqlite3_result_double(context, rank)
        }, nil, nil, nil)
        guard rc == SQLITE_OK else { fatalError("cannot register fts_rank: \(rc)") }
    }

    /// `(id, rank)` of every row of a DocLite query.
    static func rows(_ query: Query) throws -> [(id: String, rank: Double)] {
        let results = try query.execute()
        var rows: [(id: String, rank: Double)] = []
        while let row = results.next() {
            guard let id = row.string(at: 0) else { throw BenchmarkError("FTS: a DocLite row without an ID") }
            rows.append((id, row.double(at: 1)))
        }
        if let error = results.error { throw error }
        return rows
    }

    /// `(id, rank)` of every row of an R statement.
    static func rows(_ statement: RawStatement) -> [(id: String, rank: Double)] {
        var rows: [(id: String, rank: Double)] = []
        while sqlite3_step(statement.handle) == SQLITE_ROW {
            rows.append((String(cString: sqlite3_column_text(statement.handle, 0)), sqlite3_column_double(statement.handle, 1)))
        }
        sqlite3_reset(statement.handle)
        return rows
    }

    /// Checks that `top` is a valid top `limit` of `all` by rank: its ranks are
    /// the `limit` highest, in order, and each row's rank is its match's rank
    /// (so two sides may differ only among rows tied on the last rank).
    static func check(_ side: String, _ top: [(id: String, rank: Double)], against all: [String: Double], limit: Int) throws {
        func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-12 * max(1, abs(a), abs(b)) }
        let best = all.values.sorted(by: >).prefix(limit)
        guard top.count == best.count, zip(top, best).allSatisfy({ same($0.rank, $1) }) else {
            throw BenchmarkError("FTS: \(side)'s ranks \(top.map(\.rank)) are not the best \(Array(best))")
        }
        for row in top {
            guard let rank = all[row.id], same(rank, row.rank) else {
                let expected = all[row.id].map { "\($0)" } ?? "absent"
                throw BenchmarkError("FTS: \(side)'s \(row.id) ranked \(row.rank), its match \(expected)")
            }
        }
    }
}
