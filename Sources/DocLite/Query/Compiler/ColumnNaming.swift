/// Result column titles, by Couchbase Lite's rules: an alias; else a property's
/// last key (`name.first` → `first`), a meta property's name (`id`,
/// `sequence`, …), or a data source's name for a whole document; else `$1`,
/// `$2`, … counting the unnamed columns; a repeated name becomes `name #2`.
enum ColumnNaming {
    static func names(for items: [ResultItem], sources: [ResolvedSource]) throws -> [String] {
        var used = Set<ByteString>()   // (bytes: "é" and "e\u{301}" are two names)
        for alias in items.compactMap(\.alias) where !used.insert(ByteString(alias)).inserted {
            throw QueryValidator.error(at: "WHAT", "duplicate column name '\(alias)'")
        }
        var unnamedCount = 0
        return items.map { item in
            if let alias = item.alias { return alias }
            let base = baseName(item.expression, sources: sources)
            var name = base
            if base.isEmpty {
                repeat {
                    unnamedCount += 1
                    name = "$\(unnamedCount)"
                } while used.contains(ByteString(name))
            } else {
                var suffix = 2
                while used.contains(ByteString(name)) {
                    name = "\(base) #\(suffix)"
                    suffix += 1
                }
            }
            used.insert(ByteString(name))
            return name
        }
    }

    private static func baseName(_ expression: QueryExpression, sources: [ResolvedSource]) -> String {
        switch expression {
        case .all(let name):
            return (name.flatMap { name in sources.first { $0.isNamed(name) } } ?? sources[0]).columnName
        case .property(let path):
            var rest = path[...]
            if case .key(let first) = path[0], let source = sources.first(where: { $0.isNamed(first) }) {
                guard path.count > 1 else { return source.columnName }
                rest = path.dropFirst()
            }
            if rest.count == 1, case .key(let key) = rest[rest.startIndex], let meta = MetaProperty(shortcut: key) {
                return meta.rawValue   // `._id` is titled `id`, as a META() property is
            }
            return lastKey(rest)
        case .nested(_, let path):
            return lastKey(path[...])
        default:
            // The whole META() dictionary is titled as its source, as in LiteCore.
            guard let arguments = expression.arguments(ofCallTo: .meta) else { return "" }
            let alias: String? = switch arguments.first {
            case .literal(.string(let name))?: name
            case .property(let path)? where path.count == 1: if case .key(let name) = path[0] { name } else { nil }
            default: nil
            }
            return (alias.flatMap { name in sources.first { $0.isNamed(name) } } ?? sources[0]).columnName
        }
    }

    /// The last component when it is a key; empty for an index.
    private static func lastKey(_ path: ArraySlice<PathComponent>) -> String {
        guard case .key(let key)? = path.last else { return "" }
        return key
    }
}
