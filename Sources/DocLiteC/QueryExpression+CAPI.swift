import Foundation
import CDocLite
import DocLite

// Query-builder expressions by handle: literals, properties, comparisons,
// arithmetic, logic and collations, in the order of include/doclite.h.

@c @implementation
public func CBLQueryExpression_String(_ value: UnsafePointer<CChar>?) -> OpaquePointer? {
    expression { Expression.string(try string(value, "string literal")) }
}

@c @implementation
public func CBLQueryExpression_Int(_ value: Int64) -> OpaquePointer? { expression { Expression.int64(value) } }

@c @implementation
public func CBLQueryExpression_Float(_ value: Float) -> OpaquePointer? { expression { Expression.float(value) } }

@c @implementation
public func CBLQueryExpression_Double(_ value: Double) -> OpaquePointer? { expression { Expression.double(value) } }

@c @implementation
public func CBLQueryExpression_Bool(_ value: Bool) -> OpaquePointer? { expression { Expression.boolean(value) } }

@c @implementation
public func CBLQueryExpression_Null() -> OpaquePointer? { expression { Expression.value(nil) } }

@c @implementation
public func CBLQueryExpression_Date(_ millis: Int64) -> OpaquePointer? {
    expression { Expression.date(Date(timeIntervalSince1970: Double(millis) / 1000)) }
}

@c @implementation
public func CBLQueryExpression_Parameter(_ name: UnsafePointer<CChar>?) -> OpaquePointer? {
    expression { Expression.parameter(try string(name, "parameter name")) }
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
public func CBLQueryExpression_Is(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "Is") { $0.is($1) }
}

@c @implementation
public func CBLQueryExpression_IsNot(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "IsNot") { $0.isNot($1) }
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

@c @implementation
public func CBLQueryExpression_Like(_ a: OpaquePointer?, _ pattern: OpaquePointer?) -> OpaquePointer? {
    binary(a, pattern, "Like") { $0.like($1) }
}

@c @implementation
public func CBLQueryExpression_Regex(_ a: OpaquePointer?, _ pattern: OpaquePointer?) -> OpaquePointer? {
    binary(a, pattern, "Regex") { $0.regex($1) }
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
public func CBLQueryExpression_Modulo(_ a: OpaquePointer?, _ b: OpaquePointer?) -> OpaquePointer? {
    binary(a, b, "Modulo") { $0.modulo($1) }
}

@c @implementation
public func CBLQueryExpression_Negated(_ a: OpaquePointer?) -> OpaquePointer? {
    unary(a, "Negated") { Expression.negated($0) }
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
public func CBLQueryExpression_Collate(_ a: OpaquePointer?, _ collation: OpaquePointer?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "operand of Collate")
    let with = take(collation, CollationProtocol.self, "collation of Collate")
    return expression { try value.get().collate(try with.get()) }
}

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
