/// Compiling properties, whole documents and META() of the query's sources.
extension QueryCompiler {
    mutating func property(_ path: [PathComponent], _ context: CompileContext) throws -> SQLFragment {
        let location = context.location
        if context.clause.allowsResultAliases, context.readsResultAliases, case .key(let first) = path[0],
           let aliased = resultAliases[ByteString(first)], !sources.contains(where: { $0.isNamed(first) }) {
            // A result alias used as a property: its expression, compiled without alias lookups.
            var value = try compile(aliased, context.with { $0.readsResultAliases = false; $0.resultFormOnly = false })
            if path.count > 1 {
                value = SQLFragment(sql: "doc_value(\(value.sql), \(SQLLiteral.string(PropertyPath.format(path.dropFirst()))))", kind: .any)
            }
            return value
        }
        let (index, rest) = try resolve(path, at: location)
        let source = sources[index]
        guard let first = rest.first else {
            readsBodies = true
            return wholeSource(index)
        }
        if case .key(let key) = first, let meta = MetaProperty(shortcut: key), source.unnest == nil {
            guard rest.count == 1 else {
                throw QueryValidator.error(at: location, "meta property '\(key)' has no sub-properties")
            }
            return try metaColumn(meta, of: index, at: location)
        }
        readsBodies = true
        let body = source.column("body"), pathText = PropertyPath.format(rest)
        let value = "doc_value(\(body), \(SQLLiteral.string(pathText)))"
        // (An element an array index holds is not read in place: the fused forms would keep SQLite from the index.)
        let property = source.arrayIndex == nil ? (body, pathText, source.collection.id) : nil
        return SQLFragment(sql: context.resultFormOnly ? value : projected(value), kind: .any, property: property)
    }

    /// The whole document of source `index`, its stored body checked whole
    /// (`doc_body`); for an UNNEST its element, a runtime value whose result
    /// form is the stored element (a boolean element keeps its type).
    mutating func wholeSource(_ index: Int) -> SQLFragment {
        let source = sources[index]
        guard source.unnest != nil else { return SQLFragment(sql: projected("doc_body(\(source.column("body")))"), kind: .scalar) }
        var fragment = SQLFragment(sql: projected(source.column("body")), kind: .any)
        fragment.resultForm = projected(source.column("element"))
        return fragment
    }

    /// The source a property path reads and the path within its documents.
    func resolve(_ path: [PathComponent], at location: String = "") throws -> (Int, ArraySlice<PathComponent>) {
        // `scope.collection.prop`: a collection named with its scope (LiteCore's resolvePropertyPath).
        if path.count >= 2, case .key(let scope) = path[0], case .key(let name) = path[1],
           let index = sources.firstIndex(where: { $0.isNamed(scope: scope, collection: name) }) {
            return (index, path.dropFirst(2))
        }
        if case .key(let first) = path[0], let index = try sourceIndex(qualifying: first, at: location) {
            return (index, path.dropFirst())
        }
        guard sources.count == 1 else {
            throw QueryValidator.error(at: location, "property '\(PropertyPath.format(path))' does not begin with a declared 'AS' alias "
                                        + "(with several data sources, qualify it: \(sources.map { "'\($0.alias).…'" }.joined(separator: ", ")))")
        }
        return (0, path[...])
    }

    /// The source `name` (an alias, or a bare collection name) qualifies a property
    /// with; nil for none. A collection name that two sources share is ambiguous.
    func sourceIndex(qualifying name: String, at location: String) throws -> Int? {
        if let aliased = sources.firstIndex(where: { $0.alias.caseInsensitiveCompare(name) == .orderedSame }) { return aliased }
        let named = sources.indices.filter { sources[$0].isNamed(name) }
        guard named.count <= 1 else {
            throw QueryValidator.error(at: location, "'\(name)' names \(named.count) data sources (qualify with "
                                        + named.map { "'\(sources[$0].collection.fullName).…'" }.joined(separator: " or ") + ", or give each an AS alias)")
        }
        return named.first
    }

    func sourceIndex(named name: String?, at location: String) throws -> Int {
        guard let name else { return 0 }
        guard let index = try sourceIndex(qualifying: name, at: location) else {
            throw QueryValidator.error(at: location, "unknown data source alias '\(name)' (declared: \(sources.map(\.alias).joined(separator: ", ")))")
        }
        return index
    }

    /// The source of `META()` or `META(alias)`: a collection, not an UNNEST.
    func metaSource(_ arguments: [QueryExpression], at location: String) throws -> Int {
        let index = try metaSourceIndex(arguments, at: location)
        guard sources[index].unnest == nil else {
            throw QueryValidator.error(at: location, "META() of '\(sources[index].alias)', an UNNEST alias: only documents have meta properties")
        }
        return index
    }

    private func metaSourceIndex(_ arguments: [QueryExpression], at location: String) throws -> Int {
        switch arguments.first {
        case nil:
            guard sources.count == 1 else {
                throw QueryValidator.error(at: location, "META() needs a data source alias when there are several data sources")
            }
            return 0
        case .literal(.string(let name)):
            guard arguments.count == 1 else { throw QueryValidator.error(at: location, "META() takes at most one alias") }
            return try sourceIndex(named: name, at: location)
        case .property(let path) where path.count == 1:
            guard arguments.count == 1, case .key(let name) = path[0] else {
                throw QueryValidator.error(at: location, "META() takes at most one alias")
            }
            return try sourceIndex(named: name, at: location)
        default:
            throw QueryValidator.error(at: location, "META() takes a data source alias")
        }
    }

    /// The SQL of meta property `meta` of source `index`.
    mutating func metaColumn(_ meta: MetaProperty, of index: Int, at location: String) throws -> SQLFragment {
        let source = sources[index]
        let sql: String
        switch meta {
        case .id: sql = source.column("key")
        case .sequence, .rowid: sql = source.column("sequence")
        case .deleted: return SQLFragment(sql: source.includesDeleted ? projected(source.column("deleted")) : "0", kind: .boolean)
        case .expiration: sql = try source.expirationSQL(at: location)
        case .revisionID: sql = "doc_revid(\(source.column("revid")))"
        }
        return SQLFragment(sql: projected(sql), kind: .scalar)
    }
}
