/// The SQL of a vector index on a collection: a table of each live document's
/// vector (its float32 items, `doc_vector`), keyed by the document's sequence,
/// filled when the index is created and kept up to date as documents are
/// written (``DerivedRows``). A document whose value is no vector of the
/// index's dimensions has no row. Queries compute distances from it
/// (`doc_vector_distance`) instead of reading every document's body.
///
/// A lazy index's rows are set by the application (``IndexUpdater``): saves only
/// remove a changed document's row, and a row whose vector is NULL stands for a
/// document indexed without one. A document without a row is not indexed yet.
struct VectorIndexSQL {
    /// The table's name.
    let table: String
    let collection: Int64

    /// Creates the table, and the one-row table of its generation (``VectorTableCache``).
    var create: [String] {
        ["CREATE TABLE \(table) (sequence INTEGER PRIMARY KEY, vector BLOB)",
         "CREATE TABLE \(generationTable) (id INTEGER PRIMARY KEY CHECK (id = 1), generation INTEGER NOT NULL)"]
    }

    private var generationTable: String { VectorTableCache.generationTable(of: table) }

    /// Bumps the table's generation: run in the transaction of every change to its rows,
    /// so that a copy of them in memory is known to be out of date.
    var touch: StatementKey {
        StatementKey("INSERT INTO \(generationTable) (id, generation) VALUES (1, 1) "
                     + "ON CONFLICT (id) DO UPDATE SET generation = generation + 1")
    }

    /// The statements filling the table and keeping it in step (``DerivedRows``);
    /// `vector` is compiled SQL over the live table's columns.
    func rowStatements(vector: String, dimensions: Int, isLazy: Bool) -> DerivedRowStatements {
        let live = Schema.liveTable(collection)
        return rows.statements(touch: touch, isLazy ? nil : { condition in
            "INSERT INTO \(table) (sequence, vector) SELECT sequence, vector FROM (SELECT \(live).sequence AS sequence, "
                + "doc_vector(\(vector), \(dimensions)) AS vector FROM \(live) WHERE \(condition)) WHERE vector IS NOT NULL;"
        })
    }

    /// The documents a lazy index has not indexed yet whose `vector` (compiled SQL over
    /// the live table's columns) is valued, in sequence order, at most `?1`: their
    /// sequence and the value in its result form.
    func pendingDocuments(vector: String) -> String {
        let live = Schema.liveTable(collection)
        return "SELECT sequence, doc_result(\(vector)) FROM \(live) WHERE sequence NOT IN (SELECT sequence FROM \(table)) "
            + "AND (\(vector)) IS NOT NULL ORDER BY sequence LIMIT ?1"
    }

    /// Sets the vector of the document of sequence `?1` to `?2` (NULL: none), if it
    /// still has that sequence (one changed since is left for a later update).
    var setVector: String {
        "INSERT OR REPLACE INTO \(table) (sequence, vector) SELECT ?1, ?2 WHERE EXISTS "
            + "(SELECT 1 FROM \(Schema.liveTable(collection)) WHERE sequence = ?1)"
    }

    /// Drops the tables.
    var drop: [String] { rows.drop + ["DROP TABLE IF EXISTS \(generationTable)"] }

    private var rows: DerivedRows { DerivedRows(table: table, collection: collection, keyColumn: "sequence") }
}
