/// How an index is described to ``Collection/createIndex(withName:config:)``.
public protocol IndexConfiguration: Sendable {}

/// A value index: an SQLite index over one or more expressions of the
/// collection's documents, used by queries that filter or sort on them.
///
/// The expressions are given in LiteCore's JSON query language, as a JSON
/// array (`[[".type"], [".name"]]`); `where` (a JSON expression) makes it a
/// partial index. (SQL++ expressions arrive with the SQL++ parser.)
public struct ValueIndexConfiguration: IndexConfiguration {
    /// The JSON array of expressions.
    public let expressions: String
    /// The partial-index condition (a JSON expression), if any.
    public let whereClause: String?

    public init(json expressions: String, where whereClause: String? = nil) {
        self.expressions = expressions
        self.whereClause = whereClause
    }
}

/// An index built with ``IndexBuilder``, for ``Collection/createIndex(_:name:)``.
public protocol Index: Sendable {}

/// A value index over items (``IndexBuilder/valueIndex(items:)``).
public struct ValueIndex: Index {
    let items: [ValueIndexItem]
}

/// One item of a value index: a property path.
public struct ValueIndexItem: Sendable {
    let path: String

    /// The property at `path` (`"address.city"`, `"tags[0]"`); a malformed path
    /// is reported by `createIndex`.
    public static func property(_ path: String) -> ValueIndexItem { ValueIndexItem(path: path) }
}

/// Builds indexes as Couchbase Lite's `IndexBuilder` does.
public enum IndexBuilder {
    /// A value index over `items`.
    public static func valueIndex(items: ValueIndexItem...) -> ValueIndex { ValueIndex(items: items) }

    /// A value index over `items`.
    public static func valueIndex(items: [ValueIndexItem]) -> ValueIndex { ValueIndex(items: items) }
}
