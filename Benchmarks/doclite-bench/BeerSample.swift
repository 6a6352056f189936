import CSQLite
import DocLite
import Foundation

/// The beer sample (`../shared/data/beer-sample.jsonl`, 7,303 beers and
/// breweries) in DocLite and in R (one relational table with a column for
/// every top-level field of either kind of document, nested values as JSON
/// text, as the hotel baseline gives R every field; and an FTS4 table of the
/// descriptions whose docid is the table's rowid), for the join "every
/// beer with its brewery's name" and a full-text search of the descriptions
/// (``FullTextBaseline``).
struct BeerSample {
    let docLite: Database
    let r: OpaquePointer
    /// How many times the sample is stored (copies after the first have IDs
    /// ending `#k`, their beers pointing to the copy's breweries).
    let copies: Int

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

    /// Loads the sample, `copies` times, into both stores; nil when the file is not there.
    static func load(shared: URL, work: URL, copies: Int = 1) throws -> BeerSample? {
        let file = shared.appendingPathComponent("data/beer-sample.jsonl")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        try? Database.delete(withName: "beers", inDirectory: work.path)
        let db = try Database(name: "beers", config: DatabaseConfiguration(directory: work.path))
        let r = openBaseline(work.appendingPathComponent("beers-r.sqlite").path)
        var sample: [(id: String, members: [ByteString: JSONValue])] = []
        for line in text.split(separator: "\n") {
            guard case .dictionary(var members) = try JSONValue(json: String(line)),
                  case .string(let id)? = members.removeValue(forKey: "_id") else { throw BenchmarkError("a line without _id") }
            sample.append((id, members))
        }
        let documents = (0..<copies).flatMap { copy in
            sample.map { id, members -> (id: String, members: [ByteString: JSONValue]) in
                guard copy > 0 else { return (id, members) }
                var members = members
                if case .string(let brewery)? = members["brewery_id"] { members["brewery_id"] = .string("\(brewery)#\(copy)") }
                return ("\(id)#\(copy)", members)
            }
        }
        let fields = Set(documents.flatMap(\.members.keys)).sorted()
        execute(r, """
            CREATE TABLE beers (id TEXT PRIMARY KEY, \(fields.map { "\"\($0.string)\"" }.joined(separator: ", ")));
            CREATE VIRTUAL TABLE beers_fts USING fts4(description, tokenize=porter);
            BEGIN
            """)
        let insert = RawStatement(r, "INSERT INTO beers VALUES (?\(String(repeating: ", ?", count: fields.count)))")
        let insertText = RawStatement(r, "INSERT INTO beers_fts (docid, description) VALUES (last_insert_rowid(), ?)")
        let collection = try db.defaultCollection()
        try db.inBatch {
            for (id, members) in documents {
                try collection.save(document: MutableDocument(id: id, json: JSONValue.dictionary(members).json))
                insert.bind([.text(id)] + fields.map { field in
                    switch members[field] {
                    case nil, .null?: .null
                    case .string(let value)?: .text(value)
                    case .int(let value)?: .int(Int(value))
                    case .double(let value)?: .double(value)
                    case .bool(let flag)?: .int(flag ? 1 : 0)
                    case let value?: .text(value.json)   // (arrays and dictionaries)
                    }
                })
                _ = insert.run()
                func text(_ key: String) -> String { if case .string(let value)? = members[ByteString(key)] { value } else { "" } }
                insertText.bind([.text(text("description"))])
                _ = insertText.run()
            }
        }
        insert.finalize()
        insertText.finalize()
        execute(r, "COMMIT")
        return BeerSample(docLite: db, r: r, copies: copies)
    }

    /// What the scenarios' names say of the copies.
    private var sampleSuffix: String { copies > 1 ? " ×\(copies)" : "" }

    func close() {
        try? docLite.close()
        sqlite3_close(r)
    }

    func joinRow(rounds: Int) throws -> Row {
        let query = try docLite.createQuery(json: Self.joinJSON)
        let statement = RawStatement(r, Self.joinR)
        defer { statement.finalize() }
        return try QueryBenchmarks.compare(name: "beer join: beers with their brewery" + sampleSuffix, goal: "—", rounds: rounds, repeats: 1,
                                           docLite: { try QueryBenchmarks.iterate(query) }, r: { statement.run() })
    }

    /// DocLite's full-text index on `.description` (English: Porter stemmer)
    /// searched and ranked, the top 10 read (timed over 200 executions per
    /// round), against R's FTS4 table. Checks first that both find the same
    /// matches with the same ranks, and that each side's 10 rows are a top 10
    /// of them (the same IDs but among rows tied on the 10th rank).
    func fullTextRow(rounds: Int) throws -> Row {
        let collection = try docLite.defaultCollection()
        try collection.createIndex(withName: "desc", config: FullTextIndexConfiguration(json: #"[[".description"]]"#, language: "en"))
        defer { try? collection.deleteIndex(forName: "desc") }
        FullTextBaseline.register(on: r)
        let query = try docLite.createQuery(json: FullTextBaseline.json)
        let statement = RawStatement(r, FullTextBaseline.r)
        defer { statement.finalize() }

        let allStatement = RawStatement(r, FullTextBaseline.allR)
        let allR = FullTextBaseline.rows(allStatement)
        allStatement.finalize()
        let allDocLite = try FullTextBaseline.rows(docLite.createQuery(json: FullTextBaseline.allJSON))
        let matches = Dictionary(uniqueKeysWithValues: allR.map { ($0.id, $0.rank) })
        guard allDocLite.count == allR.count, Set(allDocLite.map(\.id)) == Set(matches.keys) else {
            throw BenchmarkError("FTS: DocLite matches \(allDocLite.count) documents, R \(allR.count), or not the same")
        }
        try FullTextBaseline.check("DocLite", FullTextBaseline.rows(query), against: matches, limit: 10)
        try FullTextBaseline.check("R", FullTextBaseline.rows(statement), against: matches, limit: 10)

        return try QueryBenchmarks.compare(name: "FTS MATCH '\(FullTextBaseline.search)' + RANK, top 10 of \(allR.count) matches, beer sample"
                                           + sampleSuffix,
                                           goal: "—", rounds: rounds, repeats: 200,
                                           docLite: { try QueryBenchmarks.iterate(query) }, r: { statement.run() })
    }
}
