#if canImport(Glibc)
import Glibc
#endif

/// A string compared, hashed and ordered by its UTF-8 bytes.
///
/// Swift's `String` equality is canonical equivalence: `"é" == "e\u{301}"`,
/// and a `Dictionary` or `Set` keyed by `String` holds one of the two. JSON
/// object keys, SQL text and stored values are byte strings (RFC 8259, SQLite
/// and Couchbase Lite's Fleece compare bytes), so anything that must tell two
/// such strings apart is keyed by this.
package struct ByteString: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The string.
    package let string: String

    package init(_ string: String) { self.string = string }

    package init(stringLiteral string: String) { self.string = string }

    package static func == (a: ByteString, b: ByteString) -> Bool {
        guard a.string.utf8.count == b.string.utf8.count else { return false }
        var (x, y) = (a.string, b.string)
        return x.withUTF8 { x in y.withUTF8 { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    package static func < (a: ByteString, b: ByteString) -> Bool {
        var (x, y) = (a.string, b.string)
        return x.withUTF8 { x in
            y.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(string.utf8.count)
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    package var description: String { string }
}

extension Dictionary where Key == ByteString {
    /// A dictionary keyed by the bytes of `members`' keys.
    package init(stringKeys members: [String: Value]) {
        self.init(uniqueKeysWithValues: members.map { (ByteString($0.key), $0.value) })
    }

    /// The members keyed by Swift `String`s, for Swift's `[String: …]` API:
    /// of keys that differ only in Unicode normalisation (which `String`
    /// calls equal), the one last in byte order stands for all.
    package var stringKeyed: [String: Value] {
        Dictionary<String, Value>(sorted { $0.key < $1.key }.map { ($0.key.string, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
