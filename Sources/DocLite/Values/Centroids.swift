/// The centroids of a trained vector index: the clusters its vectors are divided
/// into (an inverted-file index, as FAISS's `IndexIVF` and Couchbase Lite's keep
/// them). A vector belongs to its nearest centroid; a search looks only in the
/// clusters of the centroids nearest its target.
///
/// "Nearest" is by the index's metric: the Euclidean ones by the squared distance,
/// dot and cosine by the product with centroids of length 1 (spherical k-means, as
/// FAISS's IVF trains for products), so each comparison is one dot product and a
/// constant per centroid.
struct Centroids: Sendable {
    /// `count` × `dimensions` float32 items, centroid after centroid.
    let items: [Float]
    let count: Int
    let dimensions: Int
    let metric: DistanceMetric
    /// A constant per centroid, added to `−weight × (x · c)`: |c|² for the Euclidean metrics, else 0.
    private let bias: [Float]
    private let weight: Float

    init(items: [Float], dimensions: Int, metric: DistanceMetric) {
        (self.items, self.dimensions, self.metric) = (items, dimensions, metric)
        count = dimensions > 0 ? items.count / dimensions : 0
        let euclidean = metric == .euclidean || metric == .euclideanSquared
        weight = euclidean ? 2 : 1
        bias = items.withUnsafeBufferPointer { all in
            (0..<(dimensions > 0 ? items.count / dimensions : 0)).map { c in
                guard euclidean else { return 0 }
                let centroid = UnsafeBufferPointer(rebasing: all[(c * dimensions)..<((c + 1) * dimensions)])
                return VectorKernels.dot(centroid.baseAddress!, centroid.baseAddress!, dimensions)
            }
        }
    }

    /// The centroid `vector` (`dimensions` float32s) belongs to.
    func nearest(to vector: UnsafePointer<Float>) -> Int {
        var best = 0
        nearest(to: vector, count: 1) { _, c in best = c }
        return best
    }

    /// The centroid each of `n` vectors (`dimensions` float32s each, one after another)
    /// belongs to: `found(i, c)` for each vector `i`, in order, scored a block at a time.
    func nearest(to vectors: UnsafePointer<Float>, count n: Int, _ found: (Int, Int) -> Void) {
        let block = max(1, min(n, 16_384 / max(count, 1)))   // (≤ 64 KB of scores)
        var scores = [Float](repeating: 0, count: block * count)
        scores.withUnsafeMutableBufferPointer { scores in
            for start in stride(from: 0, to: n, by: block) {
                let rows = min(block, n - start)
                self.scores(of: vectors + start * dimensions, count: rows, into: scores.baseAddress!)
                for row in 0..<rows {
                    let scored = scores.baseAddress! + row * count
                    var best = 0
                    for c in 0..<count where scored[c] < scored[best] { best = c }
                    found(start + row, best)
                }
            }
        }
    }

    /// The `probes` centroids nearest `vector`, nearest first.
    func nearest(to vector: UnsafePointer<Float>, probes: Int) -> [Int] {
        var scores = [Float](repeating: 0, count: count)
        scores.withUnsafeMutableBufferPointer { self.scores(of: vector, count: 1, into: $0.baseAddress!) }
        return scores.indices.sorted { (scores[$0], $0) < (scores[$1], $1) }.prefix(probes).map { $0 }
    }

    /// Each centroid's score for each of `n` vectors, vector after vector: ordered as its
    /// distance (smaller is nearer).
    private func scores(of vectors: UnsafePointer<Float>, count n: Int, into scores: UnsafeMutablePointer<Float>) {
        items.withUnsafeBufferPointer { all in VectorKernels.dotProducts(vectors, n, all.baseAddress!, count, dimensions, into: scores) }
        for row in 0..<n {
            for c in 0..<count { scores[row * count + c] = bias[c] - weight * scores[row * count + c] }
        }
    }

    /// Trains `count` centroids on `sample` (vectors of `dimensions` float32s; for cosine,
    /// of length 1) by k-means, started as k-means++ starts: seeded, so one sample always
    /// gives one result. Needs at least `count` vectors.
    static func train(sample: [Float], dimensions: Int, count: Int, metric: DistanceMetric, iterations: Int = 10) -> Centroids {
        let n = sample.count / dimensions
        precondition(n >= count && count > 0, "k-means needs at least as many vectors as centroids")
        var random = SeededRandom(seed: 0x5EED)
        var start = seeds(sample, dimensions: dimensions, count: count, &random)
        if metric == .dot { normalize(&start, dimensions: dimensions) }   // (cosine's sample is already of length 1)
        var centroids = Centroids(items: start, dimensions: dimensions, metric: metric)
        var assignment = [Int](repeating: -1, count: n)
        for _ in 0..<iterations {
            var changed = 0
            sample.withUnsafeBufferPointer { all in
                centroids.nearest(to: all.baseAddress!, count: n) { i, c in
                    if c != assignment[i] { changed += 1 }
                    assignment[i] = c
                }
            }
            if changed == 0 { break }
            centroids = Centroids(items: update(centroids.items, sample, assignment, dimensions, metric, &random),
                                  dimensions: dimensions, metric: metric)
        }
        return centroids
    }

