/// The per-database table of shared keys: short property names mapped to small
/// integer IDs, so that a stored body names a common key in one byte (as Fleece does).
///
/// IDs are assigned on first sight while encoding, in the same transaction as the
/// document that introduced them; ``rollback(to:)`` forgets IDs of an aborted
/// transaction. Lookups work on raw UTF-8 bytes, so encoding and the SQL accessors
/// never create a Swift `String` per key.
///
/// Thread rule: a change happens with both the database lock and ``lock`` held;
/// a read holds either one (SQL functions run under the database lock, documents
/// read under ``lock``).
package final class SharedKeys: @unchecked Sendable {
    /// Guards reads from threads that do not hold the database lock.
    let lock = Lock()

    /// At most this many keys are shared; later new keys are stored as strings.
    static let maxCount = 2048
    /// Keys longer than this are never shared.
    static let maxKeyLength = 16

    /// The keys and their hash index. Kept behind a pointer: the hot lookups
    /// then pay no dynamic exclusivity checks, which class properties would.
    private struct Table {
        /// Key `id` is `bytes[16 * id ..< 16 * id + lengths[id]]`.
        var bytes: [UInt8] = []
        var lengths: [UInt8] = []
        /// Open-addressing hash table of key IDs + 1 (0 = empty slot).
        var slots = [Int32](repeating: 0, count: 64)
    }

    private let table: UnsafeMutablePointer<Table> = {
        let table = UnsafeMutablePointer<Table>.allocate(capacity: 1)
        table.initialize(to: Table())
        return table
    }()

    /// An empty table.
    package init() {}

    deinit {
        table.deinitialize(count: 1)
        table.deallocate()
    }

    /// The number of keys.
    var count: Int { table.pointee.lengths.count }

    /// Whether `key` may receive a shared ID: 1–16 bytes of ASCII letters, digits, `_` and `-`.
    static func isEligible(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !key.isEmpty, key.count <= maxKeyLength else { return false }
        for byte in key {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                continue
            default:
                return false
            }
        }
        return true
    }

    /// The ID of `key`, or nil when it has none.
    func id(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard key.count <= Self.maxKeyLength else { return nil }
        return table.pointee.slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var slot = Self.hash(key) & mask
            while true {
                let entry = Int(slots[slot])
                if entry == 0 { return nil }
                if bytesEqual(id: entry - 1, key) { return entry - 1 }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The ID of `key`, or nil when it has none.
    func id(of key: String) -> Int? {
        var key = key
        return key.withUTF8 { id(of: $0) }
    }

    /// The ID of `key`, assigning the next one if the key is eligible and the
    /// table has room (the database persists new IDs before its commit).
    func idOrAssign(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        if let existing = id(of: key) { return existing }
        guard count < Self.maxCount, Self.isEligible(key) else { return nil }
        append(key)
        return count - 1
    }

    /// Calls `body` with the UTF-8 bytes of key `id`.
    func withKey<R>(_ id: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        guard id >= 0, id < count else { return nil }
        let length = Int(table.pointee.lengths[id])
        return try table.pointee.bytes.withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[16 * id ..< 16 * id + length]))
        }
    }

    /// Key `id` as a string.
    func key(_ id: Int) -> String? {
        withKey(id) { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends a key (at most 16 bytes) read back from storage or newly assigned.
    func append(_ key: UnsafeBufferPointer<UInt8>) {
        precondition(key.count <= Self.maxKeyLength, "shared keys are at most 16 bytes")
        table.pointee.bytes.append(contentsOf: key)
        table.pointee.bytes.append(contentsOf: repeatElement(0, count: 16 - key.count))
        table.pointee.lengths.append(UInt8(key.count))
        if count * 2 > table.pointee.slots.count { rehash(capacity: table.pointee.slots.count * 2) } else { insertSlot(count - 1) }
    }

    func append(_ key: String) {
        var key = key
        key.withUTF8 { append($0) }
    }

    /// Forgets every ID at or above `count` (keys assigned by a rolled-back transaction).
    func rollback(to count: Int) {
        guard count < self.count else { return }
        table.pointee.lengths.removeSubrange(count...)
        table.pointee.bytes.removeSubrange((16 * count)...)
        rehash(capacity: table.pointee.slots.count)
    }

    @inline(__always)
    private func bytesEqual(id: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard Int(table.pointee.lengths[id]) == key.count else { return false }
        guard let base = key.baseAddress else { return true }
        return table.pointee.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + 16 * id, base, key.count) == 0 }
    }

    private func insertSlot(_ id: Int) {
        let hash = withKey(id) { Self.hash($0) }!
        let mask = table.pointee.slots.count - 1
        var slot = hash & mask
        while table.pointee.slots[slot] != 0 { slot = (slot + 1) & mask }
        table.pointee.slots[slot] = Int32(id + 1)
    }

    private func rehash(capacity: Int) {
        table.pointee.slots = [Int32](repeating: 0, count: capacity)
        for id in 0..<count { insertSlot(id) }
    }

    /// FNV-1a over the key bytes.
    @inline(__always)
    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt32 = 2_166_136_261
        for byte in key { h = (h ^ UInt32(byte)) &* 16_777_619 }
        return Int(h)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
