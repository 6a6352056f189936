import Foundation
import XCTest
@testable import DocLite

/// Input that DocLite must reject with a precise error, storing nothing.
final class RejectedInputTests: DatabaseTestCase {
    private let jsonError = DocLiteError.FleeceCode.jsonError.rawValue

    /// Asserts that `json` is rejected as a document body (and by the tree parser) with a JSON error containing `text`.
    private func assertMalformed(_ json: String, _ text: String, file: StaticString = #filePath, line: UInt = #line) {
        assertThrows(domain: .fleece, code: jsonError, containing: text, file: file, line: line) {
            _ = try MutableDocument(id: "doc", json: json)
        }
        assertThrows(domain: .fleece, code: jsonError, containing: "malformed JSON", file: file, line: line) {
            _ = try JSONValue(json: json)
        }
    }

    /// Asserts that the raw bytes are rejected by the parser (which sees them exactly, unlike a Swift String).
    private func assertMalformedBytes(_ bytes: [UInt8], _ text: String, file: StaticString = #filePath, line: UInt = #line) {
        assertThrows(domain: .fleece, code: jsonError, containing: text, file: file, line: line) {
            var encoder = BodyEncoder(sharedKeys: SharedKeys())
            try bytes.withUnsafeBufferPointer { try JSONParser.encodeObject($0, into: &encoder) }
        }
        assertThrows(domain: .fleece, code: jsonError, containing: text, file: file, line: line) {
            var validator = JSONValidator()
            try bytes.withUnsafeBufferPointer { try JSONParser.encodeObject($0, into: &validator) }
        }
    }

    // MARK: Malformed JSON

