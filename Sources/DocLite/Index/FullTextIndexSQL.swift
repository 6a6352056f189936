/// The SQL of a full-text index on a collection: an FTS4 table whose columns
/// are the indexed expressions, named by their property paths (so that a
/// search `street:word` reads one column, as in Couchbase Lite, whose
/// full-text indexes are FTS4 tables too), filled from the live documents and
/// kept up to date as documents are written (``DerivedRows``). A document's row in it has
/// the document's sequence as `docid`.
struct FullTextIndexSQL {
    /// The FTS table's name.
    let table: String
    let collection: Int64

    /// The column names for `expressions`: a property's path, else (or when
    /// FTS4 could not take it: a name it reserves, one with `=`, a duplicate
    /// ignoring case, one holding NUL) `c<i>`.
    func columnNames(_ expressions: [QueryExpression]) -> [String] {
        var names: [String] = []
        for (i, expression) in expressions.enumerated() {
            var name = "c\(i)"
            if case .property(let path) = expression { name = PropertyPath.format(path) }
            let taken = ["docid", "rowid", "oid", "_rowid_", "__langid", table.lowercased()] + names.map { $0.lowercased() }
            // (Bytes, not Characters: "=" followed by a combining mark is still "=" to FTS4.)
            if name.utf8.contains(where: { $0 == UInt8(ascii: "=") || $0 == 0 }) || taken.contains(name.lowercased()) { name = "c\(i)" }
            names.append(name)
        }
        return names
    }

    /// Creates the table. `expressions` and `condition` are compiled SQL
    /// over the live table's columns.
    func create(columns: [String], ignoreAccents: Bool, language: String?) -> String {
        let columnList = columns.map(SQLLiteral.identifier).joined(separator: ", ")
        let tokenizer = Self.stems(language) ? "porter" : "unicode61 \"remove_diacritics=\(ignoreAccents ? 2 : 0)\""
        return "CREATE VIRTUAL TABLE \(table) USING fts4(\(columnList), tokenize=\(tokenizer))"
    }

    /// The statements filling the table and keeping it in step (``DerivedRows``).
    func rowStatements(columns: [String], expressions: [String], condition: String?) -> DerivedRowStatements {
        rows.statements(insert(columns: columns, expressions: expressions, condition: condition))
    }

    private func insert(columns: [String], expressions: [String], condition: String?) -> (String) -> String {
        let live = Schema.liveTable(collection)
        let columnList = columns.map(SQLLiteral.identifier).joined(separator: ", ")
        let values = expressions.map { "doc_fts_text(\($0))" }.joined(separator: ", ")
        let filter = condition.map { " AND (\($0))" } ?? ""
        return { condition in
            "INSERT INTO \(table) (docid, \(columnList)) SELECT sequence, \(values) FROM \(live) WHERE \(condition)\(filter);"
        }
    }

    /// Drops the table.
    var drop: [String] { rows.drop }

    private var rows: DerivedRows { DerivedRows(table: table, collection: collection, keyColumn: "docid") }

    /// Whether `language` has a stemmer here: English (Porter).
    static func stems(_ language: String?) -> Bool {
        guard let language = language?.lowercased() else { return false }
        return language == "en" || language == "english" || language.hasPrefix("en_") || language.hasPrefix("en-")
    }
}
