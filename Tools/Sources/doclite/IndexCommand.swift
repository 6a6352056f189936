import ArgumentParser
import DocLite

/// `doclite index DB create NAME EXPRESSIONS [--where COND] | create NAME EXPRESSION --dimensions N [--centroids N]
/// [--metric M] | list | drop NAME [--collection NAME]`.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Create, list or drop value and vector indexes.",
        discussion: """
            create NAME EXPRESSIONS: EXPRESSIONS is a comma-separated list of SQL++ expressions, e.g. 'abv, lower(name)', \
            or a JSON array of JSON-query expressions, e.g. '[[".abv"]]'; --where (in the same language) makes a \
            partial index. With --dimensions, a vector index on one expression (SQL++, or one JSON expression: '[".vector"]') \
            holding vectors of that many numbers, \
            searched with APPROX_VECTOR_DISTANCE(expression, $target). list: the index names. drop NAME: deletes the index.
            """
    )

    enum Action: String, ExpressibleByArgument, CaseIterable { case create, list, drop }

    @OptionGroup var location: DatabaseLocation
    @Argument(help: "create, list or drop.")
    var action: Action
    @Argument(help: "The index name (create, drop).")
    var name: String?
    @Argument(help: "The expressions (create): SQL++ ('abv, lower(name)') or a JSON array ('[[\".abv\"]]').")
    var expressions: String?
    @Option(name: .customLong("where"), help: "A condition that makes the index partial (create), in the expressions' language.")
    var condition: String?
    @Option(help: "The collection, as 'name' or 'scope.name' (default: the default collection).")
    var collection: String?
    @Option(help: "Make a vector index (create) of vectors of this many numbers (2 to 4096).")
    var dimensions: UInt32?
    @Option(help: "A vector index's clusters (1 to 64000).")
    var centroids: UInt32 = 64
    @Option(help: "A vector index's distance metric: euclidean_squared (the default), euclidean, cosine or dot.")
    var metric: String?

    func run() throws {
        let database = try location.open()
        defer { try? database.close() }
        let target = try location.collection(collection, in: database)
        switch action {
        case .list:
            for index in try target.indexes() { print(index) }
        case .create:
            guard let name, let expressions else { throw ValidationError("create needs a name and the indexed expressions") }
            let isJSON = QueryText.detect(expressions) == .json
            try target.createIndex(withName: name, config: try dimensions.map { try vectorIndex(expressions, isJSON: isJSON, dimensions: $0) }
                                   ?? (isJSON ? ValueIndexConfiguration(json: expressions, where: condition)
                                               : ValueIndexConfiguration([expressions], where: condition)))
            print("created index \(name) on \(target.fullName)")
        case .drop:
            guard let name else { throw ValidationError("drop needs the index name") }
            try target.deleteIndex(forName: name)
            print("dropped index \(name) from \(target.fullName)")
        }
    }

    /// The vector index on `expression` the options describe.
    private func vectorIndex(_ expression: String, isJSON: Bool, dimensions: UInt32) throws -> VectorIndexConfiguration {
        guard condition == nil else { throw ValidationError("a vector index cannot be partial (--where)") }
        var config = isJSON ? VectorIndexConfiguration(json: expression, dimensions: dimensions, centroids: centroids)
            : VectorIndexConfiguration(expression: expression, dimensions: dimensions, centroids: centroids)
        if let metric {
            guard let chosen = DistanceMetric(name: metric) else {
                throw ValidationError("unknown metric '\(metric)' (euclidean_squared, euclidean, cosine or dot)")
            }
            config.metric = chosen
        }
        return config
    }
}
