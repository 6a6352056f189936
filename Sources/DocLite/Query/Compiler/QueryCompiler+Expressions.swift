/// An expression compiled to SQL.
struct SQLFragment {
    var sql: String
    var kind: ValueKind
    /// For a document property: the qualified body column, the path text, and the collection.
    var property: (body: String, path: String, collectionID: Int64)?
    /// SQL that is already the value's result form: an array index's stored element,
    /// read as it is rather than through an expression SQLite may take from the index
    /// (where a boolean's subtype is lost).
    var resultForm: String?

}

extension QueryCompiler {
    /// The SQL of a result column: booleans marked so that they read back as booleans.
    mutating func resultSQL(_ fragment: SQLFragment) -> String {
        if let property = fragment.property {
            return projected("doc_result(\(property.body), \(SQLLiteral.string(property.path)))")
        }
        if let resultForm = fragment.resultForm { return resultForm }
        return fragment.kind == .any ? "doc_result(\(fragment.sql))" : fragment.sql
    }

    /// The SQL of an argument to a function that keeps value types (containers,
    /// concatenation, aggregation): a boolean gets its subtype (a projected
    /// property, which loses subtypes in the inner query, its encoded form).
    mutating func valueSQL(_ fragment: SQLFragment) -> String {
        if projection != nil, fragment.property != nil { return resultSQL(fragment) }
        return fragment.kind == .boolean ? "doc_bool(\(fragment.sql))" : fragment.sql
    }

    /// Compiles an expression whose SQL is used only through ``resultSQL(_:)`` or
    /// ``valueSQL(_:)``: in a grouped query, a bare property then projects only
    /// its result form.
    mutating func compileValue(_ expression: QueryExpression, _ context: CompileContext) throws -> SQLFragment {
        guard projection != nil, case .property = expression else { return try compile(expression, context) }
        return try compile(expression, context.with { $0.resultFormOnly = true })
    }

    /// A per-document value: as is, or in a grouped query the inner query's column for it.
    mutating func projected(_ sql: String) -> String {
        projection?.reference(sql) ?? sql
    }

