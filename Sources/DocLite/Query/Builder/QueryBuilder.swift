import Foundation

/// Couchbase Lite's `QueryBuilder`: the start of a query written call by call,
/// `QueryBuilder.select(…).from(…).where(…)…`. Each call adds a clause to the
/// query tree (the same tree a JSON query parses to); the query is compiled
/// when first run.
public final class QueryBuilder {
    private init() {}

    /// The result columns; with none, each row is the whole document.
    public static func select(_ results: SelectResultProtocol...) -> Select { select(results) }
    /// The result columns; with none, each row is the whole document.
    public static func select(_ results: [SelectResultProtocol]) -> Select { Select(results, distinct: false) }
    /// The result columns, without duplicate rows: `"DISTINCT": true`.
    public static func selectDistinct(_ results: SelectResultProtocol...) -> Select { selectDistinct(results) }
    /// The result columns, without duplicate rows: `"DISTINCT": true`.
    public static func selectDistinct(_ results: [SelectResultProtocol]) -> Select { Select(results, distinct: true) }
}

/// `QueryBuilder.select(…)`: names the data source with ``from(_:)``.
public final class Select {
    private var statement = SelectStatement()

    init(_ results: [SelectResultProtocol], distinct: Bool) {
        statement.what = results.map(\.item)
        statement.distinct = distinct
    }

    /// The main data source: `"FROM": [{…}]`.
    public func from(_ dataSource: DataSourceProtocol) -> From {
        var statement = statement
        let source = dataSource.source
        statement.from = [source?.item ?? DataSourceItem()]
        if statement.what.isEmpty {   // as Couchbase Lite: no result columns is the whole document
            statement.what = [ResultItem(expression: .all(source: source?.item.alias), alias: nil)]
        }
        return From(database: source?.database, collections: source?.collection.map { [$0] } ?? [], statement: statement)
    }
}

/// A query built with ``QueryBuilder``. Every stage after `from` (``From``,
/// ``Joins``, ``Where``, ``GroupBy``, ``Having``, ``OrderBy``, ``Limit``) is
/// one and can be run; it is compiled once, on first use, into a ``Query``.
public class BuilderQuery: CustomStringConvertible, @unchecked Sendable {   // its variables are behind `lock`
    /// The database the query reads, nil if it was closed before the query was built.
    public let database: Database?
    let statement: SelectStatement
    private let lock = Lock()
    private var compiled: Query?
    private var storedParameters: Parameters?

    /// The collections its data sources name: one deleted, the query is `notOpen`.
    let collections: [Collection]

    init(database: Database?, collections: [Collection], statement: SelectStatement) {
        self.database = database
        self.collections = collections
        self.statement = statement
    }

    /// The compiled query (compiled on first use); throws ``DocLiteError/Code/invalidQuery``
    /// for a query the compiler rejects, ``DocLiteError/Code/notOpen`` without a database.
    public func query() throws -> Query {
        try lock.withLock {
            if let compiled { return compiled }
            for collection in collections { _ = try collection.openDatabase() }
            guard let database else { throw DocLiteError(.notOpen, "the query's database is closed") }
            let query = try Query(database: database, statement: statement)   // validated as every tree is (QueryValidator)
            query.parameters = storedParameters
            compiled = query
            return query
        }
    }

    /// The parameter values used by the next `execute()`; setting stores a copy.
    public var parameters: Parameters? {
        get { lock.withLock { compiled?.parameters ?? storedParameters.map { Parameters(parameters: $0) } } }
        set {
            lock.withLock {
                storedParameters = newValue.map { Parameters(parameters: $0) }
                compiled?.parameters = newValue
            }
        }
    }

    /// Runs the query (see `Query/execute()`).
    public func execute() throws -> ResultSet { try query().execute() }

    /// Runs the query, reading every row; a cancelled task stops it (see `Query/execute()-async`).
    public func execute() async throws -> ResultSet { try await query().execute() }

    /// The SQL, SQLite's query plan and the JSON query (see ``Query/explain()``).
    public func explain() throws -> String { try query().explain() }

    /// Makes the query live (see ``Query/addChangeListener(withQueue:_:)``).
    /// Like Couchbase Lite's, it does not throw: a query that cannot compile
    /// (its collection deleted, its database closed) writes a warning and
    /// returns a token that is never called.
    @discardableResult
    public func addChangeListener(withQueue queue: DispatchQueue? = nil,
                                  _ listener: @escaping @Sendable (QueryChange) -> Void) -> ListenerToken {
        do {
            return try query().addChangeListener(withQueue: queue, listener)
        } catch {
            Log.warning("cannot make the query live: \(error)")
            return ListenerToken {}
        }
    }

    /// The query's results as they change (see ``Query/changes()``); throws
    /// when the query does not compile.
    public func changes() throws -> AsyncStream<QueryChange> { try query().changes() }

    /// The result column titles.
    public var columnNames: [String] { get throws { try query().columnNames } }

