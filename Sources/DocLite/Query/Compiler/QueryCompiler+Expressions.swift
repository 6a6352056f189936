/// An expression compiled to SQL.
struct SQLFragment {
    enum Kind {
        /// 0 or 1 meaning false or true (comparisons, logic).
        case boolean
        /// A value whose SQL storage class says what it is (numbers, text, MISSING, null and container blobs).
        case scalar
        /// A runtime value that may be a boolean integer marked by subtype (document properties, CASE, …).
        case any
    }

    var sql: String
    var kind: Kind
    /// For a document property: the qualified body column, the path text, and the collection.
    var property: (body: String, path: String, collectionID: Int64)?

}

extension QueryCompiler {
    /// The SQL of a result column: booleans marked so that they read back as booleans.
    mutating func resultSQL(_ fragment: SQLFragment) -> String {
        if let property = fragment.property {
            return projected("doc_result(\(property.body), \(SQLLiteral.string(property.path)))")
        }
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
    mutating func compileValue(_ expression: QueryExpression, in clause: Clause, at location: String,
                               insideAggregate: Bool = false) throws -> SQLFragment {
        if projection != nil, case .property = expression { deferProjection = true }
        defer { deferProjection = false }
        return try compile(expression, in: clause, at: location, insideAggregate: insideAggregate)
    }

    /// A per-document value: as is, or in a grouped query the inner query's column for it.
    private mutating func projected(_ sql: String) -> String {
        projection?.reference(sql) ?? sql
    }

    /// Compiles `expression` as part of `clause`; `location` names it in errors.
    mutating func compile(_ expression: QueryExpression, in clause: Clause, at location: String,
                          insideAggregate: Bool = false) throws -> SQLFragment {
        func sub(_ child: QueryExpression, _ index: Int) throws -> SQLFragment {
            try compile(child, in: clause, at: "\(location)[\(index)]", insideAggregate: insideAggregate)
        }
        switch expression {
        case .invalid(let error):
            throw error
        case .literal(let value):
            return literal(value)
        case .missing:
            return SQLFragment(sql: "NULL", kind: .scalar)
        case .parameter(let name):
            guard Parameters.isValidName(name) else {   // (the name becomes SQL text)
                throw QueryValidator.error(at: location, "invalid parameter name '\(name)' (letters, digits and '_' only)")
            }
            parameterNames.insert(name)
            return SQLFragment(sql: "$_" + name, kind: .scalar)
        case .property(let path):
            return try property(path, in: clause, at: location, insideAggregate: insideAggregate)
        case .all(let name):
            let index = try sourceIndex(named: name, at: location)
            readsBodies = true
            return wholeSource(index)
        case .nested(let base, let path):
            if let arguments = base.arguments(ofCallTo: .meta), path.count == 1, case .key(let key) = path[0],
               let meta = MetaProperty(name: key) {   // the parser checked the key
                return metaColumn(meta, of: try metaSource(arguments, at: location))
            }
            let value = try sub(base, 1)
            return SQLFragment(sql: "doc_value(\(value.sql), \(SQLLiteral.string(PropertyPath.format(path))))", kind: .any)
        case .array(let items):
            var arguments: [String] = []
            for (i, item) in items.enumerated() {
                arguments.append(valueSQL(try compileValue(item, in: clause, at: "\(location)[\(i + 1)]", insideAggregate: insideAggregate)))
            }
            return SQLFragment(sql: "doc_array(\(arguments.joined(separator: ", ")))", kind: .scalar)
        case .dictionary(let members):
            var arguments: [String] = []
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                arguments.append(SQLLiteral.string(key.string))
                arguments.append(valueSQL(try compileValue(value, in: clause, at: "\(location).\(key)", insideAggregate: insideAggregate)))
            }
            return SQLFragment(sql: "doc_dict(\(arguments.joined(separator: ", ")))", kind: .scalar)
        case .operation(let op, let operands):
            return try operation(op, operands, in: clause, at: location, insideAggregate: insideAggregate)
        case .function(let name, let arguments):
            return try function(name, arguments, in: clause, at: location, insideAggregate: insideAggregate)
        case .caseWhen(let expression):
            var sql = "CASE"
            if let subject = expression.subject { sql += " " + (try sub(subject, 1).sql) }
            var index = 2
            for branch in expression.branches {
                sql += " WHEN " + (try sub(branch.when, index).sql)
                sql += " THEN " + valueSQL(try compileValue(branch.then, in: clause, at: "\(location)[\(index + 1)]", insideAggregate: insideAggregate))
                index += 2
            }
            sql += " ELSE " + (try expression.otherwise.map {
                valueSQL(try compileValue($0, in: clause, at: "\(location)[\(index)]", insideAggregate: insideAggregate))
            } ?? SQLLiteral.null) + " END"
            return SQLFragment(sql: sql, kind: .any)
        case .collate(let options, let child):
            // Options override the enclosing COLLATE's. The first comparison or LIKE
            // inside takes the collation; if none does, it applies to the whole
            // value (an ORDER BY key, an operand).
            let outer = collation
            let value = try Self.collation(options, over: outer?.value, at: location)
            collation = (value, false)
            defer { collation = outer }
            let fragment = try sub(child, 2)
            if collation!.applied { return fragment }
            return SQLFragment(sql: "\(fragment.sql) COLLATE \(SQLLiteral.identifier(value.sqlName))", kind: fragment.kind)
        case .quantified(let quantifier, let variable, let array, let condition):
            // One row per element: ANY = some row satisfies, EVERY = no row fails
            // (true for an empty or MISSING array), ANY AND EVERY = both and not empty.
            let elements = "doc_each(\(try sub(array, 2).sql))"
            let alias = "v\(variableAliasCount)"
            variableAliasCount += 1
            variables.append((variable, alias))
            defer { variables.removeLast() }
            let test = try sub(condition, 3).sql
            let any = "EXISTS (SELECT 1 FROM \(elements) AS \(alias) WHERE \(test))"
            let every = "NOT EXISTS (SELECT 1 FROM \(elements) AS \(alias) WHERE NOT (\(test)))"
            switch quantifier {
            case .any: return SQLFragment(sql: any, kind: .boolean)
            case .every: return SQLFragment(sql: every, kind: .boolean)
            case .anyAndEvery: return SQLFragment(sql: "(EXISTS (SELECT 1 FROM \(elements)) AND \(every))", kind: .boolean)
            }
        case .variable(let path):
            guard case .key(let name) = path[0], let alias = variables.last(where: { $0.name == name })?.sqlAlias else {
                throw QueryValidator.error(at: location, "variable '\(PropertyPath.format(path))' is used outside an ANY or EVERY that binds it")
            }
            guard path.count > 1 else { return SQLFragment(sql: "\(alias).value", kind: .any) }
            return SQLFragment(sql: "doc_value(\(alias).value, \(SQLLiteral.string(PropertyPath.format(path.dropFirst()))))", kind: .any)
        }
    }

