/// Writes a ``SelectStatement`` as SQL++ text that ``SQLPPParser`` reads back
/// to the same tree — up to the grouping of a chain of AND, OR, `+`, `*` or
/// `||`, which the parser reads as one operation. Every operation is
/// parenthesised, so the text never depends on precedence.
/// A statement without FROM reads the default collection under LiteCore's
/// implicit alias, so it is written `FROM _ AS _doc`.
enum SQLPPWriter {
    static func text(_ statement: SelectStatement) -> String {
        var text = statement.distinct ? "SELECT DISTINCT " : "SELECT "
        // LiteCore's default columns, of the first source (as the compiler reads them).
        let qualifier = statement.from.first.flatMap { $0.alias ?? $0.collection }.map { [PathComponent.key($0)] } ?? []
        let what = statement.what.isEmpty
            ? ["_id", "_sequence"].map { ResultItem(expression: .property(qualifier + [.key($0)]), alias: $0) }
            : statement.what
        text += what.map { item in
            item.alias.map { "\(self.text(item.expression)) AS \(identifier($0))" } ?? topLevel(item.expression)
        }.joined(separator: ", ")
        text += " FROM " + (statement.from.isEmpty ? "_ AS _doc" : statement.from.map(source).joined(separator: " "))
        if let clause = statement.whereClause { text += " WHERE " + self.text(clause) }
        if !statement.groupBy.isEmpty { text += " GROUP BY " + statement.groupBy.map(topLevel).joined(separator: ", ") }
        if let clause = statement.having { text += " HAVING " + self.text(clause) }
        if !statement.orderBy.isEmpty {
            text += " ORDER BY " + statement.orderBy.map { topLevel($0.expression) + ($0.descending ? " DESC" : "") }.joined(separator: ", ")
        }
        if let clause = statement.limit { text += " LIMIT " + self.text(clause) }
        if let clause = statement.offset { text += " OFFSET " + self.text(clause) }
        return text
    }

    /// A result, grouping or ordering item: a string literal there is grouped,
    /// since a lone string is read as a property path.
    private static func topLevel(_ expression: QueryExpression) -> String {
        if case .literal(.string) = expression { return "(\(text(expression)))" }
        return text(expression)
    }

    private static func source(_ item: DataSourceItem) -> String {
        var text = ""
        if let unnest = item.unnest {
            text = "UNNEST " + self.text(unnest)
        } else {
            switch item.join {
            case .inner?: text = "JOIN "
            case .leftOuter?: text = "LEFT OUTER JOIN "
            case .cross?: text = "CROSS JOIN "
            case nil: break
            }
            text += (item.scope.map { identifier($0) + "." } ?? "") + identifier(item.collection ?? "_")
        }
        if let alias = item.alias { text += " AS " + identifier(alias) }
        if let on = item.on { text += " ON " + self.text(on) }
        return text
    }

