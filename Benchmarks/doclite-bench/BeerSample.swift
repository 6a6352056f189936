import CSQLite
import DocLite
import Foundation

/// The beer sample (`../shared/data/beer-sample.jsonl`, 7,303 beers and
/// breweries) in DocLite and in R (one relational table), for the join
/// "every beer with its brewery's name".
struct BeerSample {
    let docLite: Database
    let r: OpaquePointer

    static let joinJSON = """
        {"WHAT": [[".beer.name"], [".brewery.name"]],
         "FROM": [{"COLLECTION": "_", "AS": "beer"},
                  {"COLLECTION": "_", "AS": "brewery", "JOIN": "INNER", "ON": ["=", [".beer.brewery_id"], [".brewery._id"]]}],
         "WHERE": ["=", [".beer.type"], "beer"]}
        """
    static let joinR = """
        SELECT beer.name, brewery.name FROM beers AS beer JOIN beers AS brewery ON beer.brewery_id = brewery.id
        WHERE beer.type = 'beer'
        """

    /// Loads the sample into both stores; nil when the file is not there.
    static func load(shared: URL, work: URL) throws -> BeerSample? {
        let file = shared.appendingPathComponent("data/beer-sample.jsonl")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        try? Database.delete(withName: "beers", inDirectory: work.path)
        let db = try Database(name: "beers", config: DatabaseConfiguration(directory: work.path))
        let r = openBaseline(work.appendingPathComponent("beers-r.sqlite").path)
        execute(r, "CREATE TABLE beers (id TEXT PRIMARY KEY, type TEXT, name TEXT, brewery_id TEXT); BEGIN")
        let insert = RawStatement(r, "INSERT INTO beers VALUES (?, ?, ?, ?)")
        let collection = try db.defaultCollection()
        try db.inBatch {
            for line in text.split(separator: "\n") {
                guard case .dictionary(var members) = try JSONValue(json: String(line)),
                      case .string(let id)? = members.removeValue(forKey: "_id") else { throw BenchmarkError("a line without _id") }
                try collection.save(document: MutableDocument(id: id, json: JSONValue.dictionary(members).json))
                func text(_ key: String) -> String { if case .string(let value)? = members[key] { value } else { "" } }
                insert.bind([.text(id), .text(text("type")), .text(text("name")), .text(text("brewery_id"))])
                _ = insert.run()
            }
        }
        insert.finalize()
        execute(r, "COMMIT")
        return BeerSample(docLite: db, r: r)
    }

    func joinRow(rounds: Int) throws -> Row {
        defer {
            try? docLite.close()
            sqlite3_close(r)
        }
        let query = try docLite.createQuery(json: Self.joinJSON)
        let statement = RawStatement(r, Self.joinR)
        defer { statement.finalize() }
        return try QueryBenchmarks.compare(name: "beer join: beers with their brewery", goal: "—", rounds: rounds, repeats: 1,
                                           docLite: { try QueryBenchmarks.iterate(query) }, r: { statement.run() })
    }
}
