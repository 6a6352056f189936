import Foundation
import CDocLite
import DocLite

// Query-builder expressions by handle: literals, properties, IN, negation and
// collations, in the order of include/doclite.h (the operators are generated:
// QueryExpression+Operators.swift).

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
public func CBLQueryExpression_In(_ a: OpaquePointer?, _ items: UnsafePointer<OpaquePointer?>?, _ count: Int) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "operand of In")
    let list = takeAll(items, count, "item of In")
    return expression { try value.get().in(try list.get()) }
}

@c @implementation
public func CBLQueryExpression_Negated(_ a: OpaquePointer?) -> OpaquePointer? {
    function("Negated", [a]) { Expression.negated($0[0]) }
}

@c @implementation
public func CBLQueryExpression_Not(_ a: OpaquePointer?) -> OpaquePointer? {
    function("Not", [a]) { Expression.not($0[0]) }
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
