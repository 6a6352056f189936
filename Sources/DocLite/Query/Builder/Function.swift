/// Couchbase Lite's `Function`: aggregate, math, string and date functions.
/// Each builds `["NAME()", args…]`.
public final class Function {
    private init() {}

    static func call(_ name: String, _ arguments: [ExpressionProtocol]) -> ExpressionProtocol {
        BuilderExpression(node: .function(name, arguments.map(\.node)))
    }

    // MARK: Aggregate

    /// The average of the values: `["AVG()", e]`.
    public static func avg(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("avg", [expression]) }
    /// The number of non-missing values; nil counts rows: `["COUNT()", e]` (nil is `["."]`).
    public static func count(_ expression: ExpressionProtocol?) -> ExpressionProtocol {
        call("count", [expression ?? Expression.all()])
    }
    /// The smallest value: `["MIN()", e]`.
    public static func min(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("min", [expression]) }
    /// The largest value: `["MAX()", e]`.
    public static func max(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("max", [expression]) }
    /// The sum of the values: `["SUM()", e]`.
    public static func sum(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("sum", [expression]) }

    // MARK: Math

    /// `["ABS()", e]`.
    public static func abs(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("abs", [expression]) }
    /// `["ACOS()", e]`.
    public static func acos(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("acos", [expression]) }
    /// `["ASIN()", e]`.
    public static func asin(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("asin", [expression]) }
    /// `["ATAN()", e]`.
    public static func atan(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("atan", [expression]) }
    /// The arctangent of y/x: `["ATAN2()", y, x]`.
    public static func atan2(y: ExpressionProtocol, x: ExpressionProtocol) -> ExpressionProtocol { call("atan2", [y, x]) }
    /// `["CEIL()", e]`.
    public static func ceil(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("ceil", [expression]) }
    /// `["COS()", e]`.
    public static func cos(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("cos", [expression]) }
    /// Radians to degrees: `["DEGREES()", e]`.
    public static func degrees(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("degrees", [expression]) }
    /// Euler's number: `["E()"]`.
    public static func e() -> ExpressionProtocol { call("e", []) }
    /// `["EXP()", e]`.
    public static func exp(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("exp", [expression]) }
    /// `["FLOOR()", e]`.
    public static func floor(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("floor", [expression]) }
    /// The natural logarithm: `["LN()", e]`.
    public static func ln(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("ln", [expression]) }
    /// The base-10 logarithm: `["LOG()", e]`.
    public static func log(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("log", [expression]) }
    /// π: `["PI()"]`.
    public static func pi() -> ExpressionProtocol { call("pi", []) }
    /// `base` to the power `exponent`: `["POWER()", b, e]`.
    public static func power(base: ExpressionProtocol, exponent: ExpressionProtocol) -> ExpressionProtocol { call("power", [base, exponent]) }
    /// Degrees to radians: `["RADIANS()", e]`.
    public static func radians(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("radians", [expression]) }
    /// Rounded to an integer: `["ROUND()", e]`.
    public static func round(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("round", [expression]) }
    /// Rounded to `digits` decimals: `["ROUND()", e, d]`.
    public static func round(_ expression: ExpressionProtocol, digits: ExpressionProtocol) -> ExpressionProtocol { call("round", [expression, digits]) }
    /// -1, 0 or 1: `["SIGN()", e]`.
    public static func sign(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("sign", [expression]) }
    /// `["SIN()", e]`.
    public static func sin(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("sin", [expression]) }
    /// `["SQRT()", e]`.
    public static func sqrt(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("sqrt", [expression]) }
    /// `["TAN()", e]`.
    public static func tan(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("tan", [expression]) }
    /// Truncated to an integer: `["TRUNC()", e]`.
    public static func trunc(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("trunc", [expression]) }
    /// Truncated to `digits` decimals: `["TRUNC()", e, d]`.
    public static func trunc(_ expression: ExpressionProtocol, digits: ExpressionProtocol) -> ExpressionProtocol { call("trunc", [expression, digits]) }

    // MARK: String

