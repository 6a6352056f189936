// The database's bookkeeping of its indexes: the `indexes` table's rows, and
// what the query compiler and the save path read of them.

/// An index as recorded in the `indexes` table. Its SQL name is made from the
/// recorded type, collection and name (``IndexType/sqlName(collection:index:)``),
/// never read from the file: a row whose `sql_name` differs, or whose type
/// DocLite does not write, is a corrupt file.
struct StoredIndex {
    let collection: Int64
    let name: String
    let type: IndexType
    let definition: String
    let sqlName: String
    /// The recorded `sql_expressions`: the SQL texts queries match to use the index.
    let expressions: [String]

    /// The statements that remove the index: its SQL objects and its row (by
    /// the SQL name DocLite made and checked, never by text the file holds).
    var drop: [String] {
        let objects: [String]
        switch type {
        case .value: objects = ["DROP INDEX IF EXISTS \(sqlName)"]
        case .predictive: objects = PredictiveIndexSQL(table: sqlName, collection: collection).drop
        case .array: objects = ArrayIndexSQL(table: sqlName, collection: collection).drop
        case .fullText: objects = FullTextIndexSQL(table: sqlName, collection: collection).drop
        case .vector: objects = VectorIndexSQL.drop(sqlName)
        }
        return objects + ["DELETE FROM indexes WHERE sql_name = '\(sqlName)'"]
    }

    /// The row of `rows`: collection, name, type, definition, sql_name, sql_expressions.
    static let columns = "collection, name, type, definition, sql_name, sql_expressions"

    init(row: Statement) throws {
        collection = row.int64(0)
        name = row.string(1)
        definition = row.string(3)
        guard let type = IndexType(rawValue: row.string(2)),
              case let sqlName = type.sqlName(collection: collection, index: name), sqlName == row.string(4) else {
            throw DocLiteError(.corruptData, "the database file's index \(DocLiteError.quoted(name)) of collection \(collection) "
                                + "does not have the type and SQL name DocLite gives it: the file was not written by DocLite")
        }
        self.type = type
        self.sqlName = sqlName
        guard case .array(let items)? = try? JSONValue(json: row.string(5)),
              case let texts = items.compactMap({ if case .string(let sql) = $0 { sql } else { nil } }), texts.count == items.count,
              type == .predictive ? texts.count == 2 : type == .fullText || !texts.isEmpty
        else {
            throw DocLiteError(.corruptData, "the database file's index \(DocLiteError.quoted(name)) of collection \(collection) has damaged expressions")
        }
        expressions = texts
    }
}

extension Database {
    /// Whether `expression` (SQL over unqualified columns) is indexed in collection `collection`.
    func isIndexed(collection: Int64, expression: String) -> Bool {
        indexedExpressions[collection]?.contains(ByteString(expression)) ?? false
    }

    func storedIndex(named name: String, in collection: Collection) throws -> StoredIndex? {
        try openConnection().withStatement("SELECT \(StoredIndex.columns) FROM indexes WHERE collection = ? AND name = ?") { row in
            row.bind(1, collection.id)
            row.bind(2, name)
            return try row.step() ? try StoredIndex(row: row) : nil
        }
    }

    /// Every index the file records, of every collection.
    func storedIndexes(of connection: SQLiteConnection) throws -> [StoredIndex] {
        try connection.withStatement("SELECT \(StoredIndex.columns) FROM indexes") { rows in
            var indexes: [StoredIndex] = []
            while try rows.step() { indexes.append(try StoredIndex(row: rows)) }
            return indexes
        }
    }

    func dropIndex(_ index: StoredIndex) throws {
        let connection = try openConnection()
        try connection.atomically {
            try connection.execute(index.drop)
            try indexesChanged()
        }
        if index.type == .vector { VectorTableCache.shared.forget(index.sqlName, on: connection.handle) }   // (its memory, now)
    }

    /// Reloads the indexed expressions after an index change in this
    /// connection's transaction (restored if the transaction rolls back).
    func indexesChanged() throws {
        let before = (indexedExpressions, fullTextIndexes, predictiveIndexes, arrayIndexes, vectorIndexes, derivedRows)
        try loadIndexedExpressions()
        transaction.undo.append { [unowned self] in
            (indexedExpressions, fullTextIndexes, predictiveIndexes, arrayIndexes, vectorIndexes, derivedRows) = before
            indexGeneration += 1
        }
    }

    /// Reads every collection's value-index expressions, full-text, predictive
    /// and array index tables, and the statements that keep the derived-row
    /// ones in step; bumps ``indexGeneration`` when the indexes changed.
    func loadIndexedExpressions() throws {
        var loaded: [Int64: Set<ByteString>] = [:]
        var fullText: [Int64: [ByteString: String]] = [:]
        var predictive: [Int64: [ByteString: String]] = [:]
        var arrays: [Int64: [ByteString: String]] = [:]
        var vectors: [Int64: [ByteString: VectorIndexTable]] = [:]
        var rows: [Int64: [DerivedRowStatements]] = [:]
        let indexes = try storedIndexes(of: openConnection())
        let names = Set(indexes.map(\.sqlName))
        indexPlans = indexPlans.filter { names.contains($0.key) }   // (an index dropped needs no plan)
        for index in indexes {
            let plan = index.type == .value ? nil : try plan(of: index)
            if let statements = plan?.rows { rows[index.collection, default: []].append(statements) }
            let expressions = index.expressions
            switch index.type {
            case .value:
                loaded[index.collection, default: []].formUnion(expressions.map { ByteString($0) })
            case .predictive:
                predictive[index.collection, default: [:]][QueryCompiler.predictionKey(model: expressions[0], input: expressions[1])] = index.sqlName
            case .array:
                arrays[index.collection, default: [:]][ByteString(expressions[0])] = index.sqlName
            case .fullText:
                fullText[index.collection, default: [:]][ByteString(index.name)] = index.sqlName
            case .vector:
                guard case .vector(let options)? = plan?.kind else { continue }
                vectors[index.collection, default: [:]][ByteString(expressions[0])] = VectorIndexTable(
                    name: index.name, table: index.sqlName, metric: options.metric, dimensions: options.dimensions, probes: options.probes)
            }
        }
        derivedRows = rows
        if loaded != indexedExpressions || fullText != fullTextIndexes || predictive != predictiveIndexes || arrays != arrayIndexes
            || vectors != vectorIndexes {
            indexedExpressions = loaded
            fullTextIndexes = fullText
            predictiveIndexes = predictive
            arrayIndexes = arrays
            vectorIndexes = vectors
            indexGeneration += 1
        }
    }

    /// The SQL DocLite writes for a recorded index (compiled once per definition).
    func plan(of index: StoredIndex) throws -> IndexPlan {
        if let cached = indexPlans[index.sqlName], cached.definition == index.definition { return cached.plan }
        guard let collection = collectionsByID[index.collection],
              let definition = IndexDefinition(json: index.definition, type: index.type) else {
            throw DocLiteError(.corruptData, "the database file's index \(DocLiteError.quoted(index.name)) of collection \(index.collection) "
                                + "has a definition DocLite does not write")
        }
        let plan = try IndexPlan(index: index.name, definition: definition, collection: handle(collection), database: self)
        indexPlans[index.sqlName] = (index.definition, plan)
        return plan
    }
}