    /// The query in LiteCore's JSON query language.
    public var json: String { JSONQueryWriter.json(statement).json }

    /// The query as SQL++ text (see ``Query/sqlpp``).
    public var sqlpp: String { SQLPPWriter.text(statement) }

    /// The query in LiteCore's JSON query language.
    public var description: String { json }

    func adding(_ change: (inout SelectStatement) -> Void) -> SelectStatement {
        var statement = statement
        change(&statement)
        return statement
    }
}

// MARK: Stages

// Each stage offers the calls that may follow it, as Couchbase Lite's Swift
// API does with its router protocols; the protocols' extensions implement them once.

/// A stage that may be followed by joins.
public protocol JoinRouter: BuilderQuery {}
/// A stage that may be followed by `where`.
public protocol WhereRouter: BuilderQuery {}
/// A stage that may be followed by `groupBy`.
public protocol GroupByRouter: BuilderQuery {}
/// A stage that may be followed by `having`.
public protocol HavingRouter: BuilderQuery {}
/// A stage that may be followed by `orderBy`.
public protocol OrderByRouter: BuilderQuery {}
/// A stage that may be followed by `limit`.
public protocol LimitRouter: BuilderQuery {}

extension JoinRouter {
    /// Joins other data sources.
    public func join(_ joins: JoinProtocol...) -> Joins { join(joins) }
    /// Joins other data sources.
    public func join(_ joins: [JoinProtocol]) -> Joins { Joins(database: database, collections: collections + joins.compactMap(\.collection), statement: adding { $0.from += joins.map(\.item) }) }
}

extension WhereRouter {
    /// The condition rows must satisfy: `"WHERE": e`.
    public func `where`(_ expression: ExpressionProtocol) -> Where {
        Where(database: database, collections: collections, statement: adding { $0.whereClause = expression.node })
    }
}

extension GroupByRouter {
    /// Groups rows for aggregates: `"GROUP_BY": [e, …]`.
    public func groupBy(_ expressions: ExpressionProtocol...) -> GroupBy { groupBy(expressions) }
    /// Groups rows for aggregates: `"GROUP_BY": [e, …]`.
    public func groupBy(_ expressions: [ExpressionProtocol]) -> GroupBy {
        GroupBy(database: database, collections: collections, statement: adding { $0.groupBy = expressions.map(\.node) })
    }
}

extension HavingRouter {
    /// The condition groups must satisfy: `"HAVING": e`.
    public func having(_ expression: ExpressionProtocol) -> Having {
        Having(database: database, collections: collections, statement: adding { $0.having = expression.node })
    }
}

extension OrderByRouter {
    /// The row order: `"ORDER_BY": [o, …]`.
    public func orderBy(_ orderings: OrderingProtocol...) -> OrderBy { orderBy(orderings) }
    /// The row order: `"ORDER_BY": [o, …]`.
    public func orderBy(_ orderings: [OrderingProtocol]) -> OrderBy {
        OrderBy(database: database, collections: collections, statement: adding { $0.orderBy = orderings.map(\.item) })
    }
}

extension LimitRouter {
    /// At most `limit` rows: `"LIMIT": n`.
    public func limit(_ limit: ExpressionProtocol) -> Limit { self.limit(limit, offset: nil) }
    /// At most `limit` rows after skipping `offset`: `"LIMIT": n, "OFFSET": m`.
    public func limit(_ limit: ExpressionProtocol, offset: ExpressionProtocol?) -> Limit {
        Limit(database: database, collections: collections, statement: adding {
            $0.limit = limit.node
            $0.offset = offset?.node
        })
    }
}

/// `select(…).from(…)`: may be followed by joins, `where`, `groupBy`, `orderBy`, `limit`.
public final class From: BuilderQuery, JoinRouter, WhereRouter, GroupByRouter, OrderByRouter, LimitRouter, @unchecked Sendable {}

/// `…join(…)`: may be followed by `where`, `orderBy`, `limit`, and (beyond
/// Couchbase Lite's Swift API, as its Objective-C one allows) `groupBy`.
public final class Joins: BuilderQuery, WhereRouter, GroupByRouter, OrderByRouter, LimitRouter, @unchecked Sendable {}

/// `…where(…)`: may be followed by `groupBy`, `orderBy`, `limit`.
public final class Where: BuilderQuery, GroupByRouter, OrderByRouter, LimitRouter, @unchecked Sendable {}

/// `…groupBy(…)`: may be followed by `having`, `orderBy`, `limit`.
public final class GroupBy: BuilderQuery, HavingRouter, OrderByRouter, LimitRouter, @unchecked Sendable {}

/// `…having(…)`: may be followed by `orderBy`, `limit`.
public final class Having: BuilderQuery, OrderByRouter, LimitRouter, @unchecked Sendable {}

/// `…orderBy(…)`: may be followed by `limit`.
public final class OrderBy: BuilderQuery, LimitRouter, @unchecked Sendable {}

/// `…limit(…)`: the last stage.
public final class Limit: BuilderQuery, @unchecked Sendable {}
