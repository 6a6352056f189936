/// Value indexes: SQLite expression indexes on exactly the SQL the query
/// compiler emits for each expression, so that SQLite's planner uses them
/// for equality, ranges and ORDER BY (``Query/explain()`` shows it).
/// Full-text indexes: FTS4 tables kept up to date by triggers (``FullTextIndexSQL``).
/// Array indexes: tables of array elements kept by triggers (``ArrayIndexSQL``).
/// Predictive indexes: tables of cached predictions kept by triggers (``PredictiveIndexSQL``).
extension Collection {
    /// Creates a value or full-text index from a configuration. Creating the
    /// same index again is a no-op; a different definition under the same name replaces it.
    public func createIndex(withName name: String, config: IndexConfiguration) throws {
        switch config {
        case let config as ValueIndexConfiguration:
            try createIndex(name: name, kind: .value, expressions: try Self.expressions(config.expressions, config.expressionLanguage),
                            where: try Self.condition(config.whereClause, config.expressionLanguage))
        case let config as FullTextIndexConfiguration:
            try createIndex(name: name, kind: .fullText(ignoreAccents: config.ignoreAccents, language: config.language),
                            expressions: try Self.expressions(config.expressions, config.expressionLanguage),
                            where: try Self.condition(config.whereClause, config.expressionLanguage))
        case let config as ArrayIndexConfiguration:
            let expressions = try config.expressions.map { try Self.expressions($0, config.expressionLanguage) } ?? []
            try createIndex(name: name, kind: .array(path: config.path), expressions: expressions, where: nil)
        case let config as PredictiveIndexConfiguration:
            let input = try Self.expressions(config.expressionLanguage == .json ? ["[\(config.input)]"] : [config.input], config.expressionLanguage)
            guard input.count == 1 else { throw DocLiteError(.invalidQuery, "a predictive index takes one input expression") }
            try createIndex(name: name, kind: .predictive(model: config.model, properties: config.properties ?? []),
                            expressions: input, where: nil)
        default:
            throw DocLiteError(.unsupported, "index configuration \(type(of: config)) is not supported")
        }
    }

    /// Creates a value or full-text index built with ``IndexBuilder``.
    public func createIndex(_ index: Index, name: String) throws {
        func properties(_ paths: [String]) throws -> [QueryExpression] {
            guard !paths.isEmpty else { throw DocLiteError(.invalidParameter, "index '\(name)' has no items") }
            return try paths.map { .property(try PropertyPath.parse($0)) }
        }
        switch index {
        case let index as ValueIndex:
            let expressions = index.items.isEmpty ? try properties([])   // (throws: no items)
                : try index.items.map { item in try item.expression ?? properties([item.path])[0] }
            try createIndex(name: name, kind: .value, expressions: expressions, where: nil)
        case let index as FullTextIndex:
            try createIndex(name: name, kind: .fullText(ignoreAccents: index.ignoresAccents, language: index.languageCode),
                            expressions: try properties(index.items.map(\.path)), where: nil)
        case let index as ArrayIndex:
            try createIndex(name: name, kind: .array(path: index.path), expressions: index.expressions, where: nil)
        case let index as PredictiveIndex:
            try createIndex(name: name, kind: .predictive(model: index.model, properties: index.properties ?? []),
                            expressions: [index.input], where: nil)
        default:
            throw DocLiteError(.unsupported, "index type \(type(of: index)) is not supported")
        }
    }

    /// Deletes the index `name`; a missing index is not an error.
    public func deleteIndex(forName name: String) throws {
        try write { database, connection in
            guard let existing = try database.storedIndex(named: name, in: self) else { return }
            try database.dropIndex(existing, collection: self)
        }
    }

