/// Result column titles, by Couchbase Lite's rules: an alias; else a property's
/// last key (`name.first` → `first`), a meta property's name (`id`,
/// `sequence`, …), or a data source's name for a whole document; else `$1`,
/// `$2`, … counting the unnamed columns; a repeated name becomes `name #2`.
enum ColumnNaming {
    static func names(for items: [ResultItem], sources: [ResolvedSource]) throws -> [String] {
        var used = Set<String>()
        for alias in items.compactMap(\.alias) where !used.insert(alias).inserted {
            throw JSONQueryParser.error(at: "WHAT", "duplicate column name '\(alias)'")
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
                } while used.contains(name)
            } else {
                var suffix = 2
                while used.contains(name) {
                    name = "\(base) #\(suffix)"
                    suffix += 1
                }
            }
            used.insert(name)
            return name
        }
    }

    private static func baseName(_ expression: QueryExpression, sources: [ResolvedSource]) -> String {
        switch expression {
        case .all(let name):
            return (name.flatMap { name in sources.first { $0.isNamed(name) } } ?? sources[0]).columnName
        case .property(let path):
            if path.count == 1, case .key(let first) = path[0], let source = sources.first(where: { $0.isNamed(first) }) {
                return source.columnName
            }
            return lastKey(path)
        case .nested(_, let path):
            return lastKey(path)
        default:
            return ""
        }
    }

    /// The last component when it is a key (meta keys without their `_`); empty for an index.
    private static func lastKey(_ path: [PathComponent]) -> String {
        guard case .key(let key)? = path.last else { return "" }
        return QueryCompiler.metaProperties.contains(key) && key != "_rowid" ? String(key.dropFirst()) : key
    }
}
