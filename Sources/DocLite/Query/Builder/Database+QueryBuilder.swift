/// Couchbase Lite's `Database` conveniences on the default collection, used by
/// the QueryBuilder guide's examples.
extension Database {
    /// The document `id` of the default collection; nil if there is none or it cannot be read.
    public func document(withID id: String) -> Document? {
        try? defaultCollection().document(id: id)
    }

    /// Creates (or replaces) the index `name` on the default collection.
    public func createIndex(_ config: IndexConfiguration, name: String) throws {
        try defaultCollection().createIndex(withName: name, config: config)
    }

    /// Creates (or replaces) the index `name`, built with ``IndexBuilder``, on the default collection.
    public func createIndex(_ index: Index, withName name: String) throws {
        try defaultCollection().createIndex(index, name: name)
    }
}

extension IndexBuilder {
    /// A predictive index of `model` for `input` (the expression a query's
    /// `Function.prediction(model:input:)` gives), indexing the prediction's `properties`.
    public static func predictiveIndex(model: String, input: ExpressionProtocol, properties: [String]? = nil) -> PredictiveIndex {
        PredictiveIndex(model: model, input: input.node, properties: properties)
    }

    /// An array index on the array at `path`, indexing `expressions` of its elements
    /// (`Expression.property("type")` is an element's `type`); none: the elements.
    public static func arrayIndex(path: String, expressions: [ExpressionProtocol] = []) -> ArrayIndex {
        ArrayIndex(path: path, expressions: expressions.map(\.node))
    }
}

extension ValueIndexItem {
    /// An index item of any QueryBuilder expression (`Expression.property("a")`,
    /// `Function.lower(Expression.property("name"))`, …), as Couchbase Lite's.
    public static func expression(_ expression: ExpressionProtocol) -> ValueIndexItem {
        ValueIndexItem(path: "", expression: expression.node)   // an invalid part: createIndex reports its error
    }
}
