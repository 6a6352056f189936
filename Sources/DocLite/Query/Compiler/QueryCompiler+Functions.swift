/// Compiling function calls through the ``FunctionCatalog``: scalar functions,
/// aggregates, META(), MATCH() and RANK().
extension QueryCompiler {
    mutating func function(_ name: String, _ arguments: [QueryExpression], _ context: CompileContext) throws -> SQLFragment {
        let entry = try FunctionCatalog.entry(name, arguments: arguments.count, at: context.location)
        switch entry.kind {
        case .meta:
            let index = try metaSource(arguments, at: context.location)
            let source = sources[index]
            let members = [("id", "key"), ("sequence", "sequence"), ("deleted", source.includesDeleted ? "deleted" : "0")].map { key, column in
                SQLLiteral.string(key) + ", " + (column == "0" ? column : source.column(column))
            } + ["'expiration', \(try source.expirationSQL(at: context.location))"]
            let revision = "'revisionID', doc_revid(\(source.column("revid")))"
            return SQLFragment(sql: projected("\(entry.sqlName)(\((members + [revision]).joined(separator: ", ")))"), kind: entry.result)
        case .match, .rank:
            return try fullTextFunction(entry, arguments, context)
        case .vectorDistance:
            return try vectorDistance(arguments, context)
        case .aggregate(let aggregate):
            return try aggregateCall(aggregate, entry, name, arguments, context)
        case .prediction:
            if let cached = try cachedPrediction(entry, arguments, context) { return cached }
            guard arguments.count == 3 else { return try call(entry, name, arguments, context) }
            // The path is read from the prediction as from any value (`doc_value` parses it once per statement).
            return try property(of: call(entry, name, Array(arguments.prefix(2)), context), at: arguments[2], context)
        case .scalar:
            return try call(entry, name, arguments, context)
        }
    }

    /// A call of an aggregate: allowed in its clause, not nested, its arity checked.
    private mutating func aggregateCall(_ aggregate: FunctionCatalog.Entry.Aggregate, _ entry: FunctionCatalog.Entry, _ name: String,
                                        _ arguments: [QueryExpression], _ context: CompileContext) throws -> SQLFragment {
        let location = context.location
        guard context.clause.allowsAggregates else {
            throw QueryValidator.error(at: location, "aggregate function '\(name)()' is not allowed in \(context.clause.rawValue)")
        }
        guard !context.insideAggregate else {
            throw QueryValidator.error(at: location, "aggregate function '\(name)()' cannot be nested inside another aggregate")
        }
        guard let argument = arguments.first else { return SQLFragment(sql: "\(entry.sqlName)(*)", kind: entry.result) }
        let argumentContext = context.operand(1).with { $0.insideAggregate = true }
        if aggregate == .count, case .all = argument {   // every row has a body: no need to read it
            _ = try compile(argument, argumentContext)   // checks the alias
            return SQLFragment(sql: "\(entry.sqlName)(*)", kind: entry.result)
        }
        let sql = aggregate.readsValue
            ? valueSQL(try compileValue(argument, argumentContext))
            : try compile(argument, argumentContext).sql
        return SQLFragment(sql: "\(entry.sqlName)(\(sql))", kind: entry.result)
    }

    /// The key by which a query finds a predictive index (``Database/predictiveIndexes``):
    /// the model and the input as the compiler writes it.
    static func predictionKey(model: String, input: String) -> ByteString {
        ByteString(model + "\u{0}" + input)
    }

    /// `PREDICTION(model, input[, path])` read from a predictive index of that
    /// model and input (the same compiled SQL, the source's columns unqualified) on a source's collection: the
    /// index's table joined on the document's sequence, the model not called.
    /// Nil when no predictive index serves the call.
    private mutating func cachedPrediction(_ entry: FunctionCatalog.Entry, _ arguments: [QueryExpression],
                                           _ context: CompileContext) throws -> SQLFragment? {
        // (Not in an index expression; not in ON, where a join appended after the sources
        // would be to the right of an outer join's ON; not for tombstones, which have no prediction.)
        guard context.clause != .index, context.clause != .on, entry.arity.contains(arguments.count),
              case .literal(.string(let model)) = arguments[0] else {
            return nil
        }
        for (index, source) in sources.enumerated() where source.unnest == nil && !source.includesDeleted {
            // The input as this query reads it, with the source's columns unqualified as
            // in the index (`d.photo` of `FROM _ AS d` is the index's `photo`; an input that
            // reads another source, or a parameter, matches no index).
            var scoped = self
            scoped.sources[index] = source.unqualified
            scoped.projection = nil
            guard let tables = database.predictiveIndexes[source.collection.id],
                  let input = try? scoped.compile(arguments[1], context.operand(2)).sql,
                  let table = tables[Self.predictionKey(model: model, input: input)] else { continue }
            let alias = predictiveJoins[table]?.alias ?? "pr\(predictiveJoins.count)"
            predictiveJoins[table] = PredictiveJoin(table: table, alias: alias, source: index)
            readsBodies = true
            let prediction = SQLFragment(sql: projected("\(alias).prediction"), kind: .scalar)
            return arguments.count == 3 ? try property(of: prediction, at: arguments[2], context) : prediction
        }
        return nil
    }

