import DocLite
import Foundation

/// Runs the query conformance corpus (`cases.jsonl`, format in its README):
/// each case gets a fresh database with its dataset, its query is compiled
/// (``Database/createQuery(json:)``, or ``Database/createQuery(_:)`` for a
/// query given as a SQL++ string) and its rows are compared with the expectation.
/// A binding runs the same corpus through its own query API by giving a
/// ``QueryExecution`` (the C API's `CBLConformance_Run`): one runner, one list
/// of known differences, for every language.
public struct ConformanceRunner {
    /// The cases whose failure is a deliberate difference from Couchbase Lite, with the reason
    /// (docs/differences.md).
    public static let knownDifferences: [String: String] = {
        let purged = "an expiration 10 s in the past: DocLite purges the document, as Couchbase Lite's housekeeper does; "
            + "LiteCore's KeyStore-level test has no purger"
        return ["qt/expiration/where_le_now": purged, "qt/expiration/select_expiration": purged]
    }()

    /// A query's result as a binding reads it: the column titles and each row's values (nil: MISSING).
    package struct QueryRows {
        package var columns: [String]
        package var rows: [[JSONValue?]]

        package init(columns: [String], rows: [[JSONValue?]]) {
            self.columns = columns
            self.rows = rows
        }
    }

    /// Runs a case's query on the case's database, as a binding runs any query: the query is
    /// LiteCore's JSON form or a SQL++ string, the parameters a JSON object or nil. A query
    /// the library refuses throws its ``DocLiteError``.
    package typealias QueryExecution = (_ database: Database, _ query: JSONValue, _ parameters: JSONValue?) throws -> QueryRows

    /// How one case ended.
    public enum Outcome: Equatable, Sendable {
        case passed
        case failed(String)
        case skipped(String)
    }

    /// The outcome of every case, in corpus order.
    public struct Report: Sendable {
        public var outcomes: [(id: String, outcome: Outcome)] = []
        public var passed: Int { outcomes.filter { $0.outcome == .passed }.count }
        public var failed: [(id: String, message: String)] {
            outcomes.compactMap { if case .failed(let message) = $0.outcome { ($0.id, message) } else { nil } }
        }
        public var skipped: [(id: String, reason: String)] {
            outcomes.compactMap { if case .skipped(let reason) = $0.outcome { ($0.id, reason) } else { nil } }
        }
        /// `N passed, N failed, N skipped`.
        public var summary: String { "\(passed) passed, \(failed.count) failed, \(skipped.count) skipped" }
        /// What differs from the expectation: each failure that is not a known difference,
        /// and each known difference that passes now (so its entry is to be removed); run
        /// over the whole corpus, empty when the library behaves as it should.
        public var unexpected: [String] {
            failed.filter { knownDifferences[$0.id] == nil }.map { "\($0.id): \($0.message)" }
                + passingKnownDifferences.map { "\($0) passes now: remove it from the known differences and docs/differences.md" }
        }
        /// The known differences that pass.
        public var passingKnownDifferences: [String] {
            outcomes.filter { $0.outcome == .passed && knownDifferences[$0.id] != nil }.map(\.id)
        }
    }

    private let cases: [ConformanceCase]
    private let loader: DatasetLoader
    private let workDirectory: String
    private let throughSQLPP: Bool
    private let indexesUnnestedArrays: Bool
    private let execution: QueryExecution?

    /// Reads the cases from `casesFile`; data files come from `dataDirectory`
    /// (by default the `data` folder beside the cases file). `throughSQLPP`:
    /// each JSON query is printed as SQL++ (``Query/sqlpp``) and that text is
    /// what runs, so that the rows show the round trip keeps the query.
    /// `indexesUnnestedArrays`: before the query runs, an array index is created
    /// on each array the query UNNESTs from a document, and a case whose query
    /// then reads no such index fails.
    public init(casesFile: String, dataDirectory: String? = nil, throughSQLPP: Bool = false,
                indexesUnnestedArrays: Bool = false) throws {
        try self.init(casesFile: casesFile, dataDirectory: dataDirectory, throughSQLPP: throughSQLPP,
                      indexesUnnestedArrays: indexesUnnestedArrays, execution: nil)
    }

    /// Reads the cases from `casesFile` (data beside it); each query runs through `execution`,
    /// a binding's query API.
    package init(casesFile: String, execution: @escaping QueryExecution) throws {
        try self.init(casesFile: casesFile, dataDirectory: nil, throughSQLPP: false, indexesUnnestedArrays: false,
                      execution: execution)
    }

