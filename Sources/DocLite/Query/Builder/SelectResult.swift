/// One column of a query's result: Couchbase Lite's `SelectResultProtocol`.
public protocol SelectResultProtocol: Sendable {}

/// A result column that can be given a name with ``as(_:)``.
public protocol SelectResultAs: SelectResultProtocol {
    /// The column title (the key in a result row): `["AS", e, "alias"]`.
    func `as`(_ alias: String?) -> SelectResultProtocol
}

/// `SelectResult.all()`, which can name its data source with ``from(_:)``.
public protocol SelectResultFrom: SelectResultProtocol {
    /// The whole document of the data source named `alias`: `[".alias."]`.
    func from(_ alias: String?) -> SelectResultProtocol
}

/// Couchbase Lite's `SelectResult`: the columns of `QueryBuilder.select`.
public final class SelectResult {
    private init() {}

    /// A property by path; its column is titled with the last path component: `[".a.b"]`.
    public static func property(_ property: String) -> SelectResultAs { expression(Expression.property(property)) }
    /// Any expression (title by Couchbase Lite's rules: a property's last key, `id` for `Meta.id`, else `$1`, `$2`, …).
    public static func expression(_ expression: ExpressionProtocol) -> SelectResultAs {
        ResultColumnItem(item: ResultItem(expression: expression.node, alias: nil))
    }
    /// The whole document, keyed by the data source's alias (or collection name): `["."]`.
    public static func all() -> SelectResultFrom { ResultColumnItem(item: ResultItem(expression: .all(source: nil), alias: nil)) }
}

/// A `WHAT` item of the builder.
struct ResultColumnItem: SelectResultAs, SelectResultFrom {
    let item: ResultItem

    func `as`(_ alias: String?) -> SelectResultProtocol { ResultColumnItem(item: ResultItem(expression: item.expression, alias: alias)) }
    func from(_ alias: String?) -> SelectResultProtocol { ResultColumnItem(item: ResultItem(expression: .all(source: alias), alias: item.alias)) }
}

extension SelectResultProtocol {
    /// The `WHAT` item; a result not made by the builder is MISSING.
    var item: ResultItem { (self as? ResultColumnItem)?.item ?? ResultItem(expression: .missing, alias: nil) }
}
