import Foundation

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