    /// At most this many vectors a centroid are candidates for k-means++'s first centroids.
    static let seedingCandidates = 16

    /// k-means++'s first centroids: each next one a vector drawn with a chance in proportion
    /// to its squared distance from the nearest chosen so far, so they spread over the clusters.
    /// The candidates are every so many vectors of the sample, at most ``seedingCandidates``
    /// a centroid: each choice reads every candidate, and the Lloyd rounds that follow
    /// move the centroids to the whole sample.
    private static func seeds(_ sample: [Float], dimensions: Int, count: Int, _ random: inout SeededRandom) -> [Float] {
        let all = sample.count / dimensions, candidates = seedingCandidates * count
        let step = (all + candidates - 1) / candidates   // (rounded up: at most `candidates` of them)
        let sample = step == 1 ? sample : stride(from: 0, to: all, by: step).flatMap { sample[($0 * dimensions)..<(($0 + 1) * dimensions)] }
        let n = sample.count / dimensions
        var items: [Float] = [], nearest = [Float](repeating: .infinity, count: n)
        var next = Int(random.next() % UInt64(n))
        sample.withUnsafeBufferPointer { all in
            let norms = (0..<n).map { VectorKernels.dot(all.baseAddress! + $0 * dimensions, all.baseAddress! + $0 * dimensions, dimensions) }
            for _ in 0..<count {
                let chosen = all.baseAddress! + next * dimensions
                items.append(contentsOf: UnsafeBufferPointer(start: chosen, count: dimensions))
                var total: Double = 0
                for i in 0..<n {
                    nearest[i] = min(nearest[i], norms[i] + norms[next] - 2 * VectorKernels.dot(all.baseAddress! + i * dimensions, chosen, dimensions))
                    total += Double(max(nearest[i], 0))
                }
                guard total > 0 else { next = Int(random.next() % UInt64(n)); continue }   // (all alike: any will do)
                var target = Double(random.next() >> 11) / Double(1 << 53) * total
                next = n - 1
                for i in 0..<n {
                    target -= Double(max(nearest[i], 0))
                    if target < 0 { next = i; break }
                }
            }
        }
        return items
    }

    /// Each centroid moved to the mean of its vectors (for cosine, scaled to length 1);
    /// an empty cluster takes half of the largest, as FAISS splits it.
    private static func update(_ old: [Float], _ sample: [Float], _ assignment: [Int], _ dimensions: Int,
                               _ metric: DistanceMetric, _ random: inout SeededRandom) -> [Float] {
        let count = old.count / dimensions
        var sums = [Float](repeating: 0, count: old.count), members = [Int](repeating: 0, count: count)
        for (i, c) in assignment.enumerated() {
            members[c] += 1
            for d in 0..<dimensions { sums[c * dimensions + d] += sample[i * dimensions + d] }
        }
        for c in 0..<count where members[c] > 0 {
            let scale = 1 / Float(members[c])
            for d in 0..<dimensions { sums[c * dimensions + d] *= scale }
        }
        for empty in 0..<count where members[empty] == 0 {
            let largest = members.indices.max { members[$0] < members[$1] }!
            for d in 0..<dimensions {
                let nudge: Float = random.next() & 1 == 0 ? 1 + 1e-5 : 1 - 1e-5
                sums[empty * dimensions + d] = sums[largest * dimensions + d] * nudge
                sums[largest * dimensions + d] *= 2 - nudge
            }
            members[empty] = members[largest] / 2
            members[largest] -= members[empty]
        }
        if metric == .cosine || metric == .dot { normalize(&sums, dimensions: dimensions) }   // (spherical, as FAISS's IVF for products)
        return sums
    }

    /// Scales each vector of `items` to length 1 (a zero vector stays zero).
    static func normalize(_ items: inout [Float], dimensions: Int) {
        items.withUnsafeMutableBufferPointer { all in
            for start in stride(from: 0, to: all.count, by: dimensions) {
                let vector = all.baseAddress! + start
                let length = VectorKernels.dot(vector, vector, dimensions).squareRoot()
                guard length > 0 else { continue }
                for d in 0..<dimensions { vector[d] /= length }
            }
        }
    }
}
