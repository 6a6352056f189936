/// Reads SQL++ for Mobile — Couchbase Lite's N1QL dialect — into the query
/// tree the JSON reader and the builders produce (``SelectStatement``), by
/// recursive descent over ``SQLPPLexer``'s tokens, with LiteCore's grammar:
/// its reserved words, its precedence (prefix `-`/`NOT` bind to a primary,
/// `||` binds tighter than `*`, `COLLATE` applies to a whole expression) and
/// its literal forms. A syntax error is ``DocLiteError/Code/invalidQuery``
/// with the byte offset of the token that could not be read as `position`.
/// What the tree means is checked afterwards by ``QueryValidator``, as for
/// every front end.
struct SQLPPParser {
    private let tokens: [SQLPPToken]
    private var index = 0
    /// How deeply expressions nest here; the validator's limit is far lower,
    /// this one only keeps the recursion off the end of the stack.
    private var depth = 0
    private static let depthLimit = 200

    private init(_ text: String) throws {
        tokens = try SQLPPLexer.tokens(text)
    }

    /// Parses a whole query: `SELECT … [FROM …] [WHERE …] …`.
    static func parse(_ text: String) throws -> SelectStatement {
        var parser = try SQLPPParser(text)
        let statement = try parser.selectStatement()
        _ = parser.accept(symbol: ";")
        try parser.expectEnd()
        return statement
    }

    /// Parses a list of expressions, as an index configuration gives them: `name, lower(city)`.
    static func parseExpressions(_ text: String) throws -> [QueryExpression] {
        var parser = try SQLPPParser(text)
        var expressions = [try parser.expression()]
        while parser.accept(symbol: ",") { expressions.append(try parser.expression()) }
        try parser.expectEnd()
        return expressions
    }

    /// Parses one expression: a partial index's condition.
    static func parseExpression(_ text: String) throws -> QueryExpression {
        var parser = try SQLPPParser(text)
        let expression = try parser.expression()
        try parser.expectEnd()
        return expression
    }

    /// A syntax error at byte `offset`, which the message names as LiteCore does (1-based).
    static func syntaxError(at offset: Int, _ message: String) -> DocLiteError {
        DocLiteError(.invalidQuery, "SQL++ syntax error near character \(offset + 1): \(message)", position: offset)
    }

    // MARK: Statement

    private mutating func selectStatement() throws -> SelectStatement {
        try expect(keyword: "SELECT")
        var statement = SelectStatement()
        if accept(keyword: "DISTINCT") {
            statement.distinct = true
        } else if case .identifier(let word, quoted: false) = current.kind, word.uppercased() == "ALL" {
            index += 1
        }
        statement.what = try list { try $0.resultItem() }
        if accept(keyword: "FROM") {
            statement.from = [try dataSource()]
            while true {
                if accept(keyword: "UNNEST") {
                    var item = DataSourceItem()
                    item.unnest = try expression()
                    item.alias = try alias()
                    statement.from.append(item)
                } else if let join = try joinKind() {
                    var item = try dataSource()
                    item.join = join
                    if accept(keyword: "ON") { item.on = try expression() }
                    statement.from.append(item)
                } else {
                    break
                }
            }
        }
        if accept(keyword: "WHERE") { statement.whereClause = try expression() }
        if accept(keyword: "GROUP") {
            try expect(keyword: "BY")
            statement.groupBy = try list { try $0.keyExpression() }
            if accept(keyword: "HAVING") { statement.having = try expression() }
        }
        if accept(keyword: "ORDER") {
            try expect(keyword: "BY")
            statement.orderBy = try list { parser in
                let expression = try parser.keyExpression()
                if parser.accept(keyword: "DESC") { return OrderingItem(expression: expression, descending: true) }
                _ = parser.accept(keyword: "ASC")
                return OrderingItem(expression: expression)
            }
        }
        if accept(keyword: "LIMIT") {
            statement.limit = try expression()
            if accept(keyword: "OFFSET") { statement.offset = try expression() }
        } else if accept(keyword: "OFFSET") {
            statement.offset = try expression()
            if accept(keyword: "LIMIT") { statement.limit = try expression() }
        }
        return statement
    }

