/// The kinds of index, as the `indexes` table records them in `type`.
enum IndexType: String {
    case value, fullText = "full-text", predictive, array, vector

    /// The SQL name of index `name` of this type in collection `collection`: the
    /// type's prefix, the collection ID and the name's UTF-8 in hex, so no name reaches
    /// SQL. Every SQL name DocLite uses is made here, never read from the file.
    func sqlName(collection: Int64, index name: String) -> String {
        let prefix = switch self {
        case .value: "ix"
        case .fullText: "fts"
        case .predictive: "pred"
        case .array: "arr"
        case .vector: "vec"
        }
        return "\(prefix)\(collection)_" + name.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// What an index is, besides its expressions.
enum IndexKind: Equatable {
    case value
    case fullText(ignoreAccents: Bool, language: String?)
    /// The model's predictions for the one expression, with value indexes on `properties`.
    case predictive(model: String, properties: [String])
    /// The elements of the array at `path`, indexed by the expressions (none: the elements).
    case array(path: String)
    /// The vector the one expression gives each document.
    case vector(VectorIndexOptions)

    /// The `type` recorded in the `indexes` table.
    var type: IndexType {
        switch self {
        case .value: .value
        case .fullText: .fullText
        case .predictive: .predictive
        case .array: .array
        case .vector: .vector
        }
    }

    /// An array index's path (nil for other kinds).
    var arrayPath: String? {
        if case .array(let path) = self { path } else { nil }
    }

    /// The prediction's properties a predictive index indexes (none for other kinds).
    var predictedProperties: [String] {
        if case .predictive(_, let properties) = self { properties } else { [] }
    }
}

/// An index's definition as the `indexes` table records it (JSON, compared
/// when an index is created again): its kind, expressions and condition.
struct IndexDefinition {
    let kind: IndexKind
    let expressions: [QueryExpression]
    let condition: QueryExpression?

    /// The recorded JSON. (A value index's has no "type", as before full-text
    /// indexes: stored ones still compare equal.)
    var json: String {
        var definition: [ByteString: JSONValue] = ["expressions": .array(expressions.map(JSONQueryWriter.json))]
        if let condition { definition["where"] = JSONQueryWriter.json(condition) }
        switch kind {
        case .value:
            break
        case .fullText(let ignoreAccents, let language):
            definition["type"] = .string(kind.type.rawValue)
            definition["ignoreAccents"] = .bool(ignoreAccents)
            if let language { definition["language"] = .string(language) }
        case .array(let path):
            definition["type"] = .string(kind.type.rawValue)
            definition["path"] = .string(path)
        case .predictive(let model, let properties):
            definition["type"] = .string(kind.type.rawValue)
            definition["model"] = .string(model)
            definition["properties"] = .array(properties.map(JSONValue.string))
        case .vector(let options):
            definition["type"] = .string(kind.type.rawValue)
            definition.merge(options.json) { current, _ in current }
        }
        return JSONValue.dictionary(definition).json
    }
}

extension IndexDefinition {
    /// Reads a recorded definition of type `type` (its expressions parsed as any
    /// query is); nil unless it has the members DocLite writes for that type.
    init?(json text: String, type: IndexType) {
        guard case .dictionary(let members)? = try? JSONValue(json: text),
              case .array(let items)? = members["expressions"],
              let expressions = try? items.enumerated().map({ i, item in try JSONQueryParser.expression(item, at: "expressions[\(i)]") })
        else { return nil }
        func string(_ key: ByteString) -> String? {
            if case .string(let value)? = members[key] { value } else { nil }
        }
        let kind: IndexKind
        switch type {
        case .value:
            kind = .value
        case .fullText:
            guard case .bool(let ignoreAccents)? = members["ignoreAccents"] else { return nil }
            kind = .fullText(ignoreAccents: ignoreAccents, language: string("language"))
        case .array:
            guard let path = string("path") else { return nil }
            kind = .array(path: path)
        case .predictive:
            guard let model = string("model"), case .array(let items)? = members["properties"], expressions.count == 1 else { return nil }
            let properties = items.compactMap { if case .string(let path) = $0 { path } else { nil } }
            guard properties.count == items.count else { return nil }
            kind = .predictive(model: model, properties: properties)
        case .vector:
            guard let options = VectorIndexOptions(json: members), expressions.count == 1 else { return nil }
            kind = .vector(options)
        }
        let condition = members["where"].flatMap { try? JSONQueryParser.expression($0, at: "where") }
        guard (condition == nil) == (members["where"] == nil) else { return nil }
        self.init(kind: kind, expressions: expressions, condition: condition)
    }
}

/// The SQL DocLite writes for an index: its SQL name, the statements that
/// create it, how its rows are kept, and the compiled expressions it records. Creating an
/// index runs it; opening a file compares the file's schema with it.
struct IndexPlan {
    let sqlName: String
    /// The schema statements, in order (the table, index and virtual table definitions).
    let statements: [String]
    /// The `sql_expressions` recorded: what queries match to use the index.
    let recorded: [String]
    /// How a derived-row index's table is filled and kept in step (nil for a value index).
    let rows: DerivedRowStatements?
    /// What the index is, besides its expressions.
    let kind: IndexKind
    /// The statements that bring the index of a file of an older schema to the current one.
    var upgrade: [String] = []

    /// The plan of index `name`; `schemaVersion` is the file's, when it is verified.
    init(index name: String, definition: IndexDefinition, collection: Collection, database: Database,
         schemaVersion: Int64 = Schema.version) throws {
        let id = collection.id
        kind = definition.kind
        sqlName = kind.type.sqlName(collection: id, index: name)
        let properties = try kind.predictedProperties.map { path in
            PropertyPath.format(try PropertyPath.parse(path.hasPrefix(".") ? String(path.dropFirst()) : path))
        }
        let array = try kind.arrayPath.map(Self.arrayProperty)
        let compiled = try definition.expressions.enumerated().map { i, expression in
            try QueryCompiler.compileIndexExpression(expression, collection: collection, database: database, at: "expressions[\(i)]",
                                                     elementsOf: array, schemaVersion: schemaVersion)
        }
        let conditionSQL = try definition.condition.map {
            try QueryCompiler.compileIndexExpression($0, collection: collection, database: database, at: "where", schemaVersion: schemaVersion)
        }
        switch kind {
        case .value:
            var create = "CREATE INDEX \(sqlName) ON \(Schema.liveTable(id)) (\(compiled.joined(separator: ", ")))"
            if let conditionSQL { create += " WHERE \(conditionSQL)" }
            (statements, recorded, rows) = ([create], compiled, nil)
        case .fullText(let ignoreAccents, let language):
            let index = FullTextIndexSQL(table: sqlName, collection: id), columns = index.columnNames(definition.expressions)
            statements = [index.create(columns: columns, ignoreAccents: ignoreAccents, language: language)]
            recorded = compiled
            rows = index.rowStatements(columns: columns, expressions: compiled, condition: conditionSQL)
        case .predictive(let model, _):
            let index = PredictiveIndexSQL(table: sqlName, collection: id)
            (statements, recorded) = (index.create(properties: properties), [model, compiled[0]])
            rows = index.rowStatements(model: model, input: compiled[0])
        case .array:
            let index = ArrayIndexSQL(table: sqlName, collection: id)
            let arraySQL = try QueryCompiler.compileIndexExpression(array!, collection: collection, database: database, at: "path",
                                                                    schemaVersion: schemaVersion)
            statements = index.create(expressions: compiled)
            if case .property(let path) = array! { recorded = [PropertyPath.format(path)] + compiled } else { recorded = compiled }
            rows = index.rowStatements(array: arraySQL)
        case .vector(let options):
            let index = VectorIndexSQL(table: sqlName, collection: id, options: options)
            (statements, recorded) = (index.create(schemaVersion: schemaVersion), compiled)
            if schemaVersion < 8 { upgrade = index.upgrade }
            rows = index.rowStatements(vector: compiled[0])
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
}
