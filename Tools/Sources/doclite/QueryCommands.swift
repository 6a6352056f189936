import ArgumentParser
import DocLite
import Foundation

/// Where a database file lives: `PATH/NAME.doclite` given as `PATH/NAME` or `PATH/NAME.doclite`.
struct DatabaseLocation: ParsableArguments {
    @Argument(help: "The database: a path such as 'data/beers' (the file is data/beers.doclite).")
    var database: String

    func open() throws -> Database {
        var url = URL(fileURLWithPath: database)
        if url.pathExtension == Database.fileExtension { url.deletePathExtension() }
        return try Database(name: url.lastPathComponent,
                            config: DatabaseConfiguration(directory: url.deletingLastPathComponent().path))
    }

    /// The collection named `name` (`"name"` or `"scope.name"`; nil: the default
    /// collection), created when `create` is set, else an error when missing.
    func collection(_ name: String?, in database: Database, create: Bool = false) throws -> DocLite.Collection {
        guard let name else { return try database.defaultCollection() }
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let (scope, collection) = parts.count == 2 ? (parts[0], parts[1]) : (DocLite.Collection.defaultName, parts[0])
        if create { return try database.createCollection(name: collection, scope: scope) }
        guard let found = try database.collection(name: collection, scope: scope) else {
            throw ValidationError("no collection '\(name)' in \(database.name)")
        }
        return found
    }
}

/// A query given on the command line, in SQL++ or LiteCore's JSON query language.
struct QueryText: ParsableArguments {
    enum Language: String, ExpressibleByArgument { case sqlpp, json }

    @Argument(help: "The query: SQL++ (\"SELECT name FROM _ WHERE type = 'beer'\") or JSON ('{\"WHAT\": [[\".name\"]]}').")
    var query: String
    @Option(help: "The query's language: sqlpp or json (default: json when the text starts with '{' or '[', else sqlpp).")
    var language: Language?

    /// JSON when the text starts with `{` or `[` (no SQL++ query does), else SQL++.
    static func detect(_ text: String) -> Language {
        text.drop { $0.isWhitespace }.first.map { "{[".contains($0) } == true ? .json : .sqlpp
    }

    func compile(in database: Database) throws -> Query {
        switch language ?? Self.detect(query) {
        case .sqlpp: return try database.createQuery(query)
        case .json: return try database.createQuery(json: query)
        }
    }
}

/// `doclite query DB '<SQL++ or JSON query>' [--language sqlpp|json] [--param name=value …] [--format json|table]`.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "query", abstract: "Run a query (SQL++ or LiteCore JSON query language).")

    enum Format: String, ExpressibleByArgument { case json, table }

    @OptionGroup var location: DatabaseLocation
    @OptionGroup var text: QueryText
    @Option(name: .customLong("param"), help: "A parameter, name=value; the value is JSON, or else taken as a string.")
    var parameters: [String] = []
    @Option(help: "json: one JSON object per row; table: aligned columns.")
    var format: Format = .json

    func run() throws {
        let database = try location.open()
        defer { try? database.close() }
        let query = try text.compile(in: database)
        if !parameters.isEmpty { query.parameters = try parseParameters(namedValues(parameters, option: "--param")) }
        let results = try query.execute()
        switch format {
        case .json:
            for row in results { print(row.toJSON()) }
        case .table:
            TablePrinter(columns: query.columnNames).print(results)
        }
        if let error = results.error { throw error }
    }

    private func parseParameters(_ values: [String: Any?]) throws -> Parameters {
        let parameters = Parameters()
        for (name, value) in values { parameters.setValue(value, forName: name) }
        if let error = parameters.error { throw ValidationError(error.message) }
        return parameters
    }
}

