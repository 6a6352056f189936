/// How an index is described to ``Collection/createIndex(withName:config:)``.
public protocol IndexConfiguration: Sendable {}

/// The language an index configuration's expressions are written in.
package enum IndexExpressionLanguage: Sendable {
    /// SQL++ expressions (`lower(city)`), each string a comma-separated list of them.
    case sqlpp
    /// One JSON array of LiteCore JSON expressions (`[[".type"], [".name"]]`).
    case json
}

/// A value index: an SQLite index over one or more expressions of the
/// collection's documents, used by queries that filter or sort on them.
///
/// The expressions are SQL++, as in Couchbase Lite
/// (`ValueIndexConfiguration(["type", "lower(city)"], where: "country = 'France'")`),
/// or LiteCore's JSON query language (``init(json:where:)``); `where` makes
/// it a partial index.
public struct ValueIndexConfiguration: IndexConfiguration {
    /// The SQL++ expressions; for ``init(json:where:)``, one string: the JSON array.
    public let expressions: [String]
    /// The partial-index condition, if any, in the expressions' language.
    public let whereClause: String?
    let expressionLanguage: IndexExpressionLanguage

    /// A value index on SQL++ `expressions`, partial with the SQL++ condition `where`.
    public init(_ expressions: [String], where whereClause: String? = nil) {
        self.expressions = expressions
        self.whereClause = whereClause
        expressionLanguage = .sqlpp
    }

    /// A value index on the JSON array `expressions`, partial with the JSON expression `where`.
    public init(json expressions: String, where whereClause: String? = nil) {
        self.expressions = [expressions]
        self.whereClause = whereClause
        expressionLanguage = .json
    }
}

/// A full-text index: the words of one or more expressions of the
/// collection's documents, searched with `MATCH()` and ranked with `RANK()`.
///
/// The expressions are SQL++ (`FullTextIndexConfiguration(["description"])`)
/// or a JSON array (``init(json:where:ignoreAccents:language:)``); `where`
/// makes it partial. `language` picks the stemmer: English (`"en"`,
/// `"english"`) stems words with the Porter stemmer; nil or any other
/// language indexes words as written (Unicode-aware, lower-cased).
/// `ignoreAccents` makes `é` match `e` (not with the English stemmer, which
/// folds ASCII only).
public struct FullTextIndexConfiguration: IndexConfiguration {
    /// The SQL++ expressions; for ``init(json:where:ignoreAccents:language:)``, one string: the JSON array.
    public let expressions: [String]
    /// The partial-index condition, if any, in the expressions' language.
    public let whereClause: String?
    /// Whether `é` matches `e`.
    public let ignoreAccents: Bool
    /// The language whose stemmer is used (English only; nil for none).
    public let language: String?
    let expressionLanguage: IndexExpressionLanguage

    /// A full-text index on SQL++ `expressions`, partial with the SQL++ condition `where`.
    public init(_ expressions: [String], where whereClause: String? = nil, ignoreAccents: Bool = false, language: String? = nil) {
        self.expressions = expressions
        self.whereClause = whereClause
        self.ignoreAccents = ignoreAccents
        self.language = language
        expressionLanguage = .sqlpp
    }

    /// A full-text index on the JSON array `expressions`, partial with the JSON expression `where`.
    public init(json expressions: String, where whereClause: String? = nil, ignoreAccents: Bool = false, language: String? = nil) {
        self.expressions = [expressions]
        self.whereClause = whereClause
        self.ignoreAccents = ignoreAccents
        self.language = language
        expressionLanguage = .json
    }
}

/// A predictive index: each document's prediction by `model` for `input`,
/// computed when the document is saved and cached, so that a query calling
/// `PREDICTION(model, input)` with the same input reads the cache instead of
/// calling the model (Couchbase Lite's `PredictiveIndex`). A value index on each
/// of `properties` of the prediction (`label`, `scores[0]`) serves queries that
/// filter or sort on them.
///
/// `input` is one SQL++ expression (`{"photo": photo}`) or, with
/// ``init(model:json:properties:)``, one LiteCore JSON expression.
public struct PredictiveIndexConfiguration: IndexConfiguration {
    /// The registered model's name.
    public let model: String
    /// The input expression, in the expressions' language.
    public let input: String
    /// The prediction's properties to index, if any.
    public let properties: [String]?
    let expressionLanguage: IndexExpressionLanguage

