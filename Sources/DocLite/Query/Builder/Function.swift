/// Couchbase Lite's `Function`: aggregate, math, string and date functions.
/// Each builds `["NAME()", args…]`.
public final class Function {
    private init() {}

    static func call(_ name: String, _ arguments: [ExpressionProtocol]) -> ExpressionProtocol {
        BuilderExpression(node: .function(name, arguments.map(\.node)))
    }
}

/// Couchbase Lite's `ArrayFunction`: functions of array values (generated: Function+Catalog.swift).
public final class ArrayFunction {
    private init() {}
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
