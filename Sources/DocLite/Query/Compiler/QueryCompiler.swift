/// A query compiled to SQLite SQL, with what the executor needs to read its rows.
struct CompiledQuery: Sendable {
    /// The SELECT statement. Literals are quoted in it; parameters are `$_name`.
    var sql: String { key.sql }
    /// The SQL as the statement cache's key.
    let key: StatementKey
    let columns: [ResultColumn]
    /// The names of the parameters the query uses.
    let parameterNames: Set<String>
    /// The collections the query reads (a live query runs again when they
    /// change; one deleted, the query is `notOpen`).
    let collections: [Collection]

    var collectionIDs: Set<Int64> { Set(collections.map(\.id)) }
}

/// A result column: its title, and whether its integers are booleans.
struct ResultColumn: Sendable {
    let name: String
    let isBoolean: Bool
    /// For a column that is a bare parameter: its name (booleans are bound as 0/1,
    /// so the bound value decides whether the column reads as a boolean).
    var parameter: String?
}

/// Compiles a ``SelectStatement`` to SQLite SQL: resolves data sources and
/// aliases, applies Couchbase Lite's semantics (MISSING is SQL NULL, JSON null
/// an empty blob, tombstones only where `_deleted` or `META()` is read), names
/// the result columns, and checks the query, with errors that name the clause.
///
/// Compile under the database lock (collections are looked up).
struct QueryCompiler {
    let database: Database
    /// Whether SQL text is an indexed expression of a collection (`doc_value(body, 'p')`);
    /// such expressions are emitted as indexed, not fused, so SQLite can use the index.
    let isIndexed: (Int64, String) -> Bool

    var sources: [ResolvedSource] = []
    var resultAliases: [ByteString: QueryExpression] = [:]
    var parameterNames: Set<String> = []
    /// Whether an expression reads document bodies (so SQLite scans the table, in sequence order).
    var readsBodies = false
    /// In a grouped query: the values the outer query reads from the inner one.
    var projection: Projection?
    /// How many `doc_each` aliases (`v0`, `v1`, …) ANY / EVERY have used.
    var variableAliasCount = 0
    /// The full-text indexes the WHERE clause searches (`MATCH()`), by FTS table.
    var fullTextMatches: [String: FullTextMatch] = [:]
    /// The vector searches of `APPROX_VECTOR_DISTANCE()` calls, by the calls' arguments.
    var vectorSearches: [ByteString: VectorSearch] = [:]

    /// The predictive indexes whose cached predictions the query reads, by table.
    var predictiveJoins: [String: PredictiveJoin] = [:]

    /// A predictive index's table, joined as `alias` to source `source`.
    struct PredictiveJoin {
        let table: String
        let alias: String
        let source: Int
    }

    /// A `MATCH()` of a full-text index: the FTS table, joined as `alias` to source `source`.
    struct FullTextMatch {
        let table: String
        let alias: String
        let source: Int
    }

    /// The per-document values of a grouped query, computed by an inner query
    /// (`SELECT … AS p0, … AS p1 FROM kv … WHERE … LIMIT -1`) that the
    /// grouping, HAVING, ORDER BY and result columns then read.
    struct Projection {
        private(set) var columns: [String] = []

        /// The outer query's name for the inner value `sql`.
        mutating func reference(_ sql: String) -> String {
            if let index = columns.firstIndex(where: { ByteString($0) == ByteString(sql) }) { return "p\(index)" }   // (bytes: literals differ)
            columns.append(sql)
            return "p\(columns.count - 1)"
        }
    }

    init(database: Database, isIndexed: @escaping (Int64, String) -> Bool = { _, _ in false }) {
        self.database = database
        self.isIndexed = isIndexed
    }

    /// The clause being compiled: decides where aggregates and result aliases are allowed.
    enum Clause: String {
        case what = "WHAT", on = "ON", whereClause = "WHERE", groupBy = "GROUP_BY", having = "HAVING"
        case orderBy = "ORDER_BY", limit = "LIMIT", offset = "OFFSET", unnest = "UNNEST", index = "index"

        var allowsAggregates: Bool { self == .what || self == .having || self == .orderBy }
        var allowsResultAliases: Bool { self == .whereClause || self == .groupBy || self == .having || self == .orderBy }
    }

