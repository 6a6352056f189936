/// The rows an index derives from each live document of a collection (the
/// words of a full-text index, a predictive index's prediction, an array
/// index's elements), kept in a table of their own, each row keyed by its
/// document's sequence in `keyColumn`: filled when the index is created and
/// kept in step by the statements of ``DerivedRowStatements``, which each save,
/// delete and purge runs (``Collection/updatingDerivedRows(of:in:_:_:)``).
///
/// Not by triggers: SQLite refuses to let a trigger write an FTS4 table while
/// `trusted_schema` is off (docs/security.md), so no schema SQL is needed.
struct DerivedRows {
    /// The derived table.
    let table: String
    let collection: Int64
    /// The derived table's column holding the document's sequence.
    let keyColumn: String

    /// The statements for `insert(condition)`, the statement adding the rows of
    /// the live documents that meet `condition` (an SQL condition on the live
    /// table's columns, qualified with its name).
    func statements(_ insert: (String) -> String) -> DerivedRowStatements {
        let live = Schema.liveTable(collection)
        return DerivedRowStatements(
            fill: insert("1"),
            insertDocument: StatementKey(insert("\(live).key = ?1")),
            deleteDocument: StatementKey("DELETE FROM \(table) WHERE \(keyColumn) = (SELECT sequence FROM \(live) WHERE key = ?1)"),
            deleteExpired: StatementKey("DELETE FROM \(table) WHERE \(keyColumn) IN (SELECT sequence FROM \(live) WHERE expiration <= ?1)"),
            fileTriggers: fileTriggers(insert("\(live).sequence = new.sequence")))
    }

    /// The triggers schema 4 kept in the file to do the same: recognized when
    /// such a file is opened, then dropped by the upgrade to schema 5.
    private func fileTriggers(_ changed: String) -> [(name: String, sql: String)] {
        let live = Schema.liveTable(collection)
        return [
            ("\(table)_ins", "CREATE TRIGGER \(table)_ins AFTER INSERT ON \(live) BEGIN \(changed) END"),
            ("\(table)_upd", """
                CREATE TRIGGER \(table)_upd AFTER UPDATE OF sequence, body ON \(live) BEGIN
                    DELETE FROM \(table) WHERE \(keyColumn) = old.sequence; \(changed) END
                """),
            ("\(table)_del", "CREATE TRIGGER \(table)_del AFTER DELETE ON \(live) BEGIN DELETE FROM \(table) WHERE \(keyColumn) = old.sequence; END"),
        ]
    }

    /// Drops the table (with its indexes).
    var drop: [String] { ["DROP TABLE IF EXISTS \(table)"] }
}

/// The statements that keep one derived-row index in step with its collection.
struct DerivedRowStatements {
    /// Adds the rows of every live document (when the index is created).
    let fill: String
    /// Adds the rows of the live document whose ID is `?1` (after it is written).
    let insertDocument: StatementKey
    /// Removes the rows of the live document whose ID is `?1` (before it changes or goes).
    let deleteDocument: StatementKey
    /// Removes the rows of the live documents expiring by `?1` (before they are purged).
    let deleteExpired: StatementKey
    /// Schema 4's triggers (``DerivedRows``).
    let fileTriggers: [(name: String, sql: String)]
}
