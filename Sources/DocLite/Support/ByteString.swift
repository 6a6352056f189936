/// A string compared, hashed and ordered by its UTF-8 bytes.
///
/// Swift's `String` equality is canonical equivalence: `"é" == "e\u{301}"`,
/// and a `Dictionary` or `Set` keyed by `String` holds one of the two. JSON
/// object keys, SQL text and stored values are byte strings (RFC 8259, SQLite
/// and Couchbase Lite's Fleece compare bytes), so anything that must tell two
/// such strings apart is keyed by this.
struct ByteString: Hashable, Comparable, Sendable, CustomStringConvertible {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (a: ByteString, b: ByteString) -> Bool {
        a.string.utf8.elementsEqual(b.string.utf8)
    }

    static func < (a: ByteString, b: ByteString) -> Bool {
        a.string.utf8.lexicographicallyPrecedes(b.string.utf8)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(string.utf8.count)
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    var description: String { string }
}
