import CSQLite
import DocLite
import Foundation

/// A live query's refresh after one save: the wall time from saving a hotel
/// that enters the result (the cheapest in Paris) to the listener's call with
/// the new rows, each save 300 ms after the last (a burst waits 500 ms, as in
/// LiteCore). R does the same work by hand: the insert, then the query again.
/// Wall time, not CPU: the refresh runs on the live query's own thread.
enum LiveQueryBenchmark {
    static let query = "SELECT META().id, name, price FROM _ WHERE city = 'Paris' ORDER BY price LIMIT 10"
    static let queryR = "SELECT id, name, price FROM hotels WHERE city = 'Paris' ORDER BY price LIMIT 10"

    static func row(docLite: Database, r: OpaquePointer, rounds: Int) throws -> Row {
        let collection = try docLite.defaultCollection()
        let live = try docLite.createQuery(query)
        let first = DispatchSemaphore(value: 0), changed = DispatchSemaphore(value: 0)
        let expected = Expected()
        let token = live.addChangeListener(withQueue: DispatchQueue(label: "live query benchmark")) { change in
            let ids = (change.results?.allResults() ?? []).compactMap { $0.string(at: 0) }
            if expected.matches(ids.first) { changed.signal() } else if expected.isInitial { first.signal() }
        }
        defer { token.remove() }
        guard first.wait(timeout: .now() + 60) == .success else { throw BenchmarkError("the live query gave no first result") }

        var times: [String: [Double]] = [:]
        let insertR = RawStatement(r, "INSERT INTO hotels (id, type, name, city, price) VALUES (?, 'hotel', ?, 'Paris', ?)")
        let selectR = RawStatement(r, queryR)
        defer { insertR.finalize(); selectR.finalize() }
        for round in 0..<rounds {
            usleep(300_000)
            let id = "live-\(round)", price = -1 - round
            expected.set(id)
            let start = DispatchTime.now().uptimeNanoseconds
            try collection.save(document: MutableDocument(id: id, data: ["type": "hotel", "name": id, "city": "Paris", "price": price]))
            guard changed.wait(timeout: .now() + 60) == .success else { throw BenchmarkError("the live query missed save \(round)") }
            times["DocLite", default: []].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)

            let startR = DispatchTime.now().uptimeNanoseconds
            insertR.bind([.text(id), .text(id), .int(price)])
            _ = insertR.run()
            guard selectR.run() == 10 else { throw BenchmarkError("R's query did not find 10 rows") }
            times["R", default: []].append(Double(DispatchTime.now().uptimeNanoseconds - startR) / 1e9)
        }
        // (The saved hotels go again, so that the figures after this one see the standard data.)
        try docLite.inBatch { for round in 0..<rounds { try collection.purge(id: "live-\(round)") } }
        execute(r, "DELETE FROM hotels WHERE id LIKE 'live-%'")

        var row = Row(scenario: "live query refresh after one save (wall)", unit: "ms")
        for (side, values) in times { row.medians[side] = Measure.median(values) * 1000 }
        return row
    }

    /// The ID the listener waits to see first in the rows (none: the first result).
    private final class Expected: @unchecked Sendable {   // `id` is behind `lock`
        private let lock = NSLock()
        private var id: String?

        var isInitial: Bool { lock.withLock { id == nil } }
        func set(_ id: String) { lock.withLock { self.id = id } }
        func matches(_ first: String?) -> Bool { lock.withLock { id != nil && first == id } }
    }
}
