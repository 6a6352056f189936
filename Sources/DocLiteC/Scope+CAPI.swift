import CDocLite
import DocLite
import Foundation

// Scopes by handle, as couchbase-lite-C's CBLScope: a scope handle keeps its
// database open, as a collection handle does.

/// A scope handle: the scope, and the database it keeps open.
final class ScopeRef {
    let scope: Scope
    let database: Database

    init(_ scope: Scope, database: Database) {
        self.scope = scope
        self.database = database
    }
}

private func scopeRef(_ handle: OpaquePointer?) throws -> ScopeRef {
    try HandleRegistry.shared.object(handle, as: ScopeRef.self, "scope")
}

@c @implementation
public func CBLDatabase_ScopeNames(_ db: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    bridge(outError, failure: nil) {
        namesJSON(try database(db).scopes().map(\.name))
    }
}

@c @implementation
public func CBLDatabase_DefaultScope(_ db: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let database = try database(db)
        return HandleRegistry.shared.register(ScopeRef(try database.defaultScope(), database: database))
    }
}

@c @implementation
public func CBLDatabase_Scope(_ db: OpaquePointer?, _ scopeName: UnsafePointer<CChar>?,
                              _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let database = try database(db)
        return try database.scope(name: try string(scopeName, "scope name")).map {
            HandleRegistry.shared.register(ScopeRef($0, database: database))
        }
    }
}

@c @implementation
public func CBLScope_Name(_ handle: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let name = try? scopeRef(handle).scope.name else { return nil }
    return HandleRegistry.shared.borrowedString(handle, slot: "name", name)
}

@c @implementation
public func CBLScope_CollectionNames(_ handle: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    bridge(outError, failure: nil) { namesJSON(try scopeRef(handle).scope.collections().map(\.name)) }
}

@c @implementation
public func CBLScope_Collection(_ handle: OpaquePointer?, _ collectionName: UnsafePointer<CChar>?,
                                _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let ref = try scopeRef(handle)
        return try ref.scope.collection(name: try string(collectionName, "collection name")).map {
            HandleRegistry.shared.register(CollectionRef($0, database: ref.database))
        }
    }
}

@c @implementation
public func CBLCollection_Scope(_ handle: OpaquePointer?) -> OpaquePointer? {
    guard let ref = try? HandleRegistry.shared.object(handle, as: CollectionRef.self, "collection") else { return nil }
    return HandleRegistry.shared.register(ScopeRef(ref.collection.scope, database: ref.database))
}
