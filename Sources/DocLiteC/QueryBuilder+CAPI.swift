import Foundation
import CDocLite
import DocLite

// The QueryBuilder by handle. Each part handle (CBLQueryExpression,
// CBLQuerySelectResult, CBLQueryDataSource, CBLQueryJoin, CBLQueryOrdering,
// CBLQueryCollation, CBLQueryLimit) holds one object of the Swift builder, or the error that kept it from being
// made. A part passed in a part position is consumed: the callee takes the
// object and releases the caller's reference, also when the call fails. No
// query logic lives here: every call is the Swift builder's.

/// A query part: a Swift builder object, or the error that replaces it.
final class QueryPart<Value>: QueryPartHandle {
    let value: Swift.Result<Value, DocLiteError>
    /// Objects the part keeps alive (a data source's collection handle object).
    let keep: [AnyObject]

    init(_ value: Swift.Result<Value, DocLiteError>, keep: [AnyObject] = []) {
        self.value = value
        self.keep = keep
    }

    static var cTypeName: String {
        let names: [(Any.Type, String)] = [
            (ExpressionProtocol.self, "CBLQueryExpression"), (SelectResultProtocol.self, "CBLQuerySelectResult"),
            (DataSourceProtocol.self, "CBLQueryDataSource"), (JoinProtocol.self, "CBLQueryJoin"),
            (OrderingProtocol.self, "CBLQueryOrdering"), (CollationProtocol.self, "CBLQueryCollation"),
            (QueryLimit.self, "CBLQueryLimit"),
        ]
        return names.first { ObjectIdentifier($0.0) == ObjectIdentifier(Value.self) }?.1 ?? "\(Value.self)"
    }
}

/// Any query part, whatever its kind: what a part position consumes.
protocol QueryPartHandle: AnyObject {
    static var cTypeName: String { get }
}

func asDocLiteError(_ error: Error) -> DocLiteError {
    error as? DocLiteError ?? DocLiteError(.unexpectedError, "unexpected error: \(error)")
}

/// Takes the part `handle` in a part position: its value (or why there is
/// none) and what it keeps alive. The caller's reference is released whenever
/// the handle is a live query part, of this kind or not; other handles (a
/// database…) are left alone.
func takePart<Value>(_ handle: OpaquePointer?, _ kind: Value.Type,
                             _ role: String) -> (value: Swift.Result<Value, DocLiteError>, keep: [AnyObject]) {
    let registry = HandleRegistry.shared
    let part: QueryPart<Value>
    do {
        part = try registry.object(handle, as: QueryPart<Value>.self, role)
    } catch {
        if (try? registry.object(handle, as: QueryPartHandle.self, role)) != nil {
            registry.release(UnsafeRawPointer(handle))
        }
        return (.failure(asDocLiteError(error)), [])
    }
    registry.release(UnsafeRawPointer(handle))
    return (part.value, part.keep)
}

/// Takes the part `handle` in a part position (see ``takePart(_:_:_:)``).
func take<Value>(_ handle: OpaquePointer?, _ kind: Value.Type, _ role: String) -> Swift.Result<Value, DocLiteError> {
    takePart(handle, kind, role).value
}

/// Takes an optional part: nil for NULL.
func takeOptional<Value>(_ handle: OpaquePointer?, _ kind: Value.Type, _ role: String) -> Swift.Result<Value?, DocLiteError> {
    guard handle != nil else { return .success(nil) }
    return take(handle, kind, role).map { $0 }
}

/// Takes every expression of a borrowed C array (each element consumed, even after a bad one).
private func takeAll(_ array: UnsafePointer<OpaquePointer?>?, _ count: Int,
                     _ role: String) -> Swift.Result<[ExpressionProtocol], DocLiteError> {
    guard count > 0 else { return .success([]) }
    guard let array else { return .failure(DocLiteError(.invalidParameter, "\(role) array is NULL but its count is \(count)")) }
    let taken = (0..<count).map { take(array[$0], ExpressionProtocol.self, "\(role) \($0 + 1)") }
    var values: [ExpressionProtocol] = []
    for result in taken {
        switch result {
        case .success(let value): values.append(value)
        case .failure(let error): return .failure(error)
        }
    }
    return .success(values)
}

/// Registers a new part: +1 for the caller. `make` runs only when every input is good.
func part<Value>(_ make: () throws -> Value, keep: [AnyObject] = []) -> OpaquePointer {
    let value: Swift.Result<Value, DocLiteError>
    do { value = .success(try make()) } catch { value = .failure(asDocLiteError(error)) }
    return HandleRegistry.shared.register(QueryPart(value, keep: keep))
}