    private init(casesFile: String, dataDirectory: String?, throughSQLPP: Bool, indexesUnnestedArrays: Bool,
                 execution: QueryExecution?) throws {
        self.execution = execution
        self.throughSQLPP = throughSQLPP
        self.indexesUnnestedArrays = indexesUnnestedArrays
        let casesURL = URL(fileURLWithPath: casesFile)
        let text = try String(contentsOf: casesURL, encoding: .utf8)
        cases = try text.split(whereSeparator: \.isNewline).map { try ConformanceCase(line: String($0)) }
        let data = dataDirectory.map { URL(fileURLWithPath: $0) } ?? casesURL.deletingLastPathComponent().appendingPathComponent("data")
        loader = try DatasetLoader(dataDirectory: data)
        workDirectory = NSTemporaryDirectory() + "doclite-conformance-\(ProcessInfo.processInfo.processIdentifier)"
    }

    /// Runs the cases whose ID starts with `prefix` (all by default).
    public func run(matching prefix: String = "") -> Report {
        var report = Report()
        for testCase in cases where testCase.id.hasPrefix(prefix) {
            let outcome: Outcome
            if let reason = skipReason(testCase) {
                outcome = .skipped(reason)
            } else {
                do {
                    outcome = try run(testCase)
                } catch {
                    outcome = .failed("\(error)")
                }
            }
            report.outcomes.append((testCase.id, outcome))
        }
        try? FileManager.default.removeItem(atPath: workDirectory)
        return report
    }

    // MARK: One case

    private func run(_ testCase: ConformanceCase) throws -> Outcome {
        let nowMillis = Int64(Date().timeIntervalSince1970 * 1000)
        let name = "case"
        try? Database.delete(withName: name, inDirectory: workDirectory)
        var database = try Database(name: name, config: DatabaseConfiguration(directory: workDirectory))
        defer { try? database.delete() }
        if try load(testCase, into: database, nowMillis: nowMillis) {
            // Expired documents are purged by a background timer; reopening purges them
            // at once, so that the outcome does not depend on timing.
            try database.close()
            database = try Database(name: name, config: DatabaseConfiguration(directory: workDirectory))
        }

        let expect = testCase.expect.mapValues { $0.resolvingNow(nowMillis) }
        if let execution {
            let result: QueryRows
            do {
                result = try execution(database, testCase.query, testCase.params?.resolvingNow(nowMillis))
            } catch let error as DocLiteError where expect["error"] != nil {
                return error.is(.invalidQuery) ? .passed : .failed("expected an invalid-query error, got: \(error.message)")
            }
            if expect["error"] != nil {
                return .failed("expected an invalid-query error (\(expect["message"]?.string ?? "")), but the query ran")
            }
            return ResultComparison(expect: expect, columns: result.columns, rows: result.rows).outcome
        }
        let query: Query
        do {
            query = try makeQuery(testCase.query, in: database)
            if let params = testCase.params?.resolvingNow(nowMillis) {
                query.parameters = try Parameters(json: params.json)
            }
        } catch let error as DocLiteError where expect["error"] != nil {
            return error.is(.invalidQuery) ? .passed : .failed("expected an invalid-query error, got: \(error.message)")
        }
        if expect["error"] != nil {
            return .failed("expected an invalid-query error (\(expect["message"]?.string ?? "")), but the query compiled")
        }
        var indexed = false
        if indexesUnnestedArrays {
            for (i, path) in Self.unnestedDocumentArrays(in: testCase.query).enumerated() {
                try database.defaultCollection().createIndex(withName: "unnest\(i)", config: ArrayIndexConfiguration(path: path))
                indexed = true
            }
        }
        let results = try query.execute()
        let rows = results.allResults()
        if let error = results.error { throw error }
        if indexed, try !query.explain().contains(" arr1_") {
            return .failed("the query read no array index: \(try query.explain())")
        }
        return ResultComparison(expect: expect, columns: query.columnNames, rows: rows.map(\.values)).outcome
    }

    /// The paths, within the documents, of the arrays a JSON query UNNESTs from
    /// a document source (`[".person.likes"]` → `likes`; an UNNEST of another
    /// UNNEST's elements is left out).
    static func unnestedDocumentArrays(in query: JSONValue) -> [String] {
        guard case .dictionary(let members) = query, case .array(let from)? = members["FROM"] else { return [] }
        var unnestAliases: Set<String> = []
        var paths: [String] = []
        for case .dictionary(let item) in from {
            let alias = (item["AS"] ?? item["as"])?.string?.lowercased()
            guard case .array(let unnest)? = item["UNNEST"] ?? item["unnest"], let property = unnest.first?.string,
                  property.hasPrefix(".") else { continue }
            let components = property.dropFirst().split(separator: ".").map(String.init)
            if let alias { unnestAliases.insert(alias) }
            guard components.count >= 2, !unnestAliases.contains(components[0].lowercased()) else { continue }
            paths.append(components.dropFirst().joined(separator: "."))
        }
        return paths
    }

