/// The readable account of how a predicate query runs
/// (``PredicateQueryBuilder/explanation``), the counterpart of the view and key
/// range that Couchbase Lite 1.x's builder explained:
///
/// ```
/// SELECT title, date FROM _ WHERE type = 'post' AND ARRAY_CONTAINS(tags, $TAG) ORDER BY date DESC
/// variables: $TAG
/// index: none — every document of the collection is read
/// conditions an index can serve: type = 'post'
/// conditions checked on each document read: ARRAY_CONTAINS(tags, $TAG)
/// a value index that would serve the predicate: ValueIndexConfiguration(["type"])
///
/// SQL: SELECT …
/// plan: …
/// ```
struct PredicateExplanation {
    let text: String

    init(builder: PredicateQueryBuilder) throws {
        let query = builder.prototype
        let statement = query.statement
        let (sql, steps) = try query.plan()
        let conditions = statement.whereClause.map(Self.conjuncts) ?? []
        // Each condition with the property an index on it would range over, if any.
        let ranged = conditions.map { (condition: $0, property: Self.indexedProperty($0)) }
        let indexable = ranged.filter { $0.property != nil }.map(\.condition)
        let rest = ranged.filter { $0.property == nil }.map(\.condition)
        let names = try Self.indexNames(builder)
        let indexLines = steps.map(\.detail).filter { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") }.map { line in
            names.reduce(line) { $0.replacingOccurrences(of: " INDEX \($1.key) ", with: " INDEX \($1.value) ") }
        }

        var lines = [query.sqlpp]
        if !builder.variableNames.isEmpty {
            lines.append("variables: " + builder.variableNames.map { "$" + $0 }.joined(separator: ", "))
        }
        lines.append(indexLines.isEmpty ? "index: none — every document of the collection is read"
                                        : "index: " + indexLines.joined(separator: "; "))
        if !indexable.isEmpty {
            lines.append("conditions an index can serve: " + indexable.map(SQLPPWriter.text).joined(separator: " AND "))
        }
        if !rest.isEmpty {
            lines.append("conditions checked on each document read: " + rest.map(SQLPPWriter.text).joined(separator: " AND "))
        }
        var properties: [QueryExpression] = []
        for property in ranged.compactMap(\.property) where !properties.contains(property) { properties.append(property) }
        if indexLines.isEmpty, !properties.isEmpty {
            let list = properties.map { "\"\(SQLPPWriter.text($0))\"" }.joined(separator: ", ")
            lines.append("a value index that would serve the predicate: ValueIndexConfiguration([\(list)])")
        }
        lines += ["", "SQL: " + sql, "plan:"] + steps.map(\.detail)
        text = lines.joined(separator: "\n")
    }

    /// The collection's index names by the names SQLite knows them by.
    private static func indexNames(_ builder: PredicateQueryBuilder) throws -> [String: String] {
        let database = builder.database
        let source = builder.prototype.statement.from.first?.collection
        let collection: Collection? = try source.map { fullName in
            let parts = fullName.split(separator: ".", maxSplits: 1).map(String.init)
            return parts.count == 2 ? try database.collection(name: parts[1], scope: parts[0]) : try database.collection(name: parts[0])
        } ?? database.defaultCollection()
        guard let collection else { return [:] }
        var names: [String: String] = [:]
        for name in try collection.indexes() {
            if let stored = try database.storedIndex(named: name, in: collection) { names[stored.sqlName] = name }
        }
        return names
    }

    /// The conditions of a top-level AND (the condition itself otherwise).
    private static func conjuncts(_ condition: QueryExpression) -> [QueryExpression] {
        if case .operation(.and, let operands) = condition { return operands.flatMap(conjuncts) }
        return [condition]
    }

    /// The property a condition ranges over, when an index on it would serve the condition:
    /// a key path compared with constants by =, <, <=, >, >=, BETWEEN, IN a list (BEGINSWITH's range).
    private static func indexedProperty(_ condition: QueryExpression) -> QueryExpression? {
        guard case .operation(let op, let operands) = condition, !operands.isEmpty else { return nil }
        let ranges: Set<QueryOperator> = [.equal, .less, .lessOrEqual, .greater, .greaterOrEqual, .between, .in]
        guard ranges.contains(op), case .property = operands[0], operands.dropFirst().allSatisfy(isConstant) else { return nil }
        return operands[0]
    }

    /// A literal, a parameter, or a list of them.
    private static func isConstant(_ expression: QueryExpression) -> Bool {
        switch expression {
        case .literal, .parameter: return true
        case .array(let items): return items.allSatisfy(isConstant)
        default: return false
        }
    }
}