/// Registers a new expression part; one the builder could not make (too deep) is an error part.
private func expression(_ make: () throws -> ExpressionProtocol) -> OpaquePointer {
    part {
        let expression = try make()
        if let error = expression.builderError { throw error }
        return expression
    }
}

private func binary(_ left: OpaquePointer?, _ right: OpaquePointer?, _ name: String,
                    _ op: (ExpressionProtocol, ExpressionProtocol) -> ExpressionProtocol) -> OpaquePointer {
    let a = take(left, ExpressionProtocol.self, "left operand of \(name)")
    let b = take(right, ExpressionProtocol.self, "right operand of \(name)")
    return expression { op(try a.get(), try b.get()) }
}

private func unary(_ operand: OpaquePointer?, _ name: String, _ op: (ExpressionProtocol) -> ExpressionProtocol) -> OpaquePointer {
    let a = take(operand, ExpressionProtocol.self, "operand of \(name)")
    return expression { op(try a.get()) }
}

// MARK: Expressions

@c @implementation
public func CBLQueryExpression_Property(_ name: UnsafePointer<CChar>?) -> OpaquePointer? {
    expression { Expression.property(try string(name, "property name")) }
}

@c @implementation
public func CBLQueryExpression_PropertyFrom(_ name: UnsafePointer<CChar>?, _ alias: UnsafePointer<CChar>?) -> OpaquePointer? {
    expression { Expression.property(try string(name, "property name")).from(try string(alias, "data source alias")) }
}

@c @implementation
public func CBLQueryExpression_All(_ alias: UnsafePointer<CChar>?) -> OpaquePointer? {
    expression {
        guard let alias = try optionalString(alias, "data source alias") else { return Expression.all() }
        return Expression.all().from(alias)
    }
}

@c @implementation
public func CBLQueryExpression_String(_ value: UnsafePointer<CChar>?) -> OpaquePointer? {
    expression { Expression.string(try string(value, "string literal")) }
}

@c @implementation
public func CBLQueryExpression_Int(_ value: Int64) -> OpaquePointer? { expression { Expression.int64(value) } }

@c @implementation
public func CBLQueryExpression_Double(_ value: Double) -> OpaquePointer? { expression { Expression.double(value) } }

@c @implementation
public func CBLQueryExpression_Bool(_ value: Bool) -> OpaquePointer? { expression { Expression.boolean(value) } }

@c @implementation
public func CBLQueryExpression_Null() -> OpaquePointer? { expression { Expression.value(nil) } }

@c @implementation
public func CBLQueryExpression_Parameter(_ name: UnsafePointer<CChar>?) -> OpaquePointer? {
    expression { Expression.parameter(try string(name, "parameter name")) }
}

@c @implementation
public func CBLQueryExpression_EqualTo(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "EqualTo") { $0.equalTo($1) }
}

@c @implementation
public func CBLQueryExpression_NotEqualTo(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "NotEqualTo") { $0.notEqualTo($1) }
}

@c @implementation
public func CBLQueryExpression_LessThan(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "LessThan") { $0.lessThan($1) }
}

@c @implementation
public func CBLQueryExpression_LessThanOrEqualTo(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "LessThanOrEqualTo") { $0.lessThanOrEqualTo($1) }
}

@c @implementation
public func CBLQueryExpression_GreaterThan(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "GreaterThan") { $0.greaterThan($1) }
}

@c @implementation
public func CBLQueryExpression_GreaterThanOrEqualTo(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "GreaterThanOrEqualTo") { $0.greaterThanOrEqualTo($1) }
}

@c @implementation
public func CBLQueryExpression_And(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "And") { $0.and($1) }
}

@c @implementation
public func CBLQueryExpression_Or(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "Or") { $0.or($1) }
}

@c @implementation
public func CBLQueryExpression_Not(_ a: OpaquePointer?) -> OpaquePointer? {
    unary(a, "Not") { Expression.not($0) }
}

@c @implementation
public func CBLQueryExpression_Like(_ a: OpaquePointer?, _ pattern: OpaquePointer?) -> OpaquePointer? {
    binary(a, pattern, "Like") { $0.like($1) }
}

@c @implementation
public func CBLQueryExpression_Add(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "Add") { $0.add($1) }
}

