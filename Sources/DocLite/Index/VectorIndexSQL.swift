/// The SQL of a vector index on a collection: a table of each live document's
/// vector (its float32 items, `doc_vector`), keyed by the document's sequence,
/// filled when the index is created and kept up to date as documents are
/// written (``DerivedRows``). A document whose value is no vector of the
/// index's dimensions has no row. Queries compute distances from it
/// (`doc_vector_distance`) instead of reading every document's body.
struct VectorIndexSQL {
    /// The table's name.
    let table: String
    let collection: Int64

    /// Creates the table.
    var create: [String] { ["CREATE TABLE \(table) (sequence INTEGER PRIMARY KEY, vector BLOB NOT NULL)"] }

    /// The statements filling the table and keeping it in step (``DerivedRows``);
    /// `vector` is compiled SQL over the live table's columns.
    func rowStatements(vector: String, dimensions: Int) -> DerivedRowStatements {
        let live = Schema.liveTable(collection)
        return rows.statements { condition in
            "INSERT INTO \(table) (sequence, vector) SELECT sequence, vector FROM (SELECT \(live).sequence AS sequence, "
                + "doc_vector(\(vector), \(dimensions)) AS vector FROM \(live) WHERE \(condition)) WHERE vector IS NOT NULL;"
        }
    }

    /// Drops the table.
    var drop: [String] { rows.drop }

    private var rows: DerivedRows { DerivedRows(table: table, collection: collection, keyColumn: "sequence") }
}