    mutating func compile(_ statement: SelectStatement) throws -> CompiledQuery {
        try QueryValidator.validate(statement)
        sources = try ResolvedSource.resolve(statement.from, in: database)
        try markSourcesReadingDeleted(statement)
        resolveArrayIndexes()
        try resolveFullTextMatches(statement)
        try resolveVectorSearches(statement)
        for item in statement.what {   // duplicates are rejected by ColumnNaming below
            if let alias = item.alias { resultAliases[ByteString(alias)] = item.expression }
        }

        // FROM and WHERE read the documents. A grouped query over one source reads
        // them in an inner query that projects only the values the other clauses
        // use, so that SQLite's sorter gets those values rather than whole bodies.
        var from = ""
        for (i, source) in sources.enumerated() {
            if let unnest = source.unnest {   // a row per element (none for an empty or MISSING array)
                if let (table, owner) = source.arrayIndex {
                    from += " JOIN \(table) AS \(source.sqlAlias!) ON \(source.column("sequence")) = \(sources[owner].column("sequence"))"
                    continue
                }
                let array = try compile(unnest, CompileContext(.unnest, at: "FROM[\(i)].UNNEST")).sql
                from += " JOIN doc_each(\(array)) AS \(source.sqlAlias!)"
                continue
            }
            let table = "\(source.tableSQL) AS \(source.sqlAlias!)"
            guard let join = source.join else { from += table; continue }
            from += " \(join.rawValue) JOIN \(table)"
            if let on = source.on {
                from += " ON " + (try compile(on, CompileContext(.on, at: "FROM[\(i)].ON")).sql)
            }
        }
        for match in fullTextMatches.values.sorted(by: { $0.alias < $1.alias }) {
            from += " JOIN \(match.table) AS \(match.alias) ON \(match.alias).docid = \(sources[match.source].column("sequence"))"
        }
        for search in vectorSearches.values.sorted(by: { $0.alias < $1.alias }) { from += search.join }
        var whereSQL = ""
        if let clause = statement.whereClause {
            whereSQL = " WHERE " + (try compile(clause, CompileContext(.whereClause, at: "WHERE")).sql)
        }
        if !statement.groupBy.isEmpty && sources.count == 1 { projection = Projection() }

        let what = statement.what.isEmpty
            ? ["_id", "_sequence"].map { ResultItem(expression: .property([.key(sources[0].alias), .key($0)]), alias: $0) }
            : statement.what
        var columnSQL: [String] = []
        var columns: [ResultColumn] = []
        let names = try ColumnNaming.names(for: what, sources: sources)
        for (i, item) in what.enumerated() {
            let fragment = try compileValue(item.expression, CompileContext(.what, at: "WHAT[\(i)]"))
            columnSQL.append(resultSQL(fragment))
            var column = ResultColumn(name: names[i], isBoolean: fragment.kind == .boolean)
            if case .parameter(let name) = item.expression { column.parameter = name }
            columns.append(column)
        }
        var clauses = ""
        if !statement.groupBy.isEmpty {
            clauses += " GROUP BY " + (try statement.groupBy.enumerated().map { i, item in
                try keySQL(item, CompileContext(.groupBy, at: "GROUP_BY[\(i)]"))
            }.joined(separator: ", "))
        }
        if let clause = statement.having {
            clauses += " HAVING " + (try compile(clause, CompileContext(.having, at: "HAVING")).sql)
        }
        if !statement.orderBy.isEmpty {
            let grouped = !statement.groupBy.isEmpty || isAggregate(statement)
            clauses += " ORDER BY " + (try statement.orderBy.enumerated().map { i, item in
                if !grouped, item.expression.containsAggregate {
                    throw QueryValidator.error(at: "ORDER_BY[\(i)]", "an aggregate function orders only a query with GROUP BY or an aggregate in WHAT")
                }
                return try keySQL(item.expression, CompileContext(.orderBy, at: "ORDER_BY[\(i)]")) + (item.descending ? " DESC" : "")
            }.joined(separator: ", "))
        } else if statement.groupBy.isEmpty && !statement.distinct && !isAggregate(statement)
                    && (sources[0].includesDeleted || !readsBodies) {
            // Rows come in sequence order: a table scan gives it, but SQLite may read
            // a query that needs only IDs from the ID index, and tombstones come from
            // a second table. (Not otherwise: it would keep SQLite from value indexes.)
            clauses += " ORDER BY \(sources[0].column("sequence"))"
        }

        // The predictive indexes the clauses read (found while compiling them).
        for join in predictiveJoins.values.sorted(by: { $0.alias < $1.alias }) {
            let source = sources[join.source]
            from += " \(source.join == .leftOuter ? "LEFT JOIN" : "JOIN") \(join.table) AS \(join.alias)"
                + " ON \(join.alias).sequence = \(source.column("sequence"))"
        }
        from += whereSQL
        var limits = ""
        if statement.limit != nil || statement.offset != nil {
            limits = " LIMIT " + (try statement.limit.map { try limitSQL($0, .limit) } ?? "-1")
            if let offset = statement.offset { limits += " OFFSET " + (try limitSQL(offset, .offset)) }
        }
        var sql = (statement.distinct ? "SELECT DISTINCT " : "SELECT ") + columnSQL.joined(separator: ", ")
        if let projection {
            let inner = projection.columns.isEmpty ? ["NULL AS p0"]
                : projection.columns.enumerated().map { "\($1) AS p\($0)" }
            sql += " FROM (SELECT \(inner.joined(separator: ", ")) FROM \(from) LIMIT -1)"
        } else {
            sql += " FROM " + from
        }
        sql += clauses + limits
        return CompiledQuery(key: StatementKey(sql), columns: columns, parameterNames: parameterNames,
                             collections: sources.map(\.collection))
    }