/// `name=value` pairs of `option` by name; a value is JSON, or else taken as a string (JSON null is nil).
func namedValues(_ pairs: [String], option: String) throws -> [String: Any?] {
    var values: [String: Any?] = [:]
    for pair in pairs {
        guard let equals = pair.firstIndex(of: "=") else { throw ValidationError("\(option) takes name=value, got '\(pair)'") }
        let text = String(pair[pair.index(after: equals)...])
        let value = (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) ?? text
        let name = String(pair[..<equals])
        values[name] = value is NSNull ? Optional<Any>.none : Optional<Any>.some(value)
    }
    return values
}

/// `doclite find DB --where '<predicate>' --select title --select date --order -date [--var TAG=iOS]`:
/// Couchbase Lite 1.x's query builder from the shell.
struct FindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Run a 1.x-style query: a predicate in Apple's format, values to select, sort descriptors.",
        discussion: "Each row prints as its value: the selected value, or the array of them when several are selected.")

    @OptionGroup var location: DatabaseLocation
    @Option(name: .customLong("where"), help: "The predicate: \"type == 'post' AND tags CONTAINS $TAG\" (default: every document).")
    var predicate = "TRUEPREDICATE"
    @Option(name: .customLong("select"), help: "A value to select: a key path (address.city, tags.@count) or an expression (average(price)).")
    var select: [String] = []
    @Option(name: .customLong("order"), help: "A sort descriptor: a key path; descending with '-' before it (--order=-date).")
    var order: [String] = []
    @Option(name: .customLong("var"), help: "A variable of the predicate, NAME=value; the value is JSON, or else taken as a string.")
    var variables: [String] = []
    @Option(help: "The collection ('name' or 'scope.name'; default: the default collection).")
    var collection: String?
    @Flag(help: "Print how the query runs instead of running it.")
    var explain = false

    func run() throws {
        let database = try location.open()
        defer { try? database.close() }
        let builder = try PredicateQueryBuilder(collection: try location.collection(collection, in: database),
                                                select: select.isEmpty ? ["_id"] : select, where: predicate, orderBy: order)
        if explain { return print(try builder.explanation) }
        let context = try namedValues(variables, option: "--var").compactMapValues { $0 }
        let rows = try builder.runQuery(context: context)
        for row in rows {
            let values = row.result.toJSONArray()   // (one column: the value alone, without the brackets)
            print(row.result.count == 1 ? String(values.dropFirst().dropLast()) : values)
        }
        if let error = rows.results.error { throw error }
    }
}

/// `doclite explain DB '<SQL++ or JSON query>'`.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "explain",
                                                    abstract: "Show a query's SQL, SQLite's plan, its JSON and its SQL++.")

    @OptionGroup var location: DatabaseLocation
    @OptionGroup var text: QueryText

    func run() throws {
        let database = try location.open()
        defer { try? database.close() }
        print(try text.compile(in: database).explain())
    }
}

/// Prints rows as aligned text columns.
struct TablePrinter {
    let columns: [String]

    func print(_ results: ResultSet) {
        let rows = results.allResults().map { row in
            (0..<columns.count).map { i -> String in
                guard row.contains(key: columns[i]) || row.value(at: i) != nil else { return "" }
                return row.value(at: i).map(Self.text) ?? "null"
            }
        }
        let widths = columns.indices.map { i in max(columns[i].count, rows.map { $0[i].count }.max() ?? 0) }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }
        Swift.print(line(columns))
        Swift.print(line(widths.map { String(repeating: "-", count: $0) }))
        for row in rows { Swift.print(line(row)) }
    }

    private static func text(_ value: Any) -> String {
        switch value {
        case let object as DictionaryObject: return object.toJSON()
        case let array as ArrayObject: return array.toJSON()
        case let number as Double: return text(number)
        default: return "\(value)"
        }
    }

    /// A double as the sqlite3 shell prints it (`%!.15g`): 15 significant
    /// digits, so that an average of 6.6 reads 6.6, not 6.6000000000000005,
    /// and a decimal point kept on a whole number (2.0).
    static func text(_ number: Double) -> String {
        let text = String(format: "%.15g", number)
        return number.isFinite && !text.contains(where: { $0 == "." || $0 == "e" }) ? text + ".0" : text
    }
}
