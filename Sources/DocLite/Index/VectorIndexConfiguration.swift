/// A vector index (Couchbase Lite 3.2's): the vector each document holds at
/// `expression` — an array of `dimensions` numbers, a Base64 string of float32s,
/// or what a `PREDICTION()` computes from the document when it is saved — so that
/// `APPROX_VECTOR_DISTANCE(expression, $target)` finds the nearest documents.
///
/// A document whose value is missing, of another length or no vector is left
/// out of the index, never an error that fails its save. `centroids`,
/// `encoding`, `numProbes` and the training sizes describe the approximate
/// (inverted-file) search as Couchbase Lite does, and are checked with its
/// rules; searches are exact until the index is trained (docs/vector-search.md).
/// A lazy index (``isLazy``) holds the vectors the application computes and sets
/// with an ``IndexUpdater``.
public struct VectorIndexConfiguration: IndexConfiguration {
    /// The vector's expression: SQL++ (`vector`, `PREDICTION(model, {"text": text}).embedding`)
    /// or, with ``init(json:dimensions:centroids:)``, one LiteCore JSON expression.
    public let expression: String
    /// The number of items of every vector (2 to 4096).
    public let dimensions: UInt32
    /// The number of clusters the vectors are divided into (1 to 64000).
    public let centroids: UInt32
    /// How the distance between vectors is measured (the default: squared Euclidean).
    public var metric: DistanceMetric = .euclideanSquared
    /// How vectors are compressed in the approximate index (the default: 8-bit scalar quantizer).
    public var encoding: VectorEncoding = .scalarQuantizer(type: .SQ8)
    /// How many clusters a search looks in (nil: Couchbase Lite's default; 1 to `centroids`).
    public var numProbes: UInt32?
    /// The fewest vectors the index is trained on (nil: 25 a centroid).
    public var minTrainingSize: UInt32?
    /// The most vectors the index is trained on (nil: 256 a centroid).
    public var maxTrainingSize: UInt32?
    /// Whether the application computes the vectors (``QueryIndex/beginUpdate(limit:)``)
    /// instead of the index reading them as documents are saved.
    public var isLazy = false
    /// How many buckets a search of the trained index looks in: `numProbes`, or the default
    /// (0.5% of the centroids, at least 8, at most all).
    package var probes: Int { numProbes.map(Int.init) ?? VectorIndexOptions.defaultProbes(centroids: Int(centroids)) }
    let expressionLanguage: IndexExpressionLanguage

    /// A vector index on the SQL++ `expression`, of `dimensions` items, in `centroids` clusters.
    public init(expression: String, dimensions: UInt32, centroids: UInt32) {
        self.init(expression, dimensions, centroids, .sqlpp)
    }

    /// A vector index on the JSON expression `expression` (`[".vector"]`).
    public init(json expression: String, dimensions: UInt32, centroids: UInt32) {
        self.init(expression, dimensions, centroids, .json)
    }

    private init(_ expression: String, _ dimensions: UInt32, _ centroids: UInt32, _ language: IndexExpressionLanguage) {
        self.expression = expression
        self.dimensions = dimensions
        self.centroids = centroids
        expressionLanguage = language
    }
}

/// How a vector index compresses its vectors (Couchbase Lite's `VectorEncoding`).
public enum VectorEncoding: Equatable, Sendable {
    /// The vectors as they are (float32).
    case none
    /// Each item quantized to 4, 6 or 8 bits.
    case scalarQuantizer(type: ScalarQuantizerType)
    /// Each vector cut into `subquantizers` parts (a divisor of the dimensions,
    /// 2 to 1024), each coded in `bits` bits (4 to 12).
    case productQuantizer(subquantizers: UInt32, bits: UInt32)
}

/// The bits a scalar quantizer codes each item in.
public enum ScalarQuantizerType: UInt32, Sendable {
    case SQ4 = 4, SQ6 = 6, SQ8 = 8
}

/// A vector index's options, as its definition records them, checked with
/// LiteCore's rules and messages.
struct VectorIndexOptions: Equatable {
    let dimensions: Int
    let centroids: Int
    let metric: DistanceMetric
    let encoding: VectorEncoding
    let numProbes: Int?
    let minTrainingSize: Int?
    let maxTrainingSize: Int?
    let isLazy: Bool

