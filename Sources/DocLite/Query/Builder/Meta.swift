/// Document metadata for queries: Couchbase Lite's `Meta`. Each is a meta
/// property (`["._id"]`, …) that `.from("alias")` qualifies.
public final class Meta {
    private init() {}

    /// The document ID: `["._id"]`, column title `id`.
    public static var id: MetaExpressionProtocol { MetaExpression(key: "_id") }
    /// The document's sequence number: `["._sequence"]`, column title `sequence`.
    public static var sequence: MetaExpressionProtocol { MetaExpression(key: "_sequence") }
    /// Whether the document is deleted: `["._deleted"]`. Using it makes the
    /// query read deleted documents too.
    public static var isDeleted: MetaExpressionProtocol { MetaExpression(key: "_deleted") }
    /// The expiration time in milliseconds since 1970, MISSING when none: `["._expiration"]`.
    public static var expiration: MetaExpressionProtocol { MetaExpression(key: "_expiration") }
    /// The current revision ID: `["._revisionID"]`.
    public static var revisionID: MetaExpressionProtocol { MetaExpression(key: "_revisionID") }
}

/// A meta property that can be qualified with a data source alias:
/// Couchbase Lite's `MetaExpressionProtocol`.
public protocol MetaExpressionProtocol: ExpressionProtocol {
    /// The same meta property of the data source named `alias`: `[".alias._id"]`.
    func from(_ alias: String) -> ExpressionProtocol
}

/// A `Meta` property.
struct MetaExpression: MetaExpressionProtocol, ExpressionNode {
    let key: String
    var alias: String? = nil

    var node: QueryExpression { .property((alias.map { [PathComponent.key($0)] } ?? []) + [.key(key)]) }

    func from(_ alias: String) -> ExpressionProtocol { MetaExpression(key: key, alias: alias) }
}
