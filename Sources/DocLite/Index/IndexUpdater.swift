import Foundation

extension QueryIndex {
    /// The next documents, at most `limit`, whose vectors a lazy vector index lacks
    /// (Couchbase Lite's `beginUpdate(limit:)`): an updater holding each one's value of
    /// the index's expression, for the application to compute the vectors from; nil
    /// when every document with a value is indexed. A document saved again since it was
    /// indexed is pending again; deleted and purged documents leave the index by themselves.
    ///
    /// Throws `invalidParameter` for a limit of 0 or less, `unsupported` for an index
    /// that is not a lazy vector index, `missingIndex` when the index is gone.
    public func beginUpdate(limit: Int) throws -> IndexUpdater? {
        guard limit > 0 else { throw DocLiteError(.invalidParameter, "beginUpdate's limit must be above 0, got \(limit)") }
        return try collection.read { connection in
            let database = try collection.openDatabase()
            let (index, vector) = try lazyVectorIndex(of: database)
            let items = try connection.withStatement(index.pendingDocuments(vector: vector)) { rows in
                rows.bind(1, Int64(limit))
                var items: [(sequence: Int64, value: JSONValue)] = []
                while try rows.step() {
                    items.append((rows.int64(0), rows.queryValue(1, isBoolean: false, keys: database.sharedKeys) ?? .null))
                }
                return items
            }
            guard !items.isEmpty else { return nil }
            return IndexUpdater(index: self, table: index, vector: vector, items: items, database: database)
        }
    }

    /// This lazy vector index as `database` defines it now: its SQL, and its expression as
    /// DocLite compiles it from the definition (never SQL text the file holds).
    fileprivate func lazyVectorIndex(of database: Database) throws -> (index: VectorIndexSQL, vector: String) {
        guard let stored = try database.storedIndex(named: name, in: collection) else {
            throw DocLiteError(.missingIndex, "there is no index \(DocLiteError.quoted(name)) in collection \(collection.fullName)")
        }
        let plan = try database.plan(of: stored)
        guard case .vector(let options) = plan.kind, options.isLazy else {
            throw DocLiteError(.unsupported, "index \(DocLiteError.quoted(name)) is not a lazy vector index")
        }
        return (VectorIndexSQL(table: stored.sqlName, collection: collection.id, options: options), plan.recorded[0])
    }
}

/// A batch of documents whose vectors a lazy vector index lacks (Couchbase Lite's
/// `IndexUpdater`), from ``QueryIndex/beginUpdate(limit:)``: read each one's value of
/// the index's expression (``value(at:)`` and the typed getters), compute its vector
/// and ``setVector(_:at:)`` it (nil: the document has none), or ``skipVector(at:)`` it
/// (it comes back in a later update); then ``finish()`` writes them, in one
/// transaction. An updater not finished changes nothing.
public final class IndexUpdater: ArrayProtocol, @unchecked Sendable {   // its variables are behind `lock`
    private enum Item {
        case pending
        case set([Float]?)
        case skipped
    }

    private let index: QueryIndex
    private let table: VectorIndexSQL
    /// The index's expression, compiled: with `table`, what the index was at ``QueryIndex/beginUpdate(limit:)``.
    private let vector: String
    /// The number of items of every vector (the index's dimensions).
    package var dimensions: Int { table.options.dimensions }
    private let values: [JSONValue]
    private let sequences: [Int64]
    private let database: WeakDatabase
    private let lock = NSLock()
    private var items: [Item]
    private var isFinished = false

    init(index: QueryIndex, table: VectorIndexSQL, vector: String, items: [(sequence: Int64, value: JSONValue)], database: Database) {
        (self.index, self.table, self.vector) = (index, table, vector)
        (values, sequences) = (items.map(\.value), items.map(\.sequence))
        self.items = Array(repeating: .pending, count: items.count)
        self.database = WeakDatabase(database)
    }

    /// The number of documents in the batch.
    public var count: Int { values.count }

