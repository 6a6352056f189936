/// The SQL of a predictive index on a collection: a table caching each live
/// document's prediction by one model for one input (the whole prediction,
/// encoded as a body; NULL when the model gave none), filled when the index is
/// created and kept up to date as documents are written (``DerivedRows``), so the model is
/// called as documents are saved and never by a query that reads the index.
/// A value index on each of `properties` of the prediction serves queries
/// filtering or sorting on them. A document's row has its sequence.
struct PredictiveIndexSQL {
    /// The table's name (also the prefix of its indexes).
    let table: String
    let collection: Int64

    /// Creates the table and its indexes on the prediction's `properties`.
    func create(properties: [String]) -> [String] {
        ["CREATE TABLE \(table) (sequence INTEGER PRIMARY KEY, prediction BLOB)"]
            + properties.enumerated().map { i, path in
                "CREATE INDEX \(table)_\(i) ON \(table) (doc_value(prediction, \(SQLLiteral.string(path))))"
            }
    }

    /// The statements filling the table and keeping it in step (``DerivedRows``);
    /// `input` is compiled SQL over the live table's columns.
    func rowStatements(model: String, input: String) -> DerivedRowStatements {
        rows.statements(insert(model: model, input: input))
    }

    private func insert(model: String, input: String) -> (String) -> String {
        let live = Schema.liveTable(collection)
        let predict = "doc_prediction(\(SQLLiteral.string(model)), \(input))"
        return { condition in
            "INSERT INTO \(table) (sequence, prediction) SELECT sequence, \(predict) FROM \(live) WHERE \(condition);"
        }
    }

    /// Drops the table (with its indexes).
    var drop: [String] { rows.drop }

    private var rows: DerivedRows { DerivedRows(table: table, collection: collection, keyColumn: "sequence") }
}
