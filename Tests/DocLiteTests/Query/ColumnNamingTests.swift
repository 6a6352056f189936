import XCTest
@testable import DocLite

/// Result column titles: a property's last path component, `$1`, `$2`… for
/// other expressions, aliases, and the suffixes that keep titles unique.
final class ColumnNamingTests: QueryTestCase {
    func names(_ json: String) throws -> [String] { try db.createQuery(json: json).columnNames }

    func testPropertiesMetaAndUnnamedColumns() throws {
        XCTAssertEqual(try names(#"{"WHAT": [[".name.first"], ["._id"], ["._sequence"], [".a[0]"], ["+", 1, 2], [".tags"], ["COUNT()"]]}"#),
                       ["first", "id", "sequence", "$1", "$2", "tags", "$3"])
        XCTAssertEqual(try names(#"{"WHAT": [["._deleted"], ["._expiration"], ["._revisionID"]]}"#), ["deleted", "expiration", "revisionID"])
        XCTAssertEqual(try names(#"{"WHAT": ["name", ".zip"]}"#), ["name", "zip"])   // string shorthand
        XCTAssertEqual(try names("{}"), ["_id", "_sequence"])
    }

    func testMetaTitles() throws {
        // The whole META() dictionary is titled as its source (LiteCore's MetaNode), a meta property by its name.
        XCTAssertEqual(try names(#"{"WHAT": [["META()"]]}"#), try names(#"{"WHAT": [["."]]}"#))
        XCTAssertEqual(try names(#"{"WHAT": [["META()", "h"], ["._ID"], [".h._rowid"], ["_.", ["META()", "h"], ".Sequence"]], "FROM": [{"COLLECTION": "_default._default", "AS": "h"}]}"#),
                       ["h", "id", "rowid", "sequence"])
        XCTAssertEqual(try names(#"{"WHAT": [["META()"]], "FROM": [{"COLLECTION": "_default._default"}]}"#), ["_default"])
    }

    func testDuplicatesAndAliases() throws {
        XCTAssertEqual(try names(#"{"WHAT": [[".name"], [".a.name"], [".b.name"]]}"#), ["name", "name #2", "name #3"])
        XCTAssertEqual(try names(#"{"WHAT": [["AS", [".x"], "$1"], ["+", 1, 1], ["AS", [".y"], "name"], [".name"]]}"#),
                       ["$1", "$2", "name", "name #2"])
        assertThrows(.invalidQuery, containing: "duplicate column name 'n'") {
            _ = try self.names(#"{"WHAT": [["AS", [".x"], "n"], ["AS", [".y"], "n"]]}"#)
        }
    }

    func testWholeDocumentColumnIsNamedForItsSource() throws {
        try db.createCollection(name: "widgets", scope: "store")
        XCTAssertEqual(try names(#"{"WHAT": [["."]]}"#), ["_doc"])
        XCTAssertEqual(try names(#"{"WHAT": [["."]], "FROM": [{"COLLECTION": "_default._default"}]}"#), ["_default"])
        XCTAssertEqual(try names(#"{"WHAT": [["."]], "FROM": [{"COLLECTION": "_"}]}"#), ["_"])
        XCTAssertEqual(try names(#"{"WHAT": [["."]], "FROM": [{"COLLECTION": "store.widgets"}]}"#), ["widgets"])
        XCTAssertEqual(try names(#"{"WHAT": [[".w."], ["AS", ["."], "Star"]], "FROM": [{"COLLECTION": "store.widgets", "AS": "w"}]}"#), ["w", "Star"])
        XCTAssertEqual(try names(#"{"WHAT": [["."]], "FROM": [{"COLLECTION": "test"}]}"#), ["test"])   // the database name
        // One collection name in two scopes: as LiteCore, in source order, a title another source shares is scope-qualified.
        try db.createCollection(name: "widgets", scope: "other")
        XCTAssertEqual(try names(#"{"WHAT": [[".store.widgets."], [".other.widgets."]], "FROM": [{"COLLECTION": "store.widgets"}, {"COLLECTION": "other.widgets", "JOIN": "CROSS"}]}"#),
                       ["store.widgets", "widgets"])
    }

    func testResultKeysFollowColumnNames() throws {
        try load([("d1", #"{"name": {"first": "Ann"}, "n": 5}"#)])
        let row = try XCTUnwrap(db.createQuery(json: #"{"WHAT": [[".name.first"], ["*", [".n"], 2], ["AS", [".missing"], "m"]]}"#).execute().next())
        XCTAssertEqual(row.keys, ["first", "$1", "m"])
        XCTAssertEqual(row.string(forKey: "first"), "Ann")
        XCTAssertEqual(row.int(forKey: "$1"), 10)
        XCTAssertFalse(row.contains(key: "m"))
        XCTAssertEqual(Array(row), ["first", "$1", "m"])
    }

    /// LiteCore's WhatNode: a bare string in WHAT is a property path, a string
    /// inside AS a literal (QueryTest.cc "Missing columns": `['AS', 'Cthulhu
    /// ftaghn', 'answer']` selects the text). It was read as a property (MISSING).
    func testAStringInsideASIsALiteral() throws {
        try load([("probe", #"{"name": "Ritz", "some text": "property"}"#)])
        let query = #"{"WHAT": ["name", ["AS", "Cthulhu ftaghn", "answer"], ["AS", ".name", "dotted"], ["AS", 1.375, "n"], ["AS", [".name"], "property"]]}"#
        XCTAssertEqual(try names(query), ["name", "answer", "dotted", "n", "property"])
        XCTAssertEqual(try rows(query), [[.string("Ritz"), .string("Cthulhu ftaghn"), .string(".name"), .double(1.375), .string("Ritz")]])
        // A built string literal with an alias reads back the same from its JSON.
        let built = QueryBuilder.select(SelectResult.expression(Expression.string("some text")).as("answer")).from(DataSource.database(db))
        XCTAssertEqual(try built.execute().allResults().map { $0.string(forKey: "answer") }, ["some text"])
        XCTAssertEqual(try db.createQuery(json: built.json).execute().allResults().map { $0.string(forKey: "answer") }, ["some text"])
    }
}
