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

    /// √(Σ(x − mean)² / (n − 1)), in two passes of compensated sums in extended precision
    /// where the machine has it: on the standard data it equals Python's exact
    /// `statistics.stdev` to the last bit.
    private static func sampleStandardDeviation(_ values: [Double]) -> Double {
        let count = Wide(values.count)
        let mean = compensatedSum(values.lazy.map { Wide($0) }) / count
        let squares = compensatedSum(values.lazy.map { (Wide($0) - mean) * (Wide($0) - mean) })
        return Double((squares / (count - 1)).squareRoot())
    }

    /// Kahan's compensated sum.
    private static func compensatedSum<S: Sequence>(_ terms: S) -> Wide where S.Element == Wide {
        var sum: Wide = 0, compensation: Wide = 0
        for term in terms {
            let corrected = term - compensation
            let next = sum + corrected
            compensation = (next - sum) - corrected
            sum = next
        }
        return sum
    }
}

#if arch(x86_64) || arch(i386)
/// The widest floating-point type: 80-bit extended precision on x86.
private typealias Wide = Float80
#else
private typealias Wide = Double
#endif
