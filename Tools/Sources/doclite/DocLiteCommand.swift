import ArgumentParser

/// `doclite`: import JSON documents, run and explain queries, manage indexes, sync,
/// and run the query conformance corpus, from the shell.
@main
struct DocLiteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doclite",
        abstract: "An embedded JSON document database with Couchbase Lite's query language.",
        subcommands: [ImportCommand.self, QueryCommand.self, FindCommand.self, ExplainCommand.self, IndexCommand.self, SyncCommand.self,
                      ConformanceCommand.self]
    )
}
