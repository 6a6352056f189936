/// An `ORDER BY` item: Couchbase Lite's `OrderingProtocol`.
public protocol OrderingProtocol: Sendable {}

/// An ordering whose direction can be chosen (ascending unless told).
public protocol SortOrder: OrderingProtocol {
    /// Smallest first: `e`.
    func ascending() -> OrderingProtocol
    /// Largest first: `["DESC", e]`.
    func descending() -> OrderingProtocol
}

/// Couchbase Lite's `Ordering`.
public final class Ordering {
    private init() {}

    /// Order by a property path: `[".p"]`.
    public static func property(_ property: String) -> SortOrder { expression(Expression.property(property)) }
    /// Order by an expression.
    public static func expression(_ expression: ExpressionProtocol) -> SortOrder {
        QueryOrdering(item: OrderingItem(expression: expression.node))
    }
}

/// A builder `ORDER BY` item.
struct QueryOrdering: SortOrder {
    var item: OrderingItem

    func ascending() -> OrderingProtocol { QueryOrdering(item: OrderingItem(expression: item.expression, descending: false)) }
    func descending() -> OrderingProtocol { QueryOrdering(item: OrderingItem(expression: item.expression, descending: true)) }
}

extension OrderingProtocol {
    var item: OrderingItem { (self as? QueryOrdering)?.item ?? OrderingItem(expression: .missing) }
}