    /// A GROUP BY or ORDER BY key. In a grouped query a bare property is keyed
    /// by its result form, the column the result reads too, so that each row
    /// computes it once (booleans then group and sort as encoded values).
    /// A literal integer key is a constant (one group, no order), not SQLite's column number.
    private mutating func keySQL(_ expression: QueryExpression, _ context: CompileContext) throws -> String {
        switch expression {
        case .literal(.int), .literal(.unsigned): return "CAST(\(try compile(expression, context).sql) AS INTEGER)"
        default: break
        }
        guard projection != nil else { return try compile(expression, context).sql }
        return resultSQL(try compileValue(expression, context))
    }

    /// Whether a WHAT item calls an aggregate function (the query then returns one row).
    private func isAggregate(_ statement: SelectStatement) -> Bool {
        statement.what.contains { $0.expression.containsAggregate }
    }

    /// LIMIT and OFFSET: a literal must be an integer (negative means 0); anything else is clamped at run time.
    mutating func limitSQL(_ expression: QueryExpression, _ clause: Clause) throws -> String {
        switch expression {
        case .literal(.int(let value)): return String(max(value, 0))
        case .literal(.unsigned(let value)): return String(value > UInt64(Int64.max) ? Int64.max : Int64(value))
        case .literal: throw QueryValidator.error(at: clause.rawValue, "must be an integer")
        default: return "doc_limit(\(try compile(expression, CompileContext(clause, at: clause.rawValue)).sql), '\(clause.rawValue)')"
        }
    }

    /// Marks the sources whose `_deleted`, `META().deleted` or whole `META()`
    /// the statement reads (LiteCore's rule: `META().id` alone does not count).
    private mutating func markSourcesReadingDeleted(_ statement: SelectStatement) throws {
        for expression in statement.expressions { try markReadingDeleted(expression) }
    }

    private mutating func markReadingDeleted(_ expression: QueryExpression) throws {
        switch expression {
        case .property(let path):
            if let (index, rest) = try? resolve(path), case .key(let key)? = rest.first, MetaProperty(shortcut: key) == .deleted {
                sources[index].includesDeleted = true
            }
        case .nested(let base, let path):
            if let arguments = base.arguments(ofCallTo: .meta) {
                if path.first == .key("deleted") {
                    sources[try metaSource(arguments, at: "META()")].includesDeleted = true
                }
                return
            }
        default:
            if let arguments = expression.arguments(ofCallTo: .meta) {
                sources[try metaSource(arguments, at: "META()")].includesDeleted = true
            }
        }
        for child in expression.children { try markReadingDeleted(child) }
    }

    // MARK: Array indexes

