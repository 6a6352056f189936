import Foundation

/// Any query-builder expression: a property, a literal, a parameter, an
/// operator or a function call. Couchbase Lite's `ExpressionProtocol`: the
/// operators are its methods (`a.equalTo(b)`, `a.add(b)`, `a.and(b)`, …).
/// Every expression is a node of DocLite's query tree, never SQL.
public protocol ExpressionProtocol: CustomStringConvertible, Sendable {}

/// The query-tree node behind a builder expression.
protocol ExpressionNode: ExpressionProtocol {
    var node: QueryExpression { get }
}

extension ExpressionNode {
    /// The expression in LiteCore's JSON query language.
    public var description: String { JSONQueryWriter.json(node).json }
}

/// A builder expression made of one query-tree node: every builder call that
/// combines parts makes one. A node deeper than ``QueryDepth/limit``, or
/// holding a part that failed, is an ``QueryExpression/invalid(_:)`` leaf
/// instead, so nothing too deep is ever made (running the query reports it).
struct BuilderExpression: ExpressionNode {
    let node: QueryExpression

    init(node: QueryExpression) { self.node = node.limitingDepth() }

    /// The operation written `json` in the JSON query language (`"="`, `"IS VALUED"`,
    /// or a function, `"REGEXP_LIKE()"`) on `operands`: an operator table's form
    /// (Expression+Operators.swift). A chain `a.and(b).and(c)` is one AND of all its
    /// operands, which SQL reads in the same order, instead of a nest as deep as the chain.
    static func operation(_ json: String, _ operands: [QueryExpression]) -> QueryExpression {
        if json.hasSuffix("()") { return .function(json.dropLast(2).lowercased(), operands) }
        guard let op = QueryOperator(rawValue: json) else { preconditionFailure("no operator \(json) in the query language") }
        if operands.count == 2, op.arity.upperBound > 2, case .operation(op, let chain) = operands[0], chain.count < op.arity.upperBound {
            return .operation(op, chain + [operands[1]])
        }
        return .operation(op, operands)
    }
}

extension ExpressionProtocol {
    /// The query-tree node; an expression not made by the builder is MISSING.
    var node: QueryExpression { (self as? ExpressionNode)?.node ?? .missing }

    /// Why this expression could not be made (too deep, or made of a part that
    /// could not be), or nil: the C API returns it as an error part.
    package var builderError: DocLiteError? {
        if case .invalid(let error) = node { return error }
        return nil
    }

    /// Couchbase Lite's older name of ``isValued()``.
    public func notNullOrMissing() -> ExpressionProtocol { isValued() }
    /// Couchbase Lite's older name of ``isNotValued()``.
    public func isNullOrMissing() -> ExpressionProtocol { isNotValued() }

    /// Whether `self` equals one of `expressions`: `["IN", a, ["[]", e1, e2, …]]`.
    public func `in`(_ expressions: [ExpressionProtocol]) -> ExpressionProtocol {
        BuilderExpression(node: .operation(.in, [node, .array(expressions.map(\.node))]))
    }
}

/// Couchbase Lite's `Expression` factory: properties, literals, parameters,
/// negation. Combine the results with the ``ExpressionProtocol`` operators.
public final class Expression {
    private init() {}

    /// A property of the document, by path (`"address.city"`, `"likes[0]"`): `[".address.city"]`.
    /// Qualify it with a data source alias with `.from("alias")`. A malformed
    /// path makes an invalid part, which the query reports when it is built or run.
    public static func property(_ property: String) -> PropertyExpressionProtocol {
        PropertyExpression(path: builderPath(property))
    }

    /// The components of a builder path, or the error that makes the part invalid.
    static func builderPath(_ path: String) -> Swift.Result<[PathComponent], DocLiteError> {
        do {
            return .success(try PropertyPath.parse(path))
        } catch {
            return .failure(error as? DocLiteError ?? DocLiteError(.invalidQuery, "invalid property path '\(path)'"))
        }
    }

    /// The whole document: `["."]`; `.from("alias")` gives `[".alias."]`.
    public static func all() -> PropertyExpressionProtocol { PropertyExpression(path: nil) }

    /// A literal or a nested builder expression; `nil` is JSON null. Strings,
    /// numbers, booleans, dates, arrays, dictionaries and expressions are
    /// accepted; another type, NaN, an infinity or a date beyond the years
    /// 0000–9999 makes an expression that fails when the query is built.
    public static func value(_ value: Any?) -> ExpressionProtocol { BuilderExpression(node: node(of: value)) }