    /// Compiles `expression` in `context`.
    mutating func compile(_ expression: QueryExpression, _ context: CompileContext) throws -> SQLFragment {
        switch expression {
        case .invalid(let error):
            throw error
        case .literal(let value):
            return literal(value)
        case .missing:
            return SQLFragment(sql: "NULL", kind: .scalar)
        case .parameter(let name):
            guard QueryValidator.isIdentifier(name) else {   // (the name becomes SQL text)
                throw QueryValidator.error(at: context.location, "invalid parameter name '\(name)' (letters, digits and '_' only)")
            }
            parameterNames.insert(name)
            return SQLFragment(sql: "$_" + name, kind: .scalar)
        case .property(let path):
            return try property(path, context)
        case .all(let name):
            let index = try sourceIndex(named: name, at: context.location)
            readsBodies = true
            return wholeSource(index)
        case .nested(let base, let path):
            if let arguments = base.arguments(ofCallTo: .meta), path.count == 1, case .key(let key) = path[0],
               let meta = MetaProperty(name: key) {   // the parser checked the key
                return try metaColumn(meta, of: try metaSource(arguments, at: context.location), at: context.location)
            }
            let value = try compile(base, context.operand(1))
            return SQLFragment(sql: "doc_value(\(value.sql), \(SQLLiteral.string(PropertyPath.format(path))))", kind: .any)
        case .array(let items):
            var arguments: [String] = []
            for (i, item) in items.enumerated() {
                arguments.append(valueSQL(try compileValue(item, context.operand(i + 1))))
            }
            return SQLFragment(sql: "doc_array(\(arguments.joined(separator: ", ")))", kind: .scalar)
        case .dictionary(let members):
            var arguments: [String] = []
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                arguments.append(SQLLiteral.string(key.string))
                arguments.append(valueSQL(try compileValue(value, context.member(key.string))))
            }
            return SQLFragment(sql: "doc_dict(\(arguments.joined(separator: ", ")))", kind: .scalar)
        case .operation(let op, let operands):
            return try operation(op, operands, context)
        case .function(let name, let arguments):
            return try function(name, arguments, context)
        case .caseWhen(let expression):
            var sql = "CASE"
            if let subject = expression.subject { sql += " " + (try compile(subject, context.operand(1)).sql) }
            var index = 2
            for branch in expression.branches {
                sql += " WHEN " + (try compile(branch.when, context.operand(index)).sql)
                sql += " THEN " + valueSQL(try compileValue(branch.then, context.operand(index + 1)))
                index += 2
            }
            sql += " ELSE " + (try expression.otherwise.map {
                valueSQL(try compileValue($0, context.operand(index)))
            } ?? SQLLiteral.null) + " END"
            return SQLFragment(sql: sql, kind: .any)
        case .collate(let options, let child):
            // Options override the enclosing COLLATE's. The first comparison or LIKE
            // inside takes the collation; if none does, it applies to the whole
            // value (an ORDER BY key, an operand).
            let scope = CollationScope(try Self.collation(options, over: context.collation?.value, at: context.location))
            let fragment = try compile(child, context.operand(2).with { $0.collation = scope })
            if scope.isTaken { return fragment }
            return SQLFragment(sql: "\(fragment.sql) COLLATE \(SQLLiteral.identifier(scope.value.sqlName))", kind: fragment.kind)
        case .quantified(let quantifier, let variable, let array, let condition):
            // One row per element: ANY = some row satisfies, EVERY = no row fails
            // (true for an empty or MISSING array), ANY AND EVERY = both and not empty.
            let elements = "doc_each(\(try compile(array, context.operand(2)).sql))"
            let alias = "v\(variableAliasCount)"
            variableAliasCount += 1
            let test = try compile(condition, context.operand(3).with { $0.variables.append((variable, alias)) }).sql
            let any = "EXISTS (SELECT 1 FROM \(elements) AS \(alias) WHERE \(test))"
            let every = "NOT EXISTS (SELECT 1 FROM \(elements) AS \(alias) WHERE NOT (\(test)))"
            switch quantifier {
            case .any: return SQLFragment(sql: any, kind: .boolean)
            case .every: return SQLFragment(sql: every, kind: .boolean)
            case .anyAndEvery: return SQLFragment(sql: "(EXISTS (SELECT 1 FROM \(elements)) AND \(every))", kind: .boolean)
            }
        case .variable(let path):
            guard case .key(let name) = path[0], let alias = context.variables.last(where: { $0.name == name })?.sqlAlias else {
                throw QueryValidator.error(at: context.location, "variable '\(PropertyPath.format(path))' is used outside an ANY or EVERY that binds it")
            }
            guard path.count > 1 else { return SQLFragment(sql: "\(alias).value", kind: .any) }
            return SQLFragment(sql: "doc_value(\(alias).value, \(SQLLiteral.string(PropertyPath.format(path.dropFirst()))))", kind: .any)
        }
    }

    func literal(_ value: JSONValue) -> SQLFragment {
        switch value {
        case .null: return SQLFragment(sql: SQLLiteral.null, kind: .scalar)
        case .bool(let flag): return SQLFragment(sql: flag ? "1" : "0", kind: .boolean)
        case .int(let number): return SQLFragment(sql: SQLLiteral.integer(number), kind: .scalar)
        case .unsigned(let number):
            return SQLFragment(sql: number <= UInt64(Int64.max) ? String(number) : SQLLiteral.real(Double(number)), kind: .scalar)
        case .double(let number): return SQLFragment(sql: SQLLiteral.real(number), kind: .scalar)
        case .string(let text): return SQLFragment(sql: SQLLiteral.string(text), kind: .scalar)
        case .array, .dictionary:
            // The parser turns JSON containers into .array / .dictionary expressions.
            preconditionFailure("container literal reached the compiler")
        }
    }
}
