/// An expression of the query tree. Every front end (JSON, the builders, SQL++)
/// produces these; the compiler turns them into SQL. Names follow the
/// operators of Couchbase Lite's JSON query form.
indirect enum QueryExpression: Equatable, Sendable {
    /// A JSON scalar: null, boolean, number or string.
    case literal(JSONValue)
    /// `["MISSING"]`.
    case missing
    /// `[".a.b[0]"]`: a property path. The first key may name a data source, a
    /// meta property (`_id`, `_sequence`, …) or a result alias; the compiler decides.
    case property([PathComponent])
    /// `["."]` or `[".alias."]`: the whole document of a data source.
    case all(source: String?)
    /// `["$name"]`.
    case parameter(String)
    /// `["?x.path"]`: a variable bound by ANY / EVERY.
    case variable([PathComponent])
    /// `["_.", expr, "path"]`: a property of an expression's value.
    case nested(QueryExpression, [PathComponent])
    /// `["[]", …]`.
    case array([QueryExpression])
    /// `{"key": expr, …}`.
    case dictionary([ByteString: QueryExpression])
    /// An operator with its operands.
    case operation(QueryOperator, [QueryExpression])
    /// `["name()", …]`: a function call; the name is lower-case, without `()`.
    case function(String, [QueryExpression])
    /// `["COLLATE", {…}, expr]`.
    case collate(QueryCollation, QueryExpression)
    /// `["CASE", subject|null, when, then, …, else?]`.
    case caseWhen(CaseExpression)
    /// `["ANY" | "EVERY" | "ANY AND EVERY", variable, array, condition]`.
    case quantified(Quantifier, variable: String, in: QueryExpression, satisfies: QueryExpression)
    /// A builder part that could not be made (too deep, for one): compiling
    /// the query reports the error. The JSON reader never makes one.
    case invalid(DocLiteError)
}

/// The operators of LiteCore's JSON query language, by their JSON spelling.
enum QueryOperator: String, CaseIterable, Sendable {
    case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case `is` = "IS", isNot = "IS NOT", isValued = "IS VALUED"
    case `in` = "IN", notIn = "NOT IN", like = "LIKE", between = "BETWEEN", exists = "EXISTS"
    case not = "NOT", and = "AND", or = "OR"
    case add = "+", subtract = "-", multiply = "*", divide = "/", modulo = "%", concat = "||"
    /// Unary minus; written `["-", x]` in JSON.
    case negate = "NEGATE"

    /// The JSON operator name (unary minus shares `-` with subtraction).
    var jsonName: String { self == .negate ? "-" : rawValue }

    /// The allowed operand counts.
    var arity: ClosedRange<Int> {
        switch self {
        case .isValued, .exists, .not, .negate: return 1...1
        case .between: return 3...3
        case .and, .or, .add, .multiply, .concat: return 2...127
        default: return 2...2
        }
    }

    /// Whether the operator yields a boolean (so a result column reads true/false, not 0/1).
    var isBoolean: Bool {
        switch self {
        case .add, .subtract, .multiply, .divide, .modulo, .concat, .negate: return false
        default: return true
        }
    }
}

/// A `COLLATE` specification; nil members are inherited from an enclosing one.
struct QueryCollation: Equatable, Sendable {
    var unicode: Bool?
    var caseSensitive: Bool?
    var diacriticSensitive: Bool?
    /// The locale; `.some(nil)` is an explicit JSON null.
    var locale: String??
}

/// A `CASE` expression: with a subject it compares the subject with each
/// `when`; without, each `when` is a condition.
struct CaseExpression: Equatable, Sendable {
    var subject: QueryExpression?
    var branches: [Branch]
    var otherwise: QueryExpression?

    struct Branch: Equatable, Sendable {
        var when: QueryExpression
        var then: QueryExpression
    }
}

/// The array quantifiers.
enum Quantifier: String, Sendable {
    case any = "ANY", every = "EVERY", anyAndEvery = "ANY AND EVERY"
}

extension QueryExpression {
    /// The expressions directly inside this one.
    var children: [QueryExpression] {
        switch self {
        case .literal, .missing, .property, .all, .parameter, .variable, .invalid: return []
        case .nested(let base, _): return [base]
        case .array(let items): return items
        case .dictionary(let members): return members.sorted { $0.key < $1.key }.map(\.value)
        case .operation(_, let operands), .function(_, let operands): return operands
        case .collate(_, let operand): return [operand]
        case .caseWhen(let expression):
            return [expression.subject].compactMap { $0 } + expression.branches.flatMap { [$0.when, $0.then] }
                + [expression.otherwise].compactMap { $0 }
        case .quantified(_, _, let array, let condition): return [array, condition]
        }
    }

    /// This expression with `transform` applied to each expression directly inside it.
    func replacingChildren(_ transform: (QueryExpression) -> QueryExpression) -> QueryExpression {
        switch self {
        case .literal, .missing, .property, .all, .parameter, .variable, .invalid: return self
        case .nested(let base, let path): return .nested(transform(base), path)
        case .array(let items): return .array(items.map(transform))
        case .dictionary(let members): return .dictionary(members.mapValues(transform))
        case .operation(let op, let operands): return .operation(op, operands.map(transform))
        case .function(let name, let arguments): return .function(name, arguments.map(transform))
        case .collate(let options, let operand): return .collate(options, transform(operand))
        case .caseWhen(let value):
            return .caseWhen(CaseExpression(subject: value.subject.map(transform),
                                            branches: value.branches.map { .init(when: transform($0.when), then: transform($0.then)) },
                                            otherwise: value.otherwise.map(transform)))
        case .quantified(let quantifier, let variable, let array, let condition):
            return .quantified(quantifier, variable: variable, in: transform(array), satisfies: transform(condition))
        }
    }

    /// Calls `visit` on this expression and every expression inside it, depth first.
    func forEach(_ visit: (QueryExpression) throws -> Void) rethrows {
        try visit(self)
        for child in children { try child.forEach(visit) }
    }
}
