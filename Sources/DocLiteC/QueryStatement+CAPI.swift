import Foundation
import CDocLite
import DocLite

// Assembling parts into a query: CBLQueryLimit, CBLQueryBuilder_Create (every
// clause in one call, as +[CBLQueryBuilder select:from:…:limit:]) and the
// step-by-step CBLQueryBuilder handle. Both fill the same QueryClauses, which
// hands them to the Swift builder's stages.

/// A CBLQueryLimit part: LIMIT and its optional OFFSET.
struct QueryLimit {
    let limit: ExpressionProtocol
    let offset: ExpressionProtocol?
}

@c @implementation
public func CBLQueryLimit_Limit(_ limit: OpaquePointer?) -> OpaquePointer? {
    let value = take(limit, ExpressionProtocol.self, "LIMIT expression")
    return part { QueryLimit(limit: try value.get(), offset: nil) }
}

@c @implementation
public func CBLQueryLimit_LimitOffset(_ limit: OpaquePointer?, _ offset: OpaquePointer?) -> OpaquePointer? {
    let value = take(limit, ExpressionProtocol.self, "LIMIT expression")
    let skip = takeOptional(offset, ExpressionProtocol.self, "OFFSET expression")
    return part { QueryLimit(limit: try value.get(), offset: try skip.get()) }
}

/// The clauses of a query being assembled, and the first mistake made while
/// giving them. `keep` holds what the data sources need alive (their collection
/// handles) until the query holds its database.
struct QueryClauses {
    var results: [SelectResultProtocol] = []
    var distinct = false
    var source: DataSourceProtocol?
    var joins: [JoinProtocol] = []
    var condition: ExpressionProtocol?
    var groups: [ExpressionProtocol] = []
    var groupCondition: ExpressionProtocol?
    var orderings: [OrderingProtocol] = []
    var limit: QueryLimit?
    var keep: [AnyObject] = []
    var error: DocLiteError?

    /// Records a taken part with `store`, or its error when it is the first.
    mutating func add<Value>(_ taken: (value: Swift.Result<Value, DocLiteError>, keep: [AnyObject]),
                             _ store: (inout QueryClauses, Value) -> Void) {
        keep += taken.keep
        switch taken.value {
        case .success(let value): store(&self, value)
        case .failure(let failure): error = error ?? failure
        }
    }

    /// Sets a clause that may be given once; a second time is a mistake.
    mutating func setOnce<Value>(_ taken: (value: Swift.Result<Value, DocLiteError>, keep: [AnyObject]),
                                 _ clause: WritableKeyPath<QueryClauses, Value?>, _ name: String) {
        add(taken) { clauses, value in
            if clauses[keyPath: clause] != nil {
                clauses.error = clauses.error ?? DocLiteError(.invalidQuery, "\(name) is given twice")
            } else {
                clauses[keyPath: clause] = value
            }
        }
    }

    /// The query: the stages in the Swift builder's order, each `as?` a call the stage offers.
    func query() throws -> Query {
        if let error { throw error }
        guard let source else { throw DocLiteError(.invalidQuery, "the query has no FROM data source") }
        let start = distinct ? QueryBuilder.selectDistinct(results) : QueryBuilder.select(results)
        var query: BuilderQuery = start.from(source)
        if !joins.isEmpty, let stage = query as? JoinRouter { query = stage.join(joins) }
        if let condition, let stage = query as? WhereRouter { query = stage.where(condition) }
        if !groups.isEmpty, let stage = query as? GroupByRouter { query = stage.groupBy(groups) }
        if let groupCondition {
            guard let stage = query as? HavingRouter else { throw DocLiteError(.invalidQuery, "HAVING needs GROUP BY") }
            query = stage.having(groupCondition)
        }
        if !orderings.isEmpty, let stage = query as? OrderByRouter { query = stage.orderBy(orderings) }
        if let limit, let stage = query as? LimitRouter { query = stage.limit(limit.limit, offset: limit.offset) }
        return try withExtendedLifetime(keep) { try query.query() }
    }
}

/// Takes every part of a borrowed C array into `clauses` (each element consumed, even after a bad one).
private func addAll<Value>(_ array: UnsafePointer<OpaquePointer?>?, _ count: Int, _ kind: Value.Type, _ role: String,
                           to clauses: inout QueryClauses, _ store: (inout QueryClauses, Value) -> Void) {
    guard count > 0 else { return }
    guard let array else {
        clauses.error = clauses.error ?? DocLiteError(.invalidParameter, "\(role) array is NULL but its count is \(count)")
        return
    }
    for index in 0..<count { clauses.add(takePart(array[index], kind, "\(role) \(index + 1)"), store) }
}

/// Takes an optional part into `clauses`: NULL leaves the clause absent.
private func addOptional<Value>(_ handle: OpaquePointer?, _ kind: Value.Type, _ role: String,
                                to clauses: inout QueryClauses, _ clause: WritableKeyPath<QueryClauses, Value?>) {
    guard handle != nil else { return }
    clauses.setOnce(takePart(handle, kind, role), clause, role)
}

