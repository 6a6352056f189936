/// The `$VARIABLES` of a predicate builder's texts, and the query parameters
/// derived from them, which ``parameters(for:)`` computes from a context.
struct PredicateVariables: Sendable {
    /// The variable names, without `$`.
    private(set) var names: Set<String> = []
    /// The derived parameters by parameter name.
    private(set) var derived: [String: DerivedParameter] = [:]

    /// Records a use of `$name`. Names beginning with `__` are the derived parameters'.
    mutating func use(_ name: String, at offset: Int) throws {
        guard !name.hasPrefix("__") else {
            throw PredicateParser.syntaxError(at: offset, "variable names beginning with __ are reserved")
        }
        names.insert(name)
    }

    /// Records a parameter derived from a variable (already used) and returns its name.
    mutating func derive(_ parameter: DerivedParameter) -> String {
        derived[parameter.parameterName] = parameter
        return parameter.parameterName
    }

    /// The values of the parameters in `used` from `context`: a variable's own value, or
    /// the value derived from it. A variable the context lacks is an error naming it.
    func parameters(for context: [String: JSONValue], used: Set<String>) throws -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for name in used {
            let variable = derived[name]?.variable ?? name
            guard let value = context[variable] else {
                throw DocLiteError(.invalidQueryParam, "the variable $\(variable) has no value in the context")
            }
            values[name] = try derived[name].map { try $0.value(from: value) } ?? value
        }
        return values
    }
}

/// Where a LIKE pattern made from a literal string is anchored.
enum LikeAnchor: String, Sendable {
    case beginsWith, endsWith

    func pattern(_ escaped: String) -> String { self == .beginsWith ? escaped + "%" : "%" + escaped }
}

/// A query parameter computed from a context variable when the query runs.
enum DerivedParameter: Hashable, Sendable {
    /// The variable's string as a LIKE pattern (BEGINSWITH, ENDSWITH).
    case likePattern(variable: String, LikeAnchor)
    /// The variable's Apple pattern (`*`, `?`) as a LIKE pattern.
    case applePattern(variable: String)
    /// The variable's regular expression, anchored to the whole string.
    case wholeRegex(variable: String, caseInsensitive: Bool)
    /// The least string above every string that begins with the variable's (BEGINSWITH's range).
    case prefixEnd(variable: String)
    /// Item `index` of the variable's two-item array (BETWEEN $RANGE).
    case element(variable: String, index: Int)

    var variable: String {
        switch self {
        case .likePattern(let variable, _), .applePattern(let variable), .wholeRegex(let variable, _),
             .prefixEnd(let variable), .element(let variable, _):
            return variable
        }
    }

    /// `__<form>_<variable>`: the parameter's name in the query.
    var parameterName: String {
        switch self {
        case .likePattern(let variable, let anchor): return "__\(anchor.rawValue)_\(variable)"
        case .applePattern(let variable): return "__like_\(variable)"
        case .wholeRegex(let variable, let caseInsensitive): return "__matches\(caseInsensitive ? "_c" : "")_\(variable)"
        case .prefixEnd(let variable): return "__prefixend_\(variable)"
        case .element(let variable, let index): return "__between\(index)_\(variable)"
        }
    }

    /// The parameter's value for the variable's `value`.
    func value(from value: JSONValue) throws -> JSONValue {
        switch (self, value) {
        case (.element(_, let index), .array(let items)) where items.count == 2: return items[index]
        case (.element, _):
            throw DocLiteError(.invalidQueryParam, "the variable $\(variable) must be an array [low, high] for BETWEEN")
        case (.likePattern(_, let anchor), .string(let text)): return .string(anchor.pattern(Self.escapedForLike(text)))
        case (.applePattern, .string(let text)): return .string(Self.likeFromApplePattern(text))
        case (.wholeRegex(_, let caseInsensitive), .string(let text)): return .string(Self.wholeRegex(text, caseInsensitive: caseInsensitive))
        case (.prefixEnd, .string(let text)): return text.prefixEnd.map(JSONValue.string) ?? .null
        default: throw DocLiteError(.invalidQueryParam, "the variable $\(variable) must be a string here, not \(value.json)")
        }
    }

    /// `text` with LIKE's special characters (`%`, `_`, `\`) escaped.
    static func escapedForLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// An Apple pattern (`*` any run, `?` one character, `\` escaping) as a LIKE pattern.
    static func likeFromApplePattern(_ pattern: String) -> String {
        var like = ""
        var escaping = false
        for character in pattern {
            if escaping {
                like += escapedForLike(String(character))
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "*" {
                like.append("%")
            } else if character == "?" {
                like.append("_")
            } else {
                like += escapedForLike(String(character))
            }
        }
        return like
    }

    /// A regular expression that must match the whole string (NSPredicate's MATCHES).
    static func wholeRegex(_ pattern: String, caseInsensitive: Bool) -> String {
        (caseInsensitive ? "(?i)" : "") + "\\A(?:" + pattern + ")\\z"
    }

}
