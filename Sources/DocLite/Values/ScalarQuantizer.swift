/// A scalar quantizer (Couchbase Lite's SQ4, SQ6 and SQ8 encodings; FAISS's uniform
/// one): each item of a vector coded in `bits` bits on the range its dimension takes in
/// the training sample, so a vector takes a byte an item instead of four. A code `c`
/// stands for the middle of its step, `minimum + (c + ½) × step`; an item outside the
/// range takes the nearest end's code. Distances are computed from the codes, so they
/// are approximate, as Couchbase Lite's are.
struct ScalarQuantizer: Sendable {
    let bits: Int
    let minimum: [Float]
    let step: [Float]

    /// A quantizer of `bits` bits an item on each dimension's range from `minimum` to
    /// `maximum`; nil for a range too wide for a float32 sum of squares over every
    /// dimension (an outlier near ±3.4e38 would make every coded distance infinite: the
    /// vectors are then searched as float32s).
    init?(bits: Int, minimum: [Float], maximum: [Float]) {
        let levels = Double(1 << bits), widest = (Double(Float.greatestFiniteMagnitude) / Double(max(minimum.count, 1))).squareRoot()
        let step = zip(minimum, maximum).map { Float(max((Double($1) - Double($0)) / levels, 0)) }
        func fits(_ low: Float, _ high: Float) -> Bool {
            let (low, high) = (Double(low), Double(high))
            return abs(low) <= widest && abs(high) <= widest && high - low <= widest
        }
        guard minimum.count == maximum.count, zip(minimum, maximum).allSatisfy(fits) else { return nil }
        (self.bits, self.minimum, self.step) = (bits, minimum, step)
    }

    /// A quantizer of `bits` bits an item on the ranges of `sample` (vectors of `dimensions` items).
    init?(bits: Int, sample: [Float], dimensions: Int) {
        var minimum = [Float](repeating: .infinity, count: dimensions), maximum = [Float](repeating: -.infinity, count: dimensions)
        for (i, item) in sample.enumerated() {
            minimum[i % dimensions] = min(minimum[i % dimensions], item)
            maximum[i % dimensions] = max(maximum[i % dimensions], item)
        }
        let empty = sample.isEmpty
        self.init(bits: bits, minimum: empty ? [Float](repeating: 0, count: dimensions) : minimum,
                  maximum: empty ? [Float](repeating: 0, count: dimensions) : maximum)
    }

    var dimensions: Int { minimum.count }

    /// The ranges, as stored: the minimums, then the maximums (float32s).
    var ranges: [Float] { minimum + zip(minimum, step).map { $0 + $1 * Float(1 << bits) } }

    /// Appends the codes of `vector` (`dimensions` float32s) to `codes`, a byte an item.
    func encode(_ vector: UnsafeBufferPointer<Float>, into codes: inout [UInt8]) {
        let top = Float((1 << bits) - 1)
        for d in 0..<dimensions {
            let level = step[d] > 0 ? ((vector[d] - minimum[d]) / step[d]).rounded(.down) : 0
            codes.append(UInt8(min(max(level.isNaN ? 0 : level, 0), top)))
        }
    }

    /// What a search computes once for its query, so that a coded vector's distance
    /// costs one conversion and one or two multiply-adds an item.
    struct Query {
        let metric: DistanceMetric
        /// Euclidean: the query less each dimension's first level (`minimum + ½ step`);
        /// dot and cosine: the query times each dimension's step.
        let items: [Float]
        /// Dot and cosine: the query's product with the first levels. Cosine: its squared length.
        let offset: Float, length: Float
        /// Cosine: each dimension's first level, negated (an item's squared length is
        /// Σ (−first − level × step)², a squared distance of levels).
        let negatedFirst: [Float]
    }

    /// The search `query` (`dimensions` float32s) by `metric`.
    func prepare(_ query: UnsafeBufferPointer<Float>, metric: DistanceMetric) -> Query {
        let first = zip(minimum, step).map { $0 + 0.5 * $1 }
        let length = query.reduce(0) { $0 + $1 * $1 }
        switch metric {
        case .euclidean, .euclideanSquared:
            return Query(metric: metric, items: zip(query, first).map { $0 - $1 }, offset: 0, length: length, negatedFirst: [])
        case .dot, .cosine:
            return Query(metric: metric, items: zip(query, step).map { $0 * $1 }, offset: zip(query, first).reduce(0) { $0 + $1.0 * $1.1 },
                         length: length, negatedFirst: metric == .cosine ? first.map { -$0 } : [])
        }
    }

    /// The distance by the query's metric between it and the coded vector at `codes`;
    /// nil where it is undefined (cosine of a zero vector). `kernels`: as ``VectorKernels``.
    func distance(_ codes: UnsafePointer<UInt8>, _ query: Query, kernels: Bool = VectorKernels.available) -> Double? {
        let n = dimensions
        switch query.metric {
        case .euclideanSquared: return Double(VectorKernels.levelsSquaredDistance(codes, query.items, step, n, kernels: kernels))
        case .euclidean: return Double(VectorKernels.levelsSquaredDistance(codes, query.items, step, n, kernels: kernels)).squareRoot()
        case .dot: return -(Double(query.offset) + Double(VectorKernels.levelsDot(codes, query.items, n, kernels: kernels)))
        case .cosine:
            let product = Double(query.offset) + Double(VectorKernels.levelsDot(codes, query.items, n, kernels: kernels))
            let length = Double(VectorKernels.levelsSquaredDistance(codes, query.negatedFirst, step, n, kernels: kernels)) * Double(query.length)
            return length > 0 ? 1 - product / length.squareRoot() : nil
        }
    }
}
