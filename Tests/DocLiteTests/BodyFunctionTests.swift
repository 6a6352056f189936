import CSQLite
import XCTest
@testable import DocLite

/// The SQL functions over stored bodies: doc_value, doc_eq and doc_like.
final class BodyFunctionTests: DatabaseTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        let docs = [
            "a": #"{"name": "Royal Palace", "n": 7, "x": 2.5, "ok": true, "nil": null, "tags": ["spa", "bar"], "address": {"zip": "1010"}, "uni": "año"}"#,
            "b": #"{"name": "royal palace", "n": 70, "x": 7.0, "ok": false, "note": "100% sure", "path": "a_b"}"#,
            "c": #"{"other": 1}"#,
        ]
        for (id, json) in docs.sorted(by: { $0.key < $1.key }) {
            try defaultCollection.save(document: MutableDocument(id: id, json: json))
        }
    }

    /// Runs `sql` over the default collection's table (`$T`) and returns every row as strings.
    private func rows(_ sql: String, _ parameters: [String] = []) throws -> [[String]] {
        let table = defaultCollection.liveTableName
        return try db.withSQLiteConnection { handle in
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql.replacingOccurrences(of: "$T", with: table), -1, &statement, nil) == SQLITE_OK else {
                throw DocLiteError(domain: .sqlite, code: 1, message: String(cString: sqlite3_errmsg(handle)))
            }
            defer { sqlite3_finalize(statement) }
            for (i, parameter) in parameters.enumerated() { sqlite3_bind_text(statement, Int32(i + 1), parameter, -1, csqlite_transient()) }
            var result: [[String]] = []
            while true {
                let rc = sqlite3_step(statement)
                if rc == SQLITE_DONE { break }
                guard rc == SQLITE_ROW else { throw DocLiteError(domain: .sqlite, code: rc, message: String(cString: sqlite3_errmsg(handle))) }
                result.append((0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_type(statement, column) == SQLITE_NULL ? "MISSING" : String(cString: sqlite3_column_text(statement, column))
                })
            }
            return result
        }
    }

    func testValueTypes() throws {
        let sql = "SELECT typeof(doc_value(body, ?1)), doc_value(body, ?1) FROM $T WHERE key = 'a'"
        XCTAssertEqual(try rows(sql, ["name"]), [["text", "Royal Palace"]])
        XCTAssertEqual(try rows(sql, ["n"]), [["integer", "7"]])
        XCTAssertEqual(try rows(sql, ["x"]), [["real", "2.5"]])
        XCTAssertEqual(try rows(sql, ["ok"]), [["integer", "1"]])
        XCTAssertEqual(try rows(sql, ["nil"]), [["blob", ""]], "JSON null is an empty blob, not MISSING")
        XCTAssertEqual(try rows(sql, ["missing"]), [["null", "MISSING"]])
        XCTAssertEqual(try rows(sql, ["tags[1]"]), [["text", "bar"]])
        XCTAssertEqual(try rows(sql, ["tags[-1]"]), [["text", "bar"]])
        XCTAssertEqual(try rows(sql, ["tags[2]"]), [["null", "MISSING"]])
        XCTAssertEqual(try rows(sql, ["address.zip"]), [["text", "1010"]])
        XCTAssertEqual(try rows(sql, ["uni"]), [["text", "año"]])
        XCTAssertEqual(try rows("SELECT typeof(doc_value(body, 'tags')) FROM $T WHERE key = 'a'"), [["blob"]])
    }

    func testNestedContainerIsAValidBody() throws {
        let doc = try XCTUnwrap(defaultCollection.document(id: "a"))
        XCTAssertEqual(doc.dictionary(forKey: "address")?.string(forKey: "zip"), "1010")
        XCTAssertEqual(doc.array(forKey: "tags")?.toArray() as? [String], ["spa", "bar"])
    }

    func testEquality() throws {
        XCTAssertEqual(try rows("SELECT key FROM $T WHERE doc_eq(body, 'name', ?) ORDER BY key", ["Royal Palace"]), [["a"]])
        XCTAssertEqual(try rows("SELECT key FROM $T WHERE doc_eq(body, 'n', 70)"), [["b"]])
        XCTAssertEqual(try rows("SELECT key FROM $T WHERE doc_eq(body, 'x', 7)"), [["b"]], "7.0 = 7 numerically")
        XCTAssertEqual(try rows("SELECT key FROM $T WHERE doc_eq(body, 'ok', 1)"), [["a"]], "true = 1 as in Couchbase Lite")
        XCTAssertEqual(try rows("SELECT key FROM $T WHERE doc_eq(body, 'n', '7')"), [], "no string/number conversion")
        XCTAssertEqual(try rows("SELECT key, doc_eq(body, 'name', 'x') FROM $T ORDER BY key"),
                       [["a", "0"], ["b", "0"], ["c", "MISSING"]], "a missing property compares as MISSING")
    }

    func testLike() throws {
        let sql = "SELECT key FROM $T WHERE doc_like(body, ?1, ?2) ORDER BY key"
        XCTAssertEqual(try rows(sql, ["name", "%alace"]), [["a"], ["b"]])
        XCTAssertEqual(try rows(sql, ["name", "Royal%"]), [["a"]], "LIKE is case-sensitive")
        XCTAssertEqual(try rows(sql, ["name", "%l p%"]), [["b"]])
        XCTAssertEqual(try rows(sql, ["name", "R_yal Palace"]), [["a"]])
        XCTAssertEqual(try rows(sql, ["uni", "a_o"]), [["a"]], "_ matches one character, not one byte")
        XCTAssertEqual(try rows(sql, ["note", "100\\%%"]), [["b"]], "backslash escapes %")
        XCTAssertEqual(try rows(sql, ["note", "1000%"]), [])
        XCTAssertEqual(try rows(sql, ["path", "a\\_b"]), [["b"]])
        XCTAssertEqual(try rows(sql, ["n", "7%"]), [["a"], ["b"]], "numbers match as their text")
        XCTAssertEqual(try rows(sql, ["x", "2.5"]), [["a"]])
        XCTAssertEqual(try rows(sql, ["tags", "%"]), [], "containers never match")
        XCTAssertEqual(try rows(sql, ["name", "%"]), [["a"], ["b"]])
        XCTAssertEqual(try rows(sql, ["name", ""]), [])
    }

    /// Counts the rows `sql` matches with each value bound in turn to one reused statement.
    private func countsRebinding(_ sql: String, _ values: [String]) throws -> [Int] {
        let table = defaultCollection.liveTableName
        return try db.withSQLiteConnection { handle in
            var statement: OpaquePointer?
            sqlite3_prepare_v2(handle, sql.replacingOccurrences(of: "$T", with: table), -1, &statement, nil)
            defer { sqlite3_finalize(statement) }
            return values.map { value in
                sqlite3_reset(statement)
                sqlite3_bind_text(statement, 1, value, -1, csqlite_transient())
                sqlite3_step(statement)
                return Int(sqlite3_column_int(statement, 0))
            }
        }
    }

    func testRebindingAParameterRecompilesThePattern() throws {
        XCTAssertEqual(try countsRebinding("SELECT count(*) FROM $T WHERE doc_like(body, 'name', ?)", ["Royal%", "%palace", "nothing"]), [1, 1, 0])
    }

    func testRebindingAParameterRereadsTheOperand() throws {
        XCTAssertEqual(try countsRebinding("SELECT count(*) FROM $T WHERE doc_eq(body, 'name', ?)", ["Royal Palace", "x", "royal palace"]), [1, 0, 1])
    }

    func testMalformedPathIsAnSQLError() {
        XCTAssertThrowsError(try rows("SELECT doc_value(body, 'a..b') FROM $T")) { error in
            XCTAssertTrue("\(error)".contains("invalid property path 'a..b'"), "\(error)")
        }
    }

    func testKeysAddedAfterThePathWasResolved() throws {
        // 'fresh' has no shared-key ID when the statement starts; a document saved
        // later in the same statement's life must still be found.
        XCTAssertEqual(try rows("SELECT count(*) FROM $T WHERE doc_value(body, 'fresh') IS NOT NULL"), [["0"]])
        try defaultCollection.save(document: MutableDocument(id: "d", json: #"{"fresh": 1}"#))
        XCTAssertEqual(try rows("SELECT key FROM $T WHERE doc_value(body, 'fresh') IS NOT NULL"), [["d"]])
    }
}
