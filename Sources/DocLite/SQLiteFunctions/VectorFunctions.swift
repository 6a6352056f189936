import Foundation
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
///
/// And the functions of vector search (a vector is stored as its float32 items, in
/// native byte order, in a blob):
///
/// - `doc_vector(value, dimensions)`: the vector `value` holds, as a blob: an array of
///   numbers, or a string of Base64 float32s (LiteCore's two forms in a document),
///   with `dimensions` items (0: any count from 2); NULL for any other value, as a
///   vector index skips it (Couchbase Lite's rule: a bad vector never fails a save).
/// - `doc_vector_distance(vector, target, metric, dimensions)`: the distance by
///   ``DistanceMetric`` (its raw value) between a stored vector and the target, an
///   array of numbers or Base64 string; MISSING when `vector` is NULL or the target
///   MISSING or null; an error for any other target that is no vector, or, with
///   `dimensions` (an index's), one of another length. Without, a vector of another
///   length is MISSING.
/// - `doc_vector_target(target, dimensions)`: the target as a float32 blob, for
///   `doc_vector_search` (``VectorSearchTable``); NULL for MISSING or null, and the
///   errors of `doc_vector_distance`.
enum VectorFunctions {
    static func register(with registrar: FunctionRegistrar) {
        registrar.add("doc_vector", 2) { context, _, argv in
            guard case .success(let items) = VectorFunctions.vector(RuntimeValue(argv![0])),
                  case let dimensions = Int(sqlite3_value_int64(argv![1])), dimensions == 0 || items.count == dimensions else {
                sqlite3_result_null(context)
                return
            }
            items.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), csqlite_transient()) }
        }
        registrar.add("doc_vector_target", 2) { context, _, argv in
            do {
                guard let items = try TargetVector(argv![0], dimensions: Int(sqlite3_value_int64(argv![1]))).items else {
                    return sqlite3_result_null(context)
                }
                items.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), csqlite_transient()) }
            } catch {
                SQLFunctionError.set(context, error)
            }
        }
        registrar.add("doc_vector_distance", 4) { context, _, argv in
            guard sqlite3_value_type(argv![0]) == SQLITE_BLOB, let metric = DistanceMetric(rawValue: Int(sqlite3_value_int(argv![2]))) else {
                sqlite3_result_null(context)
                return
            }
            let dimensions = Int(sqlite3_value_int64(argv![3]))
            _ = BodyFunctions.withAuxiliary(context, argument: 1, argv, { try TargetVector(argv![1], dimensions: dimensions) }) { target in
                guard let items = target.items else { return sqlite3_result_null(context) }
                let vector = UnsafeRawBufferPointer(start: sqlite3_value_blob(argv![0]), count: Int(sqlite3_value_bytes(argv![0])))
                guard vector.count == items.count * MemoryLayout<Float>.size,
                      let distance = items.withUnsafeBytes({ metric.distance(vector, $0) }), distance.isFinite else {
                    return sqlite3_result_null(context)
                }
                sqlite3_result_double(context, distance)
            }
        }
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

    /// The float32 items of a vector value (``doc_vector``'s forms), or why it is none.
    static func vector(_ value: RuntimeValue) -> Swift.Result<[Float], VectorError> {
        switch value {
        case .array(let body, let offset):
            var items: [Float] = []
            items.reserveCapacity(body.count(at: offset) ?? 0)
            var failure: VectorError?
            body.forEachElement(ofArrayAt: offset) { element in
                guard failure == nil else { return }
                guard let number = body.number(at: element) else { return failure = .notANumber(items.count) }
                let item = Float(number)
                guard item.isFinite else { return failure = .notFinite(items.count) }
                items.append(item)
            }
            if let failure { return .failure(failure) }
            return items.count < 2 ? .failure(.tooShort(items.count)) : .success(items)
        case .string(let text):
            guard let data = Data(base64Encoded: Data(text)), data.count % MemoryLayout<Float>.size == 0 else {
                return .failure(.notBase64)
            }
            let items = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            if let bad = items.firstIndex(where: { !$0.isFinite }) { return .failure(.notFinite(bad)) }
            return items.count < 2 ? .failure(.tooShort(items.count)) : .success(items)
        default:
            return .failure(.notAVector)
        }
    }

    /// Why a value is not a vector.
    enum VectorError: Error, CustomStringConvertible {
        case notAVector, notBase64, notANumber(Int), notFinite(Int), tooShort(Int)

        var description: String {
            switch self {
            case .notAVector: "is not a vector (an array of numbers, or a string of Base64 float32s)"
            case .notBase64: "is a string but not Base64 of float32s (a multiple of 4 bytes)"
            case .notANumber(let i): "has an item that is not a number at index \(i)"
            case .notFinite(let i): "has an item that is not a finite float32 at index \(i)"
            case .tooShort(let count): "has \(count) item\(count == 1 ? "" : "s"); a vector has at least 2"
            }
        }
    }

    /// The target of `doc_vector_distance`, read once per statement when it is constant.
    private final class TargetVector {
        /// The items; nil for a MISSING or null target (the distance is MISSING).
        let items: [Float]?

        init(_ value: OpaquePointer?, dimensions: Int) throws {
            let target = RuntimeValue(value)
            switch target {
            case .missing, .null:
                items = nil
                return
            default:
                break
            }
            switch VectorFunctions.vector(target) {
            case .failure(let reason):
                throw DocLiteError(.invalidQuery, "APPROX_VECTOR_DISTANCE(): the target vector \(reason)")
            case .success(let items):
                guard dimensions == 0 || items.count == dimensions else {
                    throw DocLiteError(.invalidQuery, "APPROX_VECTOR_DISTANCE(): the target vector has \(items.count) dimensions; "
                                       + "the vector index has \(dimensions)")
                }
                self.items = items
            }
        }
    }
}
