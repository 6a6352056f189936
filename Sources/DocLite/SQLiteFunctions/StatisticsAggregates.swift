#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// The reduce functions of Couchbase Lite 1.x's query builder that SQLite lacks,
/// over a group's numbers (other values are skipped, as SUM and AVG skip them):
///
/// - aggregate `doc_median(x)`: the middle number, or the mean of the two middle
///   ones; an integer when the numbers are integers and it is whole; null for none.
/// - aggregate `doc_stddev(x)`: the sample standard deviation (divided by n − 1, as
///   1.x's `stddev`); null for fewer than two numbers.
enum StatisticsAggregates {
    /// A group's numbers.
    private final class Numbers {
        var values: [Double] = []
        var allIntegers = true
    }

    static func register(with registrar: FunctionRegistrar) {
        registrar.addAggregate("doc_median", 1, step: collect, final: median)
        registrar.addAggregate("doc_stddev", 1, step: collect, final: standardDeviation)
    }

    private static let median: @convention(c) (OpaquePointer?) -> Void = { context in
        guard let numbers = AggregateState.final(context, as: Numbers.self), !numbers.values.isEmpty else {
            sqlite3_result_null(context)
            return
        }
        let sorted = numbers.values.sorted()
        let middle = sorted.count / 2
        let value = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        if numbers.allIntegers, value == value.rounded(), abs(value) < 9.0e15 {
            sqlite3_result_int64(context, Int64(value))
        } else {
            sqlite3_result_double(context, value)
        }
    }

    private static let standardDeviation: @convention(c) (OpaquePointer?) -> Void = { context in
        guard let numbers = AggregateState.final(context, as: Numbers.self), numbers.values.count >= 2 else {
            sqlite3_result_null(context)
            return
        }
        sqlite3_result_double(context, sampleStandardDeviation(numbers.values))
    }

    private static let collect: BodyFunctions.Function = { context, _, argv in
        let value = argv![0]
        let type = sqlite3_value_type(value)
        guard type == SQLITE_INTEGER || type == SQLITE_FLOAT,
              sqlite3_value_subtype(value) != RuntimeSubtype.boolean,
              let numbers = AggregateState.current(context, make: Numbers.init) else { return }
        numbers.values.append(sqlite3_value_double(value))
        if type == SQLITE_FLOAT { numbers.allIntegers = false }
    }

    /// √(Σ(x − mean)² / (n − 1)), with the mean and the sum of squares each summed in
    /// two passes (the second correcting the first's rounding).
    private static func sampleStandardDeviation(_ values: [Double]) -> Double {
        let count = Double(values.count)
        var mean = values.reduce(0, +) / count
        mean += values.reduce(0) { $0 + ($1 - mean) } / count
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (squares / (count - 1)).squareRoot()
    }
}