    private func makeQuery(_ text: JSONValue, in database: Database) throws -> Query {
        if case .string(let sqlpp) = text { return try database.createQuery(sqlpp) }
        let query = try database.createQuery(json: text.json)
        return throughSQLPP ? try database.createQuery(query.sqlpp) : query
    }

    /// Loads the case's documents and applies its setup; true when an expiration is already past.
    private func load(_ testCase: ConformanceCase, into database: Database, nowMillis: Int64) throws -> Bool {
        let collection = try database.defaultCollection()
        var documents: [(id: String, json: String, deleted: Bool)] = []
        if testCase.dataset != "inline" {
            documents = try loader.documents(of: testCase.dataset).map { ($0.id, $0.json, false) }
        }
        for doc in testCase.docs + testCase.extraDocs {
            guard var members = doc.dictionary, let id = members.removeValue(forKey: "_id")?.string else {
                throw ConformanceError("an inline document needs an \"_id\"")
            }
            let deleted = members.removeValue(forKey: "_deleted")?.bool ?? false
            documents.append((id, JSONValue.dictionary(members).json, deleted))
        }
        for index in testCase.indexes {   // before the documents: the index's triggers fill it
            guard let spec = index.dictionary, let name = spec["name"]?.string, spec["type"]?.string == "full-text",
                  let expressions = spec["expressions"] else {
                throw ConformanceError("malformed index \(index.json)")
            }
            try collection.createIndex(withName: name, config: FullTextIndexConfiguration(
                json: expressions.json, where: spec["where"]?.json, ignoreAccents: spec["ignore_diacritics"]?.bool ?? false,
                language: spec["language"]?.string))
        }
        try database.inBatch {
            for doc in documents {
                let document = try MutableDocument(id: doc.id, json: doc.json)
                try collection.save(document: document)
                if doc.deleted {   // the corpus's deleted documents keep their bodies (LiteCore's KeyStore-level tests)
                    _ = try collection.delete(document: document, concurrencyControl: .lastWriteWins, keepingProperties: true)
                }
            }
        }
        var expiredSome = false
        for step in testCase.setup {
            guard let step = step.resolvingNow(nowMillis).dictionary, let op = step["op"]?.string, let id = step["id"]?.string else {
                throw ConformanceError("malformed setup step")
            }
            switch op {
            case "delete":
                guard let document = try collection.document(id: id) else { throw ConformanceError("setup: no document '\(id)'") }
                try collection.delete(document: document)
            case "purge":
                try collection.purge(id: id)
            case "set_expiration":
                let millis = step["expiration"]?.number ?? 0
                expiredSome = expiredSome || millis <= Double(nowMillis)
                try collection.setDocumentExpiration(id: id, expiration: Date(timeIntervalSince1970: millis / 1000))
            default:
                throw ConformanceError("unknown setup op '\(op)'")
            }
        }
        return expiredSome
    }

    // MARK: Skipping

    /// Why a case cannot run yet: its time zone, or a feature of a later issue. (Enterprise
    /// Edition cases run: DocLite offers those features to everyone.)
    private func skipReason(_ testCase: ConformanceCase) -> String? {
        if let zone = testCase.environment["TZ"]?.string, TimeZone.current.secondsFromGMT() != 0 {
            return "expects TZ=\(zone)"
        }
        return FeatureScan.laterFeature(in: testCase.query)
    }
}

/// Finds query features that arrive with a later issue.
enum FeatureScan {
    static func laterFeature(in query: JSONValue) -> String? {
        switch query {
        case .array(let items):
            if case .string(let op)? = items.first {
                if op.hasSuffix("()"), !Query.isKnownFunction(String(op.dropLast(2))) {
                    return "function \(op) (not implemented yet)"
                }
            }
            for item in items { if let feature = laterFeature(in: item) { return feature } }
        case .dictionary(let members):
            for (_, value) in members.sorted(by: { $0.key < $1.key }) {
                if let feature = laterFeature(in: value) { return feature }
            }
        default:
            break
        }
        return nil
    }
}
