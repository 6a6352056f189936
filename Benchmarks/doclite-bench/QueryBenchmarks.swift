import CSQLite
import DocLite

/// Q0–Q4 of the standard benchmark through DocLite's public query API (the
/// query compiled once; each round executes it and iterates every row),
/// against R running the equivalent SQL on its relational table (for Q4 with
/// the same PCRE2 pattern through a registered `regexp_like`,
/// ``RegexpBaseline``). Q0 and Q1 run again after both sides get the same
/// indexes.
struct QueryBenchmarks {
    struct Scenario {
        let id: String
        let name: String
        let goal: String
        let json: String
        let r: String
        /// Executions per measurement (indexed queries are too fast to time one by one).
        var repeats = 1
    }

    let docLite: Database
    let r: OpaquePointer
    let rounds: Int

    static let q0 = #"{"WHAT": [["._id"], [".name"], [".city"], [".rating"]], "WHERE": ["=", [".name"], "Hotel 54321"]}"#
    static let q0R = "SELECT id, name, city, rating FROM hotels WHERE name = 'Hotel 54321'"
    static let q1 = #"{"WHAT": [[".name"], [".price"], [".rating"]], "WHERE": ["AND", [">=", [".price"], 100], ["<", [".price"], 200]], "ORDER_BY": [["DESC", [".price"]], ["DESC", [".rating"]]], "LIMIT": 10}"#
    static let q1R = "SELECT name, price, rating FROM hotels WHERE price >= 100 AND price < 200 ORDER BY price DESC, rating DESC LIMIT 10"
    /// Q4's pattern (the `\|` in ../shared/bench/README.md's table is Markdown).
    static let q4Pattern = "royal (palace|garden) hotel no. 9"
    static let q4 = #"{"WHAT": [[".name"]], "WHERE": ["REGEXP_LIKE()", [".description"], "\#(q4Pattern)"]}"#
    static let q4R = "SELECT name FROM hotels WHERE regexp_like(description, '\(q4Pattern)')"
    /// Couchbase Lite's Q4 on this machine class (../shared/bench, std::regex); DocLite's goal is ≥ 4× faster.
    static let q4CouchbaseLiteMilliseconds = 220.0

    /// The scans, Q0–Q4 without indexes; `id` names each for ``profile(_:count:docLite:r:)``.
    static let scans = [
        Scenario(id: "q0", name: "Q0 point, no index", goal: "≤ 1.3× R", json: q0, r: q0R),
        Scenario(id: "q1", name: "Q1 range + sort + limit, no index", goal: "≤ 1.3× R", json: q1, r: q1R),
        Scenario(id: "q2", name: "Q2 GROUP BY city", goal: "≤ 1.6× R (stretch 1.4×)",
                 json: #"{"WHAT": [[".city"], ["AS", ["COUNT()"], "n"]], "GROUP_BY": [[".city"]], "ORDER_BY": [[".city"]]}"#,
                 r: "SELECT city, count(*) AS n FROM hotels GROUP BY city ORDER BY city"),
        Scenario(id: "q3", name: "Q3 LIKE '%royal palace%'", goal: "≤ 1.3× R (stretch 1.1×)",
                 json: #"{"WHAT": [[".name"]], "WHERE": ["LIKE", [".description"], "%royal palace%"]}"#,
                 r: "SELECT name FROM hotels WHERE description LIKE '%royal palace%'"),
        Scenario(id: "q4", name: "Q4 REGEXP_LIKE(description, 'royal (palace\\|garden) hotel no. 9')",
                 goal: "≤ 1.3× R and ≥ 4× faster than Couchbase Lite's 220 ms", json: q4, r: q4R),
    ]

    /// Q0 and Q1 again, once both sides have indexes on `name` and `price`.
    static let indexed = [
        Scenario(id: "q0-indexed", name: "Q0 point, indexed", goal: "≤ 10 µs", json: q0, r: q0R, repeats: 2_000),
        Scenario(id: "q1-indexed", name: "Q1 range + sort + limit, indexed", goal: "≤ 100 µs", json: q1, r: q1R, repeats: 200),
    ]

    func run() throws -> [Row] {
        RegexpBaseline.register(on: r)
        var rows = try measure(Self.scans)
        if let index = rows.firstIndex(where: { $0.scenario.hasPrefix("Q4 ") }), let ms = rows[index].medians["DocLite"] {
            let cbl = Self.q4CouchbaseLiteMilliseconds
            rows[index].note = String(format: "Q4: DocLite %.3f ms is %.1f× faster than Couchbase Lite's %.0f ms (%.3f of it; goal ≥ 4×, i.e. ≤ %.0f ms)",
                                      ms, cbl / ms, cbl, ms / cbl, cbl / 4)
        }
        try Self.createIndexes(docLite: docLite, r: r)
        rows += try measure(Self.indexed)
        try Self.dropIndexes(docLite: docLite, r: r)
        return rows
    }

    /// The properties both sides index for ``indexed``.
    private static let indexedProperties = ["name", "price"]

    /// The same value indexes on both sides.
    private static func createIndexes(docLite: Database, r: OpaquePointer) throws {
        let collection = try docLite.defaultCollection()
        for property in indexedProperties {
            try collection.createIndex(IndexBuilder.valueIndex(items: .property(property)), name: property)
            execute(r, "CREATE INDEX hotels_\(property) ON hotels (\(property))")
        }
    }

