import Foundation

/// Couchbase Lite's rules for document IDs and revision IDs.
enum DocumentIDs {
    static let maxLength = 240
    /// URL-safe characters in ascending byte order, so that a prefix written with them sorts as its value.
    private static let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    /// A new ID in Couchbase Lite's form, `~` and 22 URL-safe characters: the
    /// first 8 the time in milliseconds (48 bits), the other 14 random (84
    /// bits, a collision within one millisecond as likely as among 2^42 IDs).
    /// Couchbase Lite's are all random; these sort by creation, so a bulk save
    /// appends to the key index instead of writing all over it (docs/performance.md).
    static func generate(at date: Date = Date()) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "~")]
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        for shift in stride(from: 42, through: 0, by: -6) { bytes.append(alphabet[Int(milliseconds >> UInt64(shift) & 63)]) }
        randomBits.take(14) { bytes.append(alphabet[Int($0)]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// System randomness read 4 KiB at a time from /dev/urandom: a draw of
    /// `SystemRandomNumberGenerator` is a getrandom system call, and one per
    /// character made imports spend half their time there.
    private static let randomBits = RandomPool()

    /// Throws `badDocID` unless `id` is 1–240 bytes of UTF-8 without control
    /// characters and not starting with `_`.
    static func validate(_ id: String) throws {
        let utf8 = id.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength, utf8.first != UInt8(ascii: "_"),
              !utf8.contains(where: { $0 < 0x20 }) else {
            throw DocLiteError(.badDocID, "invalid document ID \(DocLiteError.quoted(id)): IDs are 1–\(maxLength) bytes of UTF-8, without control characters, not starting with '_'")
        }
    }
}

/// A revision ID in Couchbase Lite 3.x form, `<generation>-<SHA-1 hex>`.
enum RevisionID {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A new revision ID in its text form and its stored form: the generation
    /// (4 bytes, big-endian) and the 20 digest bytes, 24 bytes instead of 42.
    struct New {
        let text: String
        let stored: [UInt8]
    }

    /// The generation of `revisionID` (the number before the dash), 0 for nil.
    static func generation(of revisionID: String?) -> Int {
        guard let revisionID, let dash = revisionID.firstIndex(of: "-") else { return 0 }
        return Int(revisionID[..<dash]) ?? 0
    }

    /// The next revision after `parent`: the digest covers the parent ID (after
    /// a one-byte length), the deletion flag and the body, as Couchbase Lite's does.
    static func next(after parent: String?, deleted: Bool, body: [UInt8], sha1: SHA1) -> New {
        let generation = UInt32(clamping: self.generation(of: parent) + 1)
        var stored: [UInt8] = []
        stored.reserveCapacity(24)
        withUnsafeBytes(of: generation.bigEndian) { stored.append(contentsOf: $0) }
        var parent = parent ?? ""
        sha1.begin()
        parent.withUTF8 { parent in
            withUnsafeBytes(of: UInt8(min(parent.count, 255))) { sha1.update($0) }
            sha1.update(UnsafeRawBufferPointer(parent))
        }
        withUnsafeBytes(of: UInt8(deleted ? 1 : 0)) { sha1.update($0) }
        body.withUnsafeBytes { sha1.update($0) }
        sha1.finish(appendingTo: &stored)
        return New(text: decode(stored: stored), stored: stored)
    }

    /// `text` in its stored form, or nil when it is not a revision ID DocLite
    /// writes (`<generation>-<40 lowercase hex digits>`, generation 1 or more).
    static func parse(_ text: String) -> New? {
        let parts = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 9, parts[0].first != UInt8(ascii: "0"), parts[1].count == 40,
              let generation = UInt32(Substring(parts[0])), generation > 0 else { return nil }
        var stored: [UInt8] = []
        stored.reserveCapacity(24)
        withUnsafeBytes(of: generation.bigEndian) { stored.append(contentsOf: $0) }
        var high: UInt8?
        for digit in parts[1] {
            guard let value = hexDigits.firstIndex(of: digit) else { return nil }
            if let first = high {
                stored.append(first << 4 | UInt8(value))
                high = nil
            } else {
                high = UInt8(value)
            }
        }
        return New(text: text, stored: stored)
    }

    /// The revision ID whose stored form (``New/stored``) is `bytes`.
    static func decode<Bytes: RandomAccessCollection<UInt8>>(stored bytes: Bytes) -> String where Bytes.Index == Int {
        guard bytes.count == 24 else { return String(decoding: bytes, as: UTF8.self) }
        let start = bytes.startIndex
        let generation = Array(String(bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }).utf8)
        // One allocation: "<generation>-" and 40 hex digits.
        return String(unsafeUninitializedCapacity: generation.count + 41) { text in
            _ = text.initialize(from: generation)
            text[generation.count] = UInt8(ascii: "-")
            for (i, byte) in bytes[(start + 4)...].enumerated() {
                text[generation.count + 1 + 2 * i] = hexDigits[Int(byte >> 4)]
                text[generation.count + 2 + 2 * i] = hexDigits[Int(byte & 0xF)]
            }
            return generation.count + 41
        }
    }
}

/// A thread-safe pool of random bytes from the system generator.
private final class RandomPool: @unchecked Sendable {   // its variables are behind `lock`
    private let lock = Lock()
    private var bytes: [UInt8] = []
    private var next = 0

    /// Calls `body` with `count` random 6-bit values.
    func take(_ count: Int, _ body: (UInt8) -> Void) {
        lock.withLock {
            for _ in 0..<count {
                if next == bytes.count { refill() }
                body(bytes[next] & 63)
                next += 1
            }
        }
    }

    private func refill() {
        bytes = [UInt8](repeating: 0, count: 4096)
        let device = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        let filled = device < 0 ? -1 : bytes.withUnsafeMutableBytes { read(device, $0.baseAddress, $0.count) }
        if device >= 0 { close(device) }
        if filled != bytes.count {   // (not expected: fall back on the generator, 8 bytes a draw)
            var generator = SystemRandomNumberGenerator()
            bytes = (0..<64).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }
        }
        next = 0
    }
}
