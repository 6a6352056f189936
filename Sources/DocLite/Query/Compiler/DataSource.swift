/// A `FROM` item resolved against the database: the collection it reads, the
/// names a query may use for it, and its SQL alias.
struct ResolvedSource {
    /// The collection read; for an UNNEST, the main source's.
    let collection: Collection
    /// The alias properties are qualified with (explicit `AS`, else the collection as written).
    let alias: String
    /// Whether `alias` came from `AS`.
    let hasExplicitAlias: Bool
    /// The result column title of the whole document (`SELECT *`).
    var columnName: String
    /// The SQL table alias (`s0`, `s1`, …); nil when compiling an index expression.
    var sqlAlias: String?
    let join: DataSourceItem.JoinKind?
    let on: QueryExpression?
    /// For an UNNEST: the array whose elements are this source's rows (each
    /// element stands for the document: `.alias` is the element, `.alias.p` its property).
    var unnest: QueryExpression?
    /// Whether the query reads `_deleted` or `META()` of this source, so that
    /// tombstones are included (Couchbase Lite's rule).
    var includesDeleted = false
    /// For an UNNEST an array index serves: the index's table, and the source
    /// whose documents' array it unnests.
    var arrayIndex: (table: String, owner: Int)?
    /// Whether META().expiration is the live table's column, as in an index
    /// of a file of schema 6 or older (``expirationSQL(at:)``).
    var readsExpirationColumn = false

    /// `column` qualified with the SQL alias. An UNNEST's body is its element,
    /// read from its result form, the column `element` of `doc_each` or of an
    /// array index's table (see ``QueryFunctions``' `doc_element`).
    func column(_ column: String) -> String {
        guard unnest != nil, column == "body" else { return sqlAlias.map { "\($0).\(column)" } ?? column }
        return "doc_element(\(self.column("element")))"
    }

    /// The same source with unqualified columns, as an index expression reads them.
    var unqualified: ResolvedSource {
        var copy = self
        copy.sqlAlias = nil
        return copy
    }

    /// Whether a path starting with `name` is qualified with this source.
    func isNamed(_ name: String) -> Bool {
        if name.caseInsensitiveCompare(alias) == .orderedSame { return true }
        return !hasExplicitAlias && name.caseInsensitiveCompare(collection.name) == .orderedSame
    }

    /// Whether `scope.name` (two path components) names this source: its alias,
    /// or, without an explicit alias, its collection with its scope.
    func isNamed(scope: String, collection name: String) -> Bool {
        guard unnest == nil else { return false }
        if "\(scope).\(name)".caseInsensitiveCompare(alias) == .orderedSame { return true }
        return !hasExplicitAlias && scope.caseInsensitiveCompare(collection.scopeName) == .orderedSame
            && name.caseInsensitiveCompare(collection.name) == .orderedSame
    }

    /// The table expression of the `FROM` clause.
    var tableSQL: String {
        let live = Schema.liveTable(collection.id)
        guard includesDeleted else { return live }
        return "(SELECT sequence, key, revid, body, 0 AS deleted FROM \(live) "
            + "UNION ALL SELECT sequence, key, revid, body, 1 FROM tombstones WHERE collection = \(collection.id))"
    }

    /// The document's expiration time, read from the table every collection
    /// shares; so an index (whose expressions read one row) cannot hold it.
    func expirationSQL(at location: String) throws -> String {
        if readsExpirationColumn { return column("expiration") }
        guard let sqlAlias else {
            throw QueryValidator.error(at: location, "META().expiration cannot be indexed: expiration times are kept apart from documents")
        }
        return "(SELECT expiration FROM expirations WHERE collection = \(collection.id) AND key = \(sqlAlias).key)"
    }

    /// Resolves the `FROM` items of a statement (the default collection when there are none).
    static func resolve(_ items: [DataSourceItem], in database: Database) throws -> [ResolvedSource] {
        guard !items.isEmpty else {
            return [ResolvedSource(collection: try database.defaultCollection(), alias: "_doc", hasExplicitAlias: false,
                                   columnName: "_doc", sqlAlias: "s0", join: nil, on: nil)]
        }
        var sources: [ResolvedSource] = []
        for (i, item) in items.enumerated() {
            let location = "FROM[\(i)]"
            if let unnest = item.unnest {
                guard let alias = item.alias else { throw QueryValidator.error(at: location, "UNNEST needs an alias ('AS')") }
                try checkUnique(alias, in: sources, at: location)
                sources.append(ResolvedSource(collection: sources[0].collection, alias: alias, hasExplicitAlias: true,
                                              columnName: alias, sqlAlias: "s\(i)", join: nil, on: nil, unnest: unnest))
                continue
            }
            let collection = try lookUp(item, in: database, at: location)
            let written = item.collection ?? database.name
            let alias = item.alias ?? written
            try checkUnique(alias, in: sources, at: location)
            let namesDatabase = item.collection == nil || (written == database.name && collection.name != written)
            let columnName = item.alias ?? (namesDatabase ? database.name : written == "_" ? "_" : collection.name)
            sources.append(ResolvedSource(collection: collection, alias: alias, hasExplicitAlias: item.alias != nil,
                                          columnName: columnName, sqlAlias: "s\(i)", join: item.join, on: item.on))
        }
        // Collections of one name in two scopes: as LiteCore (in source order), a source whose
        // title another source also has is titled `scope.collection`.
        for i in sources.indices where !sources[i].hasExplicitAlias && sources[i].columnName == sources[i].collection.name
            && sources.indices.contains(where: { $0 != i && sources[$0].columnName == sources[i].columnName }) {
            sources[i].columnName = sources[i].collection.fullName
        }
        return sources
    }

    private static func checkUnique(_ alias: String, in sources: [ResolvedSource], at location: String) throws {
        if sources.contains(where: { $0.alias.caseInsensitiveCompare(alias) == .orderedSame }) {
            throw QueryValidator.error(at: location, "duplicate data source alias '\(alias)'")
        }
    }

    private static func lookUp(_ item: DataSourceItem, in database: Database, at location: String) throws -> Collection {
        guard let written = item.collection else { return try database.defaultCollection() }
        var scope = item.scope.map { $0 == "_" ? Collection.defaultName : $0 } ?? Collection.defaultName
        var name = written
        if item.scope == nil, let dot = written.firstIndex(of: ".") {
            scope = String(written[..<dot])
            name = String(written[written.index(after: dot)...])
            if scope == "_" { scope = Collection.defaultName }
        }
        if name == "_" { name = Collection.defaultName }
        if let collection = try database.collection(name: name, scope: scope) { return collection }
        if item.scope == nil, written == database.name { return try database.defaultCollection() }
        throw QueryValidator.error(at: location + ".COLLECTION", "no collection '\(written)' in database '\(database.name)'")
    }
}
