import CSQLite
import XCTest
@testable import DocLite

/// Full-text indexes (FTS4 kept up to date by triggers), MATCH() and RANK().
final class FullTextSearchTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try load([
            ("a", #"{"title": "Running shoes", "body": "Light shoes for running fast", "lang": "en"}"#),
            ("b", #"{"title": "Café guide", "body": "Where to drink coffee; the best café in town", "lang": "fr"}"#),
            ("c", #"{"title": "Shoe care", "body": "Clean your shoes, and your shoes will last", "lang": "en", "tags": ["leather", 42]}"#),
        ])
    }

    private func search(_ index: String, _ text: String) throws -> [String] {
        try ids(#"{"WHAT": [["._id"]], "WHERE": ["MATCH()", "\#(index)", "\#(text)"]}"#)
    }

    func testMatchAndRank() throws {
        try defaultCollection.createIndex(withName: "text", config: FullTextIndexConfiguration(json: #"[[".title"], [".body"]]"#))
        XCTAssertEqual(try search("text", "shoes"), ["a", "c"])
        XCTAssertEqual(try search("text", "shoes NOT fast"), ["c"])
        XCTAssertEqual(try search("text", "title:shoes"), ["a"])
        XCTAssertEqual(try search("text", #"\"best café\""#), ["b"])
        XCTAssertEqual(try search("text", "sho*"), ["a", "c"])
        // Rank = Σ over columns of this row's hits ÷ all rows' hits: a has the only
        // title hit (1/1) and one of three body hits (1/3); c two body hits (2/3).
        let ranked = try rows(#"{"WHAT": [["._id"], ["RANK()", "text"]], "WHERE": ["MATCH()", "text", ["$q"]], "ORDER_BY": [["DESC", ["RANK()", "text"]]]}"#,
                              parameters: ["q": "shoes"])
        XCTAssertEqual(ranked.map { $0[0] }, [.string("a"), .string("c")])
        XCTAssertEqual(ranked.map { $0[1] }, [.double(1.0 + 1.0 / 3), .double(2.0 / 3)])
        // MATCH in a top-level AND, with other conditions.
        XCTAssertEqual(try idsWhere(#"["AND", ["=", [".lang"], "en"], ["MATCH()", "text", "clean OR fast"]]"#), ["a", "c"])
    }

    func testSQLPPIndexAndQuery() throws {
        try defaultCollection.createIndex(withName: "english", config: FullTextIndexConfiguration(["title", "body"], where: "lang = 'en'",
                                                                                                  language: "en"))
        let query = try db.createQuery("SELECT META().id, RANK(english) FROM _ WHERE MATCH(english, 'run') ORDER BY RANK(english) DESC")
        XCTAssertEqual(try query.execute().allResults().map { $0.string(at: 0) }, ["a"])   // stemmed: running → run
        XCTAssertEqual(try db.createQuery("SELECT META().id FROM _ WHERE MATCH(english, 'coffee')").execute().allResults().count, 0)
        // An index qualified by an alias with a dot in it (LiteCore writes it `a\.b.english`).
        let qualified = try db.createQuery("SELECT META(`a.b`).id FROM _ AS `a.b` WHERE MATCH(`a.b`.english, 'shoes')")
        XCTAssertEqual(try qualified.execute().allResults().map { $0.string(at: 0) }, ["a", "c"])
    }

    func testTheIndexFollowsSavesDeletesAndPurges() throws {
        try defaultCollection.createIndex(withName: "text", config: FullTextIndexConfiguration(json: #"[[".body"]]"#))
        let doc = try XCTUnwrap(defaultCollection.document(id: "a")).toMutable()
        doc.setString("Heavy boots", forKey: "body")
        try defaultCollection.save(document: doc)
        XCTAssertEqual(try search("text", "running"), [])
        XCTAssertEqual(try search("text", "boots"), ["a"])
        try defaultCollection.delete(document: XCTUnwrap(defaultCollection.document(id: "c")))
        XCTAssertEqual(try search("text", "shoes"), [])
        try defaultCollection.save(document: MutableDocument(id: "d", json: #"{"body": "new shoes"}"#))
        try defaultCollection.purge(id: "d")
        XCTAssertEqual(try search("text", "shoes"), [])
        try reopen()
        XCTAssertEqual(try search("text", "boots"), ["a"])
    }

    func testOptionsPartialIndexesAndBuilder() throws {
        try defaultCollection.createIndex(IndexBuilder.fullTextIndex(items: [.property("body")]).language("en"), name: "english")
        XCTAssertEqual(try search("english", "runs"), ["a"])   // Porter stemming: runs ~ running
        try defaultCollection.createIndex(withName: "plain", config: FullTextIndexConfiguration(json: #"[[".body"]]"#))
        XCTAssertEqual(try search("plain", "runs"), [])
        XCTAssertEqual(try search("plain", "cafe"), [])
        try defaultCollection.createIndex(withName: "accents", config: FullTextIndexConfiguration(json: #"[[".body"]]"#, ignoreAccents: true))
        XCTAssertEqual(try search("accents", "cafe"), ["b"])
        try defaultCollection.createIndex(withName: "english-only", config: FullTextIndexConfiguration(json: #"[[".body"]]"#, where: #"["=", [".lang"], "en"]"#))
        XCTAssertEqual(try search("english-only", "the OR your"), ["c"])
        // Arrays are indexed by their strings and numbers.
        try defaultCollection.createIndex(withName: "tags", config: FullTextIndexConfiguration(json: #"[[".tags"]]"#))
        XCTAssertEqual(try search("tags", "42"), ["c"])
        XCTAssertEqual(try defaultCollection.indexes(), ["accents", "english", "english-only", "plain", "tags"])
        try defaultCollection.deleteIndex(forName: "accents")
        assertThrows(.missingIndex, containing: "no full-text index 'accents'") { _ = try self.search("accents", "cafe") }
    }

    func testColumnNamesFTS4CannotTakeAreRenamed() throws {
        try load([("e", #"{"name": "alpha", "Name": "beta", "docid": "gamma", "a=b": "delta"}"#)])
        try defaultCollection.createIndex(withName: "odd", config: FullTextIndexConfiguration(json: #"[[".name"], [".Name"], [".docid"], [".a=b"]]"#))
        for word in ["alpha", "beta", "gamma", "delta"] { XCTAssertEqual(try search("odd", word), ["e"], word) }
        // RANK and MATCH name the same index through an alias too; a corrupt matchinfo is no crash.
        XCTAssertEqual(try ids(#"{"WHAT": [["._id"], ["RANK()", "doc.odd"]], "FROM": [{"AS": "doc"}], "WHERE": ["MATCH()", "odd", "beta"]}"#), ["e"])
        try db.withSQLiteConnection { connection in
            var statement: OpaquePointer?
            XCTAssertEqual(sqlite3_prepare_v2(connection, "SELECT doc_fts_rank(x'ffffffffffffffff')", -1, &statement, nil), SQLITE_OK)
            XCTAssertEqual(sqlite3_step(statement), SQLITE_ROW)
            XCTAssertEqual(sqlite3_column_type(statement, 0), SQLITE_NULL)
            sqlite3_finalize(statement)
        }
    }

    func testPlacementAndNamingErrors() throws {
        try defaultCollection.createIndex(withName: "text", config: FullTextIndexConfiguration(json: #"[[".body"]]"#))
        func assertInvalid(_ json: String, _ message: String, line: UInt = #line) {
            assertThrows(.invalidQuery, containing: message, line: line) { _ = try self.db.createQuery(json: json) }
        }
        assertInvalid(#"{"WHERE": ["OR", ["MATCH()", "text", "a"], ["=", [".x"], 1]]}"#, "MATCH() can only appear at the top of WHERE")
        assertInvalid(#"{"WHAT": [["MATCH()", "text", "a"]]}"#, "MATCH() can only appear at the top of WHERE")
        assertInvalid(#"{"WHERE": ["AND", ["MATCH()", "text", "a"], ["MATCH()", "text", "b"]]}"#, "multiple MATCHes")
        assertThrows(.missingIndex, containing: "there is no full-text index 'nope'") {
            _ = try self.db.createQuery(json: #"{"WHERE": ["MATCH()", "nope", "a"]}"#)
        }
        assertInvalid(#"{"WHAT": [["RANK()", "text"]]}"#, "RANK() needs a MATCH() of full-text index 'text'")
        assertInvalid(#"{"WHERE": ["MATCH()", "text"]}"#, "MATCH() takes a full-text index name and a search string")
        // A malformed search string is an error when the query runs.
        assertThrows(.invalidQuery, containing: "SQLite cannot run the query: malformed MATCH expression") {
            _ = try self.rows(#"{"WHERE": ["MATCH()", "text", "\"unterminated"]}"#)
        }
    }

    func testDeletingTheCollectionDropsItsIndexTables() throws {
        let notes = try db.createCollection(name: "notes")
        try notes.createIndex(withName: "text", config: FullTextIndexConfiguration(json: #"[[".body"]]"#))
        try db.deleteCollection(name: "notes")
        XCTAssertEqual(rawSQL("SELECT count(*) FROM sqlite_master WHERE name LIKE 'fts%'"), 0)
    }
}
