/// Compiling operators: comparisons (under the COLLATE in force), logic,
/// arithmetic, and their fusion with a property read.
extension QueryCompiler {
    mutating func operation(_ op: QueryOperator, _ operands: [QueryExpression], _ context: CompileContext) throws -> SQLFragment {
        func sub(_ index: Int) throws -> SQLFragment {
            try compile(operands[index], context.operand(index + 1))
        }
        func boolean(_ sql: String) -> SQLFragment { SQLFragment(sql: sql, kind: .boolean) }
        func infix(_ symbol: String) throws -> String {
            "(" + (try operands.indices.map { try sub($0).sql }.joined(separator: " \(symbol) ")) + ")"
        }
        /// `a op b` with the pending COLLATE on `a`.
        func comparison(_ symbol: String) throws -> String {
            let collate = takeCollation(context)
            return "(\(try sub(0).sql)\(collate) \(symbol) \(try sub(1).sql))"
        }
        switch op {
        case .equal:
            guard !hasPendingCollation(context) else { return boolean(try comparison("=")) }
            let left = try sub(0), right = try sub(1)
            if let fused = fused("doc_eq", numbers: true, left, operands[1], right) { return boolean(fused) }
            return boolean("(\(left.sql) = \(right.sql))")
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if let bound = try self.bound(op, operands, context) { return boolean(Self.rangeSQL([bound])) }
            return boolean(try comparison(op.rawValue))
        case .notEqual:
            return boolean(try comparison(op.rawValue))
        case .is, .isNot:
            let left = try sub(0).sql + takeCollation(context)
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
                let value = try sub(0).sql + takeCollation(context)
                let list = try items.enumerated().map { i, item in
                    try compile(item, context.operand(2).operand(i + 1)).sql
                }
                return boolean("(\(value) \(negated)IN (\(list.joined(separator: ", "))))")
            }
            let array = try sub(1).sql
            let member = valueSQL(try compileValue(operands[0], context.operand(1)))
            return boolean("(\(negated)doc_array_contains(\(array), \(member)))")
        case .like:
            if !hasPendingCollation(context), let index = operands.firstIndex(where: { if case .collate = $0 { true } else { false } }),
               case .collate(let options, let inner) = operands[index] {
                // A COLLATE around an operand collates the LIKE (as SQLite's explicit
                // COLLATE on an operand of a comparison does), rather than being lost
                // inside it: Like(Collate(p), q) is Collate(Like(p, q)).
                let scope = CollationScope(try Self.collation(options, over: nil, at: context.operand(index + 1).location))
                var unwrapped = operands
                unwrapped[index] = inner
                return try operation(.like, unwrapped, context.with { $0.collation = scope })
            }
            if let pending = context.collation, !pending.isTaken, !pending.value.isBinary {
                pending.isTaken = true
                let collationName = SQLLiteral.string(pending.value.sqlName)
                return boolean("doc_like_collated(\(try sub(0).sql), \(try sub(1).sql), \(collationName))")
            }
            _ = takeCollation(context)   // BINARY: LIKE as it is
            let left = try sub(0), right = try sub(1)
            if let fused = fused("doc_like", left, operands[1], right) { return boolean(fused) }
            if let (lower, upper) = indexedPrefixRange(left, operands[1]) {   // (SQLite's LIKE optimisation, for an indexed property)
                return boolean("(\(left.sql) >= \(lower) AND \(left.sql) < \(upper) AND doc_like(\(left.sql), \(right.sql)))")
            }
            return boolean("doc_like(\(left.sql), \(right.sql))")
        case .between:
            if !hasPendingCollation(context), case .property = operands[0],
               let low = try bound(.greaterOrEqual, [operands[0], operands[1]], context),
               let high = try bound(.lessOrEqual, [operands[0], operands[2]], context) {
                return boolean(Self.rangeSQL([low, high]))
            }
            let collate = takeCollation(context)
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
                   let bound = try bound(inner, pair, context.operand(i + 1)) {
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
                arguments.append(valueSQL(try compileValue(operand, context.operand(i + 1))))
            }
            return SQLFragment(sql: "doc_concat(\(arguments.joined(separator: ", ")))", kind: .scalar)
        }
    }

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

    /// Whether a COLLATE in force is waiting for the comparison that takes it.
    func hasPendingCollation(_ context: CompileContext) -> Bool { context.collation.map { !$0.isTaken } ?? false }

    /// Takes the pending COLLATE for the comparison being compiled: the
    /// ` COLLATE name` its left operand is written with, or "" when none.
    func takeCollation(_ context: CompileContext) -> String {
        guard let pending = context.collation, !pending.isTaken else { return "" }
        pending.isTaken = true
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
    private mutating func bound(_ op: QueryOperator, _ operands: [QueryExpression], _ context: CompileContext) throws -> Bound? {
        guard projection == nil, !hasPendingCollation(context), [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(op),
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
        let fragment = try compile(subject, context)
        guard let property = fragment.property,
              !isIndexed(property.collectionID, "doc_value(body, \(SQLLiteral.string(property.path)))") else { return nil }
        return Bound(property: "\(property.body), \(SQLLiteral.string(property.path))", isLower: isLower,
                     inclusive: op == .lessOrEqual || op == .greaterOrEqual, literal: literal(value).sql)
    }

    /// For an indexed property LIKE a literal pattern that begins with a fixed
    /// prefix (`'Hotel 5%'`): the string bounds every match lies within
    /// (`'Hotel 5'` ≤ value < `'Hotel 6'`, in BINARY order: UTF-8 bytes order as
    /// code points), so that SQLite reads the index range instead of scanning. Nil
    /// for no prefix, or a prefix a number's text could begin with (LIKE matches
    /// numbers as text, and numbers sort before every string).
    private func indexedPrefixRange(_ subject: SQLFragment, _ pattern: QueryExpression) -> (String, String)? {
        guard projection == nil, let property = subject.property, case .literal(.string(let text)) = pattern,
              isIndexed(property.collectionID, "doc_value(body, \(SQLLiteral.string(property.path)))") else { return nil }
        var prefix = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next(), scalar != "%", scalar != "_" {
            prefix.append(scalar == "\\" ? (scalars.next() ?? scalar) : scalar)
        }
        guard let first = prefix.first, !"0123456789+-.".unicodeScalars.contains(first),
              let upper = String(prefix).prefixEnd else { return nil }
        return (SQLLiteral.string(String(prefix)), SQLLiteral.string(upper))
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
    func fused(_ function: String, numbers: Bool = false, _ left: SQLFragment, _ rightExpression: QueryExpression,
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
}
