import XCTest
@testable import DocLite

/// The C kernels of vector search (AVX2 and FMA) give the distances Swift's portable
/// loops give, for every metric and encoding, at lengths with and without a tail, from
/// vectors at any alignment (as SQLite's blobs are).
final class VectorKernelTests: XCTestCase {
    private func randomVector(_ n: Int, _ random: inout SeededRandom) -> [Float] {
        (0..<n).map { _ in Float(Int(random.next() % 2001) - 1000) / 100 }
    }

    func testKernelsAgreeWithThePortableLoops() throws {
        try XCTSkipUnless(VectorKernels.available, "this CPU has no AVX2 and FMA: only the portable loops run here")
        var random = SeededRandom(seed: 11)
        for n in [2, 3, 7, 8, 9, 15, 16, 17, 31, 384, 385] {
            let a = randomVector(n, &random), b = randomVector(n, &random)
            // One byte in: a float32 vector at an odd address.
            let shifted = [UInt8](repeating: 0, count: 1) + a.withUnsafeBytes { Array($0) }
            for metric in DistanceMetric.allCases {
                let portable = try XCTUnwrap(a.withUnsafeBytes { x in b.withUnsafeBytes { metric.distance(x, $0, kernels: false) } })
                let kernel = try XCTUnwrap(a.withUnsafeBytes { x in b.withUnsafeBytes { metric.distance(x, $0, kernels: true) } })
                let unaligned = try XCTUnwrap(shifted.withUnsafeBytes { x in
                    b.withUnsafeBytes { metric.distance(UnsafeRawBufferPointer(rebasing: x[1...]), $0, kernels: true) }
                })
                XCTAssertEqual(kernel, portable, accuracy: abs(portable) * 1e-5 + 1e-4, "\(metric), \(n) items")
                XCTAssertEqual(unaligned, kernel, "\(metric), \(n) items, unaligned")
            }
            let sample = (0..<20).flatMap { _ in randomVector(n, &random) }
            let quantizer = try XCTUnwrap(ScalarQuantizer(bits: 8, sample: sample, dimensions: n))
            var codes: [UInt8] = []
            a.withUnsafeBufferPointer { quantizer.encode($0, into: &codes) }
            for metric in DistanceMetric.allCases {
                let query = b.withUnsafeBufferPointer { quantizer.prepare($0, metric: metric) }
                let portable = try XCTUnwrap(codes.withUnsafeBufferPointer { quantizer.distance($0.baseAddress!, query, kernels: false) })
                let kernel = try XCTUnwrap(codes.withUnsafeBufferPointer { quantizer.distance($0.baseAddress!, query, kernels: true) })
                XCTAssertEqual(kernel, portable, accuracy: abs(portable) * 1e-4 + 1e-3, "SQ8 \(metric), \(n) items")
            }
            let dots = (VectorKernels.dot(a, b, n, kernels: false), VectorKernels.dot(a, b, n, kernels: true))
            XCTAssertEqual(dots.1, dots.0, accuracy: abs(dots.0) * 1e-5 + 1e-3)
        }
    }

    /// The kernel scoring many vectors against many computes each product, whatever the
    /// rows left over by its tiles of two by four, and from unaligned vectors.
    func testDotProductsOfManyAgreeWithEachDot() throws {
        try XCTSkipUnless(VectorKernels.available, "this CPU has no AVX2 and FMA: only the portable loops run here")
        var random = SeededRandom(seed: 12)
        for n in [2, 7, 8, 17, 384] {
            for (xCount, yCount) in [(1, 1), (1, 5), (2, 4), (3, 3), (5, 9), (4, 8)] {
                let x = (0..<xCount).flatMap { _ in randomVector(n, &random) }, y = (0..<yCount).flatMap { _ in randomVector(n, &random) }
                let shifted = [UInt8](repeating: 0, count: 3) + x.withUnsafeBytes { Array($0) }
                var portable = [Float](repeating: .nan, count: xCount * yCount), kernel = portable, unaligned = portable
                x.withUnsafeBytes { x in
                    y.withUnsafeBytes { y in
                        VectorKernels.dotProducts(x.baseAddress!, xCount, y.baseAddress!, yCount, n, into: &portable, kernels: false)
                        VectorKernels.dotProducts(x.baseAddress!, xCount, y.baseAddress!, yCount, n, into: &kernel, kernels: true)
                    }
                }
                shifted.withUnsafeBytes { x in
                    y.withUnsafeBytes { VectorKernels.dotProducts(x.baseAddress! + 3, xCount, $0.baseAddress!, yCount, n, into: &unaligned, kernels: true) }
                }
                for i in 0..<xCount {
                    for j in 0..<yCount {
                        let each = x.withUnsafeBytes { x in y.withUnsafeBytes { VectorKernels.dot(x.baseAddress! + i * n * 4, $0.baseAddress! + j * n * 4, n, kernels: false) } }
                        let at = i * yCount + j, label = "\(xCount)×\(yCount) of \(n) items, [\(i)][\(j)]"
                        XCTAssertEqual(portable[at], each, label)
                        XCTAssertEqual(kernel[at], each, accuracy: abs(each) * 1e-5 + 1e-3, label)
                        XCTAssertEqual(unaligned[at], kernel[at], label)
                    }
                }
            }
        }
    }
}
