/// A `JOIN` of the query: Couchbase Lite's `JoinProtocol`.
public protocol JoinProtocol: Sendable {}

/// A join that still needs its condition, given with ``on(_:)``.
public protocol JoinOnProtocol: JoinProtocol {
    /// The join condition: `"ON": e`.
    func on(_ expression: ExpressionProtocol) -> JoinProtocol
}

/// Couchbase Lite's `Join`: joins another data source (which must have an alias).
public final class Join {
    private init() {}

    /// An inner join: `"JOIN": "INNER"`.
    public static func join(_ dataSource: DataSourceProtocol) -> JoinOnProtocol { innerJoin(dataSource) }
    /// An inner join: `"JOIN": "INNER"`.
    public static func innerJoin(_ dataSource: DataSourceProtocol) -> JoinOnProtocol { QueryJoin(dataSource, .inner) }
    /// A left outer join: `"JOIN": "LEFT OUTER"`.
    public static func leftJoin(_ dataSource: DataSourceProtocol) -> JoinOnProtocol { leftOuterJoin(dataSource) }
    /// A left outer join: `"JOIN": "LEFT OUTER"`.
    public static func leftOuterJoin(_ dataSource: DataSourceProtocol) -> JoinOnProtocol { QueryJoin(dataSource, .leftOuter) }
    /// A cross join, without condition: `"JOIN": "CROSS"`.
    public static func crossJoin(_ dataSource: DataSourceProtocol) -> JoinProtocol { QueryJoin(dataSource, .cross) }
}

/// A builder join: a `FROM` item with its join kind and condition.
struct QueryJoin: JoinOnProtocol, Setting {
    var item: DataSourceItem
    /// The collection the joined source names.
    let collection: Collection?

    init(_ dataSource: DataSourceProtocol, _ kind: DataSourceItem.JoinKind) {
        item = dataSource.source?.item ?? DataSourceItem()
        collection = dataSource.source?.collection
        item.join = kind
    }

    func on(_ expression: ExpressionProtocol) -> JoinProtocol { setting(\.item.on, to: expression.node) }
}

extension JoinProtocol {
    var item: DataSourceItem { (self as? QueryJoin)?.item ?? DataSourceItem() }
    var collection: Collection? { (self as? QueryJoin)?.collection }
}