    /// Whether the string contains `substring`: `["CONTAINS()", e, s]`.
    public static func contains(_ expression: ExpressionProtocol, substring: ExpressionProtocol) -> ExpressionProtocol { call("contains", [expression, substring]) }
    /// The length in characters: `["LENGTH()", e]`.
    public static func length(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("length", [expression]) }
    /// Lower-cased: `["LOWER()", e]`.
    public static func lower(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("lower", [expression]) }
    /// Without leading whitespace: `["LTRIM()", e]`.
    public static func ltrim(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("ltrim", [expression]) }
    /// Without trailing whitespace: `["RTRIM()", e]`.
    public static func rtrim(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("rtrim", [expression]) }
    /// Without leading and trailing whitespace: `["TRIM()", e]`.
    public static func trim(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("trim", [expression]) }
    /// Upper-cased: `["UPPER()", e]`.
    public static func upper(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("upper", [expression]) }

    // MARK: Date

    /// An ISO-8601 date string to milliseconds since 1970: `["STR_TO_MILLIS()", e]`.
    public static func stringToMillis(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("str_to_millis", [expression]) }
    /// An ISO-8601 date string to the same instant in UTC: `["STR_TO_UTC()", e]`.
    public static func stringToUTC(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("str_to_utc", [expression]) }
    /// Milliseconds since 1970 to an ISO-8601 string in the local time zone: `["MILLIS_TO_STR()", e]`.
    public static func millisToString(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("millis_to_str", [expression]) }
    /// Milliseconds since 1970 to an ISO-8601 UTC string: `["MILLIS_TO_UTC()", e]`.
    public static func millisToUTC(_ expression: ExpressionProtocol) -> ExpressionProtocol { call("millis_to_utc", [expression]) }
}

/// Couchbase Lite's `ArrayFunction`: functions of array values.
public final class ArrayFunction {
    private init() {}

    /// Whether the array contains `value`: `["ARRAY_CONTAINS()", e, v]`.
    public static func contains(_ expression: ExpressionProtocol, value: ExpressionProtocol) -> ExpressionProtocol {
        Function.call("array_contains", [expression, value])
    }
    /// The number of items of the array: `["ARRAY_LENGTH()", e]`.
    public static func length(_ expression: ExpressionProtocol) -> ExpressionProtocol { Function.call("array_length", [expression]) }
}

/// Couchbase Lite's `FullTextFunction`: full-text search with a full-text index.
public final class FullTextFunction {
    private init() {}

    /// Whether the document matches the full-text `query`: `["MATCH()", "index", "query"]`.
    public static func match(_ index: FullTextIndexExpressionProtocol, query: String) -> ExpressionProtocol {
        BuilderExpression(node: .function("match", [(index as? FullTextIndexExpression)?.node ?? .missing, .literal(.string(query))]))
    }
    /// The relevance of the match, for ordering: `["RANK()", "index"]`.
    public static func rank(_ index: FullTextIndexExpressionProtocol) -> ExpressionProtocol {
        BuilderExpression(node: .function("rank", [(index as? FullTextIndexExpression)?.node ?? .missing]))
    }
    /// Couchbase Lite's older form of ``match(_:query:)``, naming the index.
    public static func match(indexName: String, query: String) -> ExpressionProtocol {
        match(Expression.fullTextIndex(indexName), query: query)
    }
    /// Couchbase Lite's older form of ``rank(_:)``, naming the index.
    public static func rank(_ indexName: String) -> ExpressionProtocol { rank(Expression.fullTextIndex(indexName)) }
}

extension Function {
    /// The prediction of the registered model `model` (``Database/prediction``) for the
    /// dictionary `input`: `["PREDICTION()", model, input]`; `.property("label")` reads one
    /// property of it. MISSING when the model predicts nothing.
    public static func prediction(model: String, input: ExpressionProtocol) -> PredictionFunction {
        PredictionFunction(model: model, input: input.node)
    }
}

/// `Function.prediction(model:input:)`: the whole prediction, or one property of it.
public struct PredictionFunction: ExpressionNode {
    let model: String
    let input: QueryExpression

    var node: QueryExpression { .function("prediction", [.literal(.string(model)), input]).limitingDepth() }

    /// The prediction's property at `path`: `["PREDICTION()", model, input, ".path"]`.
    public func property(_ path: String) -> ExpressionProtocol {
        BuilderExpression(node: .function("prediction", [.literal(.string(model)), input, .literal(.string("." + path))]))
    }
}
