import Foundation
import CDocLite
import DocLite

// Query-builder functions by handle: META properties, aggregates, math,
// strings, dates, arrays (with ANY/EVERY) and full-text search.

/// A `Meta` property, of the data source `alias` (optional).
private func meta(_ property: MetaExpressionProtocol, _ alias: UnsafePointer<CChar>?) -> OpaquePointer {
    expression {
        guard let alias = try optionalString(alias, "data source alias") else { return property }
        return property.from(alias)
    }
}

@c @implementation
public func CBLQueryMeta_ID(_ alias: UnsafePointer<CChar>?) -> OpaquePointer? { meta(Meta.id, alias) }

@c @implementation
public func CBLQueryMeta_Sequence(_ alias: UnsafePointer<CChar>?) -> OpaquePointer? { meta(Meta.sequence, alias) }

@c @implementation
public func CBLQueryMeta_IsDeleted(_ alias: UnsafePointer<CChar>?) -> OpaquePointer? { meta(Meta.isDeleted, alias) }

@c @implementation
public func CBLQueryMeta_Expiration(_ alias: UnsafePointer<CChar>?) -> OpaquePointer? { meta(Meta.expiration, alias) }

@c @implementation
public func CBLQueryMeta_RevisionID(_ alias: UnsafePointer<CChar>?) -> OpaquePointer? { meta(Meta.revisionID, alias) }

/// A call of the builder function `name` (generated: QueryFunction+Catalog.swift): takes
/// every argument, each consumed even after a bad one, and makes the call when all are good.
func function(_ name: String, _ arguments: [OpaquePointer?], _ make: ([ExpressionProtocol]) -> ExpressionProtocol) -> OpaquePointer {
    let roles = arguments.count == 2 ? ["left operand", "right operand"]
        : arguments.count == 1 ? ["operand"] : arguments.indices.map { "operand \($0 + 1)" }
    let taken = zip(arguments, roles).map { take($0, ExpressionProtocol.self, "\($1) of \(name)") }
    return expression { make(try taken.map { try $0.get() }) }
}

@c @implementation
public func CBLQueryArrayExpression_Variable(_ name: UnsafePointer<CChar>?) -> OpaquePointer? {
    expression { ArrayExpression.variable(try string(name, "variable name")) }
}

/// ANY / EVERY / ANY AND EVERY: `variable` must be a CBLQueryArrayExpression_Variable.
private func quantified(_ variable: OpaquePointer?, _ array: OpaquePointer?, _ condition: OpaquePointer?, _ name: String,
                        _ start: (VariableExpressionProtocol) -> ArrayExpressionIn) -> OpaquePointer {
    let bound = take(variable, ExpressionProtocol.self, "variable of \(name)")
    let items = take(array, ExpressionProtocol.self, "array of \(name)")
    let test = take(condition, ExpressionProtocol.self, "condition of \(name)")
    return expression {
        guard let bound = try bound.get() as? VariableExpressionProtocol else {
            throw DocLiteError(.invalidParameter, "variable of \(name) is not a CBLQueryArrayExpression_Variable")
        }
        return start(bound).in(try items.get()).satisfies(try test.get())
    }
}

@c @implementation
public func CBLQueryArrayExpression_Any(_ variable: OpaquePointer?, _ inArray: OpaquePointer?,
                                        _ satisfies: OpaquePointer?) -> OpaquePointer? {
    quantified(variable, inArray, satisfies, "Any") { ArrayExpression.any($0) }
}

@c @implementation
public func CBLQueryArrayExpression_Every(_ variable: OpaquePointer?, _ inArray: OpaquePointer?,
                                          _ satisfies: OpaquePointer?) -> OpaquePointer? {
    quantified(variable, inArray, satisfies, "Every") { ArrayExpression.every($0) }
}

@c @implementation
public func CBLQueryArrayExpression_AnyAndEvery(_ variable: OpaquePointer?, _ inArray: OpaquePointer?,
                                                _ satisfies: OpaquePointer?) -> OpaquePointer? {
    quantified(variable, inArray, satisfies, "AnyAndEvery") { ArrayExpression.anyAndEvery($0) }
}

/// The full-text index `name`, of the data source `alias` (optional).
private func fullTextIndex(_ name: UnsafePointer<CChar>?, _ alias: UnsafePointer<CChar>?) throws -> FullTextIndexExpressionProtocol {
    let index = Expression.fullTextIndex(try string(name, "full-text index name"))
    guard let alias = try optionalString(alias, "data source alias") else { return index }
    return index.from(alias)
}

@c @implementation
public func CBLQueryFullTextFunction_Match(_ indexName: UnsafePointer<CChar>?, _ alias: UnsafePointer<CChar>?,
                                          _ query: UnsafePointer<CChar>?) -> OpaquePointer? {
    expression { FullTextFunction.match(try fullTextIndex(indexName, alias), query: try string(query, "full-text query")) }
}

@c @implementation
public func CBLQueryFullTextFunction_Rank(_ indexName: UnsafePointer<CChar>?, _ alias: UnsafePointer<CChar>?) -> OpaquePointer? {
    expression { FullTextFunction.rank(try fullTextIndex(indexName, alias)) }
}
