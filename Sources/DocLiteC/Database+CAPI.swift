import CDocLite
import DocLite
import Foundation

/// The database behind a handle.
func database(_ handle: OpaquePointer?) throws -> Database {
    try HandleRegistry.shared.object(handle, as: Database.self, "database")
}

@c @implementation
public func CBLDatabaseConfiguration_Default() -> CBLDatabaseConfiguration {
    CBLDatabaseConfiguration(directory: nil, fullSync: false)
}

@c @implementation
public func CBLDatabase_Open(_ name: UnsafePointer<CChar>?, _ config: UnsafePointer<CBLDatabaseConfiguration>?,
                             _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let name = try string(name, "database name")
        var configuration = DatabaseConfiguration()
        if let config = config?.pointee {
            if let directory = try optionalString(config.directory, "directory") { configuration.directory = directory }
            configuration.fullSync = config.fullSync
        }
        return HandleRegistry.shared.register(try Database(name: name, config: configuration))
    }
}

@c @implementation
public func CBLDatabase_Close(_ db: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) { try database(db).close(); return true }
}

@c @implementation
public func CBLDatabase_PerformMaintenance(_ db: OpaquePointer?, _ type: CBLMaintenanceType,
                                          _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        guard let maintenance = MaintenanceType(rawValue: Int(type)) else {
            throw DocLiteError(.invalidParameter, "unknown maintenance type \(type)")
        }
        try database(db).performMaintenance(type: maintenance)
        return true
    }
}

@c @implementation
public func CBLDatabase_Delete(_ db: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) { try database(db).delete(); return true }
}

@c @implementation
public func CBL_DeleteDatabase(_ name: UnsafePointer<CChar>?, _ inDirectory: UnsafePointer<CChar>?,
                               _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        do {
            try Database.delete(withName: try string(name, "database name"), inDirectory: try optionalString(inDirectory, "directory"))
            return true
        } catch let error as DocLiteError where error.is(.notFound) {
            return false   // as in couchbase-lite-C: no such database is false with code 0
        }
    }
}

@c @implementation
public func CBL_DatabaseExists(_ name: UnsafePointer<CChar>?, _ inDirectory: UnsafePointer<CChar>?) -> Bool {
    bridge(nil, failure: false) {
        Database.exists(withName: try string(name, "database name"), inDirectory: try optionalString(inDirectory, "directory"))
    }
}

@c @implementation
public func CBLDatabase_Name(_ db: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let name = try? database(db).name else { return nil }
    return HandleRegistry.shared.borrowedString(db, slot: "name", name)
}

@c @implementation
public func CBLDatabase_Path(_ db: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let path = try? database(db).path else { return nil }
    return ownedString(path)
}

@c @implementation
public func CBLDatabase_BeginTransaction(_ db: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) { try database(db).beginTransaction(); return true }
}

@c @implementation
public func CBLDatabase_EndTransaction(_ db: OpaquePointer?, _ commit: Bool, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) { try database(db).endTransaction(commit: commit); return true }
}

// MARK: Collections

/// A new collection handle (+1) for `collection`, or nil.
private func collectionHandle(_ collection: DocLite.Collection?, in db: Database) -> OpaquePointer? {
    collection.map { HandleRegistry.shared.register(CollectionRef($0, database: db)) }
}

@c @implementation
public func CBLDatabase_DefaultCollection(_ db: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let db = try database(db)
        return collectionHandle(try db.defaultCollection(), in: db)
    }
}

@c @implementation
public func CBLDatabase_CreateCollection(_ db: OpaquePointer?, _ collectionName: UnsafePointer<CChar>?,
                                         _ scopeName: UnsafePointer<CChar>?,
                                         _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let db = try database(db)
        let collection = try db.createCollection(name: try string(collectionName, "collection name"),
                                                 scope: try optionalString(scopeName, "scope name") ?? DocLite.Collection.defaultName)
        return collectionHandle(collection, in: db)
    }
}

@c @implementation
public func CBLDatabase_Collection(_ db: OpaquePointer?, _ collectionName: UnsafePointer<CChar>?,
                                   _ scopeName: UnsafePointer<CChar>?,
                                   _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let db = try database(db)
        let collection = try db.collection(name: try string(collectionName, "collection name"),
                                           scope: try optionalString(scopeName, "scope name") ?? DocLite.Collection.defaultName)
        return collectionHandle(collection, in: db)
    }
}

@c @implementation
public func CBLDatabase_DeleteCollection(_ db: OpaquePointer?, _ collectionName: UnsafePointer<CChar>?,
                                         _ scopeName: UnsafePointer<CChar>?,
                                         _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        try database(db).deleteCollection(name: try string(collectionName, "collection name"),
                                          scope: try optionalString(scopeName, "scope name") ?? DocLite.Collection.defaultName)
        return true
    }
}

@c @implementation
public func CBLDatabase_CollectionNames(_ db: OpaquePointer?, _ scopeName: UnsafePointer<CChar>?,
                                        _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    bridge(outError, failure: nil) {
        namesJSON(try database(db).collections(scope: try optionalString(scopeName, "scope name") ?? DocLite.Collection.defaultName).map(\.name))
    }
}
