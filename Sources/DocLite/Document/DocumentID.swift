/// Couchbase Lite's rules for document IDs and revision IDs.
enum DocumentID {
    static let maxLength = 240
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// A new random ID in Couchbase Lite's form: `~` and 22 URL-safe characters.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = [UInt8(ascii: "~")]
        for _ in 0..<22 { bytes.append(alphabet[Int(generator.next() % 64)]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Throws `badDocID` unless `id` is 1–240 bytes of UTF-8 without control
    /// characters and not starting with `_`.
    static func validate(_ id: String) throws {
        let utf8 = id.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength, utf8.first != UInt8(ascii: "_"),
              !utf8.contains(where: { $0 < 0x20 }) else {
            throw DocLiteError(.badDocID, "invalid document ID \"\(id)\": IDs are 1–\(maxLength) bytes of UTF-8, without control characters, not starting with '_'")
        }
    }
}

/// A revision ID in Couchbase Lite 3.x form, `<generation>-<SHA-1 hex>`.
enum RevisionID {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The revision ID whose stored form (``New/stored``) is `bytes`.
    static func decode<Bytes: RandomAccessCollection<UInt8>>(stored bytes: Bytes) -> String where Bytes.Index == Int {
        guard bytes.count == 24 else { return String(decoding: bytes, as: UTF8.self) }
        let start = bytes.startIndex
        let generation = bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        return "\(generation)-" + hexString(bytes[(start + 4)...])
    }

    private static func hexString<Bytes: Swift.Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(unsafeUninitializedCapacity: 2 * bytes.count) { text in
            for (i, byte) in bytes.enumerated() {
                text[2 * i] = hexDigits[Int(byte >> 4)]
                text[2 * i + 1] = hexDigits[Int(byte & 0xF)]
            }
            return 2 * bytes.count
        }
    }

    /// The generation of `revisionID` (the number before the dash), 0 for nil.
    static func generation(of revisionID: String?) -> Int {
        guard let revisionID, let dash = revisionID.firstIndex(of: "-") else { return 0 }
        return Int(revisionID[..<dash]) ?? 0
    }

    /// A new revision ID in its text form and its stored form: the generation
    /// (4 bytes, big-endian) and the 20 digest bytes, 24 bytes instead of 42.
    struct New {
        let text: String
        let stored: [UInt8]
    }

    /// The next revision after `parent`: the digest covers the parent ID (after
    /// a one-byte length), the deletion flag and the body, as Couchbase Lite's does.
    static func next(after parent: String?, deleted: Bool, body: [UInt8], sha1: SHA1) -> New {
        var header = Array((parent ?? "").utf8)
        header.insert(UInt8(min(header.count, 255)), at: 0)
        header.append(deleted ? 1 : 0)
        let digest = header.withUnsafeBytes { header in body.withUnsafeBytes { sha1.digest(header, $0) } }
        let generation = UInt32(clamping: self.generation(of: parent) + 1)
        return New(text: "\(generation)-" + hexString(digest),
                   stored: withUnsafeBytes(of: generation.bigEndian, Array.init) + digest)
    }
}
