import Foundation
import XCTest
@testable import DocLite

/// ResultSet iteration and Result access, as Couchbase Lite's Swift API has them.
final class ResultSetTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try load((1...5).map { ("doc\($0)", #"{"number1": \#($0), "number2": \#(10 - $0)}"#) })
    }

    func testIterationIsSinglePassAndAllResultsReturnsTheRest() throws {
        let query = try db.createQuery(json: #"{"WHAT": [["._id"]], "ORDER_BY": [[".number1"]]}"#)
        let results = try query.execute()
        XCTAssertEqual(results.next()?.string(at: 0), "doc1")
        XCTAssertEqual(results.next()?.string(at: 0), "doc2")
        XCTAssertEqual(results.allResults().map { $0.string(at: 0) }, ["doc3", "doc4", "doc5"])
        XCTAssertNil(results.next())
        XCTAssertEqual(results.allResults().count, 0)
        XCTAssertEqual(try query.execute().map { $0.string(forKey: "id") }, ["doc1", "doc2", "doc3", "doc4", "doc5"])
    }

    func testTwoResultSetsOfOneQueryAtOnce() throws {
        let query = try db.createQuery(json: #"{"WHAT": [[".number1"]], "ORDER_BY": [[".number1"]]}"#)
        let first = try query.execute(), second = try query.execute()
        XCTAssertEqual(first.next()?.int(at: 0), 1)
        XCTAssertEqual(second.next()?.int(at: 0), 1)
        XCTAssertEqual(first.next()?.int(at: 0), 2)
        XCTAssertEqual(second.allResults().count, 4)
    }

    func testTypedAccessByIndexAndKey() throws {
        try load([("typed", #"{"s": "text", "i": 7, "big": 9007199254740993, "d": 1.5, "b": true, "nul": null, "a": [1, 2], "o": {"k": "v"}, "when": "2017-01-01T00:00:00.000Z"}"#)])
        let query = try db.createQuery(json: #"{"WHAT": [[".s"], [".i"], [".big"], [".d"], [".b"], [".nul"], [".gone"], [".a"], [".o"], [".when"]], "WHERE": ["=", ["._id"], "typed"]}"#)
        let row = try XCTUnwrap(query.execute().next())
        XCTAssertEqual(row.count, 10)
        XCTAssertEqual(row.string(at: 0), "text")
        XCTAssertEqual(row.int(at: 1), 7)
        XCTAssertEqual(row.int64(forKey: "big"), 9007199254740993)
        XCTAssertEqual(row.double(forKey: "d"), 1.5)
        XCTAssertEqual(row.boolean(forKey: "b"), true)
        XCTAssertEqual(row.array(forKey: "a")?.toArray() as? [Int], [1, 2])
        XCTAssertEqual(row.dictionary(at: 8)?.string(forKey: "k"), "v")
        XCTAssertEqual(row.date(forKey: "when"), Date(timeIntervalSince1970: 1_483_228_800))
        // MISSING and null both read as nil; null is kept in the dictionary, MISSING is not.
        XCTAssertNil(row.value(at: 5))
        XCTAssertNil(row.value(at: 6))
        XCTAssertTrue(row.contains(key: "nul"))
        XCTAssertFalse(row.contains(key: "gone"))
        XCTAssertEqual(row.keys.count, 10)
        let dictionary = row.toDictionary()
        XCTAssertEqual(dictionary.count, 9)
        XCTAssertTrue(dictionary["nul"] is NSNull)
        XCTAssertNil(dictionary["gone"])
        XCTAssertTrue(row.toArray()[6] is NSNull)
        XCTAssertEqual(try JSONValue(json: row.toJSON()), try JSONValue(json: #"{"s":"text","i":7,"big":9007199254740993,"d":1.5,"b":true,"nul":null,"a":[1,2],"o":{"k":"v"},"when":"2017-01-01T00:00:00.000Z"}"#))
        // Out of range and unknown keys read as nothing, never a crash.
        XCTAssertNil(row.value(at: 10))
        XCTAssertNil(row.value(at: -1))
        XCTAssertNil(row.value(forKey: "nope"))
        XCTAssertEqual(row.int(forKey: "nope"), 0)
    }

    func testParametersAreCopiedWhenSet() throws {
        let query = try db.createQuery(json: #"{"WHAT": [["._id"]], "WHERE": ["=", [".number1"], ["$n"]]}"#)
        let parameters = Parameters().setInt(2, forName: "n")
        query.parameters = parameters
        parameters.setInt(3, forName: "n")
        XCTAssertEqual(try query.execute().next()?.string(at: 0), "doc2")
        XCTAssertEqual(query.parameters?.value(forName: "n") as? Int, 2)
        query.parameters = Parameters().setInt64(5, forName: "n")
        XCTAssertEqual(try query.execute().next()?.string(at: 0), "doc5")
        // As Couchbase Lite's, the setters do not throw: a value JSON cannot hold is an error when the query runs.
        query.parameters = Parameters().setInt(2, forName: "n").setDouble(.nan, forName: "x")
        assertThrows(.invalidParameter, containing: "parameter 'x': JSON cannot hold nan") { _ = try query.execute() }
        let fixed = Parameters().setDouble(1, forName: "x").setDouble(.nan, forName: "x")
        XCTAssertNotNil(fixed.error)
        XCTAssertNil(fixed.value(forName: "x"), "a failed set drops the earlier value too")
        fixed.setDouble(1.5, forName: "x")
        XCTAssertNil(fixed.error, "a good value of the name clears its mistake")
        XCTAssertEqual(fixed.value(forName: "x") as? Double, 1.5)
        query.parameters = Parameters(parameters: Parameters().setValue(Data(), forName: "blob"))   // the copy keeps the mistake
        assertThrows(.invalidParameter, containing: "parameter 'blob': unsupported value type Data") { _ = try query.execute() }
    }

    func testResultsReadThroughFragments() throws {
        // Couchbase Lite's subscripts: result["key"], result[0], nested fragments, absent values.
        let row = try XCTUnwrap(db.createQuery(json: #"{"WHAT": [["._id"], ["AS", {"city": "Paris", "tags": ["[]", "a", "b"]}, "info"]], "WHERE": ["=", ["._id"], "doc2"]}"#).execute().next())
        XCTAssertEqual(row[0].string, "doc2")
        XCTAssertEqual(row["id"].string, "doc2")
        XCTAssertEqual(row["info"]["city"].string, "Paris")
        XCTAssertEqual(row["info"]["tags"][1].string, "b")
        XCTAssertFalse(row["info"]["nope"]["deeper"].exists)
        XCTAssertEqual(row["info"]["tags"][9].int, 0)
        XCTAssertNil(row[5].value)
        let document = try XCTUnwrap(defaultCollection.document(id: "doc2"))
        XCTAssertEqual(document["number1"].int, 2)
    }

    func testClosingTheDatabaseEndsIterationWithAnError() throws {
        let results = try db.createQuery(json: #"{"WHAT": [["._id"]]}"#).execute()
        XCTAssertNotNil(results.next())
        try db.close()
        XCTAssertNil(results.next())
        XCTAssertTrue(results.error?.is(.notOpen) ?? false)
        db = nil
    }

    func testSavingWhileIteratingNeitherRevisitsNorSkipsRows() throws {
        // Each save moves the document past the scan's cursor; the rows still
        // come from the database as it was at execute().
        var seen: [String] = []
        for row in try db.createQuery(json: #"{"WHAT": [["._id"], [".number1"]]}"#).execute() {
            let id = try XCTUnwrap(row.string(at: 0))
            seen.append(id)
            XCTAssertLessThanOrEqual(seen.count, 5, "a saved document came back")
            if seen.count > 5 { break }
            let doc = try XCTUnwrap(defaultCollection.document(id: id)).toMutable()
            doc.setInt(row.int(at: 1) + 100, forKey: "number1")
            try defaultCollection.save(document: doc)
            try defaultCollection.save(document: MutableDocument(id: "new-\(id)", json: #"{"number1": 0}"#))
        }
        XCTAssertEqual(seen, ["doc1", "doc2", "doc3", "doc4", "doc5"])
        XCTAssertEqual(try ids(#"{"WHAT": [["._id"]], "WHERE": [">", [".number1"], 100], "ORDER_BY": [["._id"]]}"#),
                       ["doc1", "doc2", "doc3", "doc4", "doc5"])
        XCTAssertEqual(defaultCollection.count, 10)
    }

    func testIndexesChangeWhileAResultSetIsOpen() throws {
        let results = try db.createQuery(json: #"{"WHAT": [["._id"]]}"#).execute()
        XCTAssertNotNil(results.next())
        try defaultCollection.createIndex(IndexBuilder.valueIndex(items: .property("number1")), name: "byNumber")
        try defaultCollection.deleteIndex(forName: "byNumber")
        XCTAssertEqual(results.allResults().count, 4)
        XCTAssertNil(results.error)
    }

    func testAQueryInsideABatchSeesTheBatchAndReadsItsRowsAtExecute() throws {
        try db.inBatch {
            try defaultCollection.save(document: MutableDocument(id: "doc6", json: #"{"number1": 6}"#))
            var seen = 0
            for row in try db.createQuery(json: #"{"WHAT": [["._id"]]}"#).execute() {
                seen += 1
                XCTAssertLessThanOrEqual(seen, 6)
                if seen > 6 { break }
                let doc = try XCTUnwrap(defaultCollection.document(id: row.string(at: 0)!)).toMutable()
                doc.setInt(0, forKey: "number2")
                try defaultCollection.save(document: doc)
            }
            XCTAssertEqual(seen, 6)
        }
    }

    func testRowsComeFromTheSnapshotOfExecute() throws {
        let other = try Database(name: db.name, config: db.config)
        defer { try? other.close() }
        let query = try db.createQuery(json: #"{"WHAT": [[".number1"], [".added"]], "ORDER_BY": [[".number1"]]}"#)
        let results = try query.execute()
        XCTAssertEqual(results.next()?.int(at: 0), 1)
        // Another connection adds a document with a property name (a new shared key) not seen before.
        try other.defaultCollection().save(document: MutableDocument(id: "doc0", json: #"{"number1": 0, "added": "yes"}"#))
        XCTAssertEqual(results.allResults().map { $0.int(at: 0) }, [2, 3, 4, 5])
        let again = try query.execute().allResults()
        XCTAssertEqual(again.map { $0.int(at: 0) }, [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(again.first?.string(at: 1), "yes")
    }

    func testExplainShowsSQLPlanJSONAndSQLPP() throws {
        let query = try db.createQuery(json: #"{"WHAT": [[".number1"]], "WHERE": ["=", [".number2"], 5]}"#)
        let parts = try query.explain().components(separatedBy: "\n\n")
        XCTAssertEqual(parts.count, 4)
        XCTAssertEqual(parts[3], "SELECT number1 FROM _ AS _doc WHERE (number2 = 5)")
        XCTAssertTrue(parts[0].hasPrefix("SELECT doc_result(s0.body, 'number1') FROM kv_1 AS s0 WHERE doc_eq(s0.body, 'number2', 5)"), parts[0])
        XCTAssertTrue(parts[1].contains("SCAN s0"), parts[1])
        XCTAssertEqual(try JSONValue(json: parts[2]), try JSONValue(json: query.json))
    }

    /// Result's own typed getters (which skip `Any`) answer as the protocols' defaults do, for every kind of value.
    func testTypedGettersMatchTheProtocolDefaults() throws {
        try defaultCollection.save(document: MutableDocument(id: "v", json: #"""
            {"s": "text", "i": -7, "u": 18446744073709551615, "d": 2.75, "big": 1e300, "t": true, "f": false, "n": null,
             "a": [1], "o": {"k": 1}, "zero": 0, "neg": -0.5}
            """#))
        let names = ["s", "i", "u", "d", "big", "t", "f", "n", "a", "o", "zero", "neg", "missing"]
        let what = names.map { "[\".\($0)\"]" }.joined(separator: ", ")
        let row = try XCTUnwrap(try db.createQuery(json: "{\"WHAT\": [\(what)], \"WHERE\": [\"=\", [\"._id\"], \"v\"]}").execute().next())
        XCTAssertEqual(row.toJSONArray(), #"["text",-7,18446744073709551615,2.75,1e+300,true,false,null,[1],{"k":1},0,-0.5,null]"#)
        let asArray: any ArrayProtocol = row, asDictionary: any DictionaryProtocol = row
        for (index, name) in names.enumerated() {
            XCTAssertEqual(row.string(at: index), asArray.string(at: index), name)
            XCTAssertEqual(row.int(at: index), asArray.int(at: index), name)
            XCTAssertEqual(row.int64(at: index), asArray.int64(at: index), name)
            XCTAssertEqual(row.double(at: index), asArray.double(at: index), name)
            XCTAssertEqual(row.float(at: index), asArray.float(at: index), name)
            XCTAssertEqual(row.boolean(at: index), asArray.boolean(at: index), name)
            XCTAssertEqual(row.string(forKey: name), asDictionary.string(forKey: name), name)
            XCTAssertEqual(row.int(forKey: name), asDictionary.int(forKey: name), name)
            XCTAssertEqual(row.int64(forKey: name), asDictionary.int64(forKey: name), name)
            XCTAssertEqual(row.double(forKey: name), asDictionary.double(forKey: name), name)
            XCTAssertEqual(row.float(forKey: name), asDictionary.float(forKey: name), name)
            XCTAssertEqual(row.boolean(forKey: name), asDictionary.boolean(forKey: name), name)
        }
        XCTAssertEqual(row.string(at: 0), "text")
        XCTAssertEqual(row.int(at: 2), -1, "an unsigned beyond Int64 truncates, as the default does")
        XCTAssertTrue(row.boolean(at: 8), "an array is true")
        XCTAssertEqual(row.int(at: 99), 0)
    }
}
