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
final class SharedKeys: @unchecked Sendable {
    /// Guards reads from threads that do not hold the database lock.
    let lock = Lock()

    /// At most this many keys are shared; later new keys are stored as strings.
    static let maxCount = 2048
    /// Keys longer than this are never shared.
    static let maxKeyLength = 16

    /// Key bytes, concatenated; key `id` spans `ends[id-1]..<ends[id]` (`ends[-1]` = 0).
    private var storage: [UInt8] = []
    private var ends: [Int] = []
    /// Open-addressing hash table of key IDs + 1 (0 = empty slot).
    private var slots = [Int32](repeating: 0, count: 64)

    /// The number of keys; kept in a plain cell so the SQL functions read it per row cheaply.
    private let countCell: UnsafeMutablePointer<Int> = {
        let cell = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        cell.initialize(to: 0)
        return cell
    }()

    var count: Int { countCell.pointee }

    deinit { countCell.deallocate() }

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
        let mask = slots.count - 1
        var slot = Self.hash(key) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if bytesEqual(id: entry - 1, key) { return entry - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// The ID of `key`, or nil when it has none.
    func id(of key: String) -> Int? {
        var key = key
        return key.withUTF8 { id(of: $0) }
    }

    /// The ID of `key`, assigning the next one if the key is eligible and the table has room.
    /// `isNew` tells the caller to persist the assignment.
    func idOrAssign(_ key: UnsafeBufferPointer<UInt8>, isNew: inout Bool) -> Int? {
        if let existing = id(of: key) { return existing }
        guard count < Self.maxCount, Self.isEligible(key) else { return nil }
        append(key)
        isNew = true
        return count - 1
    }

    /// Calls `body` with the UTF-8 bytes of key `id`.
    func withKey<R>(_ id: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        guard id >= 0, id < count else { return nil }
        let start = id == 0 ? 0 : ends[id - 1]
        return try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<ends[id]])) }
    }

    /// Key `id` as a string.
    func key(_ id: Int) -> String? {
        withKey(id) { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends a key read back from storage (IDs must arrive in order).
    func append(_ key: UnsafeBufferPointer<UInt8>) {
        storage.append(contentsOf: key)
        ends.append(storage.count)
        countCell.pointee = ends.count
        if count * 2 > slots.count { rehash(capacity: slots.count * 2) } else { insertSlot(count - 1) }
    }

    func append(_ key: String) {
        var key = key
        key.withUTF8 { append($0) }
    }

    /// Forgets every ID at or above `count` (keys assigned by a rolled-back transaction).
    func rollback(to count: Int) {
        guard count < self.count else { return }
        ends.removeSubrange(count...)
        countCell.pointee = ends.count
        storage.removeSubrange((ends.last ?? 0)...)
        rehash(capacity: slots.count)
    }

    private func bytesEqual(id: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = id == 0 ? 0 : ends[id - 1]
        guard ends[id] - start == key.count else { return false }
        return storage.withUnsafeBufferPointer { stored in
            memcmp(stored.baseAddress! + start, key.baseAddress!, key.count) == 0
        }
    }

    private func insertSlot(_ id: Int) {
        let mask = slots.count - 1
        let start = id == 0 ? 0 : ends[id - 1]
        var slot = storage.withUnsafeBufferPointer {
            Self.hash(UnsafeBufferPointer(rebasing: $0[start..<ends[id]]))
        } & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(id + 1)
    }

    private func rehash(capacity: Int) {
        slots = [Int32](repeating: 0, count: capacity)
        for id in 0..<count { insertSlot(id) }
    }

    /// FNV-1a over the key bytes.
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
