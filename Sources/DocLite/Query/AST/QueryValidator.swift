/// The rules every query tree obeys, whatever front end built it (the JSON
/// reader, the QueryBuilder, a tree made directly): FROM items in a valid
/// order, operators with their operand counts, names of parameters and
/// variables, META() keys, nesting within ``QueryDepth/limit``. The compiler
/// checks a tree with it before translating it.
///
/// Errors name the fault's location in the query's JSON form (`FROM[1]`,
/// `WHERE[2][1]`), the form ``JSONQueryWriter`` writes, so a query read from
/// JSON gets the place it was read from.
enum QueryValidator {
    static func validate(_ statement: SelectStatement) throws {
        for (i, source) in statement.from.enumerated() { try validate(source, at: "FROM[\(i)]", isFirst: i == 0) }
        for (i, item) in statement.what.enumerated() {
            if let alias = item.alias, alias.isEmpty {
                throw error(at: "WHAT[\(i)]", "'AS' takes an expression and a non-empty alias string")
            }
            try validate(item.expression, at: item.alias == nil ? "WHAT[\(i)]" : "WHAT[\(i)][1]")
        }
        if let condition = statement.whereClause { try validate(condition, at: "WHERE") }
        for (i, expression) in statement.groupBy.enumerated() { try validate(expression, at: "GROUP_BY[\(i)]") }
        if let condition = statement.having {
            // (SQL++ cannot say it, so such a query would have no SQL++ form.)
            guard !statement.groupBy.isEmpty else {
                throw error(at: "HAVING", "HAVING filters groups, so it needs a GROUP_BY (as in SQL++ and Couchbase Lite's builders)")
            }
            try validate(condition, at: "HAVING")
        }
        for (i, item) in statement.orderBy.enumerated() {
            try validate(item.expression, at: item.descending ? "ORDER_BY[\(i)][1]" : "ORDER_BY[\(i)]")
        }
        if let limit = statement.limit { try validate(limit, at: "LIMIT") }
        if let offset = statement.offset { try validate(offset, at: "OFFSET") }
    }

    private static func validate(_ source: DataSourceItem, at location: String, isFirst: Bool) throws {
        for (key, text) in [("COLLECTION", source.collection), ("SCOPE", source.scope), ("AS", source.alias)] where text?.isEmpty == true {
            throw error(at: "\(location).\(key)", "must be a non-empty string")
        }
        if source.scope != nil, source.collection?.contains(".") == true {
            throw error(at: location, "SCOPE cannot be combined with a scope-qualified COLLECTION")
        }
        if let on = source.on { try validate(on, at: "\(location).ON") }
        if let unnest = source.unnest {
            try validate(unnest, at: "\(location).UNNEST")
            guard source.join == nil, source.on == nil else { throw error(at: location, "UNNEST cannot have JOIN or ON") }
            guard !isFirst else { throw error(at: location, "the first FROM item cannot be an UNNEST") }
            return
        }
        if isFirst {
            guard source.join == nil, source.on == nil else { throw error(at: location, "the first FROM item cannot be a JOIN") }
            return
        }
        switch source.join {
        case nil: throw error(at: location, "a FROM item after the first must be a JOIN (with ON) or an UNNEST")
        case .cross: if source.on != nil { throw error(at: location, "a CROSS JOIN cannot have ON") }
        case let join?: if source.on == nil { throw error(at: location, "a \(join.rawValue) JOIN needs ON") }
        }
    }

