/// The SQL of an array index on a collection: a table with a row per element
/// of the array at `path` in each live document (as UNNEST reads it: a scalar is
/// one element, MISSING none), filled when the index is created and kept up to
/// date by triggers on the live table. An element is stored in its result form
/// (a boolean encoded: `doc_each`'s `element`) and read through `doc_element`,
/// as UNNEST reads `doc_each`'s. An SQLite index covers
/// the element, or the element expressions the index was given, so that an
/// UNNEST of that path filtering on them reads the index rather than every
/// document; another on the document's sequence joins rows to documents.
struct ArrayIndexSQL {
    /// The table's name (also the prefix of its triggers and indexes).
    let table: String
    let collection: Int64

    /// Creates the table and its indexes, fills it and creates its triggers.
    /// `array` is compiled SQL over the live table's columns; `expressions`
    /// compiled SQL over the element (`doc_element(element)`), none to index the element.
    func create(array: String, expressions: [String]) -> [String] {
        let live = Schema.liveTable(collection)
        let indexed = expressions.isEmpty ? ["doc_element(element)"] : expressions
        return [
            "CREATE TABLE \(table) (sequence INTEGER NOT NULL, element)",
            "CREATE INDEX \(table)_sequence ON \(table) (sequence)",
            "CREATE INDEX \(table)_value ON \(table) (\(indexed.joined(separator: ", ")))",
        ] + rows.fillAndTrack { condition in
            "INSERT INTO \(table) (sequence, element) SELECT \(live).sequence, e.element "
                + "FROM \(live) JOIN doc_each(\(array)) AS e WHERE \(condition);"
        }
    }

    /// Drops the table (with its indexes) and its triggers.
    var drop: [String] { rows.drop }

    private var rows: DerivedRows { DerivedRows(table: table, collection: collection, keyColumn: "sequence") }
}
