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
    /// With no `insert` (a lazy vector index, whose rows the application sets), saves only
    /// remove a document's rows.
    /// `afterChange`, if any, is run after the rows change, in their transaction (a vector
    /// index's training and generation).
    func statements(afterChange: DerivedRowStatements.AfterChange? = nil, _ insert: ((String) -> String)?) -> DerivedRowStatements {
        let live = Schema.liveTable(collection)
        return DerivedRowStatements(
            fill: insert?("1"),
            afterChange: afterChange,
            insertDocument: insert.map { StatementKey($0("\(live).key = ?1")) },
            deleteDocument: StatementKey("DELETE FROM \(table) WHERE \(keyColumn) = (SELECT sequence FROM \(live) WHERE key = ?1)"),
            deleteExpired: StatementKey("DELETE FROM \(table) WHERE \(keyColumn) IN (SELECT sequence FROM \(live) WHERE \(Schema.expiringKeys(collection)))"),
            fileTriggerNames: fileTriggerNames)
    }

    /// The names of the triggers that kept the table before schema 5: a file of
    /// an older schema may hold them, and its upgrade drops them (never run:
    /// triggers are off on DocLite's connections).
    var fileTriggerNames: [String] { ["ins", "upd", "del"].map { "\(table)_\($0)" } }

    /// Drops the table (with its indexes).
    var drop: [String] { ["DROP TABLE IF EXISTS \(table)"] }
}

/// The statements that keep one derived-row index in step with its collection.
struct DerivedRowStatements {
    /// How many rows a change may have added to the table.
    enum RowsAdded {
        /// One document's save, delete or purge (or purges only: none).
        case atMostOne
        /// Any number: the index's creation, a lazy index's update.
        case any
    }

    typealias AfterChange = (SQLiteConnection, RowsAdded) throws -> Void

    /// Adds the rows of every live document (when the index is created); nil for a lazy index.
    let fill: String?
    /// Runs after any of these statements ran, in their transaction (a vector index trains
    /// and marks its rows changed).
    let afterChange: AfterChange?
    /// Adds the rows of the live document whose ID is `?1` (after it is written); nil for a lazy index.
    let insertDocument: StatementKey?
    /// Removes the rows of the live document whose ID is `?1` (before it changes or goes).
    let deleteDocument: StatementKey
    /// Removes the rows of the live documents expiring by `?1` (before they are purged).
    let deleteExpired: StatementKey
    /// The triggers older schemas kept instead (``DerivedRows/fileTriggerNames``).
    let fileTriggerNames: [String]
}