    /// Checks `expression` at `location`: its own rules, then its operands',
    /// then its depth (so a too-deep tree is reported at its innermost part
    /// that is too deep).
    static func validate(_ expression: QueryExpression, at location: String) throws {
        switch expression {
        case .invalid(let error):
            throw error
        case .property(let path):
            guard !path.isEmpty else { throw error(at: location, "a property needs a path") }
        case .parameter(let name):
            guard isIdentifier(name) else {
                throw error(at: location, "invalid parameter name '\(name)' (letters, digits and '_' only)")
            }
        case .variable(let path):
            guard case .key(let name)? = path.first, isIdentifier(name) else {
                throw error(at: location, "a variable needs a name of letters, digits and '_'")
            }
        case .nested(let base, let path):
            guard !path.isEmpty else { throw error(at: location, "'_.' needs a path") }
            if base.arguments(ofCallTo: .meta) != nil {
                guard path.count == 1, case .key(let key) = path[0], MetaProperty(name: key) != nil else {
                    throw error(at: location, "'\(PropertyPath.format(path))' is not a valid Meta key "
                                + "(\(MetaProperty.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
            }
            try validate(base, at: "\(location)[1]")
        case .operation(let op, let operands):
            guard op.arity.contains(operands.count) else {
                let range = op.arity
                let expected = range.count == 1 ? "\(range.lowerBound)"
                    : operands.count > range.upperBound ? "at most \(range.upperBound)"
                    : range.upperBound >= 127 ? "at least \(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
                throw error(at: location, "'\(op.jsonName)' takes \(expected) operand\(range == 1...1 ? "" : "s"), got \(operands.count)")
            }
            if op == .in || op == .notIn { try validateInList(operands[1], at: "\(location)[2]") }
            try validateOperands(operands, at: location)
        case .function(let name, let arguments):
            guard !name.isEmpty else { throw error(at: location, "empty function name") }
            guard arguments.count <= 127 else { throw error(at: location, "a function takes at most 127 arguments") }
            let entry = try FunctionCatalog.entry(name, arguments: arguments.count, at: location)
            if entry.kind == .vectorDistance { try validateVectorDistance(arguments, at: location) }
            try validateOperands(arguments, at: location)
        case .array(let items):
            try validateOperands(items, at: location)
        case .dictionary(let members):
            for (key, member) in members.sorted(by: { $0.key < $1.key }) { try validate(member, at: "\(location).\(key)") }
        case .collate(_, let operand):
            try validate(operand, at: "\(location)[2]")
        case .caseWhen(let expression):
            guard !expression.branches.isEmpty else {
                throw error(at: location, "CASE takes a subject (or null), then WHEN/THEN pairs, then an optional ELSE")
            }
            if let subject = expression.subject { try validate(subject, at: "\(location)[1]") }
            for (i, branch) in expression.branches.enumerated() {
                try validate(branch.when, at: "\(location)[\(2 * i + 2)]")
                try validate(branch.then, at: "\(location)[\(2 * i + 3)]")
            }
            if let otherwise = expression.otherwise { try validate(otherwise, at: "\(location)[\(2 * expression.branches.count + 2)]") }
        case .quantified(let quantifier, let variable, let array, let condition):
            guard isIdentifier(variable) else {
                throw error(at: location, "\(quantifier.rawValue) takes a variable name, an array and a condition")
            }
            try validate(array, at: "\(location)[2]")
            try validate(condition, at: "\(location)[3]")
        case .literal, .missing, .all:
            break
        }
        if expression.depth > QueryDepth.limit { throw error(at: location, QueryDepth.error.message) }
    }

    /// IN's right side: a list, or an expression whose value may be an array or a
    /// dict. An operator's result or an ANY/EVERY never is one (nor is a path into
    /// either), so such an IN never finds its value (IN gives null, NOT IN true),
    /// and SQL++ cannot write it: `x IN (a - 1)` is a list of one. Nor can it
    /// write a COLLATE there, where it would collate nothing (IN finds an array's
    /// items by value). LiteCore runs both.
    private static func validateInList(_ expression: QueryExpression, at location: String) throws {
        if case .collate = expression {
            throw error(at: location, "a COLLATE cannot be IN's right side (it collates nothing there, and SQL++ cannot write it); "
                        + "a COLLATE around the IN collates a list (\"[]\")")
        }
        var base = expression, path = location
        while case .nested(let inner, _) = base { (base, path) = (inner, path + "[1]") }
        let result: String
        switch base {
        case .operation(let op, _): result = "the result of '\(op.jsonName)'"
        case .quantified(let quantifier, _, _, _): result = "the result of \(quantifier.rawValue)"
        default: return
        }
        throw error(at: path, "IN's right side is a list (\"[]\") or an expression whose value may be an array; \(result) never is one")
    }

    /// APPROX_VECTOR_DISTANCE()'s literal arguments, with LiteCore's messages: a
    /// metric name, a number of probes above 0, and `accurate` false.
    private static func validateVectorDistance(_ arguments: [QueryExpression], at location: String) throws {
        let name = "APPROX_VECTOR_DISTANCE"
        if arguments.count > 2 {
            guard case .literal(.string(let metric)) = arguments[2] else {
                throw error(at: "\(location)[3]", "3rd argument (metric) to \(name) must be a string")
            }
            guard DistanceMetric(name: metric) != nil else {
                throw error(at: "\(location)[3]", "invalid metric name '\(metric)' for \(name) (euclidean_squared, euclidean, cosine or dot)")
            }
        }
        if arguments.count > 3 {
            let probes: Int64
            switch arguments[3] {
            case .literal(.int(let value)): probes = value
            case .literal(.unsigned): probes = 0
            default: throw error(at: "\(location)[4]", "4th argument (numProbes) to \(name) must be an integer")
            }
            guard probes > 0 && probes < Int64(UInt32.max) else {
                throw error(at: "\(location)[4]", "4th argument (numProbes) to \(name) out of range")
            }
        }
        if arguments.count > 4 {
            guard case .literal(.bool(let accurate)) = arguments[4] else {
                throw error(at: "\(location)[5]", "5th argument (accurate) to \(name) must be boolean")
            }
            guard !accurate else { throw error(at: "\(location)[5]", "\(name) does not support 'accurate'=true") }
        }
    }

    /// Operands written after the operator: the first at `[1]`.
    private static func validateOperands(_ operands: [QueryExpression], at location: String) throws {
        for (i, operand) in operands.enumerated() { try validate(operand, at: "\(location)[\(i + 1)]") }
    }

    /// A non-empty name of ASCII letters, digits and `_` (parameters, variables).
    static func isIdentifier(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }

    /// An invalid-query error naming `location`.
    /// The error `message` at `location`; a location longer than 160 bytes (a
    /// part deep inside a very deep tree) keeps its start and end around an ellipsis.
    static func error(at location: String, _ message: String) -> DocLiteError {
        let utf8 = location.utf8
        guard utf8.count > 160 else { return DocLiteError(.invalidQuery, "\(location): \(message)") }
        let start = String(decoding: utf8.prefix(100), as: UTF8.self), end = String(decoding: utf8.suffix(50), as: UTF8.self)
        return DocLiteError(.invalidQuery, "\(start)…\(end) (\(utf8.count) bytes): \(message)")
    }
}
