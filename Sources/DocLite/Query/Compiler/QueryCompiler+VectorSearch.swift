/// `APPROX_VECTOR_DISTANCE(vector, target[, metric, numProbes, accurate])`: the
/// query's vector searches, placed as Couchbase Lite places them.
///
/// Each distinct call is one search of one source's vectors: the table of a
/// vector index whose expression is `vector` as the index compiles it (the
/// source's columns unqualified), else the vectors read from the documents
/// (``VectorIndexSQL``'s `doc_vector`; Couchbase Lite requires the index). Joined on the
/// document's sequence, so a document without a vector is no row.
///
/// - *Simple* search (no WHERE, or a WHERE that only bounds the distance, and a
///   target that reads no document): the nearest `LIMIT` (+ `OFFSET`) vectors
///   are found first, in a sub-query, and only their documents read. A LIMIT is
///   required, at most 10,000 (Couchbase Lite's rules).
/// - *Hybrid* search (any other WHERE): each row that meets the WHERE gets its
///   distance; no LIMIT is needed.
///
/// The call may not stand under an OR in WHERE.
extension QueryCompiler {
    /// A vector search: the rows joined as `alias`, and the distance's SQL.
    struct VectorSearch {
        let alias: String
        let distance: String
        /// The JOIN clause appended to FROM.
        let join: String
    }

    /// The search key of a call: its arguments' JSON form.
    private static func searchKey(_ arguments: [QueryExpression]) -> ByteString {
        ByteString(JSONValue.array(arguments.map(JSONQueryWriter.json)).json)
    }

    /// Finds the statement's APPROX_VECTOR_DISTANCE() calls and makes a search of each.
    mutating func resolveVectorSearches(_ statement: SelectStatement) throws {
        var calls: [(arguments: [QueryExpression], location: String)] = []
        func find(_ expression: QueryExpression, at location: String, underOr: Bool = false) throws {
            if let arguments = expression.arguments(ofCallTo: .vectorDistance) {
                guard !underOr else {
                    throw QueryValidator.error(at: location, "APPROX_VECTOR_DISTANCE can't be used within an OR in a WHERE clause")
                }
                if !calls.contains(where: { Self.searchKey($0.arguments) == Self.searchKey(arguments) }) {
                    calls.append((arguments, location))
                }
            }
            let isOr = if case .operation(.or, _) = expression { true } else { false }
            for child in expression.children { try find(child, at: location, underOr: underOr || isOr) }
        }
        for (i, item) in statement.what.enumerated() { try find(item.expression, at: "WHAT[\(i)]") }
        if let condition = statement.whereClause { try find(condition, at: "WHERE") }
        for (i, key) in statement.groupBy.enumerated() { try find(key, at: "GROUP_BY[\(i)]") }
        if let condition = statement.having { try find(condition, at: "HAVING") }
        for (i, item) in statement.orderBy.enumerated() { try find(item.expression, at: "ORDER_BY[\(i)]") }
        guard !calls.isEmpty else { return }

        let isSimple = calls.count == 1 && Self.isConstant(calls[0].arguments[1])
            && (statement.whereClause.map { Self.onlyBoundsDistance($0, calls[0].arguments) } ?? true)
        var limit: String?
        if isSimple {
            guard let count = statement.limit else {
                throw QueryValidator.error(at: "LIMIT", "a LIMIT must be given when using APPROX_VECTOR_DISTANCE()")
            }
            if case .literal(.int(let value)) = count, value > Self.maxNearest {
                throw QueryValidator.error(at: "LIMIT", "LIMIT must not exceed \(Self.maxNearest) when using APPROX_VECTOR_DISTANCE()")
            }
            limit = try limitSQL(count, .limit)
            if let offset = statement.offset { limit = "(\(limit!)) + (\(try limitSQL(offset, .offset)))" }
        }
        for (arguments, location) in calls {
            vectorSearches[Self.searchKey(arguments)] = try vectorSearch(arguments, at: location, nearest: limit)
        }
    }

    /// The most rows a simple vector search may ask for (Couchbase Lite's limit).
    static let maxNearest: Int64 = 10_000

