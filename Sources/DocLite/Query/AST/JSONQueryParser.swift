/// Reads LiteCore's JSON query language (`{"WHAT": …, "WHERE": …}`) into a
/// ``SelectStatement``: it only reads (shapes, names, types); the rules every
/// tree obeys are ``QueryValidator``'s, checked when the tree is compiled.
/// Clause keys and operator names are case-insensitive; property names are
/// not. Every error names the JSON location of the fault, such as `WHERE[2][1]`.
enum JSONQueryParser {
    /// Parses query text. Malformed JSON throws with the byte ``DocLiteError/position``.
    static func parse(json: String) throws -> SelectStatement {
        let value: JSONValue
        do {
            value = try JSONValue(json: json)
        } catch var error as DocLiteError {
            error = DocLiteError(.invalidQuery, "query is not valid JSON: \(error.message)", position: error.position)
            throw error
        }
        return try parse(value)
    }

    /// Parses the three root forms: `["SELECT", {…}]`, `{…}`, or a bare expression
    /// (a WHERE clause on the default collection, LiteCore's legacy form).
    static func parse(_ root: JSONValue) throws -> SelectStatement {
        if case .array(let items) = root, items.count == 2, case .string(let op) = items[0], op.uppercased() == "SELECT",
           case .dictionary(let clauses) = items[1] {
            return try statement(clauses)
        }
        if case .dictionary(let clauses) = root { return try statement(clauses) }
        return SelectStatement(whereClause: try expression(root, at: "WHERE"))
    }

    // MARK: Statement

    private static func statement(_ clauses: [ByteString: JSONValue]) throws -> SelectStatement {
        var statement = SelectStatement()
        for (key, value) in clauses.sorted(by: { $0.key < $1.key }) {
            let clause = key.string.uppercased()
            switch clause {
            case "WHAT":
                statement.what = try list(value, at: clause).enumerated().map { i, item in
                    try resultItem(item, at: "WHAT[\(i)]")
                }
            case "DISTINCT":
                guard case .bool(let distinct) = value else { throw error(at: clause, "must be true or false") }
                statement.distinct = distinct
            case "FROM":
                statement.from = try list(value, at: clause).enumerated().map { i, item in
                    try dataSource(item, at: "FROM[\(i)]")
                }
            case "WHERE": statement.whereClause = try expression(value, at: clause)
            case "GROUP_BY":
                statement.groupBy = try list(value, at: clause).enumerated().map { i, item in
                    try expression(item, at: "GROUP_BY[\(i)]", stringIsProperty: true)
                }
            case "HAVING": statement.having = try expression(value, at: clause)
            case "ORDER_BY":
                statement.orderBy = try list(value, at: clause).enumerated().map { i, item in
                    try ordering(item, at: "ORDER_BY[\(i)]")
                }
            case "LIMIT": statement.limit = try expression(value, at: clause)
            case "OFFSET": statement.offset = try expression(value, at: clause)
            default:
                throw error(at: key.string, "unknown clause (expected WHAT, DISTINCT, FROM, WHERE, GROUP_BY, HAVING, ORDER_BY, LIMIT or OFFSET)")
            }
        }
        return statement
    }

    private static func list(_ value: JSONValue, at location: String) throws -> [JSONValue] {
        guard case .array(let items) = value else { throw error(at: location, "must be an array") }
        return items
    }

    /// A WHAT item. As LiteCore's (its WhatNode): a bare string is a property
    /// path (`".name"`, `"name"`), but inside `AS` a string is a literal
    /// (`["AS", "some text", "answer"]` selects the text).
    private static func resultItem(_ item: JSONValue, at location: String) throws -> ResultItem {
        if case .array(let items) = item, case .string(let op) = items.first, op.uppercased() == "AS" {
            guard items.count == 3, case .string(let alias) = items[2], !alias.isEmpty else {
                throw error(at: location, "'AS' takes an expression and a non-empty alias string")
            }
            return ResultItem(expression: try expression(items[1], at: location + "[1]"), alias: alias)
        }
        return ResultItem(expression: try expression(item, at: location, stringIsProperty: true))
    }

    private static func ordering(_ item: JSONValue, at location: String) throws -> OrderingItem {
        if case .array(let items) = item, case .string(let op) = items.first,
           ["ASC", "DESC"].contains(op.uppercased()) {
            guard items.count == 2 else { throw error(at: location, "'\(op)' takes one expression") }
            return OrderingItem(expression: try expression(items[1], at: location + "[1]", stringIsProperty: true),
                                descending: op.uppercased() == "DESC")
        }
        return OrderingItem(expression: try expression(item, at: location, stringIsProperty: true))
    }