    /// A string literal: `"s"`.
    public static func string(_ value: String?) -> ExpressionProtocol { Self.value(value) }
    /// A number literal (a boolean `NSNumber` is `true` / `false`).
    public static func number(_ value: NSNumber?) -> ExpressionProtocol {
        guard let value else { return Self.value(nil) }
        if String(describing: Swift.type(of: value)).contains("Boolean") { return boolean(value.boolValue) }   // NSNumber(value: true)
        let type = String(cString: value.objCType)
        if type == "d" || type == "f" { return double(value.doubleValue) }
        return int64(value.int64Value)
    }
    /// An integer literal: `123`.
    public static func int(_ value: Int) -> ExpressionProtocol { literal(.int(Int64(value))) }
    /// An integer literal: `123`.
    public static func int64(_ value: Int64) -> ExpressionProtocol { literal(.int(value)) }
    /// A floating-point literal: `1.5` (`1.1` is 1.1, not the float's 1.100000023841858).
    /// NaN and the infinities, which JSON cannot hold, fail when the query is built.
    public static func float(_ value: Float) -> ExpressionProtocol {
        double(value.isFinite ? Double(value.description) ?? Double(value) : Double(value))
    }
    /// A floating-point literal: `1.5`. NaN and the infinities, which JSON
    /// cannot hold, fail when the query is built.
    public static func double(_ value: Double) -> ExpressionProtocol { BuilderExpression(node: node(of: value)) }
    /// A boolean literal: `true` / `false`.
    public static func boolean(_ value: Bool) -> ExpressionProtocol { literal(.bool(value)) }
    /// A date literal: its ISO-8601 UTC string with milliseconds (`"2024-01-10T14:31:14.000Z"`).
    public static func date(_ value: Date?) -> ExpressionProtocol { Self.value(value) }
    /// A dictionary literal whose values may be expressions (`NSNull()` is null): `{"k": v, …}`.
    public static func dictionary(_ value: [String: Any]?) -> ExpressionProtocol { Self.value(value) }
    /// An array literal whose items may be expressions (`NSNull()` is null): `["[]", v1, v2, …]`.
    public static func array(_ value: [Any]?) -> ExpressionProtocol { Self.value(value) }

    /// A query parameter, set with ``Parameters`` before running the query: `["$name"]`.
    public static func parameter(_ name: String) -> ExpressionProtocol { BuilderExpression(node: .parameter(name)) }

    /// Logical NOT: `["NOT", e]`.
    public static func not(_ expression: ExpressionProtocol) -> ExpressionProtocol {
        BuilderExpression(node: .operation(.not, [expression.node]))
    }
    /// Logical NOT, as ``not(_:)``: `["NOT", e]`.
    public static func negated(_ expression: ExpressionProtocol) -> ExpressionProtocol { not(expression) }

    /// A full-text index, for ``FullTextFunction``; `.from("alias")` names its data source.
    public static func fullTextIndex(_ name: String) -> FullTextIndexExpressionProtocol { FullTextIndexExpression(name: name, alias: nil) }

    private static func literal(_ value: JSONValue) -> ExpressionProtocol { BuilderExpression(node: .literal(value)) }

    /// The query-tree node of a value given to ``value(_:)``, `level` levels
    /// down in it (a value nested deeper than a query may is not read further).
    static func node(of value: Any?, level: Int = 1) -> QueryExpression {
        guard level <= QueryDepth.limit else { return .invalid(QueryDepth.error) }
        func nodes(_ items: [Any?]) -> QueryExpression { .array(items.map { node(of: $0, level: level + 1) }).limitingDepth() }
        func nodes(_ members: [String: Any?]) -> QueryExpression {
            .dictionary(Dictionary(stringKeys: members.mapValues { node(of: $0, level: level + 1) })).limitingDepth()
        }
        switch value {
        case let expression as ExpressionProtocol: return expression.node
        case let items as [Any?]: return nodes(items)
        case let items as [Any]: return nodes(items)
        case let members as [String: Any?]: return nodes(members)
        case let members as [String: Any]: return nodes(members.mapValues { $0 })
        default:
            do {
                switch try JSONValue(any: value) {
                case .array(let items): return .array(items.map { .literal($0) })
                case .dictionary(let members): return .dictionary(members.mapValues { .literal($0) })
                case let scalar: return .literal(scalar)
                }
            } catch {
                return .invalid(error as? DocLiteError ?? DocLiteError(.invalidParameter, "Expression.value: \(error)"))
            }
        }
    }
}

/// A property (or the whole document) that can be qualified with a data
/// source alias: Couchbase Lite's `PropertyExpressionProtocol`.
public protocol PropertyExpressionProtocol: ExpressionProtocol {
    /// The same property of the data source named `alias`: `[".alias.path"]`.
    func from(_ alias: String) -> ExpressionProtocol
}

/// `Expression.property` and `Expression.all`.
struct PropertyExpression: PropertyExpressionProtocol, ExpressionNode {
    /// nil for the whole document; a failure for a malformed path.
    let path: Swift.Result<[PathComponent], DocLiteError>?
    var alias: String? = nil

    var node: QueryExpression {
        switch path {
        case nil: .all(source: alias)
        case .success(let path)?: .property((alias.map { [PathComponent.key($0)] } ?? []) + path)
        case .failure(let error)?: .invalid(error)
        }
    }

    func from(_ alias: String) -> ExpressionProtocol { PropertyExpression(path: path, alias: alias) }
}

/// A full-text index named in ``FullTextFunction/match(_:query:)`` and
/// `FullTextFunction/rank(_:)`: Couchbase Lite's `FullTextIndexExpressionProtocol`.
public protocol FullTextIndexExpressionProtocol: Sendable {
    /// The index of the data source named `alias`.
    func from(_ alias: String) -> FullTextIndexExpressionProtocol
}

/// `Expression.fullTextIndex`: written as the string `"name"` or `"alias.name"`.
struct FullTextIndexExpression: FullTextIndexExpressionProtocol {
    let name: String
    let alias: String?

    var node: QueryExpression { .literal(.string(alias.map { "\($0).\(name)" } ?? name)) }

    func from(_ alias: String) -> FullTextIndexExpressionProtocol { FullTextIndexExpression(name: name, alias: alias) }
}