@c @implementation
public func CBLQueryExpression_Subtract(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "Subtract") { $0.subtract($1) }
}

@c @implementation
public func CBLQueryExpression_Multiply(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "Multiply") { $0.multiply($1) }
}

@c @implementation
public func CBLQueryExpression_Divide(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "Divide") { $0.divide($1) }
}

@c @implementation
public func CBLQueryExpression_IsValued(_ a: OpaquePointer?) -> OpaquePointer? {
    unary(a, "IsValued") { $0.isValued() }
}

@c @implementation
public func CBLQueryExpression_IsNotValued(_ a: OpaquePointer?) -> OpaquePointer? {
    unary(a, "IsNotValued") { $0.isNotValued() }
}

@c @implementation
public func CBLQueryExpression_Between(_ a: OpaquePointer?, _ low: OpaquePointer?, _ high: OpaquePointer?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "operand of Between")
    let lower = take(low, ExpressionProtocol.self, "lower bound of Between")
    let upper = take(high, ExpressionProtocol.self, "upper bound of Between")
    return expression { try value.get().between(try lower.get(), and: try upper.get()) }
}

@c @implementation
public func CBLQueryExpression_In(_ a: OpaquePointer?, _ items: UnsafePointer<OpaquePointer?>?, _ count: Int) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "operand of In")
    let list = takeAll(items, count, "item of In")
    return expression { try value.get().in(try list.get()) }
}

// MARK: Meta, Function

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
public func CBLQueryFunction_Lower(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Lower") { Function.lower($0) } }

@c @implementation
public func CBLQueryFunction_Upper(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Upper") { Function.upper($0) } }

@c @implementation
public func CBLQueryFunction_Length(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Length") { Function.length($0) } }

// MARK: More expressions

@c @implementation
public func CBLQueryExpression_Float(_ value: Float) -> OpaquePointer? { expression { Expression.float(value) } }

@c @implementation
public func CBLQueryExpression_Date(_ millis: Int64) -> OpaquePointer? {
    expression { Expression.date(Date(timeIntervalSince1970: Double(millis) / 1000)) }
}

@c @implementation
public func CBLQueryExpression_Negated(_ a: OpaquePointer?) -> OpaquePointer? {
    unary(a, "Negated") { Expression.negated($0) }
}

@c @implementation
public func CBLQueryExpression_Modulo(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "Modulo") { $0.modulo($1) }
}

@c @implementation
public func CBLQueryExpression_Is(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "Is") { $0.is($1) }
}

@c @implementation
public func CBLQueryExpression_IsNot(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "IsNot") { $0.isNot($1) }
}

@c @implementation
public func CBLQueryExpression_Regex(_ a: OpaquePointer?, _ pattern: OpaquePointer?) -> OpaquePointer? {
    binary(a, pattern, "Regex") { $0.regex($1) }
}

@c @implementation
public func CBLQueryExpression_Collate(_ a: OpaquePointer?, _ collation: OpaquePointer?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "operand of Collate")
    let with = take(collation, CollationProtocol.self, "collation of Collate")
    return expression { try value.get().collate(try with.get()) }
}

@c @implementation
public func CBLQueryExpression_Array(_ items: UnsafePointer<OpaquePointer?>?, _ count: Int) -> OpaquePointer? {
    let list = takeAll(items, count, "item of Array")
    return expression { Expression.array(try list.get()) }
}

@c @implementation
public func CBLQueryExpression_Dictionary(_ keys: UnsafePointer<UnsafePointer<CChar>?>?, _ values: UnsafePointer<OpaquePointer?>?,
                                          _ count: Int) -> OpaquePointer? {
    let members = takeAll(values, count, "value of Dictionary")
    return expression {
        let members = try members.get()
        guard count == 0 || keys != nil else { throw DocLiteError(.invalidParameter, "key array of Dictionary is NULL but its count is \(count)") }
        let names = try (0..<count).map { try string(keys![$0], "key \($0 + 1) of Dictionary") }
        guard Set(names).count == names.count else { throw DocLiteError(.invalidParameter, "keys of Dictionary are not unique") }
        return Expression.dictionary(Dictionary(uniqueKeysWithValues: zip(names, members.map { $0 as Any })))
    }
}

// MARK: Collations

@c @implementation
public func CBLQueryCollation_ASCII(_ caseSensitive: Bool) -> OpaquePointer? {
    part { Collation.ascii().ignoreCase(!caseSensitive) as CollationProtocol }
}