    /// `expression [[AS] alias]`; a bare string literal without an alias is a
    /// property path, as in the JSON form.
    private mutating func resultItem() throws -> ResultItem {
        let start = index
        let expression = try expression()
        if let alias = try alias() { return ResultItem(expression: expression, alias: alias) }
        return ResultItem(expression: try propertyIfLoneString(expression, from: start))
    }

    /// A GROUP BY or ORDER BY expression, where a lone string is a property path.
    private mutating func keyExpression() throws -> QueryExpression {
        let start = index
        let expression = try expression()
        return try propertyIfLoneString(expression, from: start)
    }

    /// An optional `[AS] name`.
    private mutating func alias() throws -> String? {
        if accept(keyword: "AS") { return try name("an alias") }
        if case .identifier(let name, _) = current.kind { index += 1; return name }
        return nil
    }

    /// `name`, `scope.name`, with an optional alias.
    private mutating func dataSource() throws -> DataSourceItem {
        var item = DataSourceItem()
        let first = try name("a collection name")
        if accept(symbol: ".") {
            item.scope = first
            item.collection = try name("a collection name")
        } else {
            item.collection = first
        }
        item.alias = try alias()
        return item
    }

    /// `[INNER] JOIN`, `LEFT [OUTER] JOIN`, `CROSS JOIN`, or nil.
    private mutating func joinKind() throws -> DataSourceItem.JoinKind? {
        let kind: DataSourceItem.JoinKind
        if accept(keyword: "JOIN") { return .inner }
        if accept(keyword: "INNER") {
            kind = .inner
        } else if accept(keyword: "LEFT") {
            _ = accept(keyword: "OUTER")
            kind = .leftOuter
        } else if accept(keyword: "CROSS") {
            kind = .cross
        } else {
            return nil
        }
        try expect(keyword: "JOIN")
        return kind
    }

    // MARK: Expressions, loosest first

    /// An expression, with an optional `COLLATE` applying to all of it.
    private mutating func expression() throws -> QueryExpression {
        defer { depth -= 1 }
        try descend()
        let expression = try binary(.or, operand: { try $0.binary(.and, operand: { try $0.comparison() }) })
        guard accept(keyword: "COLLATE") else { return expression }
        return .collate(try collation(), expression)
    }

    /// `operand { op operand }` for AND or OR.
    private mutating func binary(_ op: QueryOperator, operand: (inout SQLPPParser) throws -> QueryExpression) throws -> QueryExpression {
        var left = try operand(&self)
        while accept(keyword: op.rawValue) { left = Self.chain(op, left, try operand(&self)) }
        return left
    }

    /// `left op right`: joined to `left` when that is already an `op` of fewer
    /// than its most operands (AND, OR, `+`, `*`, `||` take up to 127), so that a
    /// chain is one operation. LiteCore's parser nests pairs to the left: the
    /// same value, but a level deeper per link, so that a chain of 20 ORs, or the
    /// SQL++ a 4-operand AND writes of itself, would be deeper than a query may nest.
    private static func chain(_ op: QueryOperator, _ left: QueryExpression, _ right: QueryExpression) -> QueryExpression {
        if case .operation(op, let operands) = left, operands.count < op.arity.upperBound {
            return .operation(op, operands + [right])
        }
        return .operation(op, [left, right])
    }

