/// Reads Apple's predicate format — the `where:` of Couchbase Lite 1.x's
/// `CBLQueryBuilder` — and its expressions into the query tree every front end
/// produces, by recursive descent over ``PredicateLexer``'s tokens.
///
/// `$NAME` variables become query parameters. Where an operator needs a variable's
/// value in another form (`BEGINSWITH $P` as an escaped LIKE pattern and a range
/// end, `MATCHES $R` anchored), the parser asks for a ``DerivedParameter``, which
/// the builder computes from the context when the query runs. A syntax error, or a
/// form with no meaning here, is ``DocLiteError/Code/invalidQuery`` with the byte
/// offset in `position`.
struct PredicateParser {
    private let tokens: [PredicateToken]
    private var index = 0
    private var depth = 0
    /// How deeply the text may nest (the query's own limit applies afterwards).
    private static let depthLimit = 100
    /// The variables the texts read, and the parameters derived from them.
    private(set) var variables: PredicateVariables

    private init(_ text: String, variables: PredicateVariables) throws {
        tokens = try PredicateLexer.tokens(text)
        self.variables = variables
    }

    /// Reads a predicate (`type == 'post' AND tags CONTAINS $TAG`), adding its variables to `variables`.
    static func predicate(_ text: String, variables: inout PredicateVariables) throws -> QueryExpression {
        var parser = try PredicateParser(text, variables: variables)
        let result = try parser.predicate()
        try parser.expectEnd()
        variables = parser.variables
        return result
    }

    /// Reads an expression (`address.city`, `tags.@count`, `average(price)`), adding its variables to `variables`.
    static func expression(_ text: String, variables: inout PredicateVariables) throws -> QueryExpression {
        var parser = try PredicateParser(text, variables: variables)
        let result = try parser.expression()
        try parser.expectEnd()
        variables = parser.variables
        return result
    }

    static func syntaxError(at offset: Int, _ message: String) -> DocLiteError {
        DocLiteError(.invalidQuery, "predicate error at character \(offset + 1): \(message)", position: offset)
    }

    // MARK: Predicates

    private mutating func predicate() throws -> QueryExpression {
        try descend()
        defer { depth -= 1 }
        var operands = [try conjunction()]
        while accept(keyword: "OR") || accept(symbol: "||") { operands.append(try conjunction()) }
        return operands.count == 1 ? operands[0] : flattened(.or, operands)
    }

    private mutating func conjunction() throws -> QueryExpression {
        var operands = [try negation()]
        while accept(keyword: "AND") || accept(symbol: "&&") { operands.append(try negation()) }
        return operands.count == 1 ? operands[0] : flattened(.and, operands)
    }

    private mutating func negation() throws -> QueryExpression {
        if accept(keyword: "NOT") || accept(symbol: "!") {
            try descend()
            defer { depth -= 1 }
            return .operation(.not, [try negation()])
        }
        return try primaryPredicate()
    }

    private mutating func primaryPredicate() throws -> QueryExpression {
        if accept(keyword: "TRUEPREDICATE") { return .literal(.bool(true)) }
        if accept(keyword: "FALSEPREDICATE") { return .literal(.bool(false)) }
        if case .symbol("(") = current.kind, parenthesizedPredicateAhead() {
            index += 1
            let inner = try predicate()
            try expect(symbol: ")")
            return inner
        }
        let quantifier = quantifierPrefix()
        let left = try expression()
        let operatorOffset = current.offset
        guard let op = comparisonOperator() else {
            if quantifier == nil, case .literal(.bool) = left { return left }
            throw Self.syntaxError(at: operatorOffset, "expected a comparison (==, <, CONTAINS, IN, …), \(describe(current))")
        }
        let options = try modifiers()
        let right = op == "BETWEEN" ? try betweenBounds() : try expression()
        guard let quantifier else {
            return try comparison(op, left, right, options, at: operatorOffset)
        }
        // ANY tags == 'x': some item of the array `tags` satisfies the comparison.
        let item = "__item\(depth)_\(index)"
        let condition = try comparison(op, .variable([.key(item)]), right, options, at: operatorOffset)
        switch quantifier {
        case .some: return .quantified(.any, variable: item, in: left, satisfies: condition)
        case .all: return .quantified(.every, variable: item, in: left, satisfies: condition)
        case .none: return .operation(.not, [.quantified(.any, variable: item, in: left, satisfies: condition)])
        }
    }

