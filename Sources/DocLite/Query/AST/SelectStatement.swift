/// A whole query: LiteCore's `{"WHAT": …, "FROM": …, "WHERE": …}` statement.
struct SelectStatement: Equatable, Sendable {
    var what: [ResultItem] = []
    var distinct = false
    /// The main data source first, then joins and unnests; empty means the default collection.
    var from: [DataSourceItem] = []
    var whereClause: QueryExpression?
    var groupBy: [QueryExpression] = []
    var having: QueryExpression?
    var orderBy: [OrderingItem] = []
    var limit: QueryExpression?
    var offset: QueryExpression?

    /// Every expression of the statement, clause by clause.
    var expressions: [QueryExpression] {
        var all = what.map(\.expression)
        all += from.compactMap(\.on) + from.compactMap(\.unnest)
        all += [whereClause, having, limit, offset].compactMap { $0 }
        all += groupBy + orderBy.map(\.expression)
        return all
    }
}

/// A `WHAT` item: an expression and the column alias it was given.
struct ResultItem: Equatable, Sendable {
    var expression: QueryExpression
    var alias: String?
}

/// An `ORDER_BY` item.
struct OrderingItem: Equatable, Sendable {
    var expression: QueryExpression
    var descending = false
}

/// A `FROM` item: the main collection, a joined one, or an unnested array.
struct DataSourceItem: Equatable, Sendable {
    /// `"name"`, `"scope.name"`, `"_"`, `"_default"` or the database name; nil for UNNEST
    /// and for the legacy form that names only an alias.
    var collection: String?
    var scope: String?
    var alias: String?
    /// nil for the main source and for UNNEST.
    var join: JoinKind?
    var on: QueryExpression?
    /// The array expression of an UNNEST item.
    var unnest: QueryExpression?

    enum JoinKind: String, Sendable {
        case inner = "INNER", leftOuter = "LEFT OUTER", cross = "CROSS"
    }
}