@c @implementation
public func CBLQueryCollation_Unicode(_ caseSensitive: Bool, _ diacriticSensitive: Bool,
                                      _ locale: UnsafePointer<CChar>?) -> OpaquePointer? {
    part {
        Collation.unicode().ignoreCase(!caseSensitive).ignoreAccents(!diacriticSensitive)
            .locale(try optionalString(locale, "collation locale")) as CollationProtocol
    }
}

// MARK: More meta

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

// MARK: More functions

@c @implementation
public func CBLQueryFunction_Abs(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Abs") { Function.abs($0) } }

@c @implementation
public func CBLQueryFunction_Acos(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Acos") { Function.acos($0) } }

@c @implementation
public func CBLQueryFunction_Asin(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Asin") { Function.asin($0) } }

@c @implementation
public func CBLQueryFunction_Atan(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Atan") { Function.atan($0) } }

@c @implementation
public func CBLQueryFunction_Ceil(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Ceil") { Function.ceil($0) } }

@c @implementation
public func CBLQueryFunction_Cos(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Cos") { Function.cos($0) } }

@c @implementation
public func CBLQueryFunction_Degrees(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Degrees") { Function.degrees($0) } }

@c @implementation
public func CBLQueryFunction_Exp(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Exp") { Function.exp($0) } }

@c @implementation
public func CBLQueryFunction_Floor(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Floor") { Function.floor($0) } }

@c @implementation
public func CBLQueryFunction_Ln(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Ln") { Function.ln($0) } }

@c @implementation
public func CBLQueryFunction_Log(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Log") { Function.log($0) } }

@c @implementation
public func CBLQueryFunction_Radians(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Radians") { Function.radians($0) } }

@c @implementation
public func CBLQueryFunction_Round(_ a: OpaquePointer?) -> OpaquePointer? { unary(a, "Round") { Function.round($0) } }

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
public func CBLQueryFunction_E() -> OpaquePointer? { expression { Function.e() } }

@c @implementation
public func CBLQueryFunction_Pi() -> OpaquePointer? { expression { Function.pi() } }

@c @implementation
public func CBLQueryFunction_Atan2(_ y: OpaquePointer?, _ x: OpaquePointer?) -> OpaquePointer? {
    binary(y, x, "Atan2") { Function.atan2(y: $0, x: $1) }
}

@c @implementation
public func CBLQueryFunction_Power(_ base: OpaquePointer?, _ exponent: OpaquePointer?) -> OpaquePointer? {
    binary(base, exponent, "Power") { Function.power(base: $0, exponent: $1) }
}

@c @implementation
public func CBLQueryFunction_RoundDigits(_ a: OpaquePointer?, _ digits: OpaquePointer?) -> OpaquePointer? {
    binary(a, digits, "RoundDigits") { Function.round($0, digits: $1) }
}

@c @implementation
public func CBLQueryFunction_TruncDigits(_ a: OpaquePointer?, _ digits: OpaquePointer?) -> OpaquePointer? {
    binary(a, digits, "TruncDigits") { Function.trunc($0, digits: $1) }
}

@c @implementation
public func CBLQueryFunction_Contains(_ a: OpaquePointer?, _ substring: OpaquePointer?) -> OpaquePointer? {
    binary(a, substring, "Contains") { Function.contains($0, substring: $1) }
}

// MARK: Array functions, array expressions, full-text functions

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

// MARK: Select results, data sources, joins, orderings

@c @implementation
public func CBLQuerySelectResult_Expression(_ a: OpaquePointer?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "select result expression")
    return part { SelectResult.expression(try value.get()) as SelectResultProtocol }
}

@c @implementation
public func CBLQuerySelectResult_Property(_ name: UnsafePointer<CChar>?) -> OpaquePointer? {
    part { SelectResult.property(try string(name, "property name")) as SelectResultProtocol }
}

@c @implementation
public func CBLQuerySelectResult_ExpressionAs(_ a: OpaquePointer?, _ alias: UnsafePointer<CChar>?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "select result expression")
    return part { SelectResult.expression(try value.get()).as(try string(alias, "select result alias")) }
}

@c @implementation
public func CBLQuerySelectResult_All(_ alias: UnsafePointer<CChar>?) -> OpaquePointer? {
    part { SelectResult.all().from(try optionalString(alias, "data source alias")) }
}

/// A data source over the object (a collection, a database) behind `handle`: borrowed,
/// looked up once and kept alive by the part; `aliased` names it `alias`.
private func source<Owner: AnyObject>(_ handle: OpaquePointer?, _ kind: Owner.Type, _ role: String,
                                      _ alias: UnsafePointer<CChar>?, aliased: Bool,
                                      _ make: (Owner) -> DataSourceAs) -> OpaquePointer {
    let owner = Swift.Result { try HandleRegistry.shared.object(handle, as: kind, role) }
    return part({ () throws -> DataSourceProtocol in
        let source = make(try owner.get())
        return aliased ? source.as(try string(alias, "data source alias")) : source
    }, keep: (try? owner.get()).map { [$0] } ?? [])
}

private func collectionSource(_ handle: OpaquePointer?, _ alias: UnsafePointer<CChar>?, aliased: Bool) -> OpaquePointer {
    source(handle, CollectionRef.self, "collection", alias, aliased: aliased) { DataSource.collection($0.collection) }
}

@c @implementation
public func CBLQueryDataSource_Collection(_ collection: OpaquePointer?) -> OpaquePointer? {
    collectionSource(collection, nil, aliased: false)
}

@c @implementation
public func CBLQueryDataSource_CollectionAs(_ collection: OpaquePointer?, _ alias: UnsafePointer<CChar>?) -> OpaquePointer? {
    collectionSource(collection, alias, aliased: true)
}

/// The default collection of a database (Couchbase Lite's legacy `database:` source).
private func databaseSource(_ handle: OpaquePointer?, _ alias: UnsafePointer<CChar>?, aliased: Bool) -> OpaquePointer {
    source(handle, Database.self, "database", alias, aliased: aliased) { DataSource.database($0) }
}

@c @implementation
public func CBLQueryDataSource_Database(_ database: OpaquePointer?) -> OpaquePointer? {
    databaseSource(database, nil, aliased: false)
}

@c @implementation
public func CBLQueryDataSource_DatabaseAs(_ database: OpaquePointer?, _ alias: UnsafePointer<CChar>?) -> OpaquePointer? {
    databaseSource(database, alias, aliased: true)
}

@c @implementation
public func CBLQueryJoin_Join(_ dataSource: OpaquePointer?, _ on: OpaquePointer?) -> OpaquePointer? {
    let (source, kept) = takePart(dataSource, DataSourceProtocol.self, "data source of Join")
    let condition = take(on, ExpressionProtocol.self, "ON condition of Join")
    return part({ Join.join(try source.get()).on(try condition.get()) }, keep: kept)
}

@c @implementation
public func CBLQueryJoin_LeftJoin(_ dataSource: OpaquePointer?, _ on: OpaquePointer?) -> OpaquePointer? {
    let (source, kept) = takePart(dataSource, DataSourceProtocol.self, "data source of LeftJoin")
    let condition = take(on, ExpressionProtocol.self, "ON condition of LeftJoin")
    return part({ Join.leftJoin(try source.get()).on(try condition.get()) }, keep: kept)
}

@c @implementation
public func CBLQueryJoin_CrossJoin(_ dataSource: OpaquePointer?) -> OpaquePointer? {
    let (source, kept) = takePart(dataSource, DataSourceProtocol.self, "data source of CrossJoin")
    return part({ Join.crossJoin(try source.get()) }, keep: kept)
}

@c @implementation
public func CBLQueryOrdering_Ascending(_ a: OpaquePointer?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "ordering expression")
    return part { Ordering.expression(try value.get()).ascending() }
}

@c @implementation
public func CBLQueryOrdering_Descending(_ a: OpaquePointer?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "ordering expression")
    return part { Ordering.expression(try value.get()).descending() }
}

@c @implementation
public func CBLQueryOrdering_Property(_ name: UnsafePointer<CChar>?) -> OpaquePointer? {
    part { Ordering.property(try string(name, "ordering property name")) as OrderingProtocol }
}

@c @implementation
public func CBLQueryOrdering_Expression(_ a: OpaquePointer?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "ordering expression")
    return part { Ordering.expression(try value.get()) as OrderingProtocol }
}

@c @implementation
public func CBLQueryOrdering_Descend(_ ordering: OpaquePointer?) -> OpaquePointer? {
    let value = take(ordering, OrderingProtocol.self, "ordering of Descend")
    return part {
        guard let order = try value.get() as? DocLite.SortOrder else {
            throw DocLiteError(.invalidParameter, "ordering of Descend is not a CBLQueryOrdering made by the builder")
        }
        return order.descending()
    }
}

