/// The text form of property paths, as Couchbase Lite writes them: dots
/// separate keys, `[n]` indexes an array (negative from the end), and a
/// backslash escapes the next character (`a\.b` is the key `a.b`).
enum PropertyPath {
    /// Parses `path`; throws for an empty path, an empty key or a malformed index.
    static func parse(_ path: String) throws -> [PathComponent] {
        var components: [PathComponent] = []
        var key: [UInt8] = []
        var bytes = Array(path.utf8)[...]
        var pendingKey = true   // a key is expected (start, or after '.')
        func fail(_ why: String) -> DocLiteError {
            DocLiteError(.invalidQuery, "invalid property path '\(path)': \(why)")
        }
        func flushKey() throws {
            if pendingKey {
                guard !key.isEmpty else { throw fail("empty property name") }
                components.append(.key(String(decoding: key, as: UTF8.self)))
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
        return components
    }

    /// The text of `components`, escaped so that ``parse(_:)`` reads them back.
    /// (Escaped byte by byte, as `parse` reads: a `[` followed by a combining
    /// mark is one Character, but still a `[`.)
    static func format(_ components: some Swift.Collection<PathComponent>) -> String {
        var text: [UInt8] = []
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]".utf8
            case .key(let key):
                if !text.isEmpty { text.append(UInt8(ascii: ".")) }
                for (i, byte) in key.utf8.enumerated() {
                    if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "\\") || (i == 0 && byte == UInt8(ascii: "$")) {
                        text.append(UInt8(ascii: "\\"))
                    }
                    text.append(byte)
                }
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// One step of a property path: a dictionary key or an array index
/// (negative indexes count from the end).
enum PathComponent: Hashable, Sendable {
    case key(String)
    case index(Int)

    /// Keys compare as bytes, as the stored keys do.
    static func == (a: PathComponent, b: PathComponent) -> Bool {
        switch (a, b) {
        case (.key(let x), .key(let y)): return ByteString(x) == ByteString(y)
        case (.index(let x), .index(let y)): return x == y
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .key(let key): hasher.combine(ByteString(key))
        case .index(let index): hasher.combine(index)
        }
    }
}