    /// The aggregate operators before a key path: ANY and SOME, ALL, NONE.
    private enum ArrayQuantifier { case some, all, none }

    private mutating func quantifierPrefix() -> ArrayQuantifier? {
        if accept(keyword: "ANY") || accept(keyword: "SOME") { return .some }
        if accept(keyword: "ALL") { return .all }
        if accept(keyword: "NONE") { return ArrayQuantifier.none }
        return nil
    }

    /// Whether the `(` at the current token opens a predicate rather than an expression:
    /// its matching `)` is followed by AND, OR, the end or another `)`.
    private func parenthesizedPredicateAhead() -> Bool {
        var level = 0
        var position = index
        while position < tokens.count {
            switch tokens[position].kind {
            case .symbol("("): level += 1
            case .symbol(")"):
                level -= 1
                if level == 0 {
                    let next = tokens[position + 1].kind
                    if case .identifier(let word, escaped: false) = next { return ["AND", "OR"].contains(word.uppercased()) }
                    return next == .end || next == .symbol(")") || next == .symbol("&&") || next == .symbol("||")
                }
            case .end: return false
            default: break
            }
            position += 1
        }
        return false
    }

    private static let comparisonKeywords = ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN"]
    private static let comparisonSymbols = ["==": "==", "=": "==", "!=": "!=", "<>": "!=", "<": "<", "<=": "<=",
                                            "=<": "<=", ">": ">", ">=": ">=", "=>": ">="]

    /// The comparison operator at the current token, normalized (`=` and `==` are `==`), consumed.
    private mutating func comparisonOperator() -> String? {
        switch current.kind {
        case .symbol(let symbol):
            guard let op = Self.comparisonSymbols[symbol] else { return nil }
            index += 1
            return op
        case .identifier(let word, escaped: false) where Self.comparisonKeywords.contains(word.uppercased()):
            index += 1
            return word.uppercased()
        default:
            return nil
        }
    }

    /// `[c]`, `[d]`, `[cd]` after an operator: case and diacritic insensitivity.
    private mutating func modifiers() throws -> ComparisonOptions {
        guard case .symbol("[") = current.kind else { return [] }
        let offset = current.offset
        index += 1
        guard case .identifier(let letters, escaped: false) = current.kind,
              !letters.isEmpty, letters.lowercased().allSatisfy({ $0 == "c" || $0 == "d" || $0 == "n" }) else {
            throw Self.syntaxError(at: offset, "an operator's options are [c], [d] or [cd]")
        }
        index += 1
        try expect(symbol: "]")
        var options: ComparisonOptions = []
        if letters.lowercased().contains("c") { options.insert(.caseInsensitive) }
        if letters.lowercased().contains("d") { options.insert(.diacriticInsensitive) }
        return options
    }

    /// BETWEEN's right side: `{low, high}` or a variable holding a two-item array.
    private mutating func betweenBounds() throws -> QueryExpression {
        if case .variable(let name) = current.kind {
            let offset = current.offset
            index += 1
            try variables.use(name, at: offset)
            return .array([.parameter(variables.derive(.element(variable: name, index: 0))),
                           .parameter(variables.derive(.element(variable: name, index: 1)))])
        }
        let offset = current.offset
        guard case .array(let bounds) = try expression(), bounds.count == 2 else {
            throw Self.syntaxError(at: offset, "BETWEEN takes {low, high} or a variable holding [low, high]")
        }
        return .array(bounds)
    }

    /// What `left OP[options] right` means.
    private mutating func comparison(_ op: String, _ left: QueryExpression, _ right: QueryExpression,
                                     _ options: ComparisonOptions, at offset: Int) throws -> QueryExpression {
        let result: QueryExpression
        switch op {
        case "==" where right == .literal(.null): result = .operation(.not, [.operation(.isValued, [left])])
        case "==" where left == .literal(.null): result = .operation(.not, [.operation(.isValued, [right])])
        case "!=" where right == .literal(.null): result = .operation(.isValued, [left])
        case "!=" where left == .literal(.null): result = .operation(.isValued, [right])
        case "==": result = .operation(.equal, [left, right])
        case "!=": result = .operation(.notEqual, [left, right])
        case "<": result = .operation(.less, [left, right])
        case "<=": result = .operation(.lessOrEqual, [left, right])
        case ">": result = .operation(.greater, [left, right])
        case ">=": result = .operation(.greaterOrEqual, [left, right])
        case "BETWEEN":
            guard case .array(let bounds) = right else { throw Self.syntaxError(at: offset, "BETWEEN takes {low, high}") }
            result = .operation(.between, [left] + bounds)
        case "BEGINSWITH":
            return try beginsWith(left, right, options, at: offset)
        case "ENDSWITH":
            result = .operation(.like, [left, try likePattern(right, .endsWith, at: offset)])
        case "LIKE":
            result = .operation(.like, [left, try applePattern(right, at: offset)])
        case "MATCHES":
            return try matches(left, right, options, at: offset)
        case "CONTAINS":
            // Array containment, as the 1.x builder defined it; `$S IN string` tests substrings.
            return options.isEmpty ? .function("array_contains", [left, right]) : anyItem(of: left, equalTo: right, options)
        case "IN":
            return try inOperator(left, right, options, at: offset)
        default:
            throw Self.syntaxError(at: offset, "unknown operator \(op)")
        }
        return collated(result, options)
    }

