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
    /// native byte order at any alignment; nil where it is undefined (the cosine of a
    /// zero vector). `kernels`: by ``VectorKernels``' C kernels (the default where the CPU has them).
    func distance(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, kernels: Bool = VectorKernels.available) -> Double? {
        guard let x = a.baseAddress, let y = b.baseAddress else { return self == .cosine ? nil : 0 }
        let n = min(a.count, b.count) / MemoryLayout<Float>.size
        switch self {
        case .euclideanSquared: return Double(VectorKernels.squaredDistance(x, y, n, kernels: kernels))
        case .euclidean: return Double(VectorKernels.squaredDistance(x, y, n, kernels: kernels)).squareRoot()
        case .dot: return -Double(VectorKernels.dot(x, y, n, kernels: kernels))
        case .cosine:
            let aa = Double(VectorKernels.dot(x, x, n, kernels: kernels)), bb = Double(VectorKernels.dot(y, y, n, kernels: kernels))
            guard aa > 0, bb > 0 else { return nil }
            return 1 - Double(VectorKernels.dot(x, y, n, kernels: kernels)) / (aa * bb).squareRoot()
        }
    }
}
