import CSQLite
import DocLite
import Foundation

/// An UNNEST of the hotels' `tags` without and with an array index, and a
/// predictive query (a model banding hotels by price) without and with a
/// predictive index, the model's calls counted. R does the same work
/// relationally: the tags in a table of their own (indexed on the tag for the
/// second run), the band as a CASE over `price` (an expression index).
struct IndexKindsBenchmark {
    let docLite: Database
    let r: OpaquePointer
    let rounds: Int

    /// The benchmark's model: a hotel's price band, its calls counted.
    final class PriceBand: PredictiveModel, @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var calls: Int { lock.withLock { count } }

        func predict(input: DictionaryObject) -> DictionaryObject? {
            lock.withLock { count += 1 }
            guard input.contains(key: "price") else { return nil }
            let price = input.int(forKey: "price")
            let band = price < 150 ? "budget" : price < 400 ? "standard" : "luxury"
            return MutableDictionaryObject(data: ["band": band])
        }
    }

    static let unnest = "SELECT META(d).id FROM _ AS d UNNEST d.tags AS t WHERE t = 'spa'"
    static let unnestR = "SELECT h.id FROM hotels AS h JOIN hotel_tags AS t ON t.hotel = h.rowid WHERE t.tag = 'spa'"
    static let predictive = "SELECT META().id FROM _ WHERE PREDICTION(band, {'price': price}).band = 'luxury'"
    static let bandR = "CASE WHEN price < 150 THEN 'budget' WHEN price < 400 THEN 'standard' ELSE 'luxury' END"
    static let predictiveR = "SELECT id FROM hotels WHERE \(bandR) = 'luxury'"

    func run() throws -> [Row] {
        let collection = try docLite.defaultCollection()
        execute(r, """
            CREATE TABLE hotel_tags (hotel INTEGER NOT NULL, tag TEXT NOT NULL);
            INSERT INTO hotel_tags SELECT hotels.rowid, json_each.value FROM hotels, json_each(hotels.tags);
            CREATE INDEX hotel_tags_hotel ON hotel_tags (hotel)
            """)
        var rows = [try measure("U UNNEST tags = 'spa', no index", Self.unnest, Self.unnestR)]
        try collection.createIndex(withName: "tags", config: ArrayIndexConfiguration(path: "tags"))
        execute(r, "CREATE INDEX hotel_tags_tag ON hotel_tags (tag)")
        rows.append(try measure("U UNNEST tags = 'spa', array index", Self.unnest, Self.unnestR))
        try collection.deleteIndex(forName: "tags")
        execute(r, "DROP TABLE hotel_tags")
        rows[1].note = ratioNote("UNNEST tags", rows[0], rows[1])

        let model = PriceBand()
        Database.prediction.registerModel(model, withName: "band")
        defer { Database.prediction.unregisterModel(withName: "band") }
        var before = model.calls
        rows.append(try measure("P PREDICTION(band, …).band = 'luxury', no index", Self.predictive, Self.predictiveR))
        let unindexedCalls = (model.calls - before) / (rounds + 1)
        before = model.calls
        let build = try Measure.seconds {
            try collection.createIndex(withName: "band", config: PredictiveIndexConfiguration(model: "band", input: "{'price': price}",
                                                                                                properties: ["band"]))
        }
        let buildCalls = model.calls - before
        execute(r, "CREATE INDEX hotels_band ON hotels (\(Self.bandR))")
        before = model.calls
        rows.append(try measure("P PREDICTION(band, …).band = 'luxury', predictive index", Self.predictive, Self.predictiveR))
        let indexedCalls = (model.calls - before) / (rounds + 1)
        try collection.deleteIndex(forName: "band")
        execute(r, "DROP INDEX hotels_band")
        rows[3].note = ratioNote("predictive query", rows[2], rows[3])! + String(format:
            "; model calls per query: %d without the index, %d with it (building the index: %d calls, %.0f ms)",
            unindexedCalls, indexedCalls, buildCalls, build * 1e3)
        return rows
    }

    private func measure(_ name: String, _ sqlpp: String, _ rSQL: String) throws -> Row {
        let query = try docLite.createQuery(sqlpp)
        let statement = RawStatement(r, rSQL)
        defer { statement.finalize() }
        return try QueryBenchmarks.compare(name: name, goal: "", rounds: rounds, repeats: 1,
                                           docLite: { try QueryBenchmarks.iterate(query) }, r: { statement.run() })
    }

    private func ratioNote(_ what: String, _ without: Row, _ with: Row) -> String? {
        guard let slow = without.medians["DocLite"], let fast = with.medians["DocLite"] else { return nil }
        return String(format: "%@: %.3f ms without the index, %.3f ms with it: %.1f× faster", what, slow, fast, slow / fast)
    }
}
