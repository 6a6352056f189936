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

@c @implementation
public func CBLQueryFunction_Count(_ a: OpaquePointer?) -> OpaquePointer? {
    let value = takeOptional(a, ExpressionProtocol.self, "operand of Count")
    return expression { Function.count(try value.get()) }
}

@c @implementation
public func CBLQueryFunction_Sum(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Sum") { Function.sum($0) } }

@c @implementation
public func CBLQueryFunction_Avg(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Avg") { Function.avg($0) } }

@c @implementation
public func CBLQueryFunction_Min(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Min") { Function.min($0) } }

@c @implementation
public func CBLQueryFunction_Max(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Max") { Function.max($0) } }

@c @implementation
public func CBLQueryFunction_Abs(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Abs") { Function.abs($0) } }

@c @implementation
public func CBLQueryFunction_Acos(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Acos") { Function.acos($0) } }

@c @implementation
public func CBLQueryFunction_Asin(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Asin") { Function.asin($0) } }

@c @implementation
public func CBLQueryFunction_Atan(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Atan") { Function.atan($0) } }

@c @implementation
public func CBLQueryFunction_Atan2(_ y: OpaquePointer?, _ x: OpaquePointer?) -> OpaquePointer? {
    binary(y, x, "Atan2") { Function.atan2(y: $0, x: $1) }
}

@c @implementation
public func CBLQueryFunction_Ceil(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Ceil") { Function.ceil($0) } }

@c @implementation
public func CBLQueryFunction_Cos(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Cos") { Function.cos($0) } }

@c @implementation
public func CBLQueryFunction_Degrees(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Degrees") { Function.degrees($0) } }

@c @implementation
public func CBLQueryFunction_E() -> OpaquePointer? { expression { Function.e() } }

@c @implementation
public func CBLQueryFunction_Exp(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Exp") { Function.exp($0) } }

@c @implementation
public func CBLQueryFunction_Floor(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Floor") { Function.floor($0) } }

@c @implementation
public func CBLQueryFunction_Ln(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Ln") { Function.ln($0) } }

@c @implementation
public func CBLQueryFunction_Log(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Log") { Function.log($0) } }

@c @implementation
public func CBLQueryFunction_Pi() -> OpaquePointer? { expression { Function.pi() } }

@c @implementation
public func CBLQueryFunction_Power(_ base: OpaquePointer?, _ exponent: OpaquePointer?) -> OpaquePointer? {
    binary(base, exponent, "Power") { Function.power(base: $0, exponent: $1) }
}

@c @implementation
public func CBLQueryFunction_Radians(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Radians") { Function.radians($0) } }

@c @implementation
public func CBLQueryFunction_Round(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Round") { Function.round($0) } }

@c @implementation
public func CBLQueryFunction_RoundDigits(_ a: OpaquePointer?, _ digits: OpaquePointer?) -> OpaquePointer? {
    binary(a, digits, "RoundDigits") { Function.round($0, digits: $1) }
}

@c @implementation
public func CBLQueryFunction_Sign(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Sign") { Function.sign($0) } }

@c @implementation
public func CBLQueryFunction_Sin(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Sin") { Function.sin($0) } }

@c @implementation
public func CBLQueryFunction_Sqrt(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Sqrt") { Function.sqrt($0) } }

@c @implementation
public func CBLQueryFunction_Tan(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Tan") { Function.tan($0) } }

@c @implementation
public func CBLQueryFunction_Trunc(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Trunc") { Function.trunc($0) } }

@c @implementation
public func CBLQueryFunction_TruncDigits(_ a: OpaquePointer?, _ digits: OpaquePointer?) -> OpaquePointer? {
    binary(a, digits, "TruncDigits") { Function.trunc($0, digits: $1) }
}

@c @implementation
public func CBLQueryFunction_Contains(_ a: OpaquePointer?, _ substring: OpaquePointer?) -> OpaquePointer? {
    binary(a, substring, "Contains") { Function.contains($0, substring: $1) }
}

@c @implementation
public func CBLQueryFunction_Length(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Length") { Function.length($0) } }

@c @implementation
public func CBLQueryFunction_Lower(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Lower") { Function.lower($0) } }

@c @implementation
public func CBLQueryFunction_Upper(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Upper") { Function.upper($0) } }

@c @implementation
public func CBLQueryFunction_Ltrim(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Ltrim") { Function.ltrim($0) } }

@c @implementation
public func CBLQueryFunction_Rtrim(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Rtrim") { Function.rtrim($0) } }

@c @implementation
public func CBLQueryFunction_Trim(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Trim") { Function.trim($0) } }

@c @implementation
public func CBLQueryFunction_StringToMillis(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "StringToMillis") { Function.stringToMillis($0) } }

@c @implementation
public func CBLQueryFunction_StringToUTC(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "StringToUTC") { Function.stringToUTC($0) } }

@c @implementation
public func CBLQueryFunction_MillisToString(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "MillisToString") { Function.millisToString($0) } }

@c @implementation
public func CBLQueryFunction_MillisToUTC(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "MillisToUTC") { Function.millisToUTC($0) } }

@c @implementation
public func CBLQueryArrayFunction_Contains(_ a: OpaquePointer?, _ value: OpaquePointer?) -> OpaquePointer? {
    binary(a, value, "ArrayFunction_Contains") { ArrayFunction.contains($0, value: $1) }
}

@c @implementation
public func CBLQueryArrayFunction_Length(_ a: OpaquePointer?) -> OpaquePointer? {
    unary(a, "ArrayFunction_Length") { ArrayFunction.length($0) }
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
