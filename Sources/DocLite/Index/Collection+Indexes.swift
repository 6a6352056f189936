/// Value indexes: SQLite expression indexes on exactly the SQL the query
/// compiler emits for each expression, so that SQLite's planner uses them
/// for equality, ranges and ORDER BY (``Query/explain()`` shows it).
extension Collection {
    /// Creates a value index from a configuration. Creating the same index
    /// again is a no-op; a different definition under the same name replaces it.
    public func createIndex(withName name: String, config: IndexConfiguration) throws {
        guard let config = config as? ValueIndexConfiguration else {
            throw DocLiteError(.unsupported, "index configuration \(type(of: config)) is not supported")
        }
        guard case .array(let items) = try Self.parseJSON(config.expressions, what: "index expressions"), !items.isEmpty else {
            throw DocLiteError(.invalidQuery, "index '\(name)': the expressions must be a non-empty JSON array")
        }
        let expressions = try items.enumerated().map { i, item in
            try JSONQueryParser.expression(item, at: "expressions[\(i)]", stringIsProperty: true)
        }
        let condition = try config.whereClause.map { try JSONQueryParser.expression(try Self.parseJSON($0, what: "where clause"), at: "where") }
        try createValueIndex(name: name, expressions: expressions, where: condition)
    }

    /// Creates a value index built with ``IndexBuilder``.
    public func createIndex(_ index: Index, name: String) throws {
        guard let index = index as? ValueIndex else {
            throw DocLiteError(.unsupported, "index type \(type(of: index)) is not supported")
        }
        guard !index.items.isEmpty else { throw DocLiteError(.invalidParameter, "index '\(name)' has no items") }
        try createValueIndex(name: name, expressions: index.items.map { .property(try PropertyPath.parse($0.path)) }, where: nil)
    }

    /// Deletes the index `name`; a missing index is not an error.
    public func deleteIndex(forName name: String) throws {
        try write { database, connection in
            guard let existing = try database.storedIndex(named: name, in: self) else { return }
            try database.dropIndex(existing, collection: self)
        }
    }

    /// The names of the collection's indexes, sorted.
    public func indexes() throws -> [String] {
        try read { connection in
            try connection.withStatement("SELECT name FROM indexes WHERE collection = ? ORDER BY name") { rows in
                rows.bind(1, id)
                var names: [String] = []
                while try rows.step() { names.append(rows.string(0)) }
                return names
            }
        }
    }

    private func createValueIndex(name: String, expressions: [QueryExpression], where condition: QueryExpression?) throws {
        guard !name.isEmpty else { throw DocLiteError(.invalidParameter, "an index name cannot be empty") }
        var definition: [String: JSONValue] = ["expressions": .array(expressions.map(JSONQueryWriter.json))]
        if let condition { definition["where"] = JSONQueryWriter.json(condition) }
        let definitionText = JSONValue.dictionary(definition).json
        try write { database, connection in
            let compiled = try expressions.enumerated().map { i, expression in
                try QueryCompiler.compileIndexExpression(expression, collection: self, database: database, at: "expressions[\(i)]")
            }
            let conditionSQL = try condition.map {
                try QueryCompiler.compileIndexExpression($0, collection: self, database: database, at: "where")
            }
            if let existing = try database.storedIndex(named: name, in: self) {
                if existing.definition == definitionText { return }
                try database.dropIndex(existing, collection: self)
            }
            let sqlName = Self.sqlIndexName(collection: id, name: name)
            var create = "CREATE INDEX \(sqlName) ON \(Schema.liveTable(id)) (\(compiled.joined(separator: ", ")))"
            if let conditionSQL { create += " WHERE \(conditionSQL)" }
            try connection.execute(create)
            try connection.withStatement("""
                INSERT INTO indexes (collection, name, type, definition, sql_name, sql_expressions) VALUES (?, ?, 'value', ?, ?, ?)
                """) { insert in
                insert.bind(1, id)
                insert.bind(2, name)
                insert.bind(3, definitionText)
                insert.bind(4, sqlName)
                insert.bind(5, JSONValue.array(compiled.map(JSONValue.string)).json)
                try insert.run()
            }
            try database.indexesChanged()
        }
    }

    /// An SQL identifier for the index: the collection ID and the name in hex, so no name reaches SQL.
    private static func sqlIndexName(collection: Int64, name: String) -> String {
        "ix\(collection)_" + name.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private static func parseJSON(_ text: String, what: String) throws -> JSONValue {
        do {
            return try JSONValue(json: text)
        } catch let error as DocLiteError {
            throw DocLiteError(.invalidQuery, "the \(what) are not valid JSON: \(error.message)", position: error.position)
        }
    }
}

/// An index as recorded in the `indexes` table.
struct StoredIndex {
    let name: String
    let definition: String
    let sqlName: String
}

extension Database {
    func storedIndex(named name: String, in collection: Collection) throws -> StoredIndex? {
        try openConnection().withStatement("SELECT definition, sql_name FROM indexes WHERE collection = ? AND name = ?") { row in
            row.bind(1, collection.id)
            row.bind(2, name)
            guard try row.step() else { return nil }
            return StoredIndex(name: name, definition: row.string(0), sqlName: row.string(1))
        }
    }

    func dropIndex(_ index: StoredIndex, collection: Collection) throws {
        let connection = try openConnection()
        try connection.execute("DROP INDEX IF EXISTS \(index.sqlName)")
        try connection.withStatement("DELETE FROM indexes WHERE collection = ? AND name = ?") { delete in
            delete.bind(1, collection.id)
            delete.bind(2, index.name)
            try delete.run()
        }
        try indexesChanged()
    }

    /// Reloads the indexed expressions after an index change in this
    /// connection's transaction (restored if the transaction rolls back).
    func indexesChanged() throws {
        let before = indexedExpressions
        try loadIndexedExpressions()
        transaction.undo.append { [unowned self] in
            indexedExpressions = before
            indexGeneration += 1
        }
    }

    /// Reads every collection's value-index expressions; bumps ``indexGeneration`` when they changed.
    func loadIndexedExpressions() throws {
        var loaded: [Int64: Set<String>] = [:]
        try openConnection().withStatement("SELECT collection, sql_expressions FROM indexes WHERE type = 'value'") { rows in
            while try rows.step() {
                loaded[rows.int64(0), default: []].formUnion(Self.expressions(rows.string(1)))
            }
        }
        if loaded != indexedExpressions {
            indexedExpressions = loaded
            indexGeneration += 1
        }
    }

    private static func expressions(_ json: String) -> [String] {
        guard case .array(let items)? = try? JSONValue(json: json) else { return [] }
        return items.compactMap { if case .string(let sql) = $0 { sql } else { nil } }
    }
}