    private static func dataSource(_ item: JSONValue, at location: String) throws -> DataSourceItem {
        guard case .dictionary(let members) = item else { throw error(at: location, "must be an object") }
        var source = DataSourceItem()
        var joinName: String?
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            let here = "\(location).\(key)"
            func text() throws -> String {
                guard case .string(let text) = value, !text.isEmpty else { throw error(at: here, "must be a non-empty string") }
                return text
            }
            switch key.string.uppercased() {
            case "COLLECTION": source.collection = try text()
            case "SCOPE": source.scope = try text()
            case "AS": source.alias = Self.removingBackslashes(try text())
            case "JOIN": joinName = try text().uppercased()
            case "ON": source.on = try expression(value, at: here)
            case "UNNEST": source.unnest = try expression(value, at: here)
            default: throw error(at: here, "unknown key (expected COLLECTION, SCOPE, AS, JOIN, ON or UNNEST)")
            }
        }
        if let joinName {
            switch joinName {
            case "INNER": source.join = .inner
            case "LEFT", "LEFT OUTER": source.join = .leftOuter
            case "CROSS": source.join = .cross
            default: throw error(at: location + ".JOIN", "unknown join type '\(joinName)' (expected INNER, LEFT OUTER or CROSS)")
            }
        } else if source.on != nil, source.unnest == nil {
            source.join = .inner
        }
        return source
    }

    // MARK: Expressions

    /// Reads an expression. `stringIsProperty`: a bare string is a property path
    /// (WHAT items without AS, GROUP_BY and ORDER_BY items); elsewhere it is a string literal.
    static func expression(_ value: JSONValue, at location: String, stringIsProperty: Bool = false) throws -> QueryExpression {
        switch value {
        case .string(let text) where stringIsProperty:
            return try property(text, at: location)
        case .null, .bool, .int, .unsigned, .double, .string:
            return .literal(value)
        case .dictionary(let members):
            var parsed: [ByteString: QueryExpression] = [:]
            for (key, member) in members { parsed[key] = try expression(member, at: "\(location).\(key)") }
            return .dictionary(parsed)
        case .array(let items):
            guard case .string(let op) = items.first else {
                throw error(at: location, "an expression array must start with an operator string")
            }
            return try operation(op, Array(items.dropFirst()), at: location)
        }
    }

    private static func operation(_ op: String, _ args: [JSONValue], at location: String) throws -> QueryExpression {
        func operand(_ i: Int) throws -> QueryExpression { try expression(args[i], at: "\(location)[\(i + 1)]") }
        func operands() throws -> [QueryExpression] { try args.indices.map(operand) }
        func components(from start: Int) throws -> [PathComponent] {
            try args[start...].enumerated().map { i, arg in
                switch arg {
                case .string(let key) where !key.isEmpty: return .key(key)
                case .array(let index) where index.count == 1:
                    if case .int(let n) = index[0] { return .index(Int(n)) }
                    fallthrough
                default: throw error(at: "\(location)[\(start + i + 1)]", "a path component must be a key string or [index]")
                }
            }
        }
        if op.hasUTF8Prefix(".") {
            if op == "." && args.isEmpty { return .all(source: nil) }
            if op.utf8.count > 1, op.hasUTF8Suffix("."), !op.hasUTF8Suffix("\\."), args.isEmpty {
                let source = op.droppingUTF8(first: 1, last: 1)
                return .all(source: Self.removingBackslashes(source))
            }
            let head = op == "." ? [] : try path(op.droppingUTF8(first: 1), at: location)
            return .property(head + (try components(from: 0)))
        }
        if op.hasUTF8Prefix("$") {
            let name: String
            if op == "$" {
                guard args.count == 1 else { throw error(at: location, "'$' takes a parameter name") }
                switch args[0] {
                case .string(let text): name = text
                case .int(let number): name = String(number)
                default: throw error(at: location, "'$' takes a parameter name")
                }
            } else {
                guard args.isEmpty else { throw error(at: location, "a parameter takes no operands") }
                name = op.droppingUTF8(first: 1)
            }
            return .parameter(name)
        }
        if op.hasUTF8Prefix("?") {
            return .variable((op == "?" ? [] : try self.path(op.droppingUTF8(first: 1), at: location)) + (try components(from: 0)))
        }
        if op.hasUTF8Prefix("_.") {
            guard !args.isEmpty else { throw error(at: location, "'_.' takes an expression and a path") }
            let base = try operand(0)
            // A path string may start with '.' (LiteCore writes `["_.", ["META()"], ".id"]`).
            func nestedPath(_ text: String, at location: String) throws -> [PathComponent] {
                try self.path(text.hasUTF8Prefix(".") ? text.droppingUTF8(first: 1) : text, at: location)
            }
            var path = (op == "_." ? [] : try self.path(op.droppingUTF8(first: 2), at: location))
                + (args.count > 1 ? try args[1...].enumerated().flatMap { i, arg -> [PathComponent] in
                    guard case .string(let text) = arg else {
                        throw error(at: "\(location)[\(i + 2)]", "'_.' takes a path string")
                    }
                    return try nestedPath(text, at: "\(location)[\(i + 2)]")
                } : [])
            // A META() key is written as its canonical name (the validator refuses an unknown one).
            if base.arguments(ofCallTo: .meta) != nil, path.count == 1, case .key(let key) = path[0], let meta = MetaProperty(name: key) {
                path = [.key(meta.rawValue)]
            }
            return .nested(base, path)
        }
        if op.hasUTF8Suffix("()") {
            return .function(op.droppingUTF8(last: 2).lowercased(), try operands())
        }
        let upper = op.uppercased()
        switch upper {
        case "[]": return .array(try operands())
        case "MISSING":
            guard args.isEmpty else { throw error(at: location, "MISSING takes no operands") }
            return .missing
        case "CASE": return .caseWhen(try caseExpression(args, at: location))
        case "COLLATE":
            guard args.count == 2, case .dictionary(let options) = args[0] else {
                throw error(at: location, "COLLATE takes an options object and an expression")
            }
            return .collate(try collation(options, at: location + "[1]"), try operand(1))
        case "ANY", "EVERY", "ANY AND EVERY":
            guard args.count == 3, case .string(let variable) = args[0] else {
                throw error(at: location, "\(upper) takes a variable name, an array and a condition")
            }
            return .quantified(Quantifier(rawValue: upper)!, variable: variable, in: try operand(1), satisfies: try operand(2))
        case "SELECT":
            throw error(at: location, "sub-queries (SELECT inside an expression) are not supported")
        case "AS", "ASC", "DESC":
            throw error(at: location, "'\(op)' is only allowed at the top of a \(upper == "AS" ? "WHAT" : "ORDER_BY") item")
        default: break
        }
        // Unary minus is written "-" like subtraction; its case name is not JSON.
        let found = upper == "-" && args.count == 1 ? .negate : QueryOperator(rawValue: upper).flatMap { $0 == .negate ? nil : $0 }
        guard let found else {
            throw error(at: location, "unknown operator '\(op)'")
        }
        return .operation(found, try operands())
    }

    private static func caseExpression(_ args: [JSONValue], at location: String) throws -> CaseExpression {
        guard args.count >= 3 else { throw error(at: location, "CASE takes a subject (or null), then WHEN/THEN pairs, then an optional ELSE") }
        let subject = args[0] == .null ? nil : try expression(args[0], at: location + "[1]")
        var branches: [CaseExpression.Branch] = []
        var i = 1
        while i + 1 < args.count {
            branches.append(.init(when: try expression(args[i], at: "\(location)[\(i + 1)]"),
                                  then: try expression(args[i + 1], at: "\(location)[\(i + 2)]")))
            i += 2
        }
        let otherwise = i < args.count ? try expression(args[i], at: "\(location)[\(i + 1)]") : nil
        return CaseExpression(subject: subject, branches: branches, otherwise: otherwise)
    }

    private static func collation(_ options: [ByteString: JSONValue], at location: String) throws -> QueryCollation {
        var collation = QueryCollation()
        for (key, value) in options {
            func flag() throws -> Bool {
                guard case .bool(let flag) = value else { throw error(at: "\(location).\(key)", "must be true or false") }
                return flag
            }
            switch key.string.uppercased() {
            case "UNICODE": collation.unicode = try flag()
            case "CASE": collation.caseSensitive = try flag()
            case "DIAC": collation.diacriticSensitive = try flag()
            case "LOCALE":
                switch value {
                case .null: collation.locale = .some(nil)
                case .string(let locale): collation.locale = locale
                default: throw error(at: "\(location).\(key)", "must be a string or null")
                }
            default: throw error(at: "\(location).\(key)", "unknown collation option (expected UNICODE, CASE, DIAC or LOCALE)")
            }
        }
        return collation
    }

    /// `text` without its backslashes (an alias is written without escapes),
    /// byte by byte: a backslash followed by a combining mark is still one.
    private static func removingBackslashes(_ text: String) -> String {
        String(decoding: text.utf8.filter { $0 != UInt8(ascii: "\\") }, as: UTF8.self)
    }

    /// A property shorthand string: `"name.first"`, or with the operator's dot (`".name"`, `"."`, `".alias."`).
    private static func property(_ text: String, at location: String) throws -> QueryExpression {
        text.hasUTF8Prefix(".") ? try operation(text, [], at: location) : .property(try path(text, at: location))
    }

    private static func path(_ text: String, at location: String) throws -> [PathComponent] {
        do {
            return try PropertyPath.parse(text)
        } catch let error as DocLiteError {
            throw self.error(at: location, error.message)
        }
    }

    static func error(at location: String, _ message: String) -> DocLiteError {
        QueryValidator.error(at: location, message)
    }
}
