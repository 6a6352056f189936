/// The SQL of an array index on a collection: a table with a row per element
/// of the array at `path` in each live document (as UNNEST reads it: a scalar is
/// one element, MISSING none), filled when the index is created and kept up to
/// date as documents are written (``DerivedRows``). An element is stored in its result form
/// (a boolean encoded: `doc_each`'s `element`) and read through `doc_element`,
/// as UNNEST reads `doc_each`'s. An SQLite index covers
/// the element, or the element expressions the index was given, so that an
/// UNNEST of that path filtering on them reads the index rather than every
/// document; another on the document's sequence joins rows to documents.
struct ArrayIndexSQL {
    /// The table's name (also the prefix of its indexes).
    let table: String
    let collection: Int64

    /// Creates the table and its indexes. `expressions` are compiled SQL over
    /// the element (`doc_element(element)`), none to index the element.
    func create(expressions: [String]) -> [String] {
        let indexed = expressions.isEmpty ? ["doc_element(element)"] : expressions
        return [
            "CREATE TABLE \(table) (sequence INTEGER NOT NULL, element)",
            "CREATE INDEX \(table)_sequence ON \(table) (sequence)",
            "CREATE INDEX \(table)_value ON \(table) (\(indexed.joined(separator: ", ")))",
        ]
    }

    /// The statements filling the table and keeping it in step (``DerivedRows``);
    /// `array` is compiled SQL over the live table's columns.
    func rowStatements(array: String) -> DerivedRowStatements {
        rows.statements(insert(array: array))
    }

    private func insert(array: String) -> (String) -> String {
        let live = Schema.liveTable(collection)
        return { condition in
            "INSERT INTO \(table) (sequence, element) SELECT \(live).sequence, e.element "
                + "FROM \(live) JOIN doc_each(\(array)) AS e WHERE \(condition);"
        }
    }

    /// Drops the table (with its indexes).
    var drop: [String] { rows.drop }

    private var rows: DerivedRows { DerivedRows(table: table, collection: collection, keyColumn: "sequence") }
}
