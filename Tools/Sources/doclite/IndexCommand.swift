import ArgumentParser
import DocLite

/// `doclite index DB create NAME EXPRESSIONS [--where COND] | list | drop NAME [--collection NAME]`.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Create, list or drop value indexes.",
        discussion: """
            create NAME EXPRESSIONS: EXPRESSIONS is a comma-separated list of SQL++ expressions, e.g. 'abv, lower(name)', \
            or a JSON array of JSON-query expressions, e.g. '[[".abv"]]'; --where (in the same language) makes a \
            partial index. list: the index names. drop NAME: deletes the index.
            """
    )

    enum Action: String, ExpressibleByArgument, CaseIterable { case create, list, drop }

    @OptionGroup var location: DatabaseLocation
    @Argument(help: "create, list or drop.")
    var action: Action
    @Argument(help: "The index name (create, drop).")
    var name: String?
    @Argument(help: "The expressions (create): SQL++ ('abv, lower(name)') or a JSON array ('[[\".abv\"]]').")
    var expressions: String?
    @Option(name: .customLong("where"), help: "A condition that makes the index partial (create), in the expressions' language.")
    var condition: String?
    @Option(help: "The collection, as 'name' or 'scope.name' (default: the default collection).")
    var collection: String?

    func run() throws {
        let database = try location.open()
        defer { try? database.close() }
        let target = try location.collection(collection, in: database)
        switch action {
        case .list:
            for index in try target.indexes() { print(index) }
        case .create:
            guard let name, let expressions else { throw ValidationError("create needs a name and the indexed expressions") }
            let config = QueryText.detect(expressions) == .json ? ValueIndexConfiguration(json: expressions, where: condition)
                : ValueIndexConfiguration([expressions], where: condition)
            try target.createIndex(withName: name, config: config)
            print("created index \(name) on \(target.fullName)")
        case .drop:
            guard let name else { throw ValidationError("drop needs the index name") }
            try target.deleteIndex(forName: name)
            print("dropped index \(name) from \(target.fullName)")
        }
    }
}
