import CSQLite
import XCTest
@testable import DocLite

/// A database file someone else made (issue 35, docs/security.md): each attack
/// is built from a DocLite-made file with the sqlite3 library, as an attacker
/// would, and refused with a DocLite error before any of its SQL runs.
final class HostileFileTests: DatabaseTestCase {
    private var model: CountingModel!

    override func setUpWithError() throws {
        try super.setUpWithError()
        model = CountingModel { _ in ["label": "secret"] }
        Database.prediction.registerModel(model, withName: "victim")
        let collection = defaultCollection
        for n in 0..<3 {
            try collection.save(document: MutableDocument(id: "d\(n)", json: #"{"n": \#(n), "s": "word \#(n)", "tags": ["a", "b"], "secret": "pin \#(n)"}"#))
        }
    }

    override func tearDownWithError() throws {
        Database.prediction.unregisterModel(withName: "victim")
        try super.tearDownWithError()
    }

    /// Runs `statements` on the closed database's file through a connection of
    /// its own, with `writable_schema` on, as an attacker editing the file would.
    private func tamper(_ statements: String..., file: StaticString = #filePath, line: UInt = #line) throws {
        try tamper(statements, file: file, line: line)
    }

    private func tamper(_ statements: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        try db?.close()
        editFile(statements, file: file, line: line)
    }

    /// Asserts that opening the file fails with `code` and a message naming `text`,
    /// and that the model was never called and no document changed.
    private func assertRefused(_ code: DocLiteError.Code = .corruptData, naming text: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        let calls = model.calls
        assertThrows(code, containing: text, file: file, line: line) { db = try openDatabase() }
        db = nil
        XCTAssertEqual(model.calls, calls, "the model was called", file: file, line: line)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM kv_1", file: file, line: line), 3, "documents changed", file: file, line: line)
    }

    // MARK: SQL names from the file (the issue's high finding)

    func testTheIssuesArrayIndexPayloadIsRefused() throws {
        try defaultCollection.createIndex(withName: "tags", config: ArrayIndexConfiguration(path: "tags"))
        let table = IndexType.array.sqlName(collection: 1, index: "tags")
        try tamper("UPDATE indexes SET sql_name = '(SELECT sequence, element FROM \(table) WHERE fts3_tokenizer(''unicode61'', X''4141414141414141'') IS NOT NULL)'")
        assertRefused(naming: "index 'tags' of collection 1 does not have the type and SQL name DocLite gives it")
    }

    func testAGarbageSQLNameOrTypeIsRefused() throws {
        try defaultCollection.createIndex(withName: "byN", config: ValueIndexConfiguration(["n"]))
        try tamper("UPDATE indexes SET sql_name = 'no such ((('")
        assertRefused(naming: "index 'byN'")
        try tamper("UPDATE indexes SET sql_name = '\(IndexType.value.sqlName(collection: 1, index: "byN"))', type = 'full-text'")
        assertRefused(naming: "index 'byN'")
        try tamper("UPDATE indexes SET sql_name = '\(IndexType.value.sqlName(collection: 1, index: "byN"))', type = 'vector'")
        assertRefused(naming: "index 'byN'")
        try tamper("UPDATE indexes SET sql_name = '\(IndexType.vector.sqlName(collection: 1, index: "byN"))', type = 'vector'")
        assertRefused(naming: "index 'byN'")   // (a value index's definition is no vector index's)
        try tamper("UPDATE indexes SET sql_name = '\(IndexType.value.sqlName(collection: 1, index: "byN"))', type = 'spatial'")
        assertRefused(naming: "index 'byN'")
    }

    func testAnIndexWhoseDefinitionNoLongerMatchesItsSQLIsRefused() throws {
        try defaultCollection.createIndex(withName: "byN", config: ValueIndexConfiguration(["n"]))
        try tamper(#"UPDATE indexes SET definition = replace(definition, '".n"', '".secret"')"#)
        assertRefused(naming: "index 'byN'")
    }

    func testFTS3TokenizerCannotBeCalled() throws {
        try db.withSQLiteConnection { handle in
            for sql in ["SELECT fts3_tokenizer('simple')", "SELECT fts3_tokenizer('unicode61', X'4141414141414141')"] {
                var statement: OpaquePointer?
                let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
                defer { sqlite3_finalize(statement) }
                XCTAssertTrue(prepared != SQLITE_OK || sqlite3_step(statement) == SQLITE_ERROR, sql)
                XCTAssertTrue(String(cString: sqlite3_errmsg(handle)).contains("disabled"), String(cString: sqlite3_errmsg(handle)))
            }
        }
    }

    // MARK: Schema SQL that calls the application or rewrites its data

    func testATriggerIsRefused() throws {
        try tamper("""
            CREATE TRIGGER evil AFTER INSERT ON kv_1 BEGIN
                SELECT doc_prediction('victim', doc_value(new.body, 'secret')); DELETE FROM kv_1; END
            """)
        assertRefused(naming: "trigger 'evil', which DocLite did not write")
    }

    func testACheckConstraintOrAGeneratedColumnIsRefused() throws {
        try tamper("""
            UPDATE sqlite_schema SET sql = replace(sql, 'body BLOB NOT NULL)',
                'body BLOB NOT NULL CHECK (doc_prediction(''victim'', doc_value(body, ''secret'')) IS NOT NULL))') WHERE name = 'kv_1'
            """)
        assertRefused(naming: "table 'kv_1' is not defined as DocLite defines it")
        try tamper("""
            UPDATE sqlite_schema SET sql = replace(sql, 'NOT NULL CHECK', 'NOT NULL, evil AS (doc_prediction(''victim'', doc_value(body, ''secret''))), x CHECK')
                WHERE name = 'kv_1'
            """)
        assertRefused(naming: "table 'kv_1'")
    }

    func testAViewATableOrAnIndexDocLiteDidNotWriteIsRefused() throws {
        try tamper("CREATE VIEW evil AS SELECT doc_prediction('victim', body) FROM kv_1")
        assertRefused(naming: "view 'evil'")
        try tamper("DROP VIEW evil", "CREATE TABLE extra (x)")
        assertRefused(naming: "table 'extra'")
        try tamper("DROP TABLE extra", "CREATE INDEX kv_1_evil ON kv_1 (revid, key)")
        assertRefused(naming: "index 'kv_1_evil'")
    }

    func testTheTablesDocLiteReadsAreCheckedBeforeTheyAreRead() throws {
        try tamper("ALTER TABLE collections RENAME TO old_collections",
                   "CREATE VIEW collections AS SELECT doc_prediction('victim', '{}') AS id, 'a' AS scope, 'b' AS name, 0 AS last_sequence")
        assertRefused(naming: "'collections'")
    }

    func testAFileWithoutASchemaVersionThatHoldsTablesIsNotADocLiteDatabase() throws {
        try tamper("PRAGMA user_version = 0")
        assertRefused(.notADatabaseFile, naming: "not a DocLite database")
    }

    // MARK: What DocLite wrote always opens

    func testAFileWithEveryKindOfIndexOpensAgainAndItsIndexesStayInStep() throws {
        let collection = defaultCollection
        try collection.createIndex(withName: "byN", config: ValueIndexConfiguration(["n", "lower(s)"], where: "n >= 0"))
        try collection.createIndex(withName: "words", config: FullTextIndexConfiguration(["s"]))
        try collection.createIndex(withName: "tags", config: ArrayIndexConfiguration(path: "tags"))
        try collection.createIndex(withName: "labels", config: PredictiveIndexConfiguration(model: "victim", input: "{'s': s}", properties: ["label"]))
        let other = try db.createCollection(name: "other", scope: "more")
        try other.createIndex(withName: "o", config: FullTextIndexConfiguration(["s"]))
        let gone = try db.createCollection(name: "gone", scope: "more")
        try gone.createIndex(withName: "g", config: ArrayIndexConfiguration(path: "tags"))
        try db.deleteCollection(name: "gone", scope: "more")
        try reopen()
        try defaultCollection.save(document: MutableDocument(id: "d9", json: #"{"n": 9, "s": "fresh words", "tags": ["z"]}"#))
        XCTAssertEqual(try db.createQuery("SELECT META().id FROM _ WHERE MATCH(words, 'fresh')").execute().map { $0.string(at: 0) }, ["d9"])
        XCTAssertEqual(try db.createQuery("SELECT META(d).id FROM _ AS d UNNEST d.tags AS t WHERE t = 'z'").execute().map { $0.string(at: 0) }, ["d9"])
        try defaultCollection.purge(id: "d9")
        XCTAssertEqual(try db.createQuery("SELECT META().id FROM _ WHERE MATCH(words, 'fresh')").execute().allResults().count, 0)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'"), 0)
    }

    /// A schema-4 file kept its derived-row indexes with triggers: the ones named
    /// as DocLite named them are dropped by the upgrade, whatever their text (it
    /// changed from release to release), without ever running (triggers are off
    /// on DocLite's connections: this one would delete every document); any other is refused.
    func testASchema4FileIsUpgradedAndItsTriggersDropped() throws {
        try defaultCollection.createIndex(withName: "words", config: FullTextIndexConfiguration(["s"]))
        let table = IndexType.fullText.sqlName(collection: 1, index: "words")
        try tamper(Self.schema6() + ["CREATE TRIGGER \(table)_ins AFTER INSERT ON kv_1 BEGIN DELETE FROM kv_1; END",
                   "CREATE TRIGGER \(table)_del AFTER DELETE ON kv_1 BEGIN DELETE FROM \(table) WHERE docid = old.sequence; END",
                   "DROP TABLE replication_peers", "DROP TABLE replication_checkpoints", "DROP TABLE remote_revisions",
                   "PRAGMA user_version = 4"])
        db = try openDatabase()
        XCTAssertEqual(rawSQL("PRAGMA user_version"), Schema.version)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'"), 0)
        try defaultCollection.save(document: MutableDocument(id: "d9", json: #"{"s": "fresh words"}"#))
        XCTAssertEqual(defaultCollection.count, 4)
        XCTAssertEqual(try db.createQuery("SELECT META().id FROM _ WHERE MATCH(words, 'fresh')").execute().map { $0.string(at: 0) }, ["d9"])

        try defaultCollection.purge(id: "d9")
        try tamper(Self.schema6() + ["CREATE TRIGGER \(table)_evil AFTER INSERT ON kv_1 BEGIN DELETE FROM kv_1; END", "PRAGMA user_version = 4"])
        assertRefused(naming: "trigger '\(table)_evil'")
    }

    // MARK: Damaged data

    func testDamagedAndMistypedBodiesAreCorruptData() throws {
        let body = try XCTUnwrap(db.withSQLiteConnection { handle -> [UInt8]? in
            var statement: OpaquePointer?
            sqlite3_prepare_v2(handle, "SELECT body FROM kv_1 WHERE key = 'd0'", -1, &statement, nil)
            defer { sqlite3_finalize(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
            return Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 0), count: Int(sqlite3_column_bytes(statement, 0))))
        })
        var offsetOutOfRange = body
        offsetOutOfRange[3 + Int(body[2])] = 0xFF   // (a dict1: tag, size, count, key IDs, then the first value's offset)
        let hex = { (bytes: [UInt8]) in "X'" + bytes.map { String(format: "%02x", $0) }.joined() + "'" }
        for damage in ["X'deadbeef00112233'", "'just text'", "42", hex(Array(body.dropLast(3))), hex(offsetOutOfRange), "X''"] {
            try tamper("UPDATE kv_1 SET body = \(damage) WHERE key = 'd0'")
            db = try openDatabase()
            assertThrows(.corruptData, containing: "document 'd0' in collection '_default._default' has a damaged body") {
                _ = try defaultCollection.document(id: "d0")
            }
            assertThrows(.corruptData, containing: "damaged body") {
                _ = try db.createQuery("SELECT META().id, * FROM _ WHERE META().id = 'd0'").execute().allResults()
            }
            XCTAssertEqual(try defaultCollection.document(id: "d1")?.int(forKey: "n"), 1, "\(damage): the other documents read")
        }
    }

    func testSharedKeysOutOfStepAreCorruptData() throws {
        try tamper("DELETE FROM shared_keys WHERE id = (SELECT max(id) FROM shared_keys)")
        db = try openDatabase()
        assertThrows(.corruptData, containing: "damaged body") { _ = try defaultCollection.document(id: "d0") }
        try tamper("DELETE FROM shared_keys WHERE id = 0")
        assertRefused(naming: "shared keys")
    }

    // MARK: Messages

    func testErrorMessagesStayShortWhateverTheInput() throws {
        let longID = String(repeating: "x", count: 1_000_000)
        assertThrows(.badDocID, containing: "(1000000 bytes)") { try defaultCollection.save(document: MutableDocument(id: longID)) }
        assertThrows(.notFound, containing: "(1000000 bytes)") { try defaultCollection.purge(id: longID) }
        XCTAssertThrowsError(try defaultCollection.purge(id: longID)) { XCTAssertLessThan("\($0)".utf8.count, 400) }
        let ors = (0..<128).map { "n = \($0)" }.joined(separator: " OR ")
        let orsJSON = "{\"WHERE\": [\"OR\", " + (0..<128).map { "[\"=\", [\".n\"], \($0)]" }.joined(separator: ", ") + "]}"
        assertThrows(.invalidQuery, containing: "'OR' takes at most 127 operands, got 128") { _ = try db.createQuery(json: orsJSON) }
        XCTAssertNoThrow(try db.createQuery("SELECT META().id FROM _ WHERE \(ors)"), "SQL++ chains more than 127 operands")
        let deep = "SELECT META().id FROM _ WHERE " + (0..<20_000).map { "n = \($0)" }.joined(separator: " AND ")
        XCTAssertThrowsError(try db.createQuery(deep).execute().allResults()) { error in
            XCTAssertLessThan("\(error)".utf8.count, 400, "\(error)")
            XCTAssertTrue("\(error)".contains("nests deeper than the 16 levels"), "\(error)")
        }
    }

    func testTheREADMENamesTheSchemaVersion() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(text.contains("schema version in `PRAGMA user_version`, now \(Schema.version);"), "README.md names another schema version")
    }

    func testMessagesQuoteABoundedPrefixOfAValue() {
        let long = String(repeating: "x", count: 1_000_000)
        XCTAssertEqual(DocLiteError.quoted("short"), "'short'")
        let quoted = DocLiteError.quoted(long)
        XCTAssertLessThan(quoted.utf8.count, 200)
        XCTAssertTrue(quoted.hasSuffix("…' (1000000 bytes)"), quoted)
    }
}
