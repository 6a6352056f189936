/// A property path such as `address.zip` or `tags[0]` (``PropertyPath``),
/// ready for lookups in bodies.
///
/// A class, so that an SQL function can cache one per statement and re-resolve
/// its shared-key IDs in place; its steps live in a plain buffer so that a
/// lookup per row copies and retains nothing.
package final class KeyPath {
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

    /// Parses `path` (``PropertyPath``); throws for a malformed path.
    package convenience init(parsing path: String) throws {
        self.init(try PropertyPath.parse(path).map { component in
            switch component {
            case .key(let key): Step(index: nil, name: Array(key.utf8))
            case .index(let index): Step(index: index, name: [])
            }
        })
    }

    /// Looks up shared-key IDs, again only when the table has changed since last time.
    @inline(__always)
    package func resolve(with keys: SharedKeys) {
        let count = keys.count
        guard resolvedKeyCount.pointee != count else { return }
        resolvedKeyCount.pointee = count
        for i in steps.indices where steps[i].index == nil {
            steps[i].keyID = steps[i].name.withUnsafeBufferPointer { keys.id(of: $0) } ?? -1
        }
    }
}
