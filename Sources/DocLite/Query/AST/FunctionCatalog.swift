/// The query language's functions, the one table of them: for each JSON name
/// (lowercased, without "()"), what the compiler makes of a call — the SQL
/// function it calls, its arity, its result kind, whether it is an aggregate,
/// takes the collation in force or has a form fused with a property read. The
/// SQL functions are registered on every connection (``FunctionLibrary``).
/// Adding a function is one entry here plus its SQL implementation.
enum FunctionCatalog {
    /// One function of the catalog.
    struct Entry {
        /// How a call compiles.
        enum Kind: Equatable {
            /// A call of the SQL function `sqlName` with the arguments as values.
            case scalar
            /// An aggregate over the rows of a group.
            case aggregate(Aggregate)
            /// `META(alias?)`: the source's metadata as a dictionary.
            case meta
            /// `MATCH(index, search)`, placed as a join on the full-text table.
            case match
            /// `RANK(index)` of a MATCH of the same index.
            case rank
            /// `PREDICTION(model, input[, path])`: a scalar call, or a read of a
            /// predictive index's cached predictions when one has that model and input.
            case prediction
            /// `APPROX_VECTOR_DISTANCE(vector, target[, metric, numProbes, accurate])`: the
            /// distance the query's vector search gives each document (from a vector
            /// index of that expression, else computed exactly).
            case vectorDistance
        }

        /// The aggregates: how their argument is read and how they count.
        enum Aggregate {
            case count, sum, avg, min, max, arrayAgg, median, stddev

            /// Whether the argument is passed as a value (booleans kept, JSON null
            /// as null) rather than as SQL reads it.
            var readsValue: Bool { self == .min || self == .max || self == .arrayAgg }
        }

        /// The collation a function is passed as its last argument.
        enum CollationArgument {
            /// The innermost COLLATE in force, taken or not; none when there is none.
            case inForce
            /// The innermost COLLATE in force, else BINARY.
            case inForceOrBinary
        }

        var kind = Kind.scalar
        /// The SQL function a call writes (for MATCH, the SQL operator).
        let sqlName: String
        let arity: ClosedRange<Int>
        let result: ValueKind
        /// The index of the argument holding a regular expression, which is
        /// checked at compile time when it is a string literal.
        var patternArgument: Int?
        var collationArgument: CollationArgument?
        /// The SQL function that reads a property (argument 0) and applies a
        /// literal operand (argument 1) in place in the stored body.
        var fusedWithProperty: String?
        /// What a call takes, said instead of the argument count when a call is wrong.
        var usage: String?
        var isAggregate: Bool { if case .aggregate = kind { true } else { false } }

        /// Whether the text front ends (SQL++, predicates) call it as `name(…)`: META, MATCH and
        /// RANK have forms of their own in SQL++, and none in predicates.
        var isCalledByName: Bool {
            switch kind {
            case .scalar, .aggregate, .prediction, .vectorDistance: true
            case .meta, .match, .rank: false
            }
        }
    }

    /// The entry for `name` (lowercased), nil for an unknown function.
    static func entry(_ name: String) -> Entry? { entries[name] }

    /// The entry for a call of `name` (lowercased) with `count` arguments at
    /// `location`; an invalid-query error for an unknown function or a wrong count.
    static func entry(_ name: String, arguments count: Int, at location: String) throws -> Entry {
        guard let entry = entries[name] else { throw QueryValidator.error(at: location, "unknown function '\(name)()'") }
        guard entry.arity.contains(count) else {
            throw QueryValidator.error(at: location, entry.usage ?? "\(name)() \(describe(entry.arity)), got \(count)")
        }
        return entry
    }

