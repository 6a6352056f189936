import Foundation
import XCTest
@testable import DocLite

/// A database test case with helpers to load documents and run JSON queries.
class QueryTestCase: DatabaseTestCase {
    /// Saves documents given as `(id, json)` in order.
    func load(_ documents: [(String, String)], into collection: DocLite.Collection? = nil) throws {
        let target = collection ?? defaultCollection
        try db.inBatch {
            for (id, json) in documents { try target.save(document: try MutableDocument(id: id, json: json)) }
        }
    }

    /// Runs a JSON query; each row's values, nil for MISSING.
    func rows(_ json: String, parameters: [String: Any?] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> [[JSONValue?]] {
        let query = try db.createQuery(json: json)
        if !parameters.isEmpty {
            let values = Parameters()
            for (name, value) in parameters { values.setValue(value, forName: name) }
            query.parameters = values
        }
        let results = try query.execute()
        let rows = results.allResults().map(\.values)
        if let error = results.error { throw error }
        return rows
    }

    /// The first column of each row as text (document IDs, usually).
    func ids(_ json: String, parameters: [String: Any?] = [:]) throws -> [String] {
        try rows(json, parameters: parameters).map { row in
            guard case .string(let id)? = row.first else { return "<\(row.first.map { $0?.json ?? "MISSING" } ?? "none")>" }
            return id
        }
    }

    /// The IDs of the documents matching a WHERE expression (JSON), in sequence order.
    func idsWhere(_ condition: String, parameters: [String: Any?] = [:]) throws -> [String] {
        try ids(#"{"WHAT": [["._id"]], "WHERE": \#(condition)}"#, parameters: parameters)
    }

    /// The single value of a one-row, one-column query of `expression` over one document.
    func value(of expression: String, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue? {
        let result = try rows(#"{"WHAT": [\#(expression)], "WHERE": ["=", ["._id"], "probe"]}"#)
        XCTAssertEqual(result.count, 1, "rows for \(expression)", file: file, line: line)
        return result.first?.first ?? nil
    }

    /// Saves the document `probe` used by ``value(of:)``.
    func loadProbe(_ json: String = #"{"n": 1, "nul": null, "s": "abc", "d": 2.5, "t": true, "f": false, "a": [1, "x", null], "o": {"k": "v"}}"#) throws {
        try load([("probe", json)])
    }
}