    /// The search of one call; with `nearest`, a simple search of that many vectors.
    private mutating func vectorSearch(_ arguments: [QueryExpression], at location: String, nearest: String?) throws -> VectorSearch {
        let index = try vectorSource(arguments[0], at: location)
        let source = sources[index]
        var scoped = self   // the expression as an index on the collection compiles it
        scoped.sources[index] = source.unqualified
        scoped.projection = nil
        let expression = try scoped.compile(arguments[0], CompileContext(.index, at: "\(location): APPROX_VECTOR_DISTANCE()[1]")).sql
        let given = arguments.count > 2 ? Self.metric(arguments[2]) : nil
        let vectorIndex = database.vectorIndexes[source.collection.id]?[ByteString(expression)]
        if let given, let vectorIndex, given != vectorIndex.metric {
            throw QueryValidator.error(at: location, "in 3rd argument to APPROX_VECTOR_DISTANCE, \(given.name) does not match "
                                       + "the index's metric, \(vectorIndex.metric.name)")
        }
        let metric = (vectorIndex?.metric ?? given ?? .euclideanSquared).rawValue
        let dimensions = vectorIndex?.dimensions ?? 0   // (0: the documents' vectors, of any length)
        let rows = vectorIndex?.table
            ?? "(SELECT sequence, doc_vector(\(expression), 0) AS vector FROM \(Schema.liveTable(source.collection.id)) WHERE vector IS NOT NULL)"
        let alias = "vs\(vectorSearches.count)"
        let join = source.join == .leftOuter ? "LEFT JOIN" : "JOIN"
        let target = valueSQL(try compileValue(arguments[1], CompileContext(.what, at: "\(location): APPROX_VECTOR_DISTANCE()[2]")))
        readsBodies = true
        guard let nearest else {
            return VectorSearch(alias: alias, distance: "doc_vector_distance(\(alias).vector, \(target), \(metric), \(dimensions))",
                                join: " \(join) \(rows) AS \(alias) ON \(alias).sequence = \(source.column("sequence"))"
                                    + " AND \(alias).vector IS NOT NULL")
        }
        // An index's vectors are searched in memory (doc_vector_search); a collection's documents are read.
        let search = vectorIndex.map { index in
            let probes = arguments.count > 3 ? Self.probes(arguments[3]) ?? index.probes : index.probes
            return "SELECT sequence, distance FROM doc_vector_search(\(SQLLiteral.string(index.table)), doc_vector_target(\(target), "
                + "\(dimensions)), \(metric), \(dimensions), \(nearest), \(probes))"
        } ?? "SELECT sequence, doc_vector_distance(vector, \(target), \(metric), 0) AS distance FROM \(rows) ORDER BY distance NULLS LAST LIMIT \(nearest)"
        return VectorSearch(alias: alias, distance: "\(alias).distance",
                            join: " \(join) (\(search)) AS \(alias) ON \(alias).sequence = \(source.column("sequence"))"
                                + " AND \(alias).distance IS NOT NULL")
    }

    /// The source whose vectors a call searches: the one its first argument reads.
    private func vectorSource(_ vector: QueryExpression, at location: String) throws -> Int {
        var read: Set<Int> = []
        try vector.forEach { expression in
            switch expression {
            case .property(let path): read.insert(try resolve(path, at: location).0)
            case .all(let alias): read.insert(try sourceIndex(named: alias, at: location))
            default: if let arguments = expression.arguments(ofCallTo: .meta) { read.insert(try metaSource(arguments, at: location)) }
            }
        }
        guard let index = read.first else {
            throw QueryValidator.error(at: location, "unknown source collection for APPROX_VECTOR_DISTANCE() (its 1st argument reads no document)")
        }
        guard read.count == 1 else {
            throw QueryValidator.error(at: location, "1st argument to APPROX_VECTOR_DISTANCE() may only refer to a single collection")
        }
        guard sources[index].unnest == nil else {
            throw QueryValidator.error(at: location, "APPROX_VECTOR_DISTANCE() searches a collection's documents, not an UNNEST's elements")
        }
        return index
    }

    /// The metric a (validated) metric argument names.
    private static func metric(_ argument: QueryExpression) -> DistanceMetric? {
        if case .literal(.string(let name)) = argument { DistanceMetric(name: name) } else { nil }
    }

    /// The number of probes a (validated) numProbes argument gives.
    private static func probes(_ argument: QueryExpression) -> Int? {
        if case .literal(.int(let count)) = argument { Int(exactly: count) } else { nil }
    }

    /// Whether an expression reads no document (so a search for it can run before any is read).
    private static func isConstant(_ expression: QueryExpression) -> Bool {
        var constant = true
        expression.forEach { part in
            switch part {
            case .property, .all, .variable: constant = false
            case .function(let name, _) where FunctionCatalog.entry(name)?.kind != .scalar: constant = false
            default: break
            }
        }
        return constant
    }

    /// Whether `condition` is only `distance < x` (or `<=`, or `x > distance`, `x >= distance`)
    /// of the call with `arguments`.
    private static func onlyBoundsDistance(_ condition: QueryExpression, _ arguments: [QueryExpression]) -> Bool {
        guard case .operation(let op, let operands) = condition, operands.count == 2 else { return false }
        let call = QueryExpression.function("approx_vector_distance", arguments)
        switch op {
        case .less, .lessOrEqual: return operands[0] == call && isConstant(operands[1])
        case .greater, .greaterOrEqual: return operands[1] == call && isConstant(operands[0])
        default: return false
        }
    }

    /// The distance SQL of a call, from the search ``resolveVectorSearches(_:)`` made of it.
    mutating func vectorDistance(_ arguments: [QueryExpression], _ context: CompileContext) throws -> SQLFragment {
        guard let search = vectorSearches[Self.searchKey(arguments)] else {
            throw QueryValidator.error(at: context.location, "APPROX_VECTOR_DISTANCE() can be used in WHAT, WHERE, GROUP_BY, HAVING "
                                       + "and ORDER_BY, not in \(context.clause.rawValue)")
        }
        return SQLFragment(sql: projected(search.distance), kind: .scalar)
    }
}