    /// Comparisons: a chain of `=`, `==`, `!=`, `<>`, `IS`, `IS NOT`, or one
    /// of the tests that end it (`IS [NOT] NULL/MISSING/VALUED`, `NOT NULL`,
    /// `[NOT] IN`, `[NOT] LIKE`, `[NOT] BETWEEN`).
    private mutating func comparison() throws -> QueryExpression {
        var left = try relation()
        let start = index
        if accept(keyword: "NOT") {
            if accept(keyword: "NULL") { return .operation(.isNot, [left, .literal(.null)]) }
            if let test = try rangeTest(on: left, negated: true) { return test }
            index = start   // a NOT that starts nothing here: the caller reports it
            return left
        }
        if accept(keyword: "IS") {
            let negated = accept(keyword: "NOT")
            if accept(keyword: "VALUED") {
                let test = QueryExpression.operation(.isValued, [left])
                return negated ? .operation(.not, [test]) : test
            }
            if accept(keyword: "NULL") { return .operation(negated ? .isNot : .is, [left, .literal(.null)]) }
            if accept(keyword: "MISSING") { return .operation(negated ? .isNot : .is, [left, .missing]) }
            index = start
        }
        if let test = try rangeTest(on: left, negated: false) { return test }
        while true {
            let op: QueryOperator
            if accept(symbol: "=") || accept(symbol: "==") {
                op = .equal
            } else if accept(symbol: "!=") || accept(symbol: "<>") {
                op = .notEqual
            } else if accept(keyword: "IS") {
                op = accept(keyword: "NOT") ? .isNot : .is
            } else {
                return left
            }
            left = .operation(op, [left, try relation()])
        }
    }

    /// `[NOT] IN list`, `[NOT] LIKE pattern`, `[NOT] BETWEEN low AND high`
    /// after `left` (and the NOT, already read when `negated`).
    private mutating func rangeTest(on left: QueryExpression, negated: Bool) throws -> QueryExpression? {
        func not(_ test: QueryExpression) -> QueryExpression { negated ? .operation(.not, [test]) : test }
        if accept(keyword: "IN") {
            let list: QueryExpression
            if accept(symbol: "(") {
                // `(e).path` is a path into a parenthesized expression (DocLite's, as the
                // SQL++ writer writes `["IN", x, ["_.", e, "path"]]`); `(e)` alone a list.
                let items = try items(closedBy: ")")
                if items.count == 1, let path = try followingPath() { list = Self.nested(items[0], path) } else { list = .array(items) }
            } else if accept(symbol: "[") {
                let array = QueryExpression.array(try items(closedBy: "]"))
                list = try followingPath().map { Self.nested(array, $0) } ?? array
            } else {   // an array-valued expression: DocLite's, as the JSON form's ["IN", x, [".tags"]]
                list = try postfix()
            }
            return .operation(negated ? .notIn : .in, [left, list])
        }
        if accept(keyword: "LIKE") { return not(.operation(.like, [left, try relation()])) }
        if accept(keyword: "BETWEEN") {
            let low = try relation()
            try expect(keyword: "AND")
            return not(.operation(.between, [left, low, try relation()]))
        }
        return nil
    }

    /// `<`, `<=`, `>`, `>=`, nested to the left.
    private mutating func relation() throws -> QueryExpression {
        try infix([("<", .less), ("<=", .lessOrEqual), (">", .greater), (">=", .greaterOrEqual)]) { try $0.sum() }
    }

    private mutating func sum() throws -> QueryExpression {
        try infix([("+", .add), ("-", .subtract)]) { try $0.product() }
    }

    private mutating func product() throws -> QueryExpression {
        try infix([("*", .multiply), ("/", .divide), ("%", .modulo)]) { try $0.concatenation() }
    }

    /// `||` binds tighter than `*` in Couchbase Lite's grammar.
    private mutating func concatenation() throws -> QueryExpression {
        try infix([("||", .concat)]) { try $0.postfix() }
    }

    private mutating func infix(_ operators: [(String, QueryOperator)],
                                operand: (inout SQLPPParser) throws -> QueryExpression) throws -> QueryExpression {
        var left = try operand(&self)
        while case .symbol(let symbol) = current.kind {
            if ["<<", ">>", "&", "|"].contains(symbol) {
                throw Self.syntaxError(at: current.start, "the bitwise operator '\(symbol)' is not supported")
            }
            guard let op = operators.first(where: { $0.0 == symbol })?.1 else { break }
            index += 1
            left = Self.chain(op, left, try operand(&self))
        }
        return left
    }

