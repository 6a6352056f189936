/// A property key inside a ``KeyPath``: its UTF-8 name and, when the database
/// shares it, its shared-key ID (-1 otherwise).
struct PathKey {
    let name: [UInt8]
    var id: Int = -1
}

/// A parsed property path such as `address.zip` or `tags[0]`: dots separate
/// keys, `[n]` indexes an array (negative from the end), and a backslash escapes
/// the next character.
struct KeyPath {
    enum Component {
        case key(PathKey)
        case index(Int)
    }

    private(set) var components: [Component]
    /// The shared-key count when IDs were last looked up (-1: never).
    private var resolvedKeyCount = -1

    init(components: [Component]) {
        self.components = components
    }

    /// Parses `path`; throws for an empty path, an empty key or a malformed index.
    init(parsing path: String) throws {
        var components: [Component] = []
        var key: [UInt8] = []
        var bytes = Array(path.utf8)[...]
        var pendingKey = true   // a key is expected (start, or after '.')
        func fail(_ why: String) -> DocLiteError {
            DocLiteError(.invalidQuery, "invalid property path '\(path)': \(why)")
        }
        func flushKey() throws {
            if pendingKey {
                guard !key.isEmpty else { throw fail("empty property name") }
                components.append(.key(PathKey(name: key)))
            }
            key.removeAll()
        }
        guard !bytes.isEmpty else { throw fail("empty path") }
        if bytes.first == UInt8(ascii: "[") { pendingKey = false }
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "\\"):
                guard let escaped = bytes.popFirst() else { throw fail("trailing backslash") }
                key.append(escaped)
            case UInt8(ascii: "."):
                try flushKey()
                pendingKey = true
            case UInt8(ascii: "["):
                try flushKey()
                pendingKey = false
                guard let close = bytes.firstIndex(of: UInt8(ascii: "]")),
                      let index = Int(String(decoding: bytes[bytes.startIndex..<close], as: UTF8.self)) else {
                    throw fail("array index must be an integer in brackets")
                }
                components.append(.index(index))
                bytes = bytes[(close + 1)...]
            default:
                guard pendingKey else { throw fail("expected '.' or '[' after ']'") }
                key.append(byte)
            }
        }
        if pendingKey || !key.isEmpty { try flushKey() }
        self.components = components
    }

    /// Looks up shared-key IDs, again only when the table has grown since last time.
    @inline(__always)
    mutating func resolve(with keys: SharedKeys) {
        guard resolvedKeyCount != keys.count else { return }
        resolvedKeyCount = keys.count
        for i in components.indices {
            guard case .key(var key) = components[i] else { continue }
            key.id = key.name.withUnsafeBufferPointer { keys.id(of: $0) } ?? -1
            components[i] = .key(key)
        }
    }
}
