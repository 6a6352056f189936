#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// Couchbase Lite's distances between two vectors, arrays of numbers (an item that
/// is not a number counts as 0). Both MISSING unless the arguments are arrays of
/// one length, and where the result is not a number (NaN, infinity), as in
/// Couchbase Lite, where SQLite turns NaN into NULL.
///
/// - `doc_euclidean_distance(a, b[, power])`: the Euclidean distance; with `power`, the
///   distance raised to it (2: the squared distance, the sum of squares itself).
/// - `doc_cosine_distance(a, b)`: 1 − the cosine of the angle between them (MISSING for
///   a vector of zeros, whose angle is undefined).
enum VectorFunctions {
    static func register(with registrar: FunctionRegistrar) {
        registrar.add("doc_euclidean_distance", -1) { context, argc, argv in
            VectorFunctions.withVectors(context, argv) { a, b in
                var sum = 0.0
                for i in a.indices { let d = a[i] - b[i]; sum += d * d }
                guard argc > 2 else { return sum.squareRoot() }
                let power = sqlite3_value_double(argv![2])
                return power == 2 ? sum : pow(sum.squareRoot(), power)
            }
        }
        registrar.add("doc_cosine_distance", 2) { context, _, argv in
            VectorFunctions.withVectors(context, argv) { a, b in
                var aa = 0.0, ab = 0.0, bb = 0.0
                for i in a.indices { aa += a[i] * a[i]; ab += a[i] * b[i]; bb += b[i] * b[i] }
                return 1 - ab / (aa * bb).squareRoot()
            }
        }
    }

    /// Calls `distance` with the first two arguments as vectors of one length and sets
    /// its result; sets MISSING when they are not such vectors or the result is not finite.
    private static func withVectors(_ context: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>?,
                                    _ distance: ([Double], [Double]) -> Double) {
        guard let a = vector(argv![0]), let b = vector(argv![1]), a.count == b.count,
              case let result = distance(a, b), result.isFinite else {
            sqlite3_result_null(context)
            return
        }
        sqlite3_result_double(context, result)
    }

    /// The items of an array argument as numbers (0 for any other item); nil for any other value.
    private static func vector(_ value: OpaquePointer?) -> [Double]? {
        guard case .array(let body, let offset) = RuntimeValue(value) else { return nil }
        var numbers: [Double] = []
        numbers.reserveCapacity(body.count(at: offset) ?? 0)
        body.forEachElement(ofArrayAt: offset) { numbers.append(RuntimeValue(body, at: $0).number ?? 0) }
        return numbers
    }
}
