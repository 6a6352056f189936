#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// N1QL math functions, computed as doubles. A number
/// is an SQL number or a boolean (0 or 1); a non-finite result (NaN, infinity)
/// is null.
///
/// - `doc_abs`, `doc_acos`, `doc_asin`, `doc_atan`, `doc_ceil`, `doc_cos`, `doc_degrees`,
///   `doc_exp`, `doc_floor`, `doc_ln`, `doc_log` (base 10), `doc_radians`, `doc_sin`,
///   `doc_sqrt`, `doc_tan` (1 argument): a non-number is null.
/// - `doc_atan2(y, x)`, `doc_power(base, exponent)`, `doc_sign(x)` (-1, 0 or 1, an
///   integer): a non-number fails the query with "Invalid numeric value" (invalidQuery), as in Couchbase Lite.
/// - `doc_e()`, `doc_pi()`.
/// - `doc_round(x[, digits])` (half away from zero), `doc_round_even(x[, digits])`
///   (half to even), `doc_trunc(x[, digits])`: to `digits` decimal places (0 by
///   default; negative rounds to tens, hundreds, …); a non-number is null.
/// - `doc_div(a, b)`: floating-point division; a non-number is null.
/// - `doc_idiv(a, b)`: both truncated to integers, then integer division
///   (truncating); division by zero and a non-number are null.
enum MathFunctions {
    /// A function of one double, as user data.
    private final class Unary {
        let apply: (Double) -> Double
        init(_ apply: @escaping (Double) -> Double) { self.apply = apply }
    }

    /// A rounding rule, as user data.
    private final class Rounding {
        let rule: FloatingPointRoundingRule
        init(_ rule: FloatingPointRoundingRule) { self.rule = rule }
    }

    static func register(with registrar: FunctionRegistrar) {
        let unary: [(String, (Double) -> Double)] = [
            ("doc_abs", { Swift.abs($0) }), ("doc_acos", acos), ("doc_asin", asin), ("doc_atan", atan),
            ("doc_ceil", { $0.rounded(.up) }), ("doc_cos", cos), ("doc_degrees", { $0 * 180 / .pi }),
            ("doc_exp", exp), ("doc_floor", { $0.rounded(.down) }), ("doc_ln", log), ("doc_log", log10),
            ("doc_radians", { $0 * .pi / 180 }), ("doc_sin", sin), ("doc_sqrt", { $0.squareRoot() }), ("doc_tan", tan),
        ]
        for (name, function) in unary {
            registrar.add(name, 1, userData: Unary(function)) { context, argc, argv in
                MathFunctions.withNumbers(context, argc, argv) { x in
                    let function = FunctionRegistrar.userData(context, as: Unary.self)
                    FunctionResult.setDouble(context, function._withUnsafeGuaranteedRef { $0.apply(x[0]) })
                }
            }
        }
        registrar.add("doc_atan2", 2) { context, argc, argv in
            MathFunctions.withNumbers(context, argc, argv, strict: true) { FunctionResult.setDouble(context, atan2($0[0], $0[1])) }
        }
        registrar.add("doc_power", 2) { context, argc, argv in
            MathFunctions.withNumbers(context, argc, argv, strict: true) { FunctionResult.setDouble(context, pow($0[0], $0[1])) }
        }
        registrar.add("doc_sign", 1) { context, argc, argv in
            MathFunctions.withNumbers(context, argc, argv, strict: true) { x in
                sqlite3_result_int(context, x[0] > 0 ? 1 : x[0] < 0 ? -1 : 0)
            }
        }
        registrar.add("doc_e", 0) { context, _, _ in sqlite3_result_double(context, M_E) }
        registrar.add("doc_pi", 0) { context, _, _ in sqlite3_result_double(context, .pi) }
        for (name, rule) in [("doc_round", FloatingPointRoundingRule.toNearestOrAwayFromZero),
                             ("doc_round_even", .toNearestOrEven), ("doc_trunc", .towardZero)] {
            for arity: Int32 in [1, 2] {
                registrar.add(name, arity, userData: Rounding(rule)) { context, argc, argv in
                    MathFunctions.withNumbers(context, argc, argv) { x in
                        let rule = FunctionRegistrar.userData(context, as: Rounding.self).takeUnretainedValue().rule
                        FunctionResult.setDouble(context, MathFunctions.round(x[0], digits: x[1].rounded(.towardZero), rule))
                    }
                }
            }
        }
        registrar.add("doc_div", 2) { context, argc, argv in
            MathFunctions.withNumbers(context, argc, argv) { FunctionResult.setDouble(context, $0[0] / $0[1]) }
        }
        registrar.add("doc_idiv", 2) { context, argc, argv in
            MathFunctions.withNumbers(context, argc, argv) { x in
                guard let a = MathFunctions.truncatedInteger(x[0]), let b = MathFunctions.truncatedInteger(x[1]), b != 0 else {
                    FunctionResult.setNull(context)
                    return
                }
                let (quotient, overflow) = a.dividedReportingOverflow(by: b)
                if overflow { FunctionResult.setNull(context) } else { sqlite3_result_int64(context, quotient) }
            }
        }
    }

    /// `x` rounded by `rule` to `digits` decimal places (an integral value;
    /// negative for tens, hundreds, …). Negative places divide by a power of
    /// ten rather than multiply by its inverse, which is inexact.
    static func round(_ x: Double, digits: Double, _ rule: FloatingPointRoundingRule) -> Double {
        let scale = pow(10, Swift.abs(digits))
        if digits >= 0 {
            let scaled = x * scale
            return scaled.isFinite ? scaled.rounded(rule) / scale : x   // too many places: nothing to round
        }
        return scale.isFinite ? (x / scale).rounded(rule) * scale : 0
    }

    /// `x` truncated to an `Int64`; nil when it does not fit (or is NaN).
    private static func truncatedInteger(_ x: Double) -> Int64? {
        Int64(exactly: x.rounded(.towardZero))
    }

    /// Applies N1QL's MISSING/null rule and calls `use` with the (one or two)
    /// arguments as numbers, an absent second one 0. A non-number gives null,
    /// or when `strict` the SQL error Couchbase Lite gives.
    private static func withNumbers(_ context: OpaquePointer?, _ argc: Int32, _ argv: UnsafeMutablePointer<OpaquePointer?>?,
                                    strict: Bool = false, _ use: (SIMD2<Double>) -> Void) {
        guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
        var numbers = SIMD2<Double>()
        for i in 0..<Int(argc) {
            guard let number = RuntimeValue(argv![i]).number else {
                if strict { SQLFunctionError.set(context, DocLiteError(.invalidQuery, "Invalid numeric value")) } else { FunctionResult.setNull(context) }
                return
            }
            numbers[i] = number
        }
        use(numbers)
    }
}
