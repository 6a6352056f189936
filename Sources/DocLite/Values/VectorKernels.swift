import CVectorKernels

/// The inner loops of vector search, over float32 vectors at any alignment and over
/// one-byte levels (``ScalarQuantizer``): the C kernels of `CVectorKernels` (AVX2 and
/// FMA, about twice the speed of Swift's SIMD on x86-64's baseline, SSE2) where the CPU
/// has them, else the same sums in Swift, eight lanes at a time. `kernels` chooses
/// (tests compare the two); by default, what the CPU runs.
enum VectorKernels {
    /// Whether this CPU runs the C kernels, decided once.
    static let available = doclite_vector_kernels_available() != 0

    /// Σ (a[i] − b[i])² over `n` float32 items.
    static func squaredDistance(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int, kernels: Bool = available) -> Float {
        guard !kernels else { return doclite_squared_distance(a, b, n) }
        return sum(n, { let d = floats(a, $0) - floats(b, $0); return d * d }, { let d = float(a, $0) - float(b, $0); return d * d })
    }

    /// Σ a[i] × b[i] over `n` float32 items.
    static func dot(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int, kernels: Bool = available) -> Float {
        guard !kernels else { return doclite_dot(a, b, n) }
        return sum(n, { floats(a, $0) * floats(b, $0) }, { float(a, $0) * float(b, $0) })
    }

    /// The product of every x with every y (`xCount` and `yCount` vectors of `n` float32
    /// items, one after another): `out[i × yCount + j]` = x_i · y_j. One call scores many
    /// vectors against many (a k-means round, a vector's centroids) at about twice the
    /// speed of a ``dot(_:_:_:kernels:)`` each: the kernel reuses each load for several products.
    static func dotProducts(_ x: UnsafeRawPointer, _ xCount: Int, _ y: UnsafeRawPointer, _ yCount: Int, _ n: Int,
                            into out: UnsafeMutablePointer<Float>, kernels: Bool = available) {
        guard !kernels else { return doclite_dot_products(x, xCount, y, yCount, n, out) }
        let stride = n * MemoryLayout<Float>.size
        for i in 0..<xCount {
            for j in 0..<yCount { out[i * yCount + j] = dot(x + i * stride, y + j * stride, n, kernels: false) }
        }
    }

    /// Σ (shifted[i] − codes[i] × step[i])² over `n` levels.
    static func levelsSquaredDistance(_ codes: UnsafePointer<UInt8>, _ shifted: UnsafePointer<Float>, _ step: UnsafePointer<Float>, _ n: Int,
                                      kernels: Bool = available) -> Float {
        guard !kernels else { return doclite_levels_squared_distance(codes, shifted, step, n) }
        return sum(n, { let d = floats(shifted, $0) - levels(codes, $0) * floats(step, $0); return d * d },
                   { let d = shifted[$0] - Float(codes[$0]) * step[$0]; return d * d })
    }

    /// Σ codes[i] × weights[i] over `n` levels.
    static func levelsDot(_ codes: UnsafePointer<UInt8>, _ weights: UnsafePointer<Float>, _ n: Int, kernels: Bool = available) -> Float {
        guard !kernels else { return doclite_levels_dot(codes, weights, n) }
        return sum(n, { levels(codes, $0) * floats(weights, $0) }, { Float(codes[$0]) * weights[$0] })
    }

    /// The sum over `n` items: `lanes(i)` for each eight from `i`, `item(i)` for the rest.
    @inline(__always)
    private static func sum(_ n: Int, _ lanes: (Int) -> SIMD8<Float>, _ item: (Int) -> Float) -> Float {
        var total = SIMD8<Float>(), i = 0
        while i + 8 <= n {
            total += lanes(i)
            i += 8
        }
        var rest: Float = 0
        while i < n {
            rest += item(i)
            i += 1
        }
        return total.sum() + rest
    }

    @inline(__always)
    private static func floats(_ p: UnsafeRawPointer, _ i: Int) -> SIMD8<Float> {
        p.loadUnaligned(fromByteOffset: i * MemoryLayout<Float>.size, as: SIMD8<Float>.self)
    }

    @inline(__always)
    private static func float(_ p: UnsafeRawPointer, _ i: Int) -> Float {
        p.loadUnaligned(fromByteOffset: i * MemoryLayout<Float>.size, as: Float.self)
    }

    /// Eight levels from `i`, as floats.
    @inline(__always)
    private static func levels(_ codes: UnsafePointer<UInt8>, _ i: Int) -> SIMD8<Float> {
        SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(codes).loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self)))
    }
}