    /// A predictive index of `model` for the SQL++ expression `input`.
    public init(model: String, input: String, properties: [String]? = nil) {
        self.model = model
        self.input = input
        self.properties = properties
        expressionLanguage = .sqlpp
    }

    /// A predictive index of `model` for the JSON expression `input` (`["_.dict", …]` or `{"photo": [".photo"]}`).
    public init(model: String, json input: String, properties: [String]? = nil) {
        self.model = model
        self.input = input
        self.properties = properties
        expressionLanguage = .json
    }
}

/// An array index (Couchbase Lite 3.2's): the elements of the array at `path`
/// in every document, so that a query that UNNESTs that path and filters on
/// the element (or on `expressions` of it: `type`, `address.city`) reads an
/// index instead of every document. `path` is one property path (`tags`,
/// `contacts`); Couchbase Lite's nested form `contacts[].phones` is not
/// offered. `expressions` are SQL++ expressions over an element; nil indexes
/// the element itself.
public struct ArrayIndexConfiguration: IndexConfiguration {
    /// The array's property path.
    public let path: String
    /// The element expressions indexed, if any; for ``init(path:json:)``, one string: the JSON array.
    public let expressions: [String]?
    let expressionLanguage: IndexExpressionLanguage

    /// An array index on the array at `path`, indexing the SQL++ `expressions` of its elements (nil: the elements).
    public init(path: String, expressions: [String]? = nil) {
        self.path = path
        self.expressions = expressions
        expressionLanguage = .sqlpp
    }

    /// An array index on the array at `path`, indexing the JSON array `expressions`
    /// over its elements (`[[".type"]]`; nil: the elements).
    public init(path: String, json expressions: String?) {
        self.path = path
        self.expressions = expressions.map { [$0] }
        expressionLanguage = .json
    }
}

/// An index built with ``IndexBuilder``, for ``Collection/createIndex(_:name:)``.
public protocol Index: Sendable {}

/// A value index over items (`IndexBuilder/valueIndex(items:)`).
public struct ValueIndex: Index {
    let items: [ValueIndexItem]
}

/// One item of a value index: a property path.
public struct ValueIndexItem: Sendable {
    let path: String
    /// The item's QueryBuilder expression (``expression(_:)``), used instead of `path`.
    var expression: QueryExpression? = nil

    /// The property at `path` (`"address.city"`, `"tags[0]"`); a malformed path
    /// is reported by `createIndex`.
    public static func property(_ path: String) -> ValueIndexItem { ValueIndexItem(path: path) }
}

/// A full-text index over items (`IndexBuilder/fullTextIndex(items:)`).
public struct FullTextIndex: Index, Setting {
    let items: [FullTextIndexItem]
    var ignoresAccents = false
    var languageCode: String?

    /// The same index, ignoring accents or not.
    public func ignoreAccents(_ ignoreAccents: Bool) -> FullTextIndex { setting(\.ignoresAccents, to: ignoreAccents) }

    /// The same index, with the stemming of `language` (see ``FullTextIndexConfiguration``).
    public func language(_ language: String?) -> FullTextIndex { setting(\.languageCode, to: language) }
}

/// One item of a full-text index: a property path.
public struct FullTextIndexItem: Sendable {
    let path: String

    /// The property at `path`.
    public static func property(_ path: String) -> FullTextIndexItem { FullTextIndexItem(path: path) }
}

/// An array index (``IndexBuilder/arrayIndex(path:expressions:)``).
public struct ArrayIndex: Index {
    let path: String
    let expressions: [QueryExpression]
}

/// A predictive index (``IndexBuilder/predictiveIndex(model:input:properties:)``).
public struct PredictiveIndex: Index {
    let model: String
    let input: QueryExpression
    let properties: [String]?
}

/// Builds indexes as Couchbase Lite's `IndexBuilder` does.
public enum IndexBuilder {
    /// A full-text index over `items`.
    public static func fullTextIndex(items: FullTextIndexItem...) -> FullTextIndex { FullTextIndex(items: items) }

    /// A full-text index over `items`.
    public static func fullTextIndex(items: [FullTextIndexItem]) -> FullTextIndex { FullTextIndex(items: items) }

    /// A value index over `items`.
    public static func valueIndex(items: ValueIndexItem...) -> ValueIndex { ValueIndex(items: items) }

    /// A value index over `items`.
    public static func valueIndex(items: [ValueIndexItem]) -> ValueIndex { ValueIndex(items: items) }
}