    /// Marks the UNNESTs an array index serves: those of a property path of a
    /// document source (live documents only) whose collection has an array index on that path.
    private mutating func resolveArrayIndexes() {
        for i in sources.indices {
            guard case .property(let path)? = sources[i].unnest, let (owner, rest) = try? resolve(path),
                  sources[owner].unnest == nil, !sources[owner].includesDeleted, !rest.isEmpty,
                  let table = database.arrayIndexes[sources[owner].collection.id]?[ByteString(PropertyPath.format(rest))] else { continue }
            sources[i].arrayIndex = (table, owner)
        }
    }

    // MARK: Full-text search

    /// Finds the `MATCH()`es of the WHERE clause, which may stand only at its
    /// top or in top-level ANDs (Couchbase Lite's rule), one per index, and
    /// the index each searches: `"name"` in any source, `"alias.name"` in one.
    private mutating func resolveFullTextMatches(_ statement: SelectStatement) throws {
        var placed: [[QueryExpression]] = []
        func collect(_ expression: QueryExpression) {
            if case .operation(.and, let operands) = expression {
                operands.forEach(collect)
            } else if let arguments = expression.arguments(ofCallTo: .match) {
                placed.append(arguments)
            }
        }
        statement.whereClause.map(collect)
        var total = 0
        for expression in statement.expressions { expression.forEach { if $0.arguments(ofCallTo: .match) != nil { total += 1 } } }
        guard total == placed.count else {
            throw QueryValidator.error(at: "WHERE", "MATCH() can only appear at the top of WHERE or in an AND there (not under OR, NOT or elsewhere)")
        }
        for arguments in placed {
            guard arguments.count == 2, case .literal(.string(let name)) = arguments[0] else {
                throw QueryValidator.error(at: "WHERE", "MATCH() takes a full-text index name and a search string")
            }
            guard let (source, table) = fullTextIndex(named: name) else {
                // As LiteCore: a missing index is kCBLErrorMissingIndex, not a malformed query.
                throw DocLiteError(.missingIndex, "WHERE: MATCH() needs a full-text index: there is no full-text index '\(name)'")
            }
            guard fullTextMatches[table] == nil else {
                throw QueryValidator.error(at: "WHERE", "Sorry, multiple MATCHes of the same property are not allowed (index '\(name)')")
            }
            fullTextMatches[table] = FullTextMatch(table: table, alias: "f\(fullTextMatches.count)", source: source)
        }
    }

    /// The source and FTS table of full-text index `name`: `"index"` in the
    /// first source that has it, `"alias.index"` in that source (``IndexReference``).
    func fullTextIndex(named name: String) -> (source: Int, table: String)? {
        var candidates = sources.indices.filter { sources[$0].unnest == nil }
        var indexName = name
        let reference = IndexReference(name)
        if let alias = reference.alias, let source = candidates.first(where: { sources[$0].isNamed(alias) }) {
            candidates = [source]
            indexName = reference.index
        }
        for source in candidates {
            if let table = database.fullTextIndexes[sources[source].collection.id]?[ByteString(indexName)] { return (source, table) }
        }
        return nil
    }

    // MARK: Index expressions

    /// Compiles an index expression (or a partial index's condition) for
    /// `collection`: the same SQL a query emits, with unqualified columns. With
    /// `elementsOf`, an array index's element expression: the SQL a query emits
    /// over an UNNEST alias of that array (the element is the column `value`).
    /// `schemaVersion` is the file's: before 7, META().expiration was a column.
    static func compileIndexExpression(_ expression: QueryExpression, collection: Collection, database: Database,
                                       at location: String, elementsOf array: QueryExpression? = nil,
                                       schemaVersion: Int64 = Schema.version) throws -> String {
        try QueryValidator.validate(expression, at: location)
        var compiler = QueryCompiler(database: database)
        compiler.sources = [ResolvedSource(collection: collection, alias: collection.name, hasExplicitAlias: false,
                                           columnName: collection.name, sqlAlias: nil, join: nil, on: nil, unnest: array)]
        compiler.sources[0].readsExpirationColumn = schemaVersion < 7
        let fragment = try compiler.compile(expression, CompileContext(.index, at: location))
        guard compiler.parameterNames.isEmpty else {
            throw QueryValidator.error(at: location, "an index expression cannot use parameters")
        }
        return fragment.sql
    }
}