    /// A primary, then a path into its value (`(expr).a`, `META().id`; `(expr)[0]`
    /// too, which LiteCore's grammar lacks). A property path has taken its own.
    private mutating func postfix() throws -> QueryExpression {
        let start = current
        let base = try primary()
        if case .property = base, case .identifier = start.kind { return base }
        return try followingPath().map { Self.nested(base, $0) } ?? base
    }

    /// The path that follows a value here (`.name…` or `[index]…`), if one does.
    private mutating func followingPath() throws -> [PathComponent]? {
        if current.kind == .symbol("."), case .identifier = peek(1).kind {
            index += 1
            return try pathComponents()
        }
        return current.kind == .symbol("[") ? try pathComponents(after: []) : nil
    }

    /// `path` into `base`'s value; `META().key` with the key's canonical name, as the JSON reader writes it.
    private static func nested(_ base: QueryExpression, _ path: [PathComponent]) -> QueryExpression {
        if base.arguments(ofCallTo: .meta) != nil, path.count == 1, case .key(let key) = path[0], let meta = MetaProperty(name: key) {
            return .nested(base, [.key(meta.rawValue)])
        }
        return .nested(base, path)
    }

    private mutating func primary() throws -> QueryExpression {
        defer { depth -= 1 }
        try descend()
        let token = current
        switch token.kind {
        case .number(let value):
            index += 1
            return .literal(value)
        case .string(let text):
            index += 1
            return .literal(.string(text))
        case .parameter(let name):
            index += 1
            return .parameter(name)
        case .symbol("-"):
            index += 1
            if case .number(let value) = current.kind, current.start == token.end {   // a negative literal
                index += 1
                return .literal(try Self.negated(value, at: token.start))
            }
            return .operation(.negate, [try primary()])
        case .symbol("+"):
            index += 1
            return .operation(.add, [try primary()])
        case .symbol("*"):
            index += 1
            return .all(source: nil)
        case .symbol("("):
            index += 1
            let expression = try expression()
            try expect(symbol: ")")
            return expression
        case .symbol("["):
            index += 1
            return .array(try items(closedBy: "]"))
        case .symbol("{"):
            index += 1
            return try dictionary()
        case .keyword(let word):
            switch word.uppercased() {
            case "TRUE": index += 1; return .literal(.bool(true))
            case "FALSE": index += 1; return .literal(.bool(false))
            case "NULL": index += 1; return .literal(.null)
            case "MISSING": index += 1; return .missing
            case "NOT": index += 1; return .operation(.not, [try primary()])
            case "CASE": index += 1; return try caseExpression()
            case "ANY", "EVERY": return try quantified()
            default: throw Self.syntaxError(at: token.start, "expected an expression, found \(Self.describe(token))")
            }
        case .identifier(let name, let quoted):
            let next = peek(1)
            if !quoted, name.uppercased() == "SOME", startsQuantifier() { return try quantified() }
            if !quoted, name.uppercased() == "EXISTS", next.kind == .symbol("(") {
                guard peek(2).keyword != "SELECT" else {
                    throw Self.syntaxError(at: token.start, "sub-queries (SELECT inside an expression) are not supported")
                }
                index += 1   // EXISTS(expression): DocLite's, as the JSON form's ["EXISTS", x]
                return .operation(.exists, [try primary()])
            }
            if next.kind == .symbol("(") { return try call(name, quoted: quoted) }
            if next.kind == .symbol("."), peek(2).kind == .symbol("*") {
                index += 3
                return .all(source: name)
            }
            return .property(try pathComponents())
        default:
            throw Self.syntaxError(at: token.start, "expected an expression, found \(Self.describe(token))")
        }
    }

