import ArgumentParser
import DocLiteConformance

/// `doclite conformance CASES.jsonl [--data DIR]`.
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run query conformance cases (JSON or SQL++ queries with expected results).",
        discussion: """
            A case's query is a LiteCore JSON query, or a string of SQL++. Prints one line per failing case, \
            then 'N passed, N failed, N skipped'. Exits 1 when a case fails that is not one of DocLite's known \
            differences from Couchbase Lite (docs/differences.md), or when a known difference passes.
            """
    )

    @Argument(help: "The cases file (JSON lines).")
    var cases: String

    @Option(help: "The folder of the cases' data files (default: 'data' beside the cases file).")
    var data: String?

    @Option(help: "Run only the cases whose ID starts with this prefix.")
    var only: String = ""

    @Flag(help: "Also list the skipped cases with the feature each needs.")
    var showSkipped = false

    @Flag(help: "Run each JSON query's SQL++ text instead of the JSON (the SQL++ round trip).")
    var throughSQLPP = false

    func run() throws {
        let report = try ConformanceRunner(casesFile: cases, dataDirectory: data, throughSQLPP: throughSQLPP).run(matching: only)
        for (id, message) in report.failed {
            let known = ConformanceRunner.knownDifferences[id].map { " (a known difference: \($0))" } ?? ""
            print("FAIL \(id): \(message)\(known)")
        }
        if showSkipped {
            for (id, reason) in report.skipped { print("SKIP \(id): \(reason)") }
        }
        print(report.summary)
        for id in report.passingKnownDifferences { print("PASS \(id): a known difference passes now (remove it)") }
        if !report.unexpected.isEmpty { throw ExitCode(1) }
    }
}