    /// `left BEGINSWITH right`: a range on the prefix (which a value index serves) and a LIKE
    /// for the exact test; with [c] or [d], a LIKE under the collation.
    private mutating func beginsWith(_ left: QueryExpression, _ right: QueryExpression, _ options: ComparisonOptions,
                                     at offset: Int) throws -> QueryExpression {
        let like = QueryExpression.operation(.like, [left, try likePattern(right, .beginsWith, at: offset)])
        guard options.isEmpty else { return collated(like, options) }
        let end: QueryExpression?
        switch right {
        case .literal(.string(let prefix)): end = prefix.prefixEnd.map { .literal(.string($0)) }
        case .parameter(let name): end = .parameter(variables.derive(.prefixEnd(variable: name)))
        default: end = nil
        }
        guard let end else { return like }
        return .operation(.and, [.operation(.greaterOrEqual, [left, right]), .operation(.less, [left, end]), like])
    }

    /// `left MATCHES right`: the whole string matches the regular expression (PCRE2).
    private mutating func matches(_ left: QueryExpression, _ right: QueryExpression, _ options: ComparisonOptions,
                                  at offset: Int) throws -> QueryExpression {
        if options.contains(.diacriticInsensitive) {
            throw Self.syntaxError(at: offset, "MATCHES takes [c] but not [d]: a regular expression cannot ignore accents")
        }
        let caseInsensitive = options.contains(.caseInsensitive)
        switch right {
        case .literal(.string(let pattern)):
            return .function("regexp_like", [left, .literal(.string(DerivedParameter.wholeRegex(pattern, caseInsensitive: caseInsensitive)))])
        case .parameter(let name):
            return .function("regexp_like", [left, .parameter(variables.derive(.wholeRegex(variable: name, caseInsensitive: caseInsensitive)))])
        default:
            throw Self.syntaxError(at: offset, "MATCHES takes a string or a variable on its right")
        }
    }

    /// `left IN right`: membership of a list or array; substring of a string.
    private func inOperator(_ left: QueryExpression, _ right: QueryExpression, _ options: ComparisonOptions, at offset: Int) throws -> QueryExpression {
        switch right {
        case .operation:   // arithmetic: a number, never a list, an array or a string
            throw Self.syntaxError(at: offset, "IN takes an aggregate, an array or a string on its right, not an arithmetic result")
        case .array(let items):
            return options.isEmpty ? .operation(.in, [left, .array(items)]) : anyItem(of: right, equalTo: left, options)
        case .literal(.string):
            return collated(.function("contains", [right, left]), options)
        default:
            // Known only when the query runs: a string's substring, else an array's item.
            let membership = options.isEmpty ? QueryExpression.operation(.in, [left, right]) : anyItem(of: right, equalTo: left, options)
            return .caseWhen(CaseExpression(subject: nil, branches: [
                .init(when: .function("isstring", [right]), then: collated(.function("contains", [right, left]), options)),
            ], otherwise: membership))
        }
    }

    /// Whether some item of `array` equals `value` under the options' collation.
    private func anyItem(of array: QueryExpression, equalTo value: QueryExpression, _ options: ComparisonOptions) -> QueryExpression {
        let item = "__item\(depth)_\(index)"
        return .quantified(.any, variable: item, in: array,
                           satisfies: collated(.operation(.equal, [.variable([.key(item)]), value]), options))
    }

