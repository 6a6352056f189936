import Foundation
import XCTest
@testable import DocLite

/// LiteCore's SQL++ parser expectations (`../shared/conformance/sqlpp/translations.jsonl`):
/// each text parses to the same tree as its expected JSON does through the
/// JSON reader, and each text LiteCore's parser rejects fails with a position.
final class SQLPPTranslationTests: XCTestCase {
    /// Texts LiteCore refuses after parsing that DocLite runs, each listed in docs/differences.md.
    static let knownDifferences: Set<String> = [
        "n1ql/unnest/08",   // UNNEST of an array literal: DocLite unnests any expression, LiteCore only a property path
    ]

    func testLiteCoreTranslationPairs() throws {
        _ = try SharedFolder.path("conformance/sqlpp/translations.jsonl")
        var passed = 0
        for line in try SharedFolder.jsonLines("conformance/sqlpp/translations.jsonl") {
            guard case .dictionary(let object) = line, case .string(let id)? = object["id"], case .string(let sqlpp)? = object["sqlpp"] else {
                return XCTFail("malformed line: \(line.json)")
            }
            let parsed = Swift.Result { try SQLPPParser.parse(sqlpp) }
            if object["error"] == .string("syntax") {
                switch parsed {
                case .success: XCTFail("\(id): parsed, but LiteCore rejects it: \(sqlpp)")
                case .failure(let failure): XCTAssertNotNil((failure as? DocLiteError)?.position, "\(id): \(failure)")
                }
                passed += 1
                continue
            }
            guard let json = object["json"], json != .null else {
                // LiteCore parses these and rejects them when translating (the tree is not in the file).
                if case .failure(let failure) = parsed { XCTFail("\(id): \(failure)\n\(sqlpp)"); continue }
                guard case .string = object["error"] else { passed += 1; continue }   // the timing case
                if Self.knownDifferences.contains(id) {
                    XCTAssertNoThrow(try database(for: object["setup"]).createQuery(sqlpp), id)
                    passed += 1
                    continue
                }
                XCTAssertThrowsError(try database(for: object["setup"]).createQuery(sqlpp), id) { error in
                    XCTAssertTrue((error as? DocLiteError)?.is(.invalidQuery) == true || (error as? DocLiteError)?.is(.missingIndex) == true,
                                  "\(id): \(error)")
                }
                passed += 1
                continue
            }
            switch (parsed, Swift.Result { try JSONQueryParser.parse(json) }) {
            case (.success(let statement), .success(let expected)):
                // (Compared in the round trip's canonical form: LiteCore nests a chain of AND
                // or OR in pairs, DocLite's parser gives one operation; docs/differences.md.)
                if SQLPPRoundTripTests.canonical(statement) == SQLPPRoundTripTests.canonical(expected) {
                    passed += 1
                } else {
                    XCTFail("\(id): \(sqlpp)\n got \(statement)\n expected \(expected)")
                }
            case (.failure, .failure):   // a sub-query: neither front end reads one
                passed += 1
            case (.failure(let failure), .success):
                XCTFail("\(id): \(failure)\n\(sqlpp)")
            case (.success, .failure(let failure)):
                XCTFail("\(id): parsed, but its expected JSON is refused (\(failure))\n\(sqlpp)")
            }
        }
        XCTAssertEqual(passed, 221)
        print("SQL++ translation pairs: \(passed) passed")
    }

    /// A fresh database with the collections a case's `setup.tableNames` name
    /// (`kv_.coll`, `kv_.scope.coll`).
    private func database(for setup: JSONValue?) throws -> Database {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqlpp-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(name: "db", config: DatabaseConfiguration(directory: directory.path))
        addTeardownBlock { try? database.close() }
        guard case .dictionary(let members)? = setup, case .array(let tables)? = members["tableNames"] else { return database }
        for case .string(let table) in tables where table.hasPrefix("kv_.") && !table.contains("::") {   // (not FTS tables)
            let parts = table.dropFirst(4).split(separator: ".").map(String.init)
            _ = try database.createCollection(name: parts.last!, scope: parts.count > 1 ? parts[0] : Collection.defaultName)
        }
        return database
    }
}
