import DocLite
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The live C handles. A handle is an opaque number, never an address, so a
/// released or foreign handle is recognised (and never reused): every entry
/// point looks its handle arguments up here. An entry holds its object while
/// its C reference count is above zero.
final class HandleRegistry: @unchecked Sendable {   // its variables are behind `lock`
    static let shared = HandleRegistry()

    private final class Entry {
        let object: AnyObject
        var references = 1
        /// Borrowed C strings handed out for this handle, freed with it.
        var strings: [String: UnsafeMutablePointer<CChar>] = [:]

        init(_ object: AnyObject) { self.object = object }

        deinit { for pointer in strings.values { free(pointer) } }
    }

    private let lock = Lock()
    private var entries: [UInt: Entry] = [:]
    private var next: UInt = 0x1000
    /// The handle looked up last and its object (unretained: its entry holds
    /// it, and removing the entry clears this), read under the lock. C loops
    /// call one handle's getters over and over; this spares them the hashing.
    /// Behind a pointer so that reading it takes no exclusivity check.
    private let recent = UnsafeMutablePointer<(key: UInt, object: Unmanaged<AnyObject>?)>.allocate(capacity: 1)

    private init() {
        recent.initialize(to: (0, nil))
    }

    /// Registers `object` and returns a new handle with one reference.
    func register(_ object: AnyObject) -> OpaquePointer {
        lock.withLock {
            next += 0x10
            entries[next] = Entry(object)
            return OpaquePointer(bitPattern: next)!
        }
    }

    /// Adds a reference; false when the handle is not live.
    func retain(_ handle: UnsafeRawPointer?) -> Bool {
        lock.withLock {
            guard let entry = entries[key(handle)] else { return false }
            entry.references += 1
            return true
        }
    }

    /// Drops a reference; the last one unregisters the handle.
    func release(_ handle: UnsafeRawPointer?) {
        // The entry (and its object) is freed outside the lock: a deinit may release other handles.
        let removed: Entry? = lock.withLock {
            let key = key(handle)
            guard let entry = entries[key] else { return nil }
            entry.references -= 1
            guard entry.references == 0 else { return nil }
            if recent.pointee.key == key { recent.pointee = (0, nil) }
            return entries.removeValue(forKey: key)
        }
        _ = removed
    }

    var count: Int { lock.withLock { entries.count } }

    /// The object behind `handle` as a `T`; throws `invalidParameter` for NULL,
    /// released, foreign or wrongly typed handles.
    func object<T>(_ handle: OpaquePointer?, as type: T.Type, _ role: String) throws -> T {
        guard let handle else {
            throw DocLiteError(.invalidParameter, "\(role) is NULL")
        }
        let key = key(UnsafeRawPointer(handle))
        lock.lock()   // (not withLock: every entry point comes here, and a closure costs it)
        let object: AnyObject?
        if recent.pointee.key == key, let cached = recent.pointee.object {
            object = cached.takeUnretainedValue()
        } else {
            object = entries[key]?.object
            if let object { recent.pointee = (key, Unmanaged.passUnretained(object)) }
        }
        lock.unlock()
        guard let object else {
            throw DocLiteError(.invalidParameter, "\(role) is not a live handle (released, or not from DocLite)")
        }
        guard let typed = object as? T else {
            throw DocLiteError(.invalidParameter, "\(role) is a \(Self.typeName(object)), not a \(Self.typeName(T.self))")
        }
        return typed
    }

    /// A C copy of `value` (up to a NUL in it, which C text cannot hold), owned
    /// by the handle: valid while the handle lives and until the same `slot` is
    /// asked for with a different value.
    func borrowedString(_ handle: OpaquePointer?, slot: String, _ value: String) -> UnsafePointer<CChar>? {
        let text = value.utf8.contains(0) ? String(value.prefix { $0 != "\0" }) : value
        return lock.withLock {
            guard let entry = entries[key(UnsafeRawPointer(handle))] else { return nil }
            if let existing = entry.strings[slot], String(cString: existing) == text { return UnsafePointer(existing) }
            if let old = entry.strings[slot] { free(old) }
            let copy = strdup(text)!
            entry.strings[slot] = copy
            return UnsafePointer(copy)
        }
    }

    private func key(_ handle: UnsafeRawPointer?) -> UInt { UInt(bitPattern: handle) }

    private static func typeName(_ object: Any) -> String {
        switch object {
        case is Database, is Database.Type: return "CBLDatabase"
        case is CollectionRef, is CollectionRef.Type: return "CBLCollection"
        case is ScopeRef, is ScopeRef.Type: return "CBLScope"
        case is Document, is Document.Type, is MutableDocument.Type: return "CBLDocument"
        case is ListenerTokenRef, is ListenerTokenRef.Type: return "CBLListenerToken"
        case is ResultSetRef, is ResultSetRef.Type: return "CBLResultSet"
        case is Query, is Query.Type: return "CBLQuery"
        case is QueryBuilderRef, is QueryBuilderRef.Type: return "CBLQueryBuilder"
        case is QueryParametersRef, is QueryParametersRef.Type: return "CBLQueryParameters"
        case let part as QueryPartHandle: return type(of: part).cTypeName
        case let part as QueryPartHandle.Type: return part.cTypeName
        default: return "\(type(of: object))"
        }
    }
}
