/// Writes a ``SelectStatement`` as LiteCore's JSON query: the query's canonical
/// text, which ``JSONQueryParser`` reads back to the same tree.
enum JSONQueryWriter {
    static func json(_ statement: SelectStatement) -> JSONValue {
        var clauses: [ByteString: JSONValue] = [:]
        if !statement.what.isEmpty {
            clauses["WHAT"] = .array(statement.what.map { item in
                item.alias.map { .array([.string("AS"), json(item.expression), .string($0)]) } ?? shorthandPosition(item.expression)
            })
        }
        if statement.distinct { clauses["DISTINCT"] = .bool(true) }
        if !statement.from.isEmpty { clauses["FROM"] = .array(statement.from.map(json)) }
        if let clause = statement.whereClause { clauses["WHERE"] = json(clause) }
        if !statement.groupBy.isEmpty { clauses["GROUP_BY"] = .array(statement.groupBy.map(shorthandPosition)) }
        if let clause = statement.having { clauses["HAVING"] = json(clause) }
        if !statement.orderBy.isEmpty {
            clauses["ORDER_BY"] = .array(statement.orderBy.map { item in
                item.descending ? .array([.string("DESC"), shorthandPosition(item.expression)]) : shorthandPosition(item.expression)
            })
        }
        if let clause = statement.limit { clauses["LIMIT"] = json(clause) }
        if let clause = statement.offset { clauses["OFFSET"] = json(clause) }
        return .dictionary(clauses)
    }

    /// An expression where LiteCore reads a bare string as a property path (a
    /// WHAT item without AS, a GROUP_BY or ORDER_BY item): a string literal
    /// there, which SQL++ and the builders can give, is written as
    /// `["CONCAT()", text, ""]`, the same string.
    private static func shorthandPosition(_ expression: QueryExpression) -> JSONValue {
        guard case .literal(.string) = expression else { return json(expression) }
        return .array([.string("CONCAT()"), json(expression), .string("")])
    }

    private static func json(_ source: DataSourceItem) -> JSONValue {
        var members: [ByteString: JSONValue] = [:]
        if let collection = source.collection { members["COLLECTION"] = .string(collection) }
        if let scope = source.scope { members["SCOPE"] = .string(scope) }
        if let alias = source.alias { members["AS"] = .string(alias) }
        if let join = source.join { members["JOIN"] = .string(join.rawValue) }
        if let on = source.on { members["ON"] = json(on) }
        if let unnest = source.unnest { members["UNNEST"] = json(unnest) }
        return .dictionary(members)
    }

    static func json(_ expression: QueryExpression) -> JSONValue {
        func op(_ name: String, _ operands: [QueryExpression]) -> JSONValue {
            .array([.string(name)] + operands.map(json))
        }
        switch expression {
        case .literal(let value): return value
        case .missing: return .array([.string("MISSING")])
        case .property(let path): return .array([.string("." + PropertyPath.format(path))])
        case .all(let source):
            return .array([.string(source.map { ".\(PropertyPath.format([PathComponent.key($0)]))." } ?? ".")])
        case .parameter(let name): return .array([.string("$" + name)])
        case .variable(let path): return .array([.string("?" + PropertyPath.format(path))])
        case .nested(let base, let path): return .array([.string("_."), json(base), .string(PropertyPath.format(path))])
        case .array(let items): return op("[]", items)
        case .dictionary(let members): return .dictionary(members.mapValues(json))
        case .operation(let operation, let operands): return op(operation.jsonName, operands)
        case .function(let name, let arguments):
            // Couchbase Lite's Objective-C layer spells `regex(_:)` in lower case.
            return op((name == "regexp_like" ? name : name.uppercased()) + "()", arguments)
        case .collate(let collation, let operand):
            var options: [ByteString: JSONValue] = [:]
            if let unicode = collation.unicode { options["UNICODE"] = .bool(unicode) }
            if let flag = collation.caseSensitive { options["CASE"] = .bool(flag) }
            if let flag = collation.diacriticSensitive { options["DIAC"] = .bool(flag) }
            if let locale = collation.locale { options["LOCALE"] = locale.map(JSONValue.string) ?? .null }
            return .array([.string("COLLATE"), .dictionary(options), json(operand)])
        case .caseWhen(let expression):
            var items: [JSONValue] = [.string("CASE"), expression.subject.map(json) ?? .null]
            for branch in expression.branches { items += [json(branch.when), json(branch.then)] }
            if let otherwise = expression.otherwise { items.append(json(otherwise)) }
            return .array(items)
        case .quantified(let quantifier, let variable, let array, let condition):
            return .array([.string(quantifier.rawValue), .string(variable), json(array), json(condition)])
        case .invalid(let error):   // (no JSON query: reading it back fails, naming the error)
            return .array([.string("INVALID"), .string(error.message)])
        }
    }
}