    /// `-` glued to a number literal.
    private static func negated(_ value: JSONValue, at offset: Int) throws -> JSONValue {
        switch value {
        case .int(let number): return .int(-number)
        case .unsigned(let number) where number == UInt64(Int64.max) + 1: return .int(.min)
        case .unsigned(let number): return .double(-Double(number))
        case .double(let number): return .double(-number)
        default: throw syntaxError(at: offset, "expected a number after '-'")
        }
    }

    /// `name { . name | [index] }`: a property path, keys as written.
    private mutating func pathComponents() throws -> [PathComponent] {
        try pathComponents(after: [.key(try name("a property name"))])
    }

    /// `{ . name | [index] }` after `path`.
    private mutating func pathComponents(after path: [PathComponent]) throws -> [PathComponent] {
        var path = path
        while true {
            if current.kind == .symbol("."), case .identifier(let key, _) = peek(1).kind {
                index += 2
                path.append(.key(key))
            } else if accept(symbol: "[") {
                let start = current.start
                var negative = false
                if current.kind == .symbol("-"), peek(1).start == current.end { negative = true; index += 1 }
                guard case .number(.int(let value)) = current.kind else {
                    throw Self.syntaxError(at: start, "an array index must be an integer literal")
                }
                index += 1
                try expect(symbol: "]")
                path.append(.index(Int(negative ? -value : value)))
            } else {
                return path
            }
        }
    }

    /// A call: `META([alias])`, `MATCH(index, text)`, `RANK(index)`, `PREDICTION(model, input[, path])`
    /// (the model named as an identifier or a string), or a function of the catalog.
    private mutating func call(_ name: String, quoted: Bool) throws -> QueryExpression {
        let start = current.start
        index += 2   // the name and "("
        switch quoted ? "" : name.uppercased() {
        case "META":
            var arguments: [QueryExpression] = []
            if case .identifier = current.kind {
                var alias = try self.name("a data source alias")
                while accept(symbol: ".") { alias += "." + (try self.name("a data source alias")) }
                arguments = [.literal(.string(alias))]
            }
            try expect(symbol: ")")
            return .function("meta", arguments)
        case "MATCH":
            let index = try indexName()
            try expect(symbol: ",")
            let search = try expression()
            try expect(symbol: ")")
            return .function("match", [.literal(.string(index)), search])
        case "RANK":
            let index = try indexName()
            try expect(symbol: ")")
            return .function("rank", [.literal(.string(index))])
        case "PREDICTION":
            var arguments = try items(closedBy: ")")
            if case .property(let path)? = arguments.first, path.count == 1, case .key(let model) = path[0] {
                arguments[0] = .literal(.string(model))
            }
            return .function("prediction", arguments)
        default:
            let lowercased = name.lowercased()
            guard FunctionCatalog.entry(lowercased)?.isCalledByName == true else {
                throw Self.syntaxError(at: start, "unknown function '\(name)()'")
            }
            return .function(lowercased, try items(closedBy: ")"))
        }
    }

    /// A full-text index named by MATCH or RANK: `index` or `alias.index`.
    private mutating func indexName() throws -> String {
        let first = try name("a full-text index name")
        guard accept(symbol: ".") else { return first }
        return IndexReference(alias: first, index: try name("a full-text index name")).text
    }

    /// `CASE [subject] WHEN … THEN … [WHEN … THEN …] [ELSE …] END`, after CASE.
    private mutating func caseExpression() throws -> QueryExpression {
        var subject: QueryExpression?
        if current.keyword != "WHEN" {
            subject = try expression()
            if subject == .literal(.null) { subject = nil }   // `CASE NULL WHEN` is the searched form, as in JSON
        }
        var branches: [CaseExpression.Branch] = []
        while accept(keyword: "WHEN") {
            let when = try expression()
            try expect(keyword: "THEN")
            branches.append(CaseExpression.Branch(when: when, then: try expression()))
        }
        guard !branches.isEmpty else { throw Self.syntaxError(at: current.start, "CASE needs at least one WHEN … THEN …") }
        let otherwise = accept(keyword: "ELSE") ? try expression() : nil
        try expect(keyword: "END")
        return .caseWhen(CaseExpression(subject: subject, branches: branches, otherwise: otherwise))
    }