    init(dimensions: Int, centroids: Int, metric: DistanceMetric, encoding: VectorEncoding,
         numProbes: Int?, minTrainingSize: Int?, maxTrainingSize: Int?, isLazy: Bool) throws {
        func check(_ value: Int, _ range: ClosedRange<Int>, _ what: String) throws {
            guard range.contains(value) else {
                throw DocLiteError(.invalidParameter, "invalid vector index spec: \(what) \(value) is too \(value < range.lowerBound ? "small" : "large") "
                                   + "(\(range.lowerBound) to \(range.upperBound))")
            }
        }
        try check(dimensions, 2...4096, "dimensions")
        try check(centroids, 1...64000, "centroids")
        if case .productQuantizer(let subquantizers, let bits) = encoding {
            try check(Int(subquantizers), 2...1024, "product quantizer subquantizers")
            try check(Int(bits), 4...12, "product quantizer bits")
            guard dimensions % Int(subquantizers) == 0 else {
                throw DocLiteError(.invalidParameter, "invalid vector index spec: product quantizer subquantizers (\(subquantizers)) "
                                   + "must divide the dimensions (\(dimensions))")
            }
        }
        if let numProbes { try check(numProbes, 1...centroids, "numProbes") }
        if let minTrainingSize { try check(minTrainingSize, 1...Int(Int32.max), "minTrainingSize") }
        if let maxTrainingSize { try check(maxTrainingSize, (minTrainingSize ?? 1)...Int(Int32.max), "maxTrainingSize") }
        (self.dimensions, self.centroids, self.metric, self.encoding) = (dimensions, centroids, metric, encoding)
        (self.numProbes, self.minTrainingSize, self.maxTrainingSize) = (numProbes, minTrainingSize, maxTrainingSize)
        self.isLazy = isLazy
    }

    init(_ config: VectorIndexConfiguration) throws {
        try self.init(dimensions: Int(config.dimensions), centroids: Int(config.centroids), metric: config.metric,
                      encoding: config.encoding, numProbes: config.numProbes.map(Int.init),
                      minTrainingSize: config.minTrainingSize.map(Int.init), maxTrainingSize: config.maxTrainingSize.map(Int.init),
                      isLazy: config.isLazy)
    }

    /// How many buckets a search looks in: `numProbes`, or by default 0.5% of the
    /// centroids and at least 8 (at most all of them).
    var probes: Int { numProbes ?? Self.defaultProbes(centroids: centroids) }

    static func defaultProbes(centroids: Int) -> Int { min(centroids, max(8, centroids / 200)) }

    /// The definition's members (`encoding` as `"none"`, `"SQ8"` or `"PQ16x8"`).
    var json: [ByteString: JSONValue] {
        var members: [ByteString: JSONValue] = [
            "dimensions": .int(Int64(dimensions)), "centroids": .int(Int64(centroids)),
            "metric": .string(metric.name), "encoding": .string(encodingName),
        ]
        if let numProbes { members["numProbes"] = .int(Int64(numProbes)) }
        if let minTrainingSize { members["minTrainingSize"] = .int(Int64(minTrainingSize)) }
        if let maxTrainingSize { members["maxTrainingSize"] = .int(Int64(maxTrainingSize)) }
        if isLazy { members["lazy"] = .bool(true) }
        return members
    }

    /// Reads the members ``json`` writes; nil for anything else.
    init?(json members: [ByteString: JSONValue]) {
        func int(_ key: ByteString) -> Int?? {
            switch members[key] {
            case nil: .some(nil)
            case .int(let value)?: Int(exactly: value).map { .some($0) } ?? nil
            default: nil
            }
        }
        guard case .int(let dimensions)? = members["dimensions"], case .int(let centroids)? = members["centroids"],
              case .string(let metricName)? = members["metric"], let metric = DistanceMetric(name: metricName),
              case .string(let encodingName)? = members["encoding"], let encoding = Self.encoding(named: encodingName),
              let numProbes = int("numProbes"), let minimum = int("minTrainingSize"), let maximum = int("maxTrainingSize"),
              members["lazy"] == nil || members["lazy"] == .bool(true),
              let options = try? Self(dimensions: Int(dimensions), centroids: Int(centroids), metric: metric, encoding: encoding,
                                      numProbes: numProbes, minTrainingSize: minimum, maxTrainingSize: maximum,
                                      isLazy: members["lazy"] == .bool(true))
        else { return nil }
        self = options
    }

    private var encodingName: String {
        switch encoding {
        case .none: "none"
        case .scalarQuantizer(let type): "SQ\(type.rawValue)"
        case .productQuantizer(let subquantizers, let bits): "PQ\(subquantizers)x\(bits)"
        }
    }

    private static func encoding(named name: String) -> VectorEncoding? {
        if name == "none" { return VectorEncoding.none }
        if name.hasPrefix("SQ") { return UInt32(name.dropFirst(2)).flatMap(ScalarQuantizerType.init).map { .scalarQuantizer(type: $0) } }
        guard name.hasPrefix("PQ"), case let parts = name.dropFirst(2).split(separator: "x"), parts.count == 2,
              let subquantizers = UInt32(parts[0]), let bits = UInt32(parts[1]) else { return nil }
        return .productQuantizer(subquantizers: subquantizers, bits: bits)
    }
}