    /// Every function by JSON name, aliases included.
    static let entries: [String: Entry] = {
        var table: [String: Entry] = [:]
        /// `names` call `doc_<first name>` unless `sql` is given.
        func add(_ names: [String], _ arity: ClosedRange<Int>, _ result: ValueKind, sql: String? = nil,
                 kind: Entry.Kind = .scalar, patternArgument: Int? = nil, collation: Entry.CollationArgument? = nil,
                 fusedWithProperty: String? = nil, usage: String? = nil) {
            for name in names {
                table[name] = Entry(kind: kind, sqlName: sql ?? "doc_" + names[0], arity: arity, result: result,
                                    patternArgument: patternArgument, collationArgument: collation,
                                    fusedWithProperty: fusedWithProperty, usage: usage)
            }
        }
        let variadic = 127   // LiteCore's limit on a function's arguments
        // Aggregates (SQLite's, but array_agg, median and stddev), metadata, full-text search
        add(["count"], 0...1, .scalar, sql: "count", kind: .aggregate(.count))
        add(["sum"], 1...1, .scalar, sql: "sum", kind: .aggregate(.sum))
        add(["avg"], 1...1, .scalar, sql: "avg", kind: .aggregate(.avg))
        add(["min"], 1...1, .any, sql: "min", kind: .aggregate(.min))
        add(["max"], 1...1, .any, sql: "max", kind: .aggregate(.max))
        add(["array_agg"], 1...1, .scalar, kind: .aggregate(.arrayAgg))
        add(["median"], 1...1, .scalar, kind: .aggregate(.median))
        add(["stddev"], 1...1, .scalar, kind: .aggregate(.stddev))
        add(["meta"], 0...1, .scalar, sql: "doc_dict", kind: .meta)
        add(["match"], 2...2, .boolean, sql: "MATCH", kind: .match, usage: "MATCH() takes a full-text index name and a search string")
        add(["rank"], 1...1, .scalar, sql: "doc_fts_rank", kind: .rank, usage: "RANK() takes a full-text index name")
        // Array
        for name in ["array_avg", "array_count", "array_length", "array_max", "array_min", "array_sum"] {
            add([name], 1...1, .scalar)
        }
        add(["array_ifnull"], 1...1, .any)
        add(["array_contains"], 2...2, .boolean)
        add(["array_of"], 0...variadic, .scalar, sql: "doc_array")
        // Comparison (SQLite's scalar max and min: MISSING when any argument is)
        add(["greatest"], 2...variadic, .any, sql: "max")
        add(["least"], 2...variadic, .any, sql: "min")
        // Conditional
        for name in ["ifmissing", "ifnull", "ifmissingornull"] { add([name], 2...variadic, .any) }
        for name in ["missingif", "nullif"] { add([name], 2...2, .any) }
        // Date (their SQL names are their JSON names)
        for date in DateFunction.allCases { add([date.rawValue], date.arity, .scalar, sql: date.rawValue) }
        // Math
        for name in ["abs", "acos", "asin", "atan", "ceil", "cos", "degrees", "exp", "floor", "ln", "log",
                     "radians", "sign", "sin", "sqrt", "tan"] {
            add([name], 1...1, .scalar)
        }
        for name in ["atan2", "power", "div", "idiv"] { add([name], 2...2, .scalar) }
        for name in ["e", "pi"] { add([name], 0...0, .scalar) }
        for name in ["round", "round_even", "trunc"] { add([name], 1...2, .scalar) }
        // Prediction: a registered model (Database.prediction) called with a dictionary
        add(["prediction"], 2...3, .any, kind: .prediction)
        // Pattern
        for name in ["regexp_contains", "regexp_like"] {
            add([name], 2...2, .boolean, patternArgument: 1, fusedWithProperty: "doc_regexp_like_at")
        }
        add(["regexp_position"], 2...2, .scalar, patternArgument: 1)
        add(["regexp_replace"], 3...4, .scalar, patternArgument: 1)
        add(["fl_like"], 2...2, .boolean, sql: "doc_like_collated", collation: .inForceOrBinary)   // LIKE under the COLLATE in force
        // String (trim's two-argument form is an error in Couchbase Lite too)
        add(["concat"], 2...variadic, .scalar, sql: "doc_concat")
        add(["contains"], 2...2, .boolean, collation: .inForce)
        for name in ["length", "lower", "upper"] { add([name], 1...1, .scalar) }
        for name in ["trim", "ltrim", "rtrim"] { add([name], 1...1, .any) }
        // Vector distances
        add(["euclidean_distance"], 2...3, .scalar)
        add(["cosine_distance"], 2...2, .scalar)
        add(["approx_vector_distance"], 2...5, .scalar, sql: "doc_vector_distance", kind: .vectorDistance)
        // Type
        for name in ["array", "atom", "boolean", "number", "object", "string"] {
            add(["is" + name, "is_" + name], 1...1, .boolean)
        }
        add(["toboolean", "to_boolean"], 1...1, .boolean)
        for name in ["array", "number", "object", "string"] { add(["to" + name, "to_" + name], 1...1, .scalar) }
        add(["toatom", "to_atom"], 1...1, .any)
        add(["type", "typename"], 1...1, .scalar)
        return table
    }()

    /// "takes 1 argument", "takes 1 or 2 arguments", "takes at least 2 arguments", …
    static func describe(_ arity: ClosedRange<Int>) -> String {
        func count(_ n: Int) -> String { n == 0 ? "no arguments" : n == 1 ? "1 argument" : "\(n) arguments" }
        if arity.lowerBound == arity.upperBound { return "takes " + count(arity.lowerBound) }
        if arity.upperBound >= 127 { return "takes at least " + count(arity.lowerBound) }
        if arity.count == 2 { return "takes \(arity.lowerBound) or " + count(arity.upperBound) }
        return "takes \(arity.lowerBound) to " + count(arity.upperBound)
    }
}

extension QueryExpression {
    /// Whether the expression calls an aggregate function.
    var containsAggregate: Bool {
        var found = false
        forEach { if case .function(let name, _) = $0, FunctionCatalog.entry(name)?.isAggregate == true { found = true } }
        return found
    }

    /// The arguments when this is a call of a function of `kind` (`META()`,
    /// `MATCH()`, …), nil for any other expression.
    func arguments(ofCallTo kind: FunctionCatalog.Entry.Kind) -> [QueryExpression]? {
        guard case .function(let name, let arguments) = self, FunctionCatalog.entry(name)?.kind == kind else { return nil }
        return arguments
    }
}
