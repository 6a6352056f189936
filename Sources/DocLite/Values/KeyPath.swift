/// A parsed property path such as `address.zip` or `tags[0]`: dots separate
/// keys, `[n]` indexes an array (negative from the end), and a backslash escapes
/// the next character.
///
/// A class, so that an SQL function can cache one per statement and re-resolve
/// its shared-key IDs in place; its steps live in a plain buffer so that a
/// lookup per row copies and retains nothing.
final class KeyPath {
    struct Step {
        /// The array index, or nil for a dictionary key.
        let index: Int?
        /// The key's UTF-8 bytes (empty for an index).
        let name: [UInt8]
        /// The key's shared-key ID, or -1 when it has none.
        var keyID: Int = -1
    }

    let steps: UnsafeMutableBufferPointer<Step>
    /// The shared-key count when IDs were last looked up (-1: never).
    private let resolvedKeyCount = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    private init(_ steps: [Step]) {
        self.steps = .allocate(capacity: steps.count)
        _ = self.steps.initialize(from: steps)
        resolvedKeyCount.initialize(to: -1)
    }

    deinit {
        steps.deinitialize()
        steps.deallocate()
        resolvedKeyCount.deallocate()
    }

    /// Parses `path`; throws for an empty path, an empty key or a malformed index.
    convenience init(parsing path: String) throws {
        var steps: [Step] = []
        var key: [UInt8] = []
        var bytes = Array(path.utf8)[...]
        var pendingKey = true   // a key is expected (start, or after '.')
        func fail(_ why: String) -> DocLiteError {
            DocLiteError(.invalidQuery, "invalid property path '\(path)': \(why)")
        }
        func flushKey() throws {
            if pendingKey {
                guard !key.isEmpty else { throw fail("empty property name") }
                steps.append(Step(index: nil, name: key))
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
                steps.append(Step(index: index, name: []))
                bytes = bytes[(close + 1)...]
            default:
                guard pendingKey else { throw fail("expected '.' or '[' after ']'") }
                key.append(byte)
            }
        }
        if pendingKey || !key.isEmpty { try flushKey() }
        self.init(steps)
    }

    /// Looks up shared-key IDs, again only when the table has changed since last time.
    @inline(__always)
    func resolve(with keys: SharedKeys) {
        let count = keys.count
        guard resolvedKeyCount.pointee != count else { return }
        resolvedKeyCount.pointee = count
        for i in steps.indices where steps[i].index == nil {
            steps[i].keyID = steps[i].name.withUnsafeBufferPointer { keys.id(of: $0) } ?? -1
        }
    }
}