    /// Drops what ``createIndexes(docLite:r:)`` made.
    private static func dropIndexes(docLite: Database, r: OpaquePointer) throws {
        let collection = try docLite.defaultCollection()
        for property in indexedProperties {
            try collection.deleteIndex(forName: property)
            execute(r, "DROP INDEX hotels_\(property)")
        }
    }

    /// Runs scenario `id` `count` times on each side, through two functions kept out of
    /// line (``profiledDocLite(_:)``, ``profiledRelational(_:)``) so that callgrind
    /// counts each side's instructions: `scripts/bench-instructions` divides them by `count`.
    static func profile(_ id: String, count: Int, docLite: Database, r: OpaquePointer) throws {
        if id == "get" { return try profileGet(count: count, docLite: docLite, r: r) }
        RegexpBaseline.register(on: r)
        guard let scenario = (scans + indexed).first(where: { $0.id == id }) else {
            throw BenchmarkError("no scenario '\(id)'; the scenarios: \((scans + indexed).map(\.id).joined(separator: ", "))")
        }
        if indexed.contains(where: { $0.id == id }) { try createIndexes(docLite: docLite, r: r) }
        let query = try docLite.createQuery(json: scenario.json)
        let statement = RawStatement(r, scenario.r)
        defer { statement.finalize() }
        var counts = (docLite: 0, r: 0)
        for _ in 0..<count { counts.docLite = try profiledDocLite(query) }
        for _ in 0..<count { counts.r = profiledRelational(statement) }
        guard counts.docLite == counts.r else { throw BenchmarkError("\(id): row counts differ \(counts)") }
        print("\(id): \(count) runs of \(counts.r) rows on each side")
    }

    private func measure(_ scenarios: [Scenario]) throws -> [Row] {
        try scenarios.map { scenario in
            let query = try docLite.createQuery(json: scenario.json)
            let statement = RawStatement(r, scenario.r)
            defer { statement.finalize() }
            let row = try Self.compare(name: scenario.name, goal: scenario.goal, rounds: rounds, repeats: scenario.repeats,
                                       docLite: { try Self.iterate(query) }, r: { statement.run() })
            return row
        }
    }

    /// Executes `query` and reads every row; returns the row count.
    static func iterate(_ query: Query) throws -> Int {
        let results = try query.execute()
        var count = 0
        while let row = results.next() {
            count += row.count > 0 ? 1 : 0
        }
        if let error = results.error { throw error }
        return count
    }

    /// ``iterate(_:)`` kept out of line, so that a profiler can count the instructions of its calls.
    @inline(never)
    static func profiledDocLite(_ query: Query) throws -> Int {
        try iterate(query)
    }

    /// The get by ID of the benchmark's table, profiled: `count` random documents
    /// read through the public API (one property) and R's rows by primary key.
    private static func profileGet(count: Int, docLite: Database, r: OpaquePointer) throws {
        let collection = try docLite.defaultCollection()
        var rng = SeededRandom(seed: 7)
        let ids = (0..<count).map { _ in String(format: "doc-%08d", Int(rng.next() % collection.count)) }
        let statement = RawStatement(r, "SELECT * FROM hotels WHERE id = ?")
        defer { statement.finalize() }
        let found = (docLite: try profiledDocLite(get: ids, from: collection), r: profiledRelational(get: ids, statement))
        guard found.docLite == count, found.r == count else { throw BenchmarkError("get: found \(found) of \(count)") }
        print("get: \(count) documents on each side")
    }

    @inline(never)
    static func profiledDocLite(get ids: [String], from collection: DocLite.Collection) throws -> Int {
        try ids.reduce(0) { found, id in found + (try collection.document(id: id)?.string(forKey: "name") != nil ? 1 : 0) }
    }

    @inline(never)
    static func profiledRelational(get ids: [String], _ statement: RawStatement) -> Int {
        ids.reduce(0) { found, id in
            statement.bind([.text(id)])
            return found + statement.run()
        }
    }

    /// R's side of a profiled scenario, kept out of line likewise.
    @inline(never)
    static func profiledRelational(_ statement: RawStatement) -> Int {
        statement.run()
    }

    /// Interleaved rounds of both sides (round 0 warms the caches); checks the row counts agree.
    static func compare(name: String, goal: String, rounds: Int, repeats: Int,
                        docLite: () throws -> Int, r: () -> Int) throws -> Row {
        var times: [String: [Double]] = [:]
        var counts: [String: Int] = [:]
        for round in 0...rounds {
            var count = 0
            let docLiteSeconds = try Measure.seconds { for _ in 0..<repeats { count = try docLite() } }
            counts["DocLite"] = count
            let rSeconds = Measure.seconds { for _ in 0..<repeats { count = r() } }
            counts["R"] = count
            if round > 0 {
                times["DocLite", default: []].append(docLiteSeconds / Double(repeats))
                times["R", default: []].append(rSeconds / Double(repeats))
            }
        }
        guard counts["DocLite"] == counts["R"] else { throw BenchmarkError("\(name): row counts differ \(counts)") }
        let unit = repeats > 1 ? "µs" : "ms"
        var row = Row(scenario: "\(name) (\(counts["R"]!) rows)", unit: unit, goal: goal)
        for (side, values) in times { row.medians[side] = Measure.median(values) * (unit == "µs" ? 1e6 : 1e3) }
        return row
    }
}