    /// The value at PREDICTION()'s path argument (`".label"` or a property expression) within `prediction`.
    private func property(of prediction: SQLFragment, at path: QueryExpression, _ context: CompileContext) throws -> SQLFragment {
        let text = try pathText(path, of: "PREDICTION", at: context.operand(3).location)
        return SQLFragment(sql: "doc_value(\(prediction.sql), \(SQLLiteral.string(text)))", kind: .any)
    }

    /// A path argument's text: a property expression's path, or a string (a leading `.` dropped).
    private func pathText(_ argument: QueryExpression, of name: String, at location: String) throws -> String {
        switch argument {
        case .property(let path): return PropertyPath.format(path)
        case .literal(.string(let text)) where !text.isEmpty:
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        default: throw QueryValidator.error(at: location, "\(name)() takes a property path there (\".label\" or a property)")
        }
    }

    /// `MATCH(index, search)` (placed and resolved by `resolveFullTextMatches`)
    /// and `RANK(index)`, which needs a MATCH of the same index.
    private mutating func fullTextFunction(_ entry: FunctionCatalog.Entry, _ arguments: [QueryExpression],
                                           _ context: CompileContext) throws -> SQLFragment {
        let location = context.location
        let isMatch = if case .match = entry.kind { true } else { false }
        guard case .literal(.string(let index))? = arguments.first else {
            throw QueryValidator.error(at: location, entry.usage ?? "a full-text function takes a full-text index name first")
        }
        guard let match = fullTextIndex(named: index).flatMap({ fullTextMatches[$0.table] }), !isMatch || context.clause == .whereClause else {
            throw QueryValidator.error(at: location, "RANK() needs a MATCH() of full-text index '\(index)' in WHERE")
        }
        if isMatch {
            let search = try compile(arguments[1], context.operand(2)).sql
            return SQLFragment(sql: "(\(match.alias).\(match.table) \(entry.sqlName) \(search))", kind: entry.result)
        }
        guard projection == nil else { throw QueryValidator.error(at: location, "RANK() cannot be used in a grouped query") }
        return SQLFragment(sql: "\(entry.sqlName)(matchinfo(\(match.alias).\(match.table), 'pcx'))", kind: entry.result)
    }

    /// A call of a function of the ``FunctionCatalog`` (its arity checked by
    /// ``FunctionCatalog/entry(_:arguments:at:)``): a literal regular expression compiled (so that an invalid one fails here),
    /// its arguments passed as values (booleans keep their type).
    private mutating func call(_ entry: FunctionCatalog.Entry, _ name: String, _ arguments: [QueryExpression],
                               _ context: CompileContext) throws -> SQLFragment {
        if let index = entry.patternArgument, case .literal(.string(let pattern)) = arguments[index] {
            do {
                try RegexPattern.validate(pattern)
            } catch {
                throw QueryValidator.error(at: context.operand(index + 1).location, "\(error)")
            }
        }
        if let fusedFunction = entry.fusedWithProperty, case .property = arguments[0], case .literal(.string) = arguments[1] {
            let subject = try compile(arguments[0], context.operand(1))
            let operand = try compile(arguments[1], context.operand(2))
            if let fused = fused(fusedFunction, subject, arguments[1], operand) { return SQLFragment(sql: fused, kind: entry.result) }
        }
        var sql: [String] = []
        for (i, argument) in arguments.enumerated() {
            sql.append(valueSQL(try compileValue(argument, context.operand(i + 1))))
        }
        switch (entry.collationArgument, context.collation?.value) {   // the innermost COLLATE in force, taken or not
        case (.some, let inForce?): sql.append(SQLLiteral.string(inForce.sqlName))
        case (.inForceOrBinary, nil): sql.append(SQLLiteral.string(Collation().sqlName))
        case (.inForce, nil), (nil, _): break
        }
        return SQLFragment(sql: "\(entry.sqlName)(\(sql.joined(separator: ", ")))", kind: entry.result)
    }
}
