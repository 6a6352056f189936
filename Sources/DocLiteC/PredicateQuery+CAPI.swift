import CDocLite
import DocLite

/// The predicate query builder behind a handle.
private func predicateBuilder(_ handle: OpaquePointer?) throws -> PredicateQueryBuilder {
    try HandleRegistry.shared.object(handle, as: PredicateQueryBuilder.self, "predicate query builder")
}

/// `count` C strings as Swift strings, each named `role` and its number in errors.
private func strings(_ items: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int, _ role: String) throws -> [String] {
    guard count > 0 else { return [] }
    guard let items else { throw DocLiteError(.invalidParameter, "the \(role) array is NULL") }
    return try (0..<count).map { try string(items[$0], "\(role) \($0 + 1)") }
}

/// A context given as a JSON object, by variable name.
private func context(_ json: UnsafePointer<CChar>?) throws -> [String: JSONValue] {
    guard let text = try optionalString(json, "context JSON") else { return [:] }
    guard case .dictionary(let members) = try JSONValue(json: text) else {
        throw DocLiteError(.invalidParameter, "the context must be a JSON object of variable values")
    }
    return members.stringKeyed
}

@c @implementation
public func CBLPredicateQueryBuilder_Create(_ handle: OpaquePointer?, _ select: UnsafePointer<UnsafePointer<CChar>?>?, _ selectCount: Int,
                                           _ predicate: UnsafePointer<CChar>?,
                                           _ orderBy: UnsafePointer<UnsafePointer<CChar>?>?, _ orderByCount: Int,
                                           _ outErrorPos: UnsafeMutablePointer<Int32>?,
                                           _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    outErrorPos?.pointee = -1
    return bridge(outError, failure: nil) {
        let target = try collection(handle)
        let items = try strings(select, selectCount, "select item")
        let descriptors = try strings(orderBy, orderByCount, "sort descriptor")
        let condition = try string(predicate, "predicate")
        do {
            return HandleRegistry.shared.register(try PredicateQueryBuilder(collection: target, select: items, where: condition,
                                                                             orderBy: descriptors))
        } catch let error as DocLiteError {
            if let position = error.position { outErrorPos?.pointee = Int32(clamping: position) }
            throw error
        }
    }
}

@c @implementation
public func CBLPredicateQueryBuilder_CreateQuery(_ handle: OpaquePointer?, _ contextJSON: UnsafePointer<CChar>?,
                                                _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        HandleRegistry.shared.register(try predicateBuilder(handle).createQuery(values: try context(contextJSON)))
    }
}

@c @implementation
public func CBLPredicateQueryBuilder_Run(_ handle: OpaquePointer?, _ contextJSON: UnsafePointer<CChar>?,
                                        _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let query = try predicateBuilder(handle).createQuery(values: try context(contextJSON))
        return HandleRegistry.shared.register(ResultSetRef(query: query, results: try query.execute()))
    }
}

@c @implementation
public func CBLPredicateQueryBuilder_Explanation(_ handle: OpaquePointer?,
                                                _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    bridge(outError, failure: nil) { ownedString(try predicateBuilder(handle).explanation) }
}
