import CSQLite

/// How many vectors each untrained vector index held after the last change this process
/// made to it, by file and table, with the generation that change gave the table (a
/// random number: no other change has it). While the table still has that generation,
/// nothing else changed it, so a save, which adds at most one vector, knows the index
/// cannot have reached its training threshold without counting the vectors again (a
/// read of every one: saving 6,000 documents into an untrained index of 384 dimensions
/// took 20 s longer for it).
final class UntrainedVectorCounts: @unchecked Sendable {   // `entries` is behind `lock`
    static let shared = UntrainedVectorCounts()

    /// How many indexes are remembered at most.
    static let capacity = 64

    private let lock = Lock()
    private var entries: [String: (generation: Int64, held: Int)] = [:]

    /// The key of the index whose table is `table` in the main file of `db`.
    func key(of table: String, on db: OpaquePointer) -> String {
        (sqlite3_db_filename(db, "main").map { String(cString: $0) } ?? "") + "\u{0}" + table
    }

    /// The vectors the index held when its table was given `generation`; nil if unknown.
    func held(_ key: String, generation: Int64) -> Int? {
        lock.withLock { entries[key].flatMap { $0.generation == generation ? $0.held : nil } }
    }

    /// Records what the index holds (nil: trained, or unknown) as of `generation`.
    func record(_ key: String, generation: Int64, held: Int?) {
        lock.withLock {
            guard let held else { entries[key] = nil; return }
            if entries.count >= Self.capacity, entries[key] == nil { entries.removeAll() }
            entries[key] = (generation, held)
        }
    }
}