    static func text(_ expression: QueryExpression) -> String {
        switch expression {
        case .literal(let value): return literal(value)
        case .missing: return "MISSING"
        case .property(let path):
            // A document is a dict, so a path that starts with an index names nothing, and
            // SQL++ cannot write one (`[1]` is an array): it is MISSING.
            if case .index? = path.first { return "MISSING" }
            return self.path(path)
        case .all(let source): return source.map { identifier($0) + ".*" } ?? "*"
        case .parameter(let name): return "$" + (isPlainName(name) ? name : quoted(name))
        case .variable(let path): return self.path(path)
        case .nested(let base, let path):
            let rest = self.path(path)
            let baseText: String
            switch base {
            case .function, .parameter, .array, .dictionary: baseText = text(base)   // `META().id`, `$p.x`
            default: baseText = "(\(text(base)))"
            }
            return baseText + (rest.hasUTF8Prefix("[") ? rest : "." + rest)
        case .array(let items): return "[" + items.map(text).joined(separator: ", ") + "]"
        case .dictionary(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { "\(literal(.string($0.key.string))): \(text($0.value))" }
                .joined(separator: ", ") + "}"
        case .operation(let op, let operands): return operation(op, operands)
        case .function(let name, let arguments): return function(name, arguments)
        case .collate(let collation, let operand):
            let words = self.collation(collation)
            return words.isEmpty ? "(\(text(operand)))" : "(\(text(operand)) COLLATE (\(words)))"
        case .caseWhen(let value):
            var text = "CASE"
            if let subject = value.subject { text += " " + self.text(subject) }
            for branch in value.branches { text += " WHEN \(self.text(branch.when)) THEN \(self.text(branch.then))" }
            if let otherwise = value.otherwise { text += " ELSE " + self.text(otherwise) }
            return text + " END"
        case .quantified(let quantifier, let variable, let array, let condition):
            return "(\(quantifier.rawValue) \(identifier(variable)) IN \(text(array)) SATISFIES \(text(condition)) END)"
        case .invalid(let error):   // (a query holding one never compiles, so it is never printed)
            return "INVALID(\(literal(.string(error.message))))"
        }
    }

    private static func operation(_ op: QueryOperator, _ operands: [QueryExpression]) -> String {
        let parts = operands.map(text)
        switch op {
        case .negate: return "-(\(parts[0]))"
        case .not: return "NOT (\(parts[0]))"
        case .exists: return "EXISTS(\(parts[0]))"
        case .isValued: return "(\(parts[0]) IS VALUED)"
        case .between: return "(\(parts[0]) BETWEEN \(parts[1]) AND \(parts[2]))"
        default:
            guard parts.count > 1 else { return "\(op.rawValue)(\(parts.joined()))" }   // (a one-operand AND: invalid)
            return "(" + parts.joined(separator: " \(op.rawValue) ") + ")"
        }
    }

    private static func function(_ name: String, _ arguments: [QueryExpression]) -> String {
        switch FunctionCatalog.entry(name)?.kind {
        case .meta?, .match?, .rank?:
            // An alias or index name is a name in SQL++; `alias.index` keeps its alias's escapes.
            let names = arguments.enumerated().map { i, argument -> String in
                guard i == 0, case .literal(.string(let name)) = argument else { return text(argument) }
                return indexOrAlias(name)
            }
            return "\(name.uppercased())(\(names.joined(separator: ", ")))"
        default:
            return "\(name.uppercased())(\(arguments.map(text).joined(separator: ", ")))"
        }
    }

    /// `META(alias)`'s alias or `MATCH(alias.index, …)`'s index as SQL++ names.
    private static func indexOrAlias(_ name: String) -> String {
        let reference = IndexReference(name)
        return (reference.alias.map { identifier($0) + "." } ?? "") + identifier(reference.index)
    }

    private static func collation(_ collation: QueryCollation) -> String {
        var words: [String] = []
        if let unicode = collation.unicode {
            words.append(unicode ? "UNICODE" + (collation.locale.flatMap { $0 }.map { ":" + $0 } ?? "") : "NOUNICODE")
        }
        if let flag = collation.caseSensitive { words.append(flag ? "CASE" : "NOCASE") }
        if let flag = collation.diacriticSensitive { words.append(flag ? "DIAC" : "NODIAC") }
        return words.joined(separator: " ")
    }

    private static func path(_ path: [PathComponent]) -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text += (text.isEmpty ? "" : ".") + identifier(key)
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    private static func literal(_ value: JSONValue) -> String {
        switch value {
        case .null: return "NULL"
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .int(let number): return String(number)
        case .unsigned(let number): return String(number)
        case .double(let number): return "\(number)"   // with a '.' or an exponent: read back as a double
        case .string(let text): return quoted(text, by: "'")
        case .array(let items): return "[" + items.map(literal).joined(separator: ", ") + "]"
        case .dictionary(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { "\(quoted($0.key.string, by: "'")): \(literal($0.value))" }
                .joined(separator: ", ") + "}"
        }
    }

    /// A name, backquoted unless it is a plain word SQL++ reads as a name in every position.
    private static func identifier(_ name: String) -> String {
        isPlainName(name) ? name : quoted(name)
    }

    private static func isPlainName(_ name: String) -> Bool {
        guard let first = name.utf8.first, SQLPPLexer.isWordStart(first), name.utf8.allSatisfy(SQLPPLexer.isWordByte) else { return false }
        return !SQLPPLexer.reservedWords.contains(name.uppercased()) && !contextWords.contains(name.uppercased())
    }

    /// Words that are names except in some positions (`SELECT ALL`, `SOME x IN`, `COLLATE NOCASE`, `META(`).
    private static let contextWords: Set<String> = [
        "ALL", "SOME", "EXISTS", "META", "MATCH", "RANK", "UNICODE", "NOUNICODE", "NOCASE", "DIAC", "NODIAC",
    ]

    private static func quoted(_ text: String, by quote: Character = "`") -> String {
        var result = String(quote)
        for character in text.unicodeScalars {
            if Character(character) == quote { result.append(quote) }
            result.unicodeScalars.append(character)
        }
        result.append(quote)
        return result
    }
}
