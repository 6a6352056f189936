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
