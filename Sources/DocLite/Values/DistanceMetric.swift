import CVectorKernels

/// How a vector index and `APPROX_VECTOR_DISTANCE()` measure the distance
/// between two vectors (Couchbase Lite's `DistanceMetric`; the raw values are
/// couchbase-lite-C's `CBLDistanceMetric`). Smaller is nearer for every metric.
public enum DistanceMetric: Int, Sendable, CaseIterable {
    /// The square of the Euclidean distance, the default: ordered as Euclidean, cheaper.
    case euclideanSquared = 1
    /// 1 − the cosine of the angle between the vectors (0 to 2; undefined for a zero vector).
    case cosine = 2
    /// The Euclidean (L2) distance.
    case euclidean = 3
    /// The dot product negated: the larger the product, the nearer.
    case dot = 4

    /// The name in errors and stored index definitions (LiteCore's standard names).
    var name: String {
        switch self {
        case .euclideanSquared: "euclidean2"
        case .cosine: "cosine"
        case .euclidean: "euclidean"
        case .dot: "dot"
        }
    }

    /// The metric `name` stands for in `APPROX_VECTOR_DISTANCE()`'s third argument,
    /// in any case: LiteCore's names and synonyms (`euclidean_squared`, `L2_squared`,
    /// `default`, `L2`, `cosine_distance`, `dot_product_distance`, …); nil for another.
    public init?(name: String) {
        switch name.lowercased() {
        case "euclidean2", "euclidean_squared", "l2_squared", "default": self = .euclideanSquared
        case "euclidean", "l2": self = .euclidean
        case "cosine", "cosine_distance": self = .cosine
        case "dot", "dot_product_distance": self = .dot
        default: return nil
        }
    }

    /// The distance between vectors `a` and `b` of one length, float32 items in
    /// native byte order; nil where it is undefined (the cosine of a zero vector).
    func distance(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Double? {
        VectorKernels.available ? kernelDistance(a, b) : portableDistance(a, b)
    }

    /// ``distance(_:_:)`` by the C kernels (``VectorKernels``).
    func kernelDistance(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Double? {
        if let x = a.baseAddress, let y = b.baseAddress {
            let n = min(a.count, b.count) / MemoryLayout<Float>.size
            switch self {
            case .euclideanSquared: return Double(doclite_squared_distance(x, y, n))
            case .euclidean: return Double(doclite_squared_distance(x, y, n)).squareRoot()
            case .dot: return -Double(doclite_dot(x, y, n))
            case .cosine:
                let aa = Double(doclite_dot(x, x, n)), bb = Double(doclite_dot(y, y, n))
                guard aa > 0, bb > 0 else { return nil }
                return 1 - Double(doclite_dot(x, y, n)) / (aa * bb).squareRoot()
            }
        }
        return portableDistance(a, b)   // (an empty vector)
    }

    /// ``distance(_:_:)`` by Swift's portable SIMD.
    func portableDistance(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Double? {
        switch self {
        case .euclideanSquared:
            return Double(Self.sum(a, b) { ($0 - $1) * ($0 - $1) })
        case .euclidean:
            return Double(Self.sum(a, b) { ($0 - $1) * ($0 - $1) }).squareRoot()
        case .dot:
            return -Double(Self.sum(a, b) { $0 * $1 })
        case .cosine:
            let aa = Double(Self.sum(a, a) { $0 * $1 }), bb = Double(Self.sum(b, b) { $0 * $1 })
            guard aa > 0, bb > 0 else { return nil }
            return 1 - Double(Self.sum(a, b) { $0 * $1 }) / (aa * bb).squareRoot()
        }
    }

    /// The sum of `term` over the items of `a` and `b`, eight lanes at a time.
    @inline(__always)
    private static func sum(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer,
                            _ term: (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>) -> Float {
        let count = min(a.count, b.count) / MemoryLayout<Float>.size, lanes = 8
        var total = SIMD8<Float>()
        var i = 0
        while i + lanes <= count {
            let offset = i * MemoryLayout<Float>.size
            total += term(a.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self),
                          b.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self))
            i += lanes
        }
        var rest = SIMD8<Float>(), restB = SIMD8<Float>()
        for j in 0..<(count - i) {
            rest[j] = a.loadUnaligned(fromByteOffset: (i + j) * MemoryLayout<Float>.size, as: Float.self)
            restB[j] = b.loadUnaligned(fromByteOffset: (i + j) * MemoryLayout<Float>.size, as: Float.self)
        }
        // (Zero lanes add nothing to any term DocLite uses: (0 − 0)² and 0 · 0.)
        return (total + term(rest, restB)).sum()
    }
}