    private func literal(_ value: JSONValue) -> SQLFragment {
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

    // MARK: Properties and meta

    private mutating func property(_ path: [PathComponent], in clause: Clause, at location: String,
                                   insideAggregate: Bool) throws -> SQLFragment {
        let deferred = deferProjection
        deferProjection = false
        if clause.allowsResultAliases, case .key(let first) = path[0], let aliased = resultAliases[ByteString(first)],
           !sources.contains(where: { $0.isNamed(first) }) {
            // A result alias used as a property: its expression, compiled without alias lookups.
            let aliases = resultAliases
            resultAliases = [:]
            defer { resultAliases = aliases }
            var value = try compile(aliased, in: clause, at: location, insideAggregate: insideAggregate)
            if path.count > 1 {
                value = SQLFragment(sql: "doc_value(\(value.sql), \(SQLLiteral.string(PropertyPath.format(path.dropFirst()))))", kind: .any)
            }
            return value
        }
        let (index, rest) = try resolve(path, at: location)
        let source = sources[index]
        guard let first = rest.first else {
            readsBodies = true
            return wholeSource(index)
        }
        if case .key(let key) = first, let meta = MetaProperty(shortcut: key), source.unnest == nil {
            guard rest.count == 1 else {
                throw QueryValidator.error(at: location, "meta property '\(key)' has no sub-properties")
            }
            return metaColumn(meta, of: index)
        }
        readsBodies = true
        let body = source.column("body"), pathText = PropertyPath.format(rest)
        let value = "doc_value(\(body), \(SQLLiteral.string(pathText)))"
        return SQLFragment(sql: deferred ? value : projected(value), kind: .any, property: (body, pathText, source.collection.id))
    }

    /// The whole document of source `index`; for an UNNEST its element, a
    /// runtime value (a boolean element keeps its type).
    private mutating func wholeSource(_ index: Int) -> SQLFragment {
        SQLFragment(sql: projected(sources[index].column("body")), kind: sources[index].unnest != nil ? .any : .scalar)
    }

    /// The source a property path reads and the path within its documents.
    func resolve(_ path: [PathComponent], at location: String = "") throws -> (Int, ArraySlice<PathComponent>) {
        // `scope.collection.prop`: a collection named with its scope (LiteCore's resolvePropertyPath).
        if path.count >= 2, case .key(let scope) = path[0], case .key(let name) = path[1],
           let index = sources.firstIndex(where: { $0.isNamed(scope: scope, collection: name) }) {
            return (index, path.dropFirst(2))
        }
        if case .key(let first) = path[0], let index = try sourceIndex(qualifying: first, at: location) {
            return (index, path.dropFirst())
        }
        guard sources.count == 1 else {
            throw QueryValidator.error(at: location, "property '\(PropertyPath.format(path))' does not begin with a declared 'AS' alias "
                                        + "(with several data sources, qualify it: \(sources.map { "'\($0.alias).…'" }.joined(separator: ", ")))")
        }
        return (0, path[...])
    }

    /// The source `name` (an alias, or a bare collection name) qualifies a property
    /// with; nil for none. A collection name that two sources share is ambiguous.
    private func sourceIndex(qualifying name: String, at location: String) throws -> Int? {
        if let aliased = sources.firstIndex(where: { $0.alias.caseInsensitiveCompare(name) == .orderedSame }) { return aliased }
        let named = sources.indices.filter { sources[$0].isNamed(name) }
        guard named.count <= 1 else {
            throw QueryValidator.error(at: location, "'\(name)' names \(named.count) data sources (qualify with "
                                        + named.map { "'\(sources[$0].collection.fullName).…'" }.joined(separator: " or ") + ", or give each an AS alias)")
        }
        return named.first
    }

    private func sourceIndex(named name: String?, at location: String) throws -> Int {
        guard let name else { return 0 }
        guard let index = try sourceIndex(qualifying: name, at: location) else {
            throw QueryValidator.error(at: location, "unknown data source alias '\(name)' (declared: \(sources.map(\.alias).joined(separator: ", ")))")
        }
        return index
    }

    /// The source of `META()` or `META(alias)`: a collection, not an UNNEST.
    func metaSource(_ arguments: [QueryExpression], at location: String) throws -> Int {
        let index = try metaSourceIndex(arguments, at: location)
        guard sources[index].unnest == nil else {
            throw QueryValidator.error(at: location, "META() of '\(sources[index].alias)', an UNNEST alias: only documents have meta properties")
        }
        return index
    }

    private func metaSourceIndex(_ arguments: [QueryExpression], at location: String) throws -> Int {
        switch arguments.first {
        case nil:
            guard sources.count == 1 else {
                throw QueryValidator.error(at: location, "META() needs a data source alias when there are several data sources")
            }
            return 0
        case .literal(.string(let name)):
            guard arguments.count == 1 else { throw QueryValidator.error(at: location, "META() takes at most one alias") }
            return try sourceIndex(named: name, at: location)
        case .property(let path) where path.count == 1:
            guard arguments.count == 1, case .key(let name) = path[0] else {
                throw QueryValidator.error(at: location, "META() takes at most one alias")
            }
            return try sourceIndex(named: name, at: location)
        default:
            throw QueryValidator.error(at: location, "META() takes a data source alias")
        }
    }

    /// The SQL of meta property `meta` of source `index`.
    private mutating func metaColumn(_ meta: MetaProperty, of index: Int) -> SQLFragment {
        let source = sources[index]
        let sql: String
        switch meta {
        case .id: sql = source.column("key")
        case .sequence, .rowid: sql = source.column("sequence")
        case .deleted: return SQLFragment(sql: source.includesDeleted ? projected(source.column("deleted")) : "0", kind: .boolean)
        case .expiration: sql = source.column("expiration")
        case .revisionID: sql = "doc_revid(\(source.column("revid")))"
        }
        return SQLFragment(sql: projected(sql), kind: .scalar)
    }

    // MARK: Operators

    private mutating func operation(_ op: QueryOperator, _ operands: [QueryExpression], in clause: Clause,
                                    at location: String, insideAggregate: Bool) throws -> SQLFragment {
        func sub(_ index: Int) throws -> SQLFragment {
            try compile(operands[index], in: clause, at: "\(location)[\(index + 1)]", insideAggregate: insideAggregate)
        }
        func boolean(_ sql: String) -> SQLFragment { SQLFragment(sql: sql, kind: .boolean) }
        func infix(_ symbol: String) throws -> String {
            "(" + (try operands.indices.map { try sub($0).sql }.joined(separator: " \(symbol) ")) + ")"
        }
        /// `a op b` with the pending COLLATE on `a`.
        func comparison(_ symbol: String) throws -> String {
            let collate = takeCollation()
            return "(\(try sub(0).sql)\(collate) \(symbol) \(try sub(1).sql))"
        }
        switch op {
        case .equal:
            guard !hasPendingCollation else { return boolean(try comparison("=")) }
            let left = try sub(0), right = try sub(1)
            if let fused = fused("doc_eq", numbers: true, left, operands[1], right) { return boolean(fused) }
            return boolean("(\(left.sql) = \(right.sql))")
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if let bound = try self.bound(op, operands, in: clause, at: location) { return boolean(Self.rangeSQL([bound])) }
            return boolean(try comparison(op.rawValue))
        case .notEqual:
            return boolean(try comparison(op.rawValue))
        case .is, .isNot:
            let left = try sub(0).sql + takeCollation()
            let negated = op == .isNot
            switch operands[1] {
            case .literal(.null): return boolean("(\(left) \(negated ? "!=" : "=") \(SQLLiteral.null))")
            case .missing: return boolean("(\(left) IS \(negated ? "NOT " : "")NULL)")
            default: return boolean("(\(left) \(op.rawValue) \(try sub(1).sql))")
            }
        case .isValued:
            return boolean("coalesce(\(try sub(0).sql) != \(SQLLiteral.null), 0)")
        case .in, .notIn:
            let negated = op == .notIn ? "NOT " : ""
            if case .array(let items) = operands[1] {   // a literal list: SQL's IN
                let value = try sub(0).sql + takeCollation()
                let list = try items.enumerated().map { i, item in
                    try compile(item, in: clause, at: "\(location)[2][\(i + 1)]", insideAggregate: insideAggregate).sql
                }
                return boolean("(\(value) \(negated)IN (\(list.joined(separator: ", "))))")
            }
            let array = try sub(1).sql
            let member = valueSQL(try compileValue(operands[0], in: clause, at: "\(location)[1]", insideAggregate: insideAggregate))
            return boolean("(\(negated)doc_array_contains(\(array), \(member)))")
        case .like:
            if !hasPendingCollation, let index = operands.firstIndex(where: { if case .collate = $0 { true } else { false } }),
               case .collate(let options, let inner) = operands[index] {
                // A COLLATE around an operand collates the LIKE (as SQLite's explicit
                // COLLATE on an operand of a comparison does), rather than being lost
                // inside it: Like(Collate(p), q) is Collate(Like(p, q)).
                let outer = collation
                collation = (try Self.collation(options, over: nil, at: "\(location)[\(index + 1)]"), false)
                defer { collation = outer }
                var unwrapped = operands
                unwrapped[index] = inner
                return try operation(.like, unwrapped, in: clause, at: location, insideAggregate: insideAggregate)
            }
            if let pending = collation, !pending.applied, !pending.value.isBinary {
                collation!.applied = true
                let collationName = SQLLiteral.string(pending.value.sqlName)
                return boolean("doc_like_collated(\(try sub(0).sql), \(try sub(1).sql), \(collationName))")
            }
            _ = takeCollation()   // BINARY: LIKE as it is
            let left = try sub(0), right = try sub(1)
            if let fused = fused("doc_like", left, operands[1], right) { return boolean(fused) }
            return boolean("doc_like(\(left.sql), \(right.sql))")
        case .between:
            if !hasPendingCollation, case .property = operands[0],
               let low = try bound(.greaterOrEqual, [operands[0], operands[1]], in: clause, at: location),
               let high = try bound(.lessOrEqual, [operands[0], operands[2]], in: clause, at: location) {
                return boolean(Self.rangeSQL([low, high]))
            }
            let collate = takeCollation()
            return boolean("(\(try sub(0).sql)\(collate) BETWEEN \(try sub(1).sql) AND \(try sub(2).sql))")
        case .exists:
            return boolean("(\(try sub(0).sql) IS NOT NULL)")
        case .not:
            return boolean("(NOT \(try sub(0).sql))")
        case .and:
            // Bounds on one property merge into one fused range test, evaluated first.
            var bounds: [Bound] = [], others: [String] = []
            for (i, operand) in operands.enumerated() {
                if case .operation(let inner, let pair) = operand, pair.count == 2,
                   let bound = try bound(inner, pair, in: clause, at: "\(location)[\(i + 1)]") {
                    bounds.append(bound)
                } else {
                    others.append(try sub(i).sql)
                }
            }
            var ranges: [String] = []
            while let first = bounds.first {
                bounds.removeFirst()
                var group = [first]
                if let partner = bounds.firstIndex(where: { $0.property == first.property && $0.isLower != first.isLower }) {
                    group.append(bounds.remove(at: partner))
                }
                ranges.append(Self.rangeSQL(group))
            }
            return boolean("(" + (ranges + others).joined(separator: " AND ") + ")")
        case .or:
            return boolean(try infix(op.rawValue))
        case .add, .subtract, .multiply, .divide, .modulo:
            return SQLFragment(sql: try infix(op.rawValue), kind: .scalar)
        case .negate:
            return SQLFragment(sql: "(- \(try sub(0).sql))", kind: .scalar)
        case .concat:
            var arguments: [String] = []
            for (i, operand) in operands.enumerated() {
                arguments.append(valueSQL(try compileValue(operand, in: clause, at: "\(location)[\(i + 1)]", insideAggregate: insideAggregate)))
            }
            return SQLFragment(sql: "doc_concat(\(arguments.joined(separator: ", ")))", kind: .scalar)
        }
    }

    /// Whether a COLLATE is waiting for the comparison that takes it.
    /// The collation a COLLATE's `options` (at `location`) give over the enclosing one's `outer` value.
    static func collation(_ options: QueryCollation, over outer: Collation?, at location: String) throws -> Collation {
        var value = outer ?? Collation()
        if let unicode = options.unicode { value.unicode = unicode }
        if let caseSensitive = options.caseSensitive { value.caseSensitive = caseSensitive }
        if let diacriticSensitive = options.diacriticSensitive { value.diacriticSensitive = diacriticSensitive }
        if let locale = options.locale { value.locale = locale }
        if let locale = value.locale, !Collation.isValidLocale(locale) {
            throw QueryValidator.error(at: location + "[1].LOCALE", "invalid locale '\(locale)' (expected an ICU locale ID such as 'en_US')")
        }
        return value
    }

    var hasPendingCollation: Bool { collation.map { !$0.applied } ?? false }

    /// Takes the pending COLLATE for the comparison being compiled: the
    /// ` COLLATE name` its left operand is written with, or "" when none.
    mutating func takeCollation() -> String {
        guard let pending = collation, !pending.applied else { return "" }
        collation!.applied = true
        return " COLLATE " + SQLLiteral.identifier(pending.value.sqlName)
    }

    /// A comparison of a document property with a number or string literal,
    /// which `doc_range` can test in one call (unless an index covers the property).
    struct Bound {
        let property: String   // `body, 'path'`
        let isLower: Bool
        let inclusive: Bool
        let literal: String
    }

    /// `operands[0] op operands[1]` as a bound, when one side is a document
    /// property and the other a number or string literal.
    private mutating func bound(_ op: QueryOperator, _ operands: [QueryExpression], in clause: Clause,
                                at location: String) throws -> Bound? {
        guard projection == nil, !hasPendingCollation, [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(op),
              operands.count == 2 else { return nil }
        func isBoundLiteral(_ expression: QueryExpression) -> Bool {
            switch expression {
            case .literal(.int), .literal(.double), .literal(.unsigned), .literal(.string): return true
            default: return false
            }
        }
        var (subject, limit, isLower) = (operands[0], operands[1], op == .greater || op == .greaterOrEqual)
        if isBoundLiteral(subject) { (subject, limit, isLower) = (limit, subject, !isLower) }   // literal < property
        guard case .property = subject, isBoundLiteral(limit), case .literal(let value) = limit else { return nil }
        let fragment = try compile(subject, in: clause, at: location)
        guard let property = fragment.property,
              !isIndexed(property.collectionID, "doc_value(body, \(SQLLiteral.string(property.path)))") else { return nil }
        return Bound(property: "\(property.body), \(SQLLiteral.string(property.path))", isLower: isLower,
                     inclusive: op == .lessOrEqual || op == .greaterOrEqual, literal: literal(value).sql)
    }

    /// `doc_range` over one or two bounds (a lower and an upper) of one property;
    /// the bounds are literals, which `doc_range` caches with the path (see ``fused``).
    private static func rangeSQL(_ bounds: [Bound]) -> String {
        let lower = bounds.first(where: \.isLower), upper = bounds.first { !$0.isLower }
        return "doc_range(\(bounds[0].property), \(lower?.literal ?? "NULL"), \(lower?.inclusive == true ? 1 : 0), "
            + "\(upper?.literal ?? "NULL"), \(upper?.inclusive == true ? 1 : 0))"
    }

    /// The fused form `function(body, 'path', literal)` of a property compared
    /// with a string or number literal, unless an index covers the property.
    /// Every argument after the body must be an SQL constant: the functions
    /// cache the parsed path and operand for the statement (``BodyFunctions``).
    private func fused(_ function: String, numbers: Bool = false, _ left: SQLFragment, _ rightExpression: QueryExpression,
                       _ right: SQLFragment) -> String? {
        guard projection == nil, let property = left.property, case .literal(let value) = rightExpression else { return nil }
        switch value {
        case .string: break
        case .int, .double, .unsigned: guard numbers else { return nil }
        default: return nil
        }
        if isIndexed(property.collectionID, "doc_value(body, \(SQLLiteral.string(property.path)))") { return nil }
        return "\(function)(\(property.body), \(SQLLiteral.string(property.path)), \(right.sql))"
    }

    // MARK: Functions

    private mutating func function(_ name: String, _ arguments: [QueryExpression], in clause: Clause,
                                   at location: String, insideAggregate: Bool) throws -> SQLFragment {
        guard let entry = FunctionCatalog.entry(name) else {
            throw QueryValidator.error(at: location, "unknown function '\(name)()'")
        }
        switch entry.kind {
        case .meta:
            let index = try metaSource(arguments, at: location)
            let source = sources[index]
            let members = [("id", "key"), ("sequence", "sequence"), ("deleted", source.includesDeleted ? "deleted" : "0"),
                           ("expiration", "expiration")].map { key, column in
                SQLLiteral.string(key) + ", " + (column == "0" ? column : source.column(column))
            }
            let revision = "'revisionID', doc_revid(\(source.column("revid")))"
            return SQLFragment(sql: projected("\(entry.sqlName)(\((members + [revision]).joined(separator: ", ")))"), kind: entry.result)
        case .match, .rank:
            return try fullTextFunction(entry, arguments, in: clause, at: location)
        case .aggregate(let aggregate):
            return try aggregateCall(aggregate, entry, name, arguments, in: clause, at: location, insideAggregate: insideAggregate)
        case .scalar:
            return try call(entry, name, arguments, in: clause, at: location, insideAggregate: insideAggregate)
        }
    }

    /// A call of an aggregate: allowed in its clause, not nested, its arity checked.
    private mutating func aggregateCall(_ aggregate: FunctionCatalog.Entry.Aggregate, _ entry: FunctionCatalog.Entry, _ name: String,
                                        _ arguments: [QueryExpression], in clause: Clause, at location: String,
                                        insideAggregate: Bool) throws -> SQLFragment {
        guard clause.allowsAggregates else {
            throw QueryValidator.error(at: location, "aggregate function '\(name)()' is not allowed in \(clause.rawValue)")
        }
        guard !insideAggregate else {
            throw QueryValidator.error(at: location, "aggregate function '\(name)()' cannot be nested inside another aggregate")
        }
        guard entry.arity.contains(arguments.count) else {
            throw QueryValidator.error(at: location, "\(name)() \(FunctionCatalog.describe(entry.arity)), got \(arguments.count)")
        }
        guard let argument = arguments.first else { return SQLFragment(sql: "\(entry.sqlName)(*)", kind: entry.result) }
        if aggregate == .count, case .all = argument {   // every row has a body: no need to read it
            _ = try compile(argument, in: clause, at: location + "[1]", insideAggregate: true)   // checks the alias
            return SQLFragment(sql: "\(entry.sqlName)(*)", kind: entry.result)
        }
        let sql = aggregate.readsValue
            ? valueSQL(try compileValue(argument, in: clause, at: location + "[1]", insideAggregate: true))
            : try compile(argument, in: clause, at: location + "[1]", insideAggregate: true).sql
        return SQLFragment(sql: "\(entry.sqlName)(\(sql))", kind: entry.result)
    }

    /// `MATCH(index, search)` (placed and resolved by `resolveFullTextMatches`)
    /// and `RANK(index)`, which needs a MATCH of the same index.
    private mutating func fullTextFunction(_ entry: FunctionCatalog.Entry, _ arguments: [QueryExpression], in clause: Clause,
                                           at location: String) throws -> SQLFragment {
        let isMatch = if case .match = entry.kind { true } else { false }
        guard case .literal(.string(let index))? = arguments.first, entry.arity.contains(arguments.count) else {
            throw QueryValidator.error(at: location, isMatch ? "MATCH() takes a full-text index name and a search string"
                                                              : "RANK() takes a full-text index name")
        }
        guard let match = fullTextIndex(named: index).flatMap({ fullTextMatches[$0.table] }), !isMatch || clause == .whereClause else {
            throw QueryValidator.error(at: location, "RANK() needs a MATCH() of full-text index '\(index)' in WHERE")
        }
        if isMatch {
            let search = try compile(arguments[1], in: clause, at: location + "[2]").sql
            return SQLFragment(sql: "(\(match.alias).\(match.table) \(entry.sqlName) \(search))", kind: entry.result)
        }
        guard projection == nil else { throw QueryValidator.error(at: location, "RANK() cannot be used in a grouped query") }
        return SQLFragment(sql: "\(entry.sqlName)(matchinfo(\(match.alias).\(match.table), 'pcx'))", kind: entry.result)
    }

    /// A call of a function of the ``FunctionCatalog``: its arity checked, a
    /// literal regular expression compiled (so that an invalid one fails here),
    /// its arguments passed as values (booleans keep their type).
    private mutating func call(_ entry: FunctionCatalog.Entry, _ name: String, _ arguments: [QueryExpression],
                               in clause: Clause, at location: String, insideAggregate: Bool) throws -> SQLFragment {
        guard entry.arity.contains(arguments.count) else {
            throw QueryValidator.error(at: location, "\(name)() \(FunctionCatalog.describe(entry.arity)), got \(arguments.count)")
        }
        if let index = entry.patternArgument, case .literal(.string(let pattern)) = arguments[index] {
            do {
                try RegexPattern.validate(pattern)
            } catch {
                throw QueryValidator.error(at: "\(location)[\(index + 1)]", "\(error)")
            }
        }
        if let fusedFunction = entry.fusedWithProperty, case .property = arguments[0], case .literal(.string) = arguments[1] {
            let subject = try compile(arguments[0], in: clause, at: "\(location)[1]", insideAggregate: insideAggregate)
            let operand = try compile(arguments[1], in: clause, at: "\(location)[2]", insideAggregate: insideAggregate)
            if let fused = fused(fusedFunction, subject, arguments[1], operand) { return SQLFragment(sql: fused, kind: entry.result) }
        }
        var sql: [String] = []
        for (i, argument) in arguments.enumerated() {
            sql.append(valueSQL(try compileValue(argument, in: clause, at: "\(location)[\(i + 1)]", insideAggregate: insideAggregate)))
        }
        switch (entry.collationArgument, collation?.value) {   // the innermost COLLATE in force, taken or not
        case (.some, let inForce?): sql.append(SQLLiteral.string(inForce.sqlName))
        case (.inForceOrBinary, nil): sql.append(SQLLiteral.string(Collation().sqlName))
        case (.inForce, nil), (nil, _): break
        }
        return SQLFragment(sql: "\(entry.sqlName)(\(sql.joined(separator: ", ")))", kind: entry.result)
    }
}
