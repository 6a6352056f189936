/// Couchbase Lite 1.x's `CBLQueryBuilder`: a query given as a predicate in Apple's
/// format (`type == 'post' AND tags CONTAINS $TAG`), the values to select (key
/// paths such as `title`, `address.city` or `tags.@count`, and expressions such as
/// `average(price)`) and sort descriptors (`date`, `-date` for descending). Build
/// it once; run it many times with a context giving the predicate's variables.
///
/// ```swift
/// let builder = try PredicateQueryBuilder(database: db, select: ["title", "body", "author", "date"],
///                                         where: "type == 'post' AND tags CONTAINS $TAG", orderBy: ["-date"])
/// for row in try builder.runQuery(context: ["TAG": "iOS"]) { print(row.value as! [Any]) }
/// ```
///
/// A select list with reduce functions (`count`, `sum`, `min`, `max`, `average`,
/// `median`, `stddev`) aggregates the matching documents into one row, or one row
/// per distinct combination of its other items. A row's ``PredicateQueryRow/value``
/// is the single selected value when one item is selected, else the array of them.
/// The predicate syntax, and where it differs from Apple's, is in docs/predicates.md.
public final class PredicateQueryBuilder: Sendable {
    /// The database queried.
    public let database: Database
    /// The compiled query every ``createQuery(context:)`` copies (it compiles again by itself
    /// when the indexes change).
    let prototype: Query
    private let variables: PredicateVariables
    /// The parameter names the statement reads (variables and their derived forms).
    private let parameterNames: Set<String>

    /// A builder over the database's default collection. Throws
    /// ``DocLiteError/Code/invalidQuery`` (naming the part and the character) for
    /// text it cannot read or a query it cannot run.
    public convenience init(database: Database, select: [String], where predicate: String, orderBy: [String]? = nil) throws {
        try self.init(database: database, source: DataSourceItem(), select: select, where: predicate, orderBy: orderBy ?? [])
    }

    /// A builder over `collection`.
    public convenience init(collection: Collection, select: [String], where predicate: String, orderBy: [String]? = nil) throws {
        try self.init(database: try collection.openDatabase(), source: DataSourceItem(collection: collection.fullName),
                      select: select, where: predicate, orderBy: orderBy ?? [])
    }

    private init(database: Database, source: DataSourceItem, select: [String], where predicate: String, orderBy: [String]) throws {
        guard !select.isEmpty else { throw DocLiteError(.invalidQuery, "a predicate query selects at least one value") }
        var variables = PredicateVariables()
        func part<T>(_ name: String, _ read: (inout PredicateVariables) throws -> T) throws -> T {
            do {
                return try read(&variables)
            } catch let error as DocLiteError {
                var located = DocLiteError(domain: error.domain, code: error.code, message: "\(name): \(error.message)")
                located.position = error.position
                throw located
            }
        }
        var statement = SelectStatement()
        statement.from = source.collection == nil ? [] : [source]
        statement.whereClause = try part("where") { try PredicateParser.predicate(predicate, variables: &$0) }
        statement.what = try select.enumerated().map { number, text in
            ResultItem(expression: try part("select item \(number + 1)") { try PredicateParser.expression(text, variables: &$0) })
        }
        statement.orderBy = try orderBy.enumerated().map { number, descriptor in
            let descending = descriptor.hasPrefix("-")
            let keyPath = descending || descriptor.hasPrefix("+") ? String(descriptor.dropFirst()) : descriptor
            return OrderingItem(expression: try part("sort descriptor \(number + 1)") { try PredicateParser.expression(keyPath, variables: &$0) },
                                descending: descending)
        }
        if statement.what.contains(where: { $0.expression.containsAggregate }) {
            statement.groupBy = statement.what.map(\.expression).filter { !$0.containsAggregate }
        }
        self.database = database
        self.variables = variables
        parameterNames = statement.parameterNames
        prototype = try Query(database: database, statement: statement)   // what cannot run fails here, as 1.x's init did
    }

    /// The names of the predicate's variables (`TAG` for `$TAG`), sorted.
    public var variableNames: [String] { variables.names.sorted() }

    /// A query with the context's values for the variables (`["TAG": "iOS"]`); a
    /// variable the context lacks is ``DocLiteError/Code/invalidQueryParam`` naming it.
    public func createQuery(context: [String: Any]? = nil) throws -> Query {
        try createQuery(values: (context ?? [:]).mapValues { try JSONValue(any: $0) })
    }

    /// A query with the variables' values given as JSON values (the C API's context).
    package func createQuery(values context: [String: JSONValue]) throws -> Query {
        let query = Query(sharingCompilationOf: prototype)
        let values = try variables.parameters(for: context, used: parameterNames)
        if !values.isEmpty { query.parameters = Parameters(values: values) }
        return query
    }

    /// Runs the query with the context's values for the variables.
    public func runQuery(context: [String: Any]? = nil) throws -> PredicateQueryRows {
        PredicateQueryRows(results: try createQuery(context: context).execute())
    }

    /// How the query runs: its SQL++ text (variables as `$NAME`), which filters an index
    /// serves and which run after it, a value index that would serve the predicate when
    /// none does, then the SQL and SQLite's plan.
    public var explanation: String {
        get throws { try PredicateExplanation(builder: self).text }
    }
}

/// The rows of a predicate query, read as they are iterated.
public struct PredicateQueryRows: Sequence, IteratorProtocol {
    /// The rows as the query builder of Couchbase Lite 3 reads them.
    public let results: ResultSet

    /// The next row, or nil at the end (or after an error: see ``ResultSet/error``).
    public mutating func next() -> PredicateQueryRow? {
        results.next().map(PredicateQueryRow.init)
    }

    /// Every remaining row.
    public func allRows() -> [PredicateQueryRow] { Array(self) }
}

/// A row of a predicate query: its ``value`` as Couchbase Lite 1.x's `CBLQueryRow.value`.
public struct PredicateQueryRow {
    /// The row's columns, one per selected item.
    public let result: Result

    /// The selected value when one item is selected, else the array of them (MISSING as `NSNull`).
    public var value: Any? {
        result.count == 1 ? result.value(at: 0) : result.toArray()
    }
}

extension SelectStatement {
    /// The names of the parameters the statement reads.
    var parameterNames: Set<String> {
        var names: Set<String> = []
        for expression in expressions {
            expression.forEach { if case .parameter(let name) = $0 { names.insert(name) } }
        }
        return names
    }
}