    /// The index `name` of this collection, or nil when there is none (Couchbase Lite's `index(withName:)`).
    public func index(withName name: String) throws -> QueryIndex? {
        try indexes().contains(name) ? QueryIndex(name: name, collection: self) : nil
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

    private func createIndex(name: String, kind: IndexKind, expressions: [QueryExpression], where condition: QueryExpression?) throws {
        guard !name.isEmpty else { throw DocLiteError(.invalidParameter, "an index name cannot be empty") }
        // (A value index's definition has no "type", as before full-text indexes: stored ones still compare equal.)
        var definition: [ByteString: JSONValue] = ["expressions": .array(expressions.map(JSONQueryWriter.json))]
        if let condition { definition["where"] = JSONQueryWriter.json(condition) }
        switch kind {
        case .value:
            break
        case .fullText(let ignoreAccents, let language):
            definition["type"] = .string(kind.typeName)
            definition["ignoreAccents"] = .bool(ignoreAccents)
            if let language { definition["language"] = .string(language) }
        case .array(let path):
            definition["type"] = .string(kind.typeName)
            definition["path"] = .string(path)
        case .predictive(let model, let properties):
            guard !model.isEmpty else { throw DocLiteError(.invalidParameter, "a predictive index needs a model name") }
            definition["type"] = .string(kind.typeName)
            definition["model"] = .string(model)
            definition["properties"] = .array(properties.map(JSONValue.string))
        }
        let definitionText = JSONValue.dictionary(definition).json
        try write { database, connection in
            let properties = try kind.predictedProperties.map { path in
                PropertyPath.format(try PropertyPath.parse(path.hasPrefix(".") ? String(path.dropFirst()) : path))
            }
            let array = try kind.arrayPath.map { path in try Self.arrayProperty(path) }
            let compiled = try expressions.enumerated().map { i, expression in
                try QueryCompiler.compileIndexExpression(expression, collection: self, database: database, at: "expressions[\(i)]",
                                                         elementsOf: array)
            }
            let conditionSQL = try condition.map {
                try QueryCompiler.compileIndexExpression($0, collection: self, database: database, at: "where")
            }
            let existing = try database.storedIndex(named: name, in: self)
            if existing?.definition == definitionText { return }
            var recorded = compiled
            try connection.atomically {   // all of it or, if a step fails, none (also inside a batch)
                if let existing { try database.dropIndex(existing, collection: self) }
                let sqlName: String
                switch kind {
                case .value:
                    sqlName = Self.sqlIndexName(prefix: "ix", collection: id, name: name)
                    var create = "CREATE INDEX \(sqlName) ON \(Schema.liveTable(id)) (\(compiled.joined(separator: ", ")))"
                    if let conditionSQL { create += " WHERE \(conditionSQL)" }
                    try connection.execute(create)
                case .fullText(let ignoreAccents, let language):
                    sqlName = Self.sqlIndexName(prefix: "fts", collection: id, name: name)
                    let index = FullTextIndexSQL(table: sqlName, collection: id)
                    try connection.execute(index.create(columns: index.columnNames(expressions), expressions: compiled,
                                                        condition: conditionSQL, ignoreAccents: ignoreAccents, language: language))
                case .predictive(let model, _):
                    sqlName = Self.sqlIndexName(prefix: "pred", collection: id, name: name)
                    try connection.execute(PredictiveIndexSQL(table: sqlName, collection: id).create(model: model, input: compiled[0],
                                                                                                   properties: properties))
                    recorded = [model, compiled[0]]
                case .array:
                    sqlName = Self.sqlIndexName(prefix: "arr", collection: id, name: name)
                    let arraySQL = try QueryCompiler.compileIndexExpression(array!, collection: self, database: database, at: "path")
                    try connection.execute(ArrayIndexSQL(table: sqlName, collection: id).create(array: arraySQL, expressions: compiled))
                    if case .property(let path) = array! { recorded = [PropertyPath.format(path)] + compiled }
                }
                try connection.withStatement("""
                    INSERT INTO indexes (collection, name, type, definition, sql_name, sql_expressions) VALUES (?, ?, ?, ?, ?, ?)
                    """) { insert in
                    insert.bind(1, id)
                    insert.bind(2, name)
                    insert.bind(3, kind.typeName)
                    insert.bind(4, definitionText)
                    insert.bind(5, sqlName)
                    insert.bind(6, JSONValue.array(recorded.map(JSONValue.string)).json)
                    try insert.run()
                }
                try database.indexesChanged()
            }
        }
    }

    /// The property an array index's `path` names; nested arrays (`a[].b`) are not offered.
    private static func arrayProperty(_ path: String) throws -> QueryExpression {
        guard !path.contains("[]") else {
            throw DocLiteError(.unsupported, "array index path '\(path)': nested arrays ('[]') are not supported; index the outer array")
        }
        do {
            return .property(try PropertyPath.parse(path))
        } catch let error as DocLiteError {
            throw DocLiteError(.invalidParameter, "array index path '\(path)': \(error.message)")
        }
    }

    private static func expressions(_ texts: [String], _ language: IndexExpressionLanguage) throws -> [QueryExpression] {
        let expressions: [QueryExpression]
        switch language {
        case .sqlpp:
            expressions = try texts.flatMap { text in try sqlpp(text, what: "index expression") { try SQLPPParser.parseExpressions($0) } }
        case .json:
            guard case .array(let items) = try parseJSON(texts.first ?? "", what: "index expressions") else {
                throw DocLiteError(.invalidQuery, "the index expressions must be a JSON array")
            }
            expressions = try items.enumerated().map { i, item in
                try JSONQueryParser.expression(item, at: "expressions[\(i)]", stringIsProperty: true)
            }
        }
        guard !expressions.isEmpty else { throw DocLiteError(.invalidQuery, "an index needs at least one expression") }
        return expressions
    }

    private static func condition(_ text: String?, _ language: IndexExpressionLanguage) throws -> QueryExpression? {
        try text.map { text in
            switch language {
            case .sqlpp: return try sqlpp(text, what: "index condition") { try SQLPPParser.parseExpression($0) }
            case .json: return try JSONQueryParser.expression(try parseJSON(text, what: "where clause"), at: "where")
            }
        }
    }

    /// Parses SQL++ `text`, naming it in a syntax error.
    private static func sqlpp<T>(_ text: String, what: String, _ parse: (String) throws -> T) throws -> T {
        do {
            return try parse(text)
        } catch let error as DocLiteError {
            throw DocLiteError(.invalidQuery, "\(what) '\(text)': \(error.message)", position: error.position)
        }
    }

    /// An SQL identifier for the index: the collection ID and the name in hex, so no name reaches SQL.
    private static func sqlIndexName(prefix: String, collection: Int64, name: String) -> String {
        "\(prefix)\(collection)_" + name.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private static func parseJSON(_ text: String, what: String) throws -> JSONValue {
        do {
            return try JSONValue(json: text)
        } catch let error as DocLiteError {
            throw DocLiteError(.invalidQuery, "the \(what) are not valid JSON: \(error.message)", position: error.position)
        }
    }
}

/// An index of a collection, as `Collection.index(withName:)` returns it.
public struct QueryIndex: Sendable {
    /// The index's name.
    public let name: String
    /// The collection it indexes.
    public let collection: Collection
}

/// What an index is, besides its expressions.
enum IndexKind: Equatable {
    case value
    case fullText(ignoreAccents: Bool, language: String?)
    /// The model's predictions for the one expression, with value indexes on `properties`.
    case predictive(model: String, properties: [String])
    /// The elements of the array at `path`, indexed by the expressions (none: the elements).
    case array(path: String)

    /// The `type` recorded in the `indexes` table.
    var typeName: String {
        switch self {
        case .value: Self.valueTypeName
        case .fullText: Self.fullTextTypeName
        case .predictive: Self.predictiveTypeName
        case .array: Self.arrayTypeName
        }
    }

    /// The recorded `type`s, matched when the `indexes` table is read.
    static let valueTypeName = "value", fullTextTypeName = "full-text", predictiveTypeName = "predictive", arrayTypeName = "array"

    /// An array index's path (nil for other kinds).
    var arrayPath: String? {
        if case .array(let path) = self { path } else { nil }
    }

    /// The prediction's properties a predictive index indexes (none for other kinds).
    var predictedProperties: [String] {
        if case .predictive(_, let properties) = self { properties } else { [] }
    }
}

/// An index as recorded in the `indexes` table.
struct StoredIndex {
    let name: String
    let type: String
    let definition: String
    let sqlName: String
}

extension Database {
    /// Whether `expression` (SQL over unqualified columns) is indexed in collection `collection`.
    func isIndexed(collection: Int64, expression: String) -> Bool {
        indexedExpressions[collection]?.contains(ByteString(expression)) ?? false
    }

    func storedIndex(named name: String, in collection: Collection) throws -> StoredIndex? {
        try openConnection().withStatement("SELECT type, definition, sql_name FROM indexes WHERE collection = ? AND name = ?") { row in
            row.bind(1, collection.id)
            row.bind(2, name)
            guard try row.step() else { return nil }
            return StoredIndex(name: name, type: row.string(0), definition: row.string(1), sqlName: row.string(2))
        }
    }

    func dropIndex(_ index: StoredIndex, collection: Collection) throws {
        let connection = try openConnection()
        try connection.atomically {
            switch index.type {
            case IndexKind.valueTypeName:
                try connection.execute("DROP INDEX IF EXISTS \(index.sqlName)")
            case IndexKind.predictiveTypeName:
                try connection.execute(PredictiveIndexSQL(table: index.sqlName, collection: collection.id).drop)
            case IndexKind.arrayTypeName:
                try connection.execute(ArrayIndexSQL(table: index.sqlName, collection: collection.id).drop)
            default:
                try connection.execute(FullTextIndexSQL(table: index.sqlName, collection: collection.id).drop)
            }
            try connection.withStatement("DELETE FROM indexes WHERE collection = ? AND name = ?") { delete in
                delete.bind(1, collection.id)
                delete.bind(2, index.name)
                try delete.run()
            }
            try indexesChanged()
        }
    }

    /// Reloads the indexed expressions after an index change in this
    /// connection's transaction (restored if the transaction rolls back).
    func indexesChanged() throws {
        let before = (indexedExpressions, fullTextIndexes, predictiveIndexes, arrayIndexes)
        try loadIndexedExpressions()
        transaction.undo.append { [unowned self] in
            (indexedExpressions, fullTextIndexes, predictiveIndexes, arrayIndexes) = before
            indexGeneration += 1
        }
    }

    /// Reads every collection's value-index expressions, full-text index
    /// tables and predictive index tables; bumps ``indexGeneration`` when they changed.
    func loadIndexedExpressions() throws {
        var loaded: [Int64: Set<ByteString>] = [:]
        var fullText: [Int64: [ByteString: String]] = [:]
        var predictive: [Int64: [ByteString: String]] = [:]
        var arrays: [Int64: [ByteString: String]] = [:]
        try openConnection().withStatement("SELECT collection, type, name, sql_name, sql_expressions FROM indexes") { rows in
            while try rows.step() {
                let expressions = Self.expressions(rows.string(4))
                switch rows.string(1) {
                case IndexKind.valueTypeName:
                    loaded[rows.int64(0), default: []].formUnion(expressions.map { ByteString($0) })
                case IndexKind.predictiveTypeName where expressions.count == 2:
                    predictive[rows.int64(0), default: [:]][PredictiveIndexSQL.key(model: expressions[0], input: expressions[1])] = rows.string(3)
                case IndexKind.arrayTypeName where !expressions.isEmpty:
                    arrays[rows.int64(0), default: [:]][ByteString(expressions[0])] = rows.string(3)
                default:
                    fullText[rows.int64(0), default: [:]][ByteString(rows.string(2))] = rows.string(3)
                }
            }
        }
        if loaded != indexedExpressions || fullText != fullTextIndexes || predictive != predictiveIndexes || arrays != arrayIndexes {
            indexedExpressions = loaded
            fullTextIndexes = fullText
            predictiveIndexes = predictive
            arrayIndexes = arrays
            indexGeneration += 1
        }
    }

    private static func expressions(_ json: String) -> [String] {
        guard case .array(let items)? = try? JSONValue(json: json) else { return [] }
        return items.compactMap { if case .string(let sql) = $0 { sql } else { nil } }
    }
}