@c @implementation
public func CBLQueryBuilder_Create(_ select: UnsafePointer<OpaquePointer?>?, _ selectCount: Int, _ distinct: Bool,
                                   _ from: OpaquePointer?,
                                   _ joins: UnsafePointer<OpaquePointer?>?, _ joinCount: Int,
                                   _ whereExpression: OpaquePointer?,
                                   _ groupBy: UnsafePointer<OpaquePointer?>?, _ groupByCount: Int,
                                   _ having: OpaquePointer?,
                                   _ orderBy: UnsafePointer<OpaquePointer?>?, _ orderByCount: Int,
                                   _ limit: OpaquePointer?,
                                   _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    // Every part is taken first: all are consumed, whatever fails.
    var clauses = QueryClauses(distinct: distinct)
    addAll(select, selectCount, SelectResultProtocol.self, "select result", to: &clauses) { $0.results.append($1) }
    clauses.setOnce(takePart(from, DataSourceProtocol.self, "FROM data source"), \.source, "FROM data source")
    addAll(joins, joinCount, JoinProtocol.self, "join", to: &clauses) { $0.joins.append($1) }
    addOptional(whereExpression, ExpressionProtocol.self, "WHERE expression", to: &clauses, \.condition)
    addAll(groupBy, groupByCount, ExpressionProtocol.self, "GROUP BY expression", to: &clauses) { $0.groups.append($1) }
    addOptional(having, ExpressionProtocol.self, "HAVING expression", to: &clauses, \.groupCondition)
    addAll(orderBy, orderByCount, OrderingProtocol.self, "ordering", to: &clauses) { $0.orderings.append($1) }
    addOptional(limit, QueryLimit.self, "LIMIT", to: &clauses, \.limit)
    return bridge(outError, failure: nil) { HandleRegistry.shared.register(try clauses.query()) }
}

// MARK: The step-by-step builder

/// A CBLQueryBuilder handle: the clauses given so far.
final class QueryBuilderRef: @unchecked Sendable {   // `clauses` is behind `lock`
    private let lock = NSLock()
    private var clauses = QueryClauses()

    /// Changes the clauses under the lock.
    func update(_ change: (inout QueryClauses) -> Void) { lock.withLock { change(&clauses) } }

    /// The query of the clauses given so far.
    func query() throws -> Query { try lock.withLock { clauses }.query() }
}

/// Gives the builder `handle` a part (consumed also when the builder handle is bad).
private func give<Value>(_ handle: OpaquePointer?, _ partHandle: OpaquePointer?, _ kind: Value.Type, _ role: String,
                         _ change: (inout QueryClauses, (value: Swift.Result<Value, DocLiteError>, keep: [AnyObject])) -> Void) {
    let taken = takePart(partHandle, kind, role)
    guard let builder = try? HandleRegistry.shared.object(handle, as: QueryBuilderRef.self, "query builder") else { return }
    builder.update { change(&$0, taken) }
}

@c @implementation
public func CBLQueryBuilder_New() -> OpaquePointer? {
    HandleRegistry.shared.register(QueryBuilderRef())
}

@c @implementation
public func CBLQueryBuilder_Select(_ builder: OpaquePointer?, _ result: OpaquePointer?) {
    give(builder, result, SelectResultProtocol.self, "select result") { $0.add($1) { $0.results.append($1) } }
}

@c @implementation
public func CBLQueryBuilder_SetDistinct(_ builder: OpaquePointer?, _ distinct: Bool) {
    try? HandleRegistry.shared.object(builder, as: QueryBuilderRef.self, "query builder").update { $0.distinct = distinct }
}

@c @implementation
public func CBLQueryBuilder_From(_ builder: OpaquePointer?, _ from: OpaquePointer?) {
    give(builder, from, DataSourceProtocol.self, "FROM data source") { $0.setOnce($1, \.source, "FROM data source") }
}

@c @implementation
public func CBLQueryBuilder_Join(_ builder: OpaquePointer?, _ join: OpaquePointer?) {
    give(builder, join, JoinProtocol.self, "join") { $0.add($1) { $0.joins.append($1) } }
}

@c @implementation
public func CBLQueryBuilder_Where(_ builder: OpaquePointer?, _ condition: OpaquePointer?) {
    give(builder, condition, ExpressionProtocol.self, "WHERE expression") { $0.setOnce($1, \.condition, "WHERE expression") }
}

@c @implementation
public func CBLQueryBuilder_GroupBy(_ builder: OpaquePointer?, _ expression: OpaquePointer?) {
    give(builder, expression, ExpressionProtocol.self, "GROUP BY expression") { $0.add($1) { $0.groups.append($1) } }
}

@c @implementation
public func CBLQueryBuilder_Having(_ builder: OpaquePointer?, _ condition: OpaquePointer?) {
    give(builder, condition, ExpressionProtocol.self, "HAVING expression") { $0.setOnce($1, \.groupCondition, "HAVING expression") }
}

@c @implementation
public func CBLQueryBuilder_OrderBy(_ builder: OpaquePointer?, _ ordering: OpaquePointer?) {
    give(builder, ordering, OrderingProtocol.self, "ordering") { $0.add($1) { $0.orderings.append($1) } }
}

@c @implementation
public func CBLQueryBuilder_Limit(_ builder: OpaquePointer?, _ limit: OpaquePointer?) {
    give(builder, limit, QueryLimit.self, "LIMIT") { $0.setOnce($1, \.limit, "LIMIT") }
}

@c @implementation
public func CBLQueryBuilder_Build(_ builder: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let query = try HandleRegistry.shared.object(builder, as: QueryBuilderRef.self, "query builder").query()
        return HandleRegistry.shared.register(query)
    }
}

@c @implementation
public func CBLQuery_CopyJSON(_ handle: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let query = try? query(handle) else { return nil }
    return ownedString(query.json)
}