    /// The LIKE pattern matching strings that begin or end with `right`, taken literally.
    private mutating func likePattern(_ right: QueryExpression, _ anchor: LikeAnchor, at offset: Int) throws -> QueryExpression {
        switch right {
        case .literal(.string(let text)):
            return .literal(.string(anchor.pattern(DerivedParameter.escapedForLike(text))))
        case .parameter(let name):
            return .parameter(variables.derive(.likePattern(variable: name, anchor)))
        default:
            throw Self.syntaxError(at: offset, "this operator takes a string or a variable on its right")
        }
    }

    /// The LIKE pattern of an Apple pattern (`*` any characters, `?` one).
    private mutating func applePattern(_ right: QueryExpression, at offset: Int) throws -> QueryExpression {
        switch right {
        case .literal(.string(let text)): return .literal(.string(DerivedParameter.likeFromApplePattern(text)))
        case .parameter(let name): return .parameter(variables.derive(.applePattern(variable: name)))
        default: throw Self.syntaxError(at: offset, "LIKE takes a string or a variable on its right")
        }
    }

    /// `expression` compared under the Unicode collation the options ask for.
    private func collated(_ expression: QueryExpression, _ options: ComparisonOptions) -> QueryExpression {
        guard !options.isEmpty else { return expression }
        let collation = QueryCollation(unicode: true, caseSensitive: !options.contains(.caseInsensitive),
                                       diacriticSensitive: !options.contains(.diacriticInsensitive), locale: nil)
        return .collate(collation, expression)
    }

    // MARK: Expressions

    private mutating func expression() throws -> QueryExpression {
        try descend()
        defer { depth -= 1 }
        var result = try term()
        while true {
            if accept(symbol: "+") { result = flattened(.add, [result, try term()]) }
            else if accept(symbol: "-") { result = .operation(.subtract, [result, try term()]) }
            else { return result }
        }
    }

    private mutating func term() throws -> QueryExpression {
        var result = try power()
        while true {
            if accept(symbol: "*") { result = flattened(.multiply, [result, try power()]) }
            else if accept(symbol: "/") { result = .operation(.divide, [result, try power()]) }
            else { return result }
        }
    }

    private mutating func power() throws -> QueryExpression {
        let base = try unary()
        guard accept(symbol: "**") else { return base }
        try descend()   // (right-associative: each ** nests, so it counts toward the depth limit)
        defer { depth -= 1 }
        return .function("power", [base, try power()])
    }

    private mutating func unary() throws -> QueryExpression {
        if accept(symbol: "-") {
            try descend()
            defer { depth -= 1 }
            let operand = try unary()
            switch operand {
            case .literal(.int(let value)) where value != .min: return .literal(.int(-value))
            case .literal(.double(let value)): return .literal(.double(-value))
            default: return .operation(.negate, [operand])
            }
        }
        return try primary()
    }

    private static let functionNames = ["average": "avg", "ceiling": "ceil", "uppercase": "upper", "lowercase": "lower"]

    private mutating func primary() throws -> QueryExpression {
        let token = current
        switch token.kind {
        case .string(let text):
            index += 1
            return .literal(.string(text))
        case .integer(let value):
            index += 1
            return .literal(.int(value))
        case .double(let value):
            index += 1
            return .literal(.double(value))
        case .variable(let name):
            index += 1
            try variables.use(name, at: token.offset)
            return .parameter(name)
        case .symbol("("):
            index += 1
            let inner = try expression()
            try expect(symbol: ")")
            return inner
        case .symbol("{"):
            index += 1
            var items: [QueryExpression] = []
            if !accept(symbol: "}") {
                repeat { items.append(try expression()) } while accept(symbol: ",")
                try expect(symbol: "}")
            }
            return .array(items)
        case .identifier(let name, let escaped):
            if !escaped, let literal = Self.literals[name.uppercased()] {
                index += 1
                return literal
            }
            if !escaped, case .symbol("(") = peek(1).kind {
                return try functionCall(name, at: token.offset)
            }
            if !escaped, Self.reservedWords.contains(name.uppercased()) {
                throw Self.syntaxError(at: token.offset, "expected a value, found the keyword \(name.uppercased()) (write #\(name) for a property of that name)")
            }
            return try keyPath()
        default:
            throw Self.syntaxError(at: token.offset, "expected a value, \(describe(token))")
        }
    }

    private static let literals: [String: QueryExpression] = [
        "TRUE": .literal(.bool(true)), "YES": .literal(.bool(true)),
        "FALSE": .literal(.bool(false)), "NO": .literal(.bool(false)),
        "NULL": .literal(.null), "NIL": .literal(.null),
    ]

