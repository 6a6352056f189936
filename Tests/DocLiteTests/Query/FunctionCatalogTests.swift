import Foundation
import XCTest
@testable import DocLite

/// Every function of the catalog calls an SQL function registered with each of
/// its arities (META, MATCH and RANK take aliases and index names, PREDICTION a
/// registered model and a dictionary: their own tests).
final class FunctionCatalogTests: QueryTestCase {
    func testEveryEntryRunsWithItsArities() throws {
        try loadProbe()
        for (name, entry) in FunctionCatalog.entries.sorted(by: { $0.key < $1.key }) {
            switch entry.kind {
            case .scalar, .aggregate: break
            case .meta, .match, .rank, .prediction, .vectorDistance: continue   // (PREDICTION: PredictionTests; vectors: VectorSearchTests)
            }
            for count in Set([entry.arity.lowerBound, min(entry.arity.upperBound, entry.arity.lowerBound + 2)]) {
                let arguments = Array(repeating: ", 1", count: count).joined()
                XCTAssertNoThrow(try value(of: "[\"\(name)()\"\(arguments)]"), "\(name) with \(count) arguments")
            }
        }
    }

    /// Every function of the builders' table (`codegen/query-functions.tsv`, from which
    /// every builder surface is generated) is a function of the query language taking
    /// the numbers of arguments the table gives it.
    func testEveryBuilderFunctionIsInTheCatalog() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let table = try String(contentsOf: root.appendingPathComponent("codegen/query-functions.tsv"), encoding: .utf8)
        let lines = table.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        let columns = try XCTUnwrap(lines.first), query = try XCTUnwrap(columns.firstIndex(of: "query")),
            given = try XCTUnwrap(columns.firstIndex(of: "arguments"))
        let rows = lines.dropFirst()
        XCTAssertGreaterThan(rows.count, 40)
        for row in rows {
            let name = row[query].lowercased(), arguments = row[given].split(separator: ",")
            let counts = Set([arguments.count, arguments.count - arguments.filter { $0.hasSuffix("?") }.count])
            let entry = try XCTUnwrap(FunctionCatalog.entry(name), "\(name) is not a function of the query language")
            for count in counts { XCTAssertTrue(entry.arity.contains(count), "\(name) with \(count) arguments") }
        }
    }
}
