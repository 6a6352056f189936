import Foundation
import XCTest
@testable import DocLite

final class DocumentCRUDTests: DatabaseTestCase {
    func testToDictionaryGivesStringKeysAtEveryDepth() throws {
        let doc = try MutableDocument(id: "d", json: #"{"outer": {"inner": {"n": 1}}, "list": [{"k": "v"}]}"#)
        let dictionary = doc.toDictionary()
        let outer = try XCTUnwrap(dictionary["outer"] as? [String: Any])
        XCTAssertEqual((outer["inner"] as? [String: Any])?["n"] as? Int, 1)
        XCTAssertEqual(((dictionary["list"] as? [Any])?.first as? [String: Any])?["k"] as? String, "v")
    }

    /// Arrays of numbers (an embedding's [Double] or [Float], which take a shorter path
    /// than other arrays) are stored as JSON arrays of their values.
    func testArraysOfNumbersAreStoredAsTheirValues() throws {
        let doc = MutableDocument(id: "d").setValue([0.25, -1e300], forKey: "doubles").setValue([Float(0.5), 1.25], forKey: "floats")
            .setValue([1, 2], forKey: "ints").setValue([[0.5], [Float(2)]], forKey: "nested")
        try defaultCollection.save(document: doc)
        XCTAssertEqual(try defaultCollection.document(id: "d")?.toJSON(),
                       #"{"doubles":[0.25,-1e+300],"floats":[0.5,1.25],"ints":[1,2],"nested":[[0.5],[2.0]]}"#)
    }

    func testSaveGetUpdateDelete() throws {
        let collection = defaultCollection
        let doc = MutableDocument(id: "hotel-1")
        doc.setString("hotel", forKey: "type").setInt(42, forKey: "rooms")
        doc.setDouble(4.5, forKey: "rating")
        try collection.save(document: doc)
        XCTAssertEqual(doc.sequence, 1)
        XCTAssertTrue(doc.revisionID!.hasPrefix("1-"))
        XCTAssertEqual(doc.revisionID!.count, 2 + 40)

        let read = try XCTUnwrap(collection.document(id: "hotel-1"))
        XCTAssertEqual(read.string(forKey: "type"), "hotel")
        XCTAssertEqual(read.int(forKey: "rooms"), 42)
        XCTAssertEqual(read.double(forKey: "rating"), 4.5)
        XCTAssertNil(read.value(forKey: "missing"))
        XCTAssertEqual(read.revisionID, doc.revisionID)
        XCTAssertEqual(collection.count, 1)

        let update = read.toMutable()
        update.setString("Grand", forKey: "name")
        try collection.save(document: update)
        XCTAssertEqual(update.sequence, 2)
        XCTAssertTrue(update.revisionID!.hasPrefix("2-"))
        XCTAssertEqual(try collection.document(id: "hotel-1")?.string(forKey: "name"), "Grand")

        try collection.delete(document: update)
        XCTAssertNil(try collection.document(id: "hotel-1"))
        XCTAssertEqual(update.sequence, 3)
        XCTAssertTrue(update.revisionID!.hasPrefix("3-"))
        XCTAssertEqual(collection.count, 0)
    }

    func testPersistsAcrossReopen() throws {
        try defaultCollection.save(document: MutableDocument(id: "a", json: #"{"n": 1, "nested": {"x": [1, 2.5, "three", null, true]}}"#))
        try reopen()
        let doc = try XCTUnwrap(defaultCollection.document(id: "a"))
        XCTAssertEqual(doc.toJSON(), #"{"n":1,"nested":{"x":[1,2.5,"three",null,true]}}"#)
        XCTAssertEqual(doc.sequence, 1)
        try defaultCollection.save(document: MutableDocument(id: "b", json: "{}"))
        XCTAssertEqual(try defaultCollection.document(id: "b")?.sequence, 2)
    }
}

final class MutableContainerTests: XCTestCase {
    func testTypedArrayAndDictionarySetters() throws {
        let tags = MutableArrayObject().addString("spa").addInt(3).addBoolean(true)
        tags.addDouble(2.5)
        tags.setString("bar", at: 1)
        XCTAssertNil(keptError(of: tags))
        tags.setInt(1, at: 9)
        XCTAssertEqual(keptError(of: tags)?.message, "the value set in an array cannot be stored: array index 9 out of range 0...3")
        tags.addDouble(.nan)   // (the array keeps its first error)
        XCTAssertEqual(tags.count, 4, "neither changed the array")
        let address = MutableDictionaryObject().setString("1010", forKey: "zip")
        let doc = MutableDocument(id: "d").setArray(tags, forKey: "tags").setDictionary(address, forKey: "address")
        XCTAssertEqual(doc.toJSON(), #"{"address":{"zip":"1010"}}"#, "an array holding an error is not stored")
        XCTAssertEqual(keptError(of: doc)?.message.hasPrefix("the value set for key 'tags' cannot be stored: the value set in an array"), true)
        doc.setArray(MutableArrayObject().addString("spa").addString("bar").addBoolean(true).addDouble(2.5), forKey: "tags")
        XCTAssertEqual(doc.toJSON(), #"{"address":{"zip":"1010"},"tags":["spa","bar",true,2.5]}"#)
        XCTAssertNil(keptError(of: doc))
        XCTAssertEqual(doc.array(forKey: "tags")?.string(at: 1), "bar")
        XCTAssertEqual(doc.dictionary(forKey: "address")?.string(forKey: "zip"), "1010")
    }
}

extension MutableContainerTests {
    /// Couchbase Lite's `setData` on dictionaries and arrays: every value replaced, errors kept for the save.
    func testSetDataReplacesEverything() {
        let dictionary = MutableDictionaryObject(data: ["a": 1]).setData(["b": "x", "c": [1, 2]])
        XCTAssertEqual(dictionary.toJSON(), #"{"b":"x","c":[1,2]}"#)
        let array = MutableArrayObject(data: [1]).setData(["x", nil, true])
        XCTAssertEqual(array.toJSON(), #"["x",null,true]"#)
        let bad = MutableArrayObject().setData([1, Double.nan])
        XCTAssertEqual(bad.toJSON(), "[1]")
        XCTAssertTrue(keptError(of: bad)?.message.contains("NaN or infinity") == true)
        XCTAssertNil(keptError(of: bad.setData([2])), "replacing everything drops the kept error")
    }
}

/// `MutableDocument(json:idField:)`, what `doclite import` saves each line with:
/// the ID is the field's value and not a property; the text is encoded as is.
final class ImportedDocumentTests: DatabaseTestCase {
    func testTheIDFieldIsTheIDAndNoProperty() throws {
        let document = try MutableDocument(json: #"{"a": 1, "_id": "doc-1", "b": {"_id": "kept"}}"#, idField: "_id")
        XCTAssertEqual(document.id, "doc-1")
        XCTAssertEqual(document.keys, ["a", "b"])
        try defaultCollection.save(document: document)
        XCTAssertEqual(try defaultCollection.document(id: "doc-1")?.toJSON(), #"{"a":1,"b":{"_id":"kept"}}"#)
    }

    func testOtherIDFieldsAndValues() throws {
        let numbered = try MutableDocument(json: #"{"key": 42, "nested": {"key": [1, {"key": 2}]}, "z": [3]}"#, idField: "key")
        XCTAssertEqual(numbered.id, "42")
        try defaultCollection.save(document: numbered)
        XCTAssertEqual(try defaultCollection.document(id: "42")?.toJSON(), #"{"nested":{"key":[1,{"key":2}]},"z":[3]}"#)
        let withContainerFirst = try MutableDocument(json: #"{"x": [{"id": 1}], "id": "later", "y": 2}"#, idField: "id")
        XCTAssertEqual(withContainerFirst.id, "later")
        XCTAssertEqual(withContainerFirst.toJSON(), #"{"x":[{"id":1}],"y":2}"#)
        let generated = try MutableDocument(json: #"{"n": 1}"#, idField: "_id")
        XCTAssertFalse(generated.id.isEmpty)
        assertThrows(.badDocID, containing: "holds an array or an object") { _ = try MutableDocument(json: #"{"_id": {"a": 1}}"#, idField: "_id") }
        // A reserved key other than the ID field is still refused when saved.
        let reserved = try MutableDocument(json: #"{"id": "r", "_rev": "1-a"}"#, idField: "id")
        assertThrows(.corruptRevisionData, containing: "'_rev'") { try self.defaultCollection.save(document: reserved) }
    }
}