    private static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "ALL", "ANY", "SOME", "NONE", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH",
        "ENDSWITH", "BETWEEN", "TRUEPREDICATE", "FALSEPREDICATE", "SELF", "FIRST", "LAST", "SIZE", "SUBQUERY",
    ]

    /// `name(arguments)`: Apple's names (`average`, `ceiling`, …) or the query language's.
    private mutating func functionCall(_ name: String, at offset: Int) throws -> QueryExpression {
        index += 2   // the name and "("
        var arguments: [QueryExpression] = []
        if !accept(symbol: ")") {
            repeat { arguments.append(try expression()) } while accept(symbol: ",")
            try expect(symbol: ")")
        }
        let lowered = name.lowercased()
        let function = Self.functionNames[lowered] ?? lowered
        guard let entry = FunctionCatalog.entry(function), entry.isCalledByName else {
            throw Self.syntaxError(at: offset, "unknown function \(name)()")
        }
        guard entry.arity.contains(arguments.count) else {
            throw Self.syntaxError(at: offset, "\(name)() \(FunctionCatalog.describe(entry.arity))")
        }
        return .function(function, arguments)
    }

    /// `a.b.c`, with a collection operator at the end: `tags.@count`, `prices.@sum`.
    private mutating func keyPath() throws -> QueryExpression {
        var path: [PathComponent] = []
        repeat {
            let token = current
            switch token.kind {
            case .identifier(let key, _):
                index += 1
                path.append(.key(key))
            case .collectionOperator(let op) where !path.isEmpty:
                index += 1
                guard let function = Self.collectionOperators[op] else {
                    throw Self.syntaxError(at: token.offset, "unknown collection operator @\(op) (@count, @sum, @avg, @min, @max)")
                }
                if case .symbol(".") = current.kind {
                    throw Self.syntaxError(at: current.offset, "@\(op) must end the key path")
                }
                return .function(function, [.property(path)])
            default:
                throw Self.syntaxError(at: token.offset, "expected a property name, \(describe(token))")
            }
        } while accept(symbol: ".")
        return .property(path)
    }

    private static let collectionOperators = ["count": "array_length", "sum": "array_sum", "avg": "array_avg",
                                              "min": "array_min", "max": "array_max"]

    // MARK: Tokens

    private var current: PredicateToken { tokens[index] }

    private func peek(_ ahead: Int) -> PredicateToken { tokens[min(index + ahead, tokens.count - 1)] }

    private mutating func accept(symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        index += 1
        return true
    }

    private mutating func accept(keyword: String) -> Bool {
        guard case .identifier(let word, escaped: false) = current.kind, word.uppercased() == keyword else { return false }
        index += 1
        return true
    }

    private mutating func expect(symbol: String) throws {
        guard accept(symbol: symbol) else { throw Self.syntaxError(at: current.offset, "expected '\(symbol)', \(describe(current))") }
    }

    private func expectEnd() throws {
        guard current.kind == .end else { throw Self.syntaxError(at: current.offset, "unexpected \(describe(current).dropFirst(6))") }
    }

    private mutating func descend() throws {
        depth += 1
        guard depth <= Self.depthLimit else { throw Self.syntaxError(at: current.offset, "the predicate nests too deeply") }
    }

    /// "found …" for messages.
    private func describe(_ token: PredicateToken) -> String {
        switch token.kind {
        case .end: return "found the end"
        case .identifier(let name, _): return "found '\(name)'"
        case .variable(let name): return "found '$\(name)'"
        case .collectionOperator(let name): return "found '@\(name)'"
        case .string(let text): return "found the string \"\(text)\""
        case .integer(let value): return "found \(value)"
        case .double(let value): return "found \(value)"
        case .symbol(let symbol): return "found '\(symbol)'"
        }
    }

    /// `op(a, b, …)` with nested uses of the same operator merged, so that long AND chains stay flat.
    private func flattened(_ op: QueryOperator, _ operands: [QueryExpression]) -> QueryExpression {
        .operation(op, operands.flatMap { operand -> [QueryExpression] in
            if case .operation(op, let inner) = operand, inner.count + operands.count <= op.arity.upperBound { return inner }
            return [operand]
        })
    }
}

/// The `[c]` and `[d]` options of a comparison.
struct ComparisonOptions: OptionSet {
    let rawValue: Int
    static let caseInsensitive = ComparisonOptions(rawValue: 1)
    static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
}
