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
            case .meta, .match, .rank, .prediction: continue   // (PREDICTION: PredictionTests)
            }
            for count in Set([entry.arity.lowerBound, min(entry.arity.upperBound, entry.arity.lowerBound + 2)]) {
                let arguments = Array(repeating: ", 1", count: count).joined()
                XCTAssertNoThrow(try value(of: "[\"\(name)()\"\(arguments)]"), "\(name) with \(count) arguments")
            }
        }
    }
}
