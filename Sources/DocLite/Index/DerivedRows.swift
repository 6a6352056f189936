/// The rows an index derives from each live document of a collection (the
/// words of a full-text index, a predictive index's prediction, an array
/// index's elements), kept in a table of their own: filled when the index is
/// created and kept in step with the live documents by triggers, each row
/// keyed by its document's sequence in `keyColumn`.
struct DerivedRows {
    /// The derived table (also the prefix of its triggers).
    let table: String
    let collection: Int64
    /// The derived table's column holding the document's sequence.
    let keyColumn: String

    /// Fills the table and creates its triggers. `insert(condition)` is the
    /// statement adding the rows of the live documents that meet `condition`
    /// (an SQL condition on the live table's columns, qualified with its name).
    func fillAndTrack(_ insert: (String) -> String) -> [String] {
        let live = Schema.liveTable(collection)
        let changed = insert("\(live).sequence = new.sequence")
        return [
            insert("1"),
            "CREATE TRIGGER \(table)_ins AFTER INSERT ON \(live) BEGIN \(changed) END",
            """
            CREATE TRIGGER \(table)_upd AFTER UPDATE OF sequence, body ON \(live) BEGIN
                DELETE FROM \(table) WHERE \(keyColumn) = old.sequence; \(changed) END
            """,
            "CREATE TRIGGER \(table)_del AFTER DELETE ON \(live) BEGIN DELETE FROM \(table) WHERE \(keyColumn) = old.sequence; END",
        ]
    }

    /// Drops the triggers and the table (with its indexes).
    var drop: [String] {
        ["ins", "upd", "del"].map { "DROP TRIGGER IF EXISTS \(table)_\($0)" } + ["DROP TABLE IF EXISTS \(table)"]
    }
}
