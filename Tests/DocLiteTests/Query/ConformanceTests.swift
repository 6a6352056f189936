import DocLiteConformance
import Foundation
import XCTest

/// Runs `../shared/conformance/cases.jsonl` (Couchbase Lite's own query test
/// expectations) when the shared folder is beside the repository.
final class ConformanceTests: XCTestCase {
    func testConformanceCorpus() throws {
        let report = try ConformanceRunner(casesFile: try Self.casesFile()).run()
        check(report)
        print("conformance: \(report.summary)")
    }

    /// Every case's JSON query printed as SQL++, and that text run: the same rows.
    func testConformanceCorpusThroughSQLPP() throws {
        let report = try ConformanceRunner(casesFile: try Self.casesFile(), throughSQLPP: true).run()
        check(report)
        print("conformance through SQL++: \(report.summary)")
    }

    /// The UNNEST cases again with an array index on each array they unnest
    /// from a document: the queries read the indexes and return the same rows.
    func testUnnestCasesWithArrayIndexes() throws {
        let runner = try ConformanceRunner(casesFile: try Self.casesFile(), indexesUnnestedArrays: true)
        var report = runner.run(matching: "c4/unnest/")
        report.outcomes += runner.run(matching: "qt/unnest/").outcomes
        XCTAssertTrue(report.failed.isEmpty, "\(report.failed)")
        XCTAssertEqual(report.passed, report.outcomes.count)
        XCTAssertGreaterThanOrEqual(report.passed, 5)
        print("UNNEST cases with array indexes: \(report.summary)")
    }

    private static func casesFile() throws -> String {
        try SharedFolder.path("conformance/cases.jsonl")
    }

    /// Every failure a known difference (ConformanceRunner.knownDifferences, each in
    /// docs/differences.md), and every known difference still failing.
    private func check(_ report: ConformanceRunner.Report) {
        for message in report.unexpected { XCTFail(message) }
        XCTAssertGreaterThanOrEqual(report.passed, 220, report.summary)   // 222 with TZ=UTC (2 date cases need it)
    }
}