    func testTruncatedJSON() {
        assertMalformed("{", "expected a string key")
        assertMalformed(#"{"a""#, "expected ':'")
        assertMalformed(#"{"a":"#, "unexpected end")
        assertMalformed(#"{"a":1"#, "unterminated object")
        assertMalformed(#"{"a":1,"#, "expected a string key")
        assertMalformed(#"{"a":"x"#, "unterminated string")
        assertMalformed(#"{"a":"x\n"#, "unterminated string")
        assertMalformed(#"{"a":[1,2"#, "unterminated array")
        assertMalformed(#"{"a":tru}"#, "invalid literal")
        assertMalformed(#"{"a":nul"#, "invalid literal")
        assertMalformed(#"{"a":"\u12"}"#, "invalid hex digit")
        assertMalformed(#"{"a":"\u12"#, #"truncated \u escape"#)
        assertMalformed(#"{"a":"\"#, "unterminated string")
        assertMalformed(#"{"a":1."#, "expected a digit")
        assertMalformed(#"{"a":1e}"#, "expected a digit")
        assertMalformed(#"{"a":-}"#, "expected a digit")
    }

    func testTrailingText() {
        assertMalformed("{} x", "unexpected text after")
        assertMalformed("{}{}", "unexpected text after")
        assertMalformed("{},", "unexpected text after")
        assertMalformed(#"{"a":1}}"#, "unexpected text after")
        assertMalformed(#"{"a":1 2}"#, "expected ',' or '}'")
        assertMalformed(#"{"a":[1 2]}"#, "expected ',' or ']'")
    }

    func testNonStandardSyntax() {
        assertMalformed(#"{"a":01}"#, "leading zero")
        assertMalformed(#"{"a":-01}"#, "leading zero")
        assertMalformed(#"{"a":00}"#, "leading zero")
        assertMalformed(#"{"a":+1}"#, "unexpected character '+'")
        assertMalformed(#"{"a":.5}"#, "unexpected character '.'")
        assertMalformed(#"{"a":1,}"#, "expected a string key")
        assertMalformed(#"{"a":[1,]}"#, "unexpected character ']'")
        assertMalformed(#"{'a':1}"#, "expected a string key")
        assertMalformed(#"{a:1}"#, "expected a string key")
        assertMalformed(#"{"a":NaN}"#, "unexpected character 'N'")
        assertMalformed(#"{"a":Infinity}"#, "unexpected character 'I'")
        assertMalformed(#"{"a":1e400}"#, "number out of range")
        assertMalformed(#"{"a":-1e400}"#, "number out of range")
        assertMalformed("{\"a\":1 /* comment */}", "expected ',' or '}'")
        assertMalformed(#"{"a":True}"#, "unexpected character 'T'")
    }

    func testBadEscapes() {
        assertMalformed(#"{"a":"\x41"}"#, #"invalid escape '\x'"#)
        assertMalformed(#"{"a":"\U0041"}"#, #"invalid escape '\U'"#)
        assertMalformed(#"{"a":"\'"}"#, #"invalid escape '\''"#)
        assertMalformed(#"{"a":"\u00G0"}"#, "invalid hex digit")
        assertMalformed(#"{"\q":1}"#, "invalid escape")
    }

    func testUnpairedSurrogates() {
        assertMalformed(#"{"a":"\ud800"}"#, "unpaired surrogate")
        assertMalformed(#"{"a":"\ud800x"}"#, "unpaired surrogate")
        assertMalformed(#"{"a":"\ud800\u0041"}"#, "unpaired surrogate")
        assertMalformed(#"{"a":"\ud800\ud800"}"#, "unpaired surrogate")
        assertMalformed(#"{"a":"\udc00"}"#, "unpaired surrogate")
        assertMalformed(#"{"a":"\udfff\ud800"}"#, "unpaired surrogate")
        assertMalformed(#"{"\ud83d":1}"#, "unpaired surrogate")
        // A proper pair is accepted.
        XCTAssertEqual(try JSONValue(json: #""\ud83d\ude00""#), .string("😀"))
    }

    func testControlCharacterInString() {
        assertMalformed("{\"a\":\"x\ny\"}", "unescaped control character")
        assertMalformed("{\"a\":\"\u{1}\"}", "unescaped control character")
        assertMalformed("{\"a\":\"\\n\u{1F}\"}", "unescaped control character")   // after an escape (slow path)
        assertMalformed("{\"a\tb\":1}", "unescaped control character")
        assertMalformedBytes(Array(#"{"a":"x"#.utf8) + [0x00] + Array(#""}"#.utf8), "unescaped control character")
    }

    func testInvalidUTF8() {
        let invalid: [(bytes: [UInt8], why: String)] = [
            ([0xFF], "byte 0xFF"),
            ([0x80], "lone continuation byte"),
            ([0xC3], "truncated 2-byte sequence"),
            ([0xE2, 0x82], "truncated 3-byte sequence"),
            ([0xF0, 0x9F, 0x98], "truncated 4-byte sequence"),
            ([0xC0, 0xAF], "overlong '/'"),
            ([0xC1, 0xBF], "overlong 2-byte"),
            ([0xE0, 0x80, 0xAF], "overlong 3-byte"),
            ([0xF0, 0x80, 0x80, 0xAF], "overlong 4-byte"),
            ([0xED, 0xA0, 0x80], "UTF-16 surrogate D800"),
            ([0xED, 0xBF, 0xBF], "UTF-16 surrogate DFFF"),
            ([0xF4, 0x90, 0x80, 0x80], "above U+10FFFF"),
            ([0xF5, 0x80, 0x80, 0x80], "lead byte F5"),
            ([0xE2, 0x28, 0xA1], "bad continuation"),
            ([0x61, 0xC3, 0x28], "bad continuation after ASCII"),
        ]
        for (bytes, _) in invalid {
            let value = Array(#"{"a":""#.utf8) + bytes + Array(#""}"#.utf8)
            assertMalformedBytes(value, "invalid UTF-8")
            let key = Array(#"{""#.utf8) + bytes + Array(#"":1}"#.utf8)
            assertMalformedBytes(key, "invalid UTF-8")
            // With an escape in the string, the parser takes its unescaping path.
            let escaped = Array(#"{"a":"\n"#.utf8) + bytes + Array(#"\t"}"#.utf8)
            assertMalformedBytes(escaped, "invalid UTF-8")
        }
        // Outside a string, a non-ASCII byte is an unexpected character.
        assertMalformedBytes(Array(#"{"a":"#.utf8) + [0xFF] + Array("}".utf8), #"unexpected character '\xFF'"#)
        // Valid multi-byte sequences at the edges of each range are accepted.
        for bytes: [UInt8] in [[0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
                               [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]] {
            var encoder = BodyEncoder(sharedKeys: SharedKeys())
            let json = Array(#"{"a":""#.utf8) + bytes + Array(#""}"#.utf8)
            XCTAssertNoThrow(try json.withUnsafeBufferPointer { try JSONParser.encodeObject($0, into: &encoder) }, "\(bytes)")
        }
    }

    func testNonObjectBodies() {
        assertThrows(domain: .fleece, code: jsonError, containing: "must be a JSON object") { _ = try MutableDocument(id: "d", json: "[1]") }
        assertThrows(domain: .fleece, code: jsonError, containing: "must be a JSON object") { _ = try MutableDocument(id: "d", json: "1") }
        assertThrows(domain: .fleece, code: jsonError, containing: "must be a JSON object") { _ = try MutableDocument(id: "d", json: "null") }
        assertThrows(domain: .fleece, code: jsonError, containing: "must be a JSON object") { _ = try MutableDocument(id: "d", json: #""text""#) }
        assertThrows(domain: .fleece, code: jsonError, containing: "must be a JSON object") { _ = try MutableDocument(id: "d", json: " true ") }
        assertThrows(domain: .fleece, code: jsonError, containing: "empty JSON text") { _ = try MutableDocument(id: "d", json: "") }
        assertThrows(domain: .fleece, code: jsonError, containing: "empty JSON text") { _ = try MutableDocument(id: "d", json: " \n\t") }
    }

    func testSetJSONFailureChangesNothing() throws {
        let doc = try MutableDocument(id: "d", json: #"{"kept":1}"#)
        assertThrows(domain: .fleece, code: jsonError, containing: "malformed JSON") { try doc.setJSON(#"{"kept":2"#) }
        XCTAssertEqual(doc.int(forKey: "kept"), 1)
        XCTAssertEqual(doc.toJSON(), #"{"kept":1}"#)
    }

    func testNestingDeeperThanTheLimit() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        }
        let limit = JSONParser.maxDepth, message = "nested deeper than \(JSONParser.maxDepth)"
        XCTAssertNoThrow(try MutableDocument(id: "ok", json: nested(limit)))
        assertMalformed(nested(limit + 1), message)
        assertMalformed(nested(10_000), message)
        let arrays = "{\"a\":" + String(repeating: "[", count: limit + 44) + String(repeating: "]", count: limit + 44) + "}"
        assertMalformed(arrays, message)
        // Deeply nested but unterminated: the depth error comes first, without recursing further.
        assertMalformed("{\"a\":" + String(repeating: "[", count: 100_000), message)
    }

    // MARK: Reserved keys

    func testReservedTopLevelKeysAreRejected() throws {
        let collection = defaultCollection
        try collection.save(document: MutableDocument(id: "existing", json: #"{"v":1}"#))
        let before = try XCTUnwrap(collection.document(id: "existing"))
        for key in ["_id", "_rev", "_deleted"] {
            assertThrows(.corruptRevisionData, containing: "illegal top-level key '\(key)'") {
                try collection.save(document: MutableDocument(id: "new", json: "{\"a\":1,\"\(key)\":\"x\"}"))
            }
            // Written with an escape, the key is the same.
            assertThrows(.corruptRevisionData, containing: "illegal top-level key '\(key)'") {
                let escaped = "\\u005f" + key.dropFirst()
                try collection.save(document: MutableDocument(id: "new", json: "{\"\(escaped)\":true}"))
            }
            // Set as a property.
            assertThrows(.corruptRevisionData, containing: "illegal top-level key '\(key)'") {
                try collection.save(document: MutableDocument(id: "new").setString("x", forKey: key))
            }
            // On an update of a stored document.
            let update = before.toMutable()
            update.setString("x", forKey: key)
            assertThrows(.corruptRevisionData, containing: "reserved") { try collection.save(document: update) }
            XCTAssertEqual(update.revisionID, before.revisionID, "a rejected save leaves the document's revision alone")
        }
        XCTAssertEqual(collection.count, 1, "nothing was written")
        XCTAssertNil(try collection.document(id: "new"))
        XCTAssertEqual(try collection.document(id: "existing")?.revisionID, before.revisionID)
        XCTAssertEqual(try collection.document(id: "existing")?.toJSON(), #"{"v":1}"#)
    }

    func testReservedKeysAreAllowedBelowTheTopLevelAndOtherUnderscoreKeys() throws {
        let collection = defaultCollection
        let json = #"{"_attachments":{"a":{"digest":"sha1-x"}},"_idx":1,"_":2,"nested":{"_id":1,"_rev":"1-a","_deleted":true},"list":[{"_id":2}]}"#
        try collection.save(document: MutableDocument(id: "a", json: json))
        let read = try XCTUnwrap(collection.document(id: "a"))
        XCTAssertEqual(try JSONValue(json: read.toJSON()), try JSONValue(json: json))
        try collection.save(document: MutableDocument(id: "b").setString("x", forKey: "_attachments"))
        XCTAssertEqual(collection.count, 2)
    }

    // MARK: Document IDs, collection and scope names

    func testInvalidDocumentIDs() throws {
        let collection = defaultCollection
        let invalid = ["", "_design", "_", String(repeating: "a", count: 241), String(repeating: "é", count: 121),
                       "a\nb", "tab\there", "\u{1F}", "nul\u{0}"]
        for id in invalid {
            assertThrows(.badDocID, containing: "invalid document ID") {
                try collection.save(document: MutableDocument(id: id, json: "{}"))
            }
        }
        XCTAssertEqual(collection.count, 0)
        let valid = [String(repeating: "a", count: 240), String(repeating: "é", count: 120), "~abc", "a_b", "with space",
                     "ключ", "😀", "a/b", "a.b", "%"]
        for id in valid {
            XCTAssertNoThrow(try collection.save(document: MutableDocument(id: id, json: #"{"id":"\#(id)"}"#)), id)
            XCTAssertEqual(try collection.document(id: id)?.string(forKey: "id"), id)
        }
        XCTAssertEqual(collection.count, UInt64(valid.count))
    }

    func testInvalidCollectionAndScopeNames() throws {
        for name in ["", "_hidden", "%x", "a b", "a.b", "a/b", "ключ", String(repeating: "c", count: 252)] {
            assertThrows(.invalidParameter, containing: "invalid collection name") { try db.createCollection(name: name) }
            assertThrows(.invalidParameter, containing: "invalid scope name") { try db.createCollection(name: "ok", scope: name) }
        }
        XCTAssertEqual(try db.collections().map(\.name), ["_default"])
        XCTAssertNil(try db.scope(name: "ok"))
        XCTAssertNoThrow(try db.createCollection(name: String(repeating: "c", count: 251), scope: "s-1%"))
        XCTAssertNoThrow(try db.createCollection(name: "a-b_c%9", scope: "S"))
        assertThrows(.invalidParameter, containing: "default collection cannot be deleted") { try db.deleteCollection(name: "_default") }
    }

    func testInvalidDatabaseNames() {
        for name in ["", "a/b"] {
            assertThrows(.invalidParameter, containing: "invalid database name") {
                _ = try Database(name: name, config: DatabaseConfiguration(directory: directory))
            }
        }
    }

    // MARK: Unsupported values

    private struct Custom { let x = 1 }

    func testUnsupportedValueTypes() throws {
        let doc = MutableDocument(id: "d")
        doc.setInt(1, forKey: "kept")
        let unsupported: [Any] = [Custom(), [1, Custom()] as [Any], ["k": Custom()] as [String: Any], NSObject()]
        for value in unsupported {
            doc.setValue(value, forKey: "bad")
            XCTAssertTrue(keptError(of: doc)?.message.contains("unsupported value type") == true, "\(value)")
        }
        XCTAssertTrue(keptError(of: MutableDocument(id: "e", data: ["x": Custom()]))?.message.contains("unsupported value type Custom") == true)
        XCTAssertTrue(keptError(of: MutableArrayObject().addValue(Custom()))?.message.contains("unsupported value type") == true)
        XCTAssertTrue(keptError(of: MutableDictionaryObject().setValue(Custom(), forKey: "x"))?.message.contains("unsupported value type") == true)
        XCTAssertNil(doc.value(forKey: "bad"), "a rejected value is not stored")
        XCTAssertEqual(doc.toJSON(), #"{"kept":1}"#)
        assertThrows(.invalidParameter, containing: "the value set for key 'bad' cannot be stored: unsupported value type Custom") {
            try defaultCollection.save(document: doc)
        }
    }

    func testNonFiniteNumbers() throws {
        for value in [Double.nan, .infinity, -.infinity, .signalingNaN] {
            let setters: [(MutableDocument) -> Void] = [{ $0.setDouble(value, forKey: "x") }, { $0.setValue(value, forKey: "x") },
                                                        { $0.setValue([1.0, value], forKey: "x") }, { $0.setFloat(Float(value), forKey: "x") },
                                                        { $0.setValue([1, Float(value)], forKey: "x") }]
            for set in setters {
                let doc = MutableDocument(id: "d")
                set(doc)
                XCTAssertEqual(doc.count, 0)
                assertThrows(.invalidParameter, containing: "NaN or infinity") { try defaultCollection.save(document: doc) }
            }
        }
        XCTAssertTrue(keptError(of: MutableArrayObject().addValue(Double.nan))?.message.contains("NaN or infinity") == true)
        XCTAssertNil(try defaultCollection.document(id: "d"))
    }
}