    /// Document `index`'s value of the index's expression (types as
    /// ``DictionaryProtocol/value(forKey:)``), nil when out of range.
    public func value(at index: Int) -> Any? {
        values.indices.contains(index) ? values[index].anyValue(in: database.database) : nil
    }

    /// The values as Swift arrays and dictionaries.
    public func toArray() -> [Any] { values.map(\.plainValue) }

    /// The values as a JSON array.
    public func toJSON() -> String { JSONValue.array(values).json }

    /// Document `index`'s value as JSON text, nil when out of range.
    package func json(at index: Int) -> String? { values.indices.contains(index) ? values[index].json : nil }

    /// Sets document `index`'s vector, `dimensions` finite numbers (copied); nil when
    /// the document has none. Throws `invalidParameter` for another length, an
    /// index out of range; `notOpen` once finished.
    public func setVector(_ vector: [Float]?, at index: Int) throws {
        if let vector {
            try Self.check(count: vector.count, dimensions: dimensions)
            if let bad = vector.firstIndex(where: { !$0.isFinite }) {
                throw DocLiteError(.invalidParameter, "the vector's item \(bad) is not a finite number")
            }
        }
        try change(at: index) { $0 = .set(vector) }
    }

    /// Leaves document `index` out of this update: it stays unindexed, and comes back in a
    /// later ``QueryIndex/beginUpdate(limit:)``. Throws as ``setVector(_:at:)``.
    public func skipVector(at index: Int) throws {
        try change(at: index) { $0 = .skipped }
    }

    /// Writes the vectors set, in one transaction (a document saved again since
    /// ``QueryIndex/beginUpdate(limit:)`` is left for a later update). Throws `unsupported`
    /// while a document is neither set nor skipped; `notOpen` once finished; `missingIndex`
    /// when the index was deleted, or made again, since.
    public func finish() throws {
        let (sequences, vectors): ([Int64], [[Float]?]) = try lock.withLock {
            guard !isFinished else { throw DocLiteError(.notOpen, "the IndexUpdater is finished") }
            var sequences: [Int64] = [], vectors: [[Float]?] = []
            for (i, item) in items.enumerated() {
                switch item {
                case .pending:
                    throw DocLiteError(.unsupported, "Cannot finish an update without all vectors updated or skipped (item \(i) is neither)")
                case .set(let vector):
                    sequences.append(self.sequences[i])
                    vectors.append(vector)
                case .skipped:
                    break
                }
            }
            return (sequences, vectors)
        }
        try index.collection.write { _, connection in
            // (Deleted, or made again with other options, since beginUpdate: these vectors are not its.)
            let now = try index.lazyVectorIndex(of: database.get())
            guard now.index == table, now.vector == vector else {
                throw DocLiteError(.missingIndex, "index \(DocLiteError.quoted(index.name)) was deleted or made again since beginUpdate")
            }
            try connection.withStatement(table.setVector) { insert in
                for (sequence, vector) in zip(sequences, vectors) {
                    insert.reset()
                    insert.bind(1, sequence)
                    insert.bind(2, vector.map { items in items.withUnsafeBytes { Array($0) } })
                    try insert.run()
                }
            }
            try table.changed(connection, .any)
        }
        lock.withLock { isFinished = true }
    }

    /// Throws `invalidParameter` unless a vector of `count` items fits an index of `dimensions`.
    package static func check(count: Int, dimensions: Int) throws {
        guard count == dimensions else {
            throw DocLiteError(.invalidParameter, "Inconsistent vector dimensions: the index has \(dimensions), the vector \(count)")
        }
    }

    private func change(at index: Int, _ update: (inout Item) -> Void) throws {
        try lock.withLock {
            guard !isFinished else { throw DocLiteError(.notOpen, "the IndexUpdater is finished") }
            guard items.indices.contains(index) else {
                throw DocLiteError(.invalidParameter, "index \(index) is out of range (the updater has \(items.count) items)")
            }
            update(&items[index])
        }
    }
}
