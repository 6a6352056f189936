/// Value indexes: SQLite expression indexes on exactly the SQL the query
/// compiler emits for each expression, so that SQLite's planner uses them
/// for equality, ranges and ORDER BY (``Query/explain()`` shows it).
/// Full-text indexes: FTS4 tables kept up to date by triggers (``FullTextIndexSQL``).
/// Array indexes: tables of array elements kept by triggers (``ArrayIndexSQL``).
/// Predictive indexes: tables of cached predictions kept by triggers (``PredictiveIndexSQL``).
/// Vector indexes: tables of float32 vectors (``VectorIndexSQL``).
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
        case let config as VectorIndexConfiguration:
            let language = config.expressionLanguage
            let expression = try Self.expressions(language == .json ? ["[\(config.expression)]"] : [config.expression], language)
            guard expression.count == 1 else {
                throw DocLiteError(.invalidParameter, "a vector index takes one expression (Couchbase Lite's rule), got \(expression.count)")
            }
            try createIndex(name: name, kind: .vector(try VectorIndexOptions(config)), expressions: expression, where: nil)
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
            try database.dropIndex(existing)
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
        if kind == .value, let predictive = try Self.predictiveIndex(for: expressions, where: condition) {
            return try createIndex(name: name, kind: predictive.kind, expressions: [predictive.input], where: nil)
        }
        if case .predictive(let model, _) = kind, model.isEmpty {
            throw DocLiteError(.invalidParameter, "a predictive index needs a model name")
        }
        let definition = IndexDefinition(kind: kind, expressions: expressions, condition: condition)
        let definitionText = definition.json
        try write { database, connection in
            let plan = try IndexPlan(index: name, definition: definition, collection: self, database: database)
            let existing = try database.storedIndex(named: name, in: self)
            if existing?.definition == definitionText { return }
            try connection.atomically {   // all of it or, if a step fails, none (also inside a batch)
                if let existing { try database.dropIndex(existing) }
                for statement in plan.statements + [plan.rows?.fill].compactMap({ $0 }) { try connection.execute(statement) }
                try plan.rows?.afterChange?(connection, .any)
                try connection.withStatement("""
                    INSERT INTO indexes (collection, name, type, definition, sql_name, sql_expressions) VALUES (?, ?, ?, ?, ?, ?)
                    """) { insert in
                    insert.bind(1, id)
                    insert.bind(2, name)
                    insert.bind(3, kind.type.rawValue)
                    insert.bind(4, definitionText)
                    insert.bind(5, plan.sqlName)
                    insert.bind(6, JSONValue.array(plan.recorded.map(JSONValue.string)).json)
                    try insert.run()
                }
                try database.indexesChanged()
            }
        }
    }

    /// A value index on predictions, `PREDICTION(model, input, path)` items of
    /// one model and input, is kept as the predictive index of that model and
    /// input on those paths, as LiteCore keeps one: an SQLite expression index
    /// would call the model from schema SQL, which DocLite never lets SQLite do
    /// (`doc_prediction` is direct-only; docs/security.md). Nil for an index
    /// that calls no PREDICTION(); an error for one that calls it otherwise.
    private static func predictiveIndex(for expressions: [QueryExpression], where condition: QueryExpression?) throws
        -> (kind: IndexKind, input: QueryExpression)? {
        func callsPrediction(_ expression: QueryExpression) -> Bool {
            var found = false
            expression.forEach { if case .function(let name, _) = $0, name.lowercased() == "prediction" { found = true } }
            return found
        }
        guard expressions.contains(where: callsPrediction) || condition.map(callsPrediction) == true else { return nil }
        let unsupported = DocLiteError(.unsupported, "a value index on PREDICTION() takes items PREDICTION(model, input, path) of one "
                                       + "model and input, without a where clause (it is kept as a predictive index; see docs/security.md)")
        guard condition == nil else { throw unsupported }
        var call: (model: String, input: QueryExpression)?
        var paths: [String] = []
        for expression in expressions {
            // PREDICTION(model, input, path), or PREDICTION(model, input).path as SQL++ reads it.
            var (function, path): (QueryExpression, String?) = (expression, nil)
            if case .nested(let base, let components) = expression { (function, path) = (base, PropertyPath.format(components[...])) }
            guard case .function(let name, var arguments) = function, name.lowercased() == "prediction",
                  arguments.count == (path == nil ? 3 : 2), case .literal(.string(let model)) = arguments[0],
                  call == nil || (call?.model == model && call?.input == arguments[1]) else { throw unsupported }
            if path == nil {
                switch arguments.removeLast() {
                case .property(let components): path = PropertyPath.format(components[...])
                case .literal(.string(let text)): path = text
                default: throw DocLiteError(.invalidQuery, "PREDICTION() takes a property path there (\".label\" or a property)")
                }
            }
            paths.append(path ?? "")
            call = (model, arguments[1])
        }
        guard let call else { throw unsupported }   // (a where clause alone calls it)
        return (.predictive(model: call.model, properties: paths), call.input)
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
