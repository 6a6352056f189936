import CDocLite
import DocLite

/// A `CBLQueryIndex`: an index of a collection, keeping its database open as a
/// collection handle does.
final class QueryIndexRef: Sendable {
    let index: QueryIndex
    let database: Database

    init(_ index: QueryIndex, database: Database) {
        self.index = index
        self.database = database
    }
}

private func queryIndex(_ handle: OpaquePointer?) throws -> QueryIndex {
    try HandleRegistry.shared.object(handle, as: QueryIndexRef.self, "query index").index
}

private func updater(_ handle: OpaquePointer?) throws -> IndexUpdater {
    try HandleRegistry.shared.object(handle, as: IndexUpdater.self, "index updater")
}

@c @implementation
public func CBLCollection_GetIndex(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                  _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let owner = try HandleRegistry.shared.object(handle, as: CollectionRef.self, "collection")
        guard let index = try owner.collection.index(withName: try string(name, "index name")) else { return nil }
        return HandleRegistry.shared.register(QueryIndexRef(index, database: owner.database))
    }
}

@c @implementation
public func CBLQueryIndex_Name(_ handle: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let index = try? queryIndex(handle) else { return nil }
    return HandleRegistry.shared.borrowedString(handle, slot: "name", index.name)
}

@c @implementation
public func CBLQueryIndex_BeginUpdate(_ handle: OpaquePointer?, _ limit: Int, _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        try queryIndex(handle).beginUpdate(limit: limit).map { HandleRegistry.shared.register($0) }
    }
}

@c @implementation
public func CBLIndexUpdater_Count(_ handle: OpaquePointer?) -> Int {
    (try? updater(handle).count) ?? 0
}

@c @implementation
public func CBLIndexUpdater_CopyValueJSON(_ handle: OpaquePointer?, _ index: Int) -> UnsafeMutablePointer<CChar>? {
    guard let json = try? updater(handle).json(at: index) else { return nil }
    return ownedString(json)
}

@c @implementation
public func CBLIndexUpdater_SetVector(_ handle: OpaquePointer?, _ index: Int, _ vector: UnsafePointer<Float>?, _ dimension: Int,
                                     _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let target = try updater(handle)
        guard let vector else {
            try target.setVector(nil, at: index)
            return true
        }
        // (The count is checked before the floats are read: a wrong one must not read past the caller's array.)
        try IndexUpdater.check(count: dimension, dimensions: target.dimensions)
        try target.setVector(Array(UnsafeBufferPointer(start: vector, count: dimension)), at: index)
        return true
    }
}

@c @implementation
public func CBLIndexUpdater_SkipVector(_ handle: OpaquePointer?, _ index: Int, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        try updater(handle).skipVector(at: index)
        return true
    }
}

@c @implementation
public func CBLIndexUpdater_Finish(_ handle: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        try updater(handle).finish()
        return true
    }
}