    /// `SOME x IN` or `SOME AND EVERY` here: a quantifier rather than the property `some`.
    private func startsQuantifier() -> Bool {
        if peek(1).keyword == "AND" { return peek(2).keyword == "EVERY" }
        guard case .identifier = peek(1).kind else { return false }
        return peek(2).keyword == "IN"
    }

    /// `ANY|SOME|EVERY|ANY AND EVERY var IN array SATISFIES condition END`.
    private mutating func quantified() throws -> QueryExpression {
        let word = current.keyword ?? "ANY"   // SOME is a name, not a keyword
        index += 1
        var quantifier: Quantifier = word == "EVERY" ? .every : .any
        if word != "EVERY", accept(keyword: "AND") {
            try expect(keyword: "EVERY")
            quantifier = .anyAndEvery
        }
        let variable = try name("a variable name")
        try expect(keyword: "IN")
        let array = try expression()
        try expect(keyword: "SATISFIES")
        let condition = Self.bindingVariable(variable, in: try expression())
        try expect(keyword: "END")
        return .quantified(quantifier, variable: variable, in: array, satisfies: condition)
    }

    /// `condition` with the properties that start with `variable` read as the
    /// variable (not inside dictionary literals, as in LiteCore).
    private static func bindingVariable(_ variable: String, in condition: QueryExpression) -> QueryExpression {
        func bind(_ expression: QueryExpression) -> QueryExpression {
            switch expression {
            case .property(let path) where path.first == .key(variable): return .variable(path)
            case .dictionary: return expression
            default: return expression.replacingChildren(bind)
            }
        }
        return bind(condition)
    }

    /// `{ 'key': value, … }` after `{`.
    private mutating func dictionary() throws -> QueryExpression {
        var members: [ByteString: QueryExpression] = [:]
        if accept(symbol: "}") { return .dictionary(members) }
        repeat {
            guard case .string(let key) = current.kind else {
                throw Self.syntaxError(at: current.start, "a dictionary key must be a quoted string")
            }
            index += 1
            try expect(symbol: ":")
            members[ByteString(key)] = try expression()
        } while accept(symbol: ",")
        try expect(symbol: "}")
        return .dictionary(members)
    }

    /// `COLLATE word` or `COLLATE (word …)`, after COLLATE: UNICODE[:locale],
    /// NOUNICODE, CASE, NOCASE, DIAC, NODIAC.
    private mutating func collation() throws -> QueryCollation {
        var collation = QueryCollation()
        if accept(symbol: "(") {
            repeat { try collationWord(into: &collation) } while current.kind != .symbol(")")
            index += 1
        } else {
            try collationWord(into: &collation)
            if Self.collationWord(current) != nil {
                throw Self.syntaxError(at: current.start, "several COLLATE options go in parentheses: COLLATE (UNICODE NOCASE)")
            }
        }
        return collation
    }

    /// The collation word `token` is (upper case), nil for any other token.
    private static func collationWord(_ token: SQLPPToken) -> String? {
        switch token.kind {
        case .keyword(let word), .identifier(let word, quoted: false):
            let upper = word.uppercased()
            return ["UNICODE", "NOUNICODE", "CASE", "NOCASE", "DIAC", "NODIAC"].contains(upper) ? upper : nil
        default:
            return nil
        }
    }

    private mutating func collationWord(into collation: inout QueryCollation) throws {
        let token = current
        guard let upper = Self.collationWord(token) else {
            throw Self.syntaxError(at: token.start, "expected a collation (UNICODE, NOUNICODE, CASE, NOCASE, DIAC, NODIAC), found \(Self.describe(token))")
        }
        index += 1
        let value = !upper.hasPrefix("NO")
        switch value ? upper : String(upper.dropFirst(2)) {
        case "UNICODE":
            collation.unicode = value
            if value, current.kind == .symbol(":"), current.start == token.end {
                index += 1
                let locale = current
                switch locale.kind {
                case .identifier(let name, quoted: false) where locale.start == token.end + 1: collation.locale = name
                case .keyword(let name) where locale.start == token.end + 1: collation.locale = name
                default: throw Self.syntaxError(at: locale.start, "expected a locale after 'UNICODE:' (UNICODE:en_US)")
                }
                index += 1
            }
        case "CASE": collation.caseSensitive = value
        default: collation.diacriticSensitive = value
        }
    }

    // MARK: Tokens

    private var current: SQLPPToken { peek(0) }

    /// The token `offset` places ahead; the end token past the end.
    private func peek(_ offset: Int) -> SQLPPToken { tokens[min(index + offset, tokens.count - 1)] }

    /// Counts one more level of nesting (the caller's `defer { depth -= 1 }`
    /// counts it back) and stops a text nested past ``depthLimit``.
    private mutating func descend() throws {
        depth += 1
        guard depth <= Self.depthLimit else { throw Self.syntaxError(at: current.start, "expressions are nested too deeply") }
    }

    private mutating func accept(keyword: String) -> Bool {
        guard current.keyword == keyword else { return false }
        index += 1
        return true
    }

    private mutating func accept(symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        index += 1
        return true
    }

    private mutating func expect(keyword: String) throws {
        guard accept(keyword: keyword) else { throw Self.syntaxError(at: current.start, "expected \(keyword), found \(Self.describe(current))") }
    }

    private mutating func expect(symbol: String) throws {
        guard accept(symbol: symbol) else { throw Self.syntaxError(at: current.start, "expected '\(symbol)', found \(Self.describe(current))") }
    }

    private func expectEnd() throws {
        guard current.kind == .end else { throw Self.syntaxError(at: current.start, "unexpected \(Self.describe(current))") }
    }

    /// A name (plain or backquoted); `what` says what was expected.
    private mutating func name(_ what: String) throws -> String {
        guard case .identifier(let name, _) = current.kind else {
            throw Self.syntaxError(at: current.start, "expected \(what), found \(Self.describe(current))"
                                   + (current.keyword != nil ? " (a reserved word: backquote it to use it as a name)" : ""))
        }
        index += 1
        return name
    }

    /// `parse { , parse }`.
    private mutating func list<T>(_ parse: (inout SQLPPParser) throws -> T) throws -> [T] {
        var items = [try parse(&self)]
        while accept(symbol: ",") { items.append(try parse(&self)) }
        return items
    }

    /// `[expression { , expression }] closing`, after the opening bracket.
    private mutating func items(closedBy closing: String) throws -> [QueryExpression] {
        if accept(symbol: closing) { return [] }
        let items = try list { try $0.expression() }
        try expect(symbol: closing)
        return items
    }

    /// A result, grouping or ordering item that is a lone string token (not
    /// `('text')`) is a property path, the JSON form's rule, as LiteCore reads
    /// it; one that is not a path is an error there, and here.
    private func propertyIfLoneString(_ expression: QueryExpression, from start: Int) throws -> QueryExpression {
        guard index == start + 1, case .literal(.string(let text)) = expression else { return expression }
        do {
            return .property(try PropertyPath.parse(text))
        } catch let error as DocLiteError {
            throw Self.syntaxError(at: tokens[start].start, "a lone string here is a property path, as in Couchbase Lite, "
                                   + "and \(error.message); write ('text') to give the text itself")
        }
    }

    private static func describe(_ token: SQLPPToken) -> String {
        switch token.kind {
        case .keyword(let word): return "'\(word)'"
        case .identifier(let name, _): return "'\(name)'"
        case .number(let value): return "\(value.json)"
        case .string: return "a string"
        case .parameter(let name): return "'$\(name)'"
        case .symbol(let symbol): return "'\(symbol)'"
        case .end: return "the end of the text"
        }
    }
}
