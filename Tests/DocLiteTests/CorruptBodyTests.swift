import CSQLite
import XCTest
@testable import DocLite

/// A body read from a damaged file must never crash or read out of bounds:
/// random byte flips and truncations of real bodies are read every way there is.
final class CorruptBodyTests: XCTestCase {
    func testMutatedBodiesReadWithoutCrashing() throws {
        let keys = SharedKeys()
        var encoder = BodyEncoder(sharedKeys: keys)
        let json = #"{"name":"Hotel 1","tags":["a","b",[1,2.5,{"deep":null}]],"address":{"zip":"1010","n":-70000},"big":18446744073709551615,"long":"\#(String(repeating: "x", count: 300))"}"#
        var text = json
        try text.withUTF8 { try JSONParser.encodeObject($0, into: &encoder) }
        let original = encoder.output
        let paths = try ["name", "tags[2][2].deep", "tags[-1]", "address.zip", "address.n", "big", "long"].map { try KeyPath(parsing: $0) }
        var generator = SeededRandom(seed: 7)
        for round in 0..<20_000 {
            var body = original
            for _ in 0...Int.random(in: 0...2, using: &generator) {
                body[Int.random(in: 0..<body.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 3 == 0 { body.removeLast(Int.random(in: 0..<body.count, using: &generator)) }
            body.withUnsafeBytes { raw in
                let reader = Body(raw)
                var out: [UInt8] = []
                JSONWriter.append(reader, at: 0, keys: keys, to: &out)
                _ = JSONValue(reader, at: 0, keys: keys)
                for path in paths {
                    path.resolve(with: keys)
                    if let offset = reader.offset(of: path) { _ = reader.encoded(at: offset) }
                }
                var copy = BodyEncoder(sharedKeys: keys)
                copy.writeValue(from: reader, at: 0, keys: keys)
            }
        }
        // The untouched body still reads back exactly.
        var out: [UInt8] = []
        original.withUnsafeBytes { JSONWriter.append(Body($0), at: 0, keys: keys, to: &out) }
        XCTAssertEqual(try JSONValue(json: String(decoding: out, as: UTF8.self)), try JSONValue(json: json))
    }
}

/// Found by the body fuzz target: a container cut off by a damaged file read as
/// `{}` in the Swift tree and its copy, but as `null` in its JSON. The readers of
/// whole values now take a value that is not all there as null.
final class CutOffBodyTests: XCTestCase {
    func testTheWholeValueReadersTakeACutOffValueAsNull() throws {
        let keys = SharedKeys()
        var encoder = BodyEncoder(sharedKeys: keys)
        try JSONValue(json: #"{"a":[1,2,3],"b":"text"}"#).encode(into: &encoder)
        let cut = Array(encoder.output.dropLast())
        cut.withUnsafeBytes { raw in
            let body = Body(raw)
            XCTAssertNil(body.wholeType(at: 0))
            XCTAssertEqual(JSONValue(body, at: 0, keys: keys), .null)
            var out: [UInt8] = []
            JSONWriter.append(body, at: 0, keys: keys, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), "null")
            var copy = BodyEncoder(sharedKeys: keys)
            copy.writeValue(from: body, at: 0, keys: keys)
            copy.output.withUnsafeBytes { XCTAssertEqual(JSONValue(Body($0), at: 0, keys: keys), .null) }
        }
    }
}

/// The SQL functions over damaged stored bodies: values read as MISSING or
/// not at all, never out of bounds.
final class CorruptStoredBodyTests: DatabaseTestCase {
    func testSQLFunctionsOverMutatedBodies() throws {
        let collection = defaultCollection
        try collection.save(document: MutableDocument(id: "a", json: #"{"name":"Royal","n":7,"x":2.5,"u":18446744073709551615,"tags":["a",{"z":1}]}"#))
        let table = collection.liveTableName
        let original: [UInt8] = try db.withSQLiteConnection { handle in
            var statement: OpaquePointer?
            sqlite3_prepare_v2(handle, "SELECT body FROM \(table)", -1, &statement, nil)
            defer { sqlite3_finalize(statement) }
            sqlite3_step(statement)
            return Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 0), count: Int(sqlite3_column_bytes(statement, 0))))
        }
        var generator = SeededRandom(seed: 11)
        try db.withSQLiteConnection { handle in
            for round in 0..<3000 {
                var body = original
                body[Int.random(in: 0..<body.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                if round % 2 == 0 { body.removeLast(Int.random(in: 0..<body.count, using: &generator)) }
                var update: OpaquePointer?
                sqlite3_prepare_v2(handle, "UPDATE \(table) SET body = ?", -1, &update, nil)
                body.withUnsafeBytes { _ = sqlite3_bind_blob(update, 1, $0.baseAddress, Int32($0.count), csqlite_transient()) }
                sqlite3_step(update)
                sqlite3_finalize(update)
                for sql in ["SELECT doc_value(body, 'name'), doc_value(body, 'n'), doc_value(body, 'x'), doc_value(body, 'u'), doc_value(body, 'tags[1].z'), doc_value(body, 'tags') FROM \(table)",
                            "SELECT doc_eq(body, 'name', 'Royal'), doc_eq(body, 'n', 7), doc_like(body, 'x', '2%'), doc_like(body, 'name', 'R%') FROM \(table)"] {
                    var select: OpaquePointer?
                    sqlite3_prepare_v2(handle, sql, -1, &select, nil)
                    while sqlite3_step(select) == SQLITE_ROW {}
                    sqlite3_finalize(select)
                }
            }
        }
    }
}

/// Found by the body fuzz target: offsets in a damaged body that point
/// several entries at one child made a 576-byte body expand exponentially
/// when read whole. Readers now take children only in order and apart.
final class SharedChildrenBodyTests: XCTestCase {
    func testChildrenThatShareBytesAreNotReadTwice() {
        // 40 nested arrays, each with two entries pointing at the same child:
        // read naively, 2^40 values.
        let depth = 40
        var bytes: [UInt8] = [BodyTag.null]
        for _ in 0..<depth {
            bytes = [BodyTag.array1, UInt8(5 + bytes.count), 2, 5, 5] + bytes
        }
        let keys = SharedKeys()
        var expected = JSONValue.null
        for _ in 0..<depth { expected = .array([expected]) }
        bytes.withUnsafeBytes { raw in
            let body = Body(raw)
            XCTAssertEqual(JSONValue(body, at: 0, keys: keys), expected)
            var out: [UInt8] = []
            JSONWriter.append(body, at: 0, keys: keys, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), String(repeating: "[", count: depth) + "null" + String(repeating: "]", count: depth))
        }
    }

    func testAChildRunningPastItsContainerEndsTheContainer() {
        // [ "ab", 1 ] whose size says the string is all there is.
        let bytes: [UInt8] = [BodyTag.array1, 7, 2, 5, 8, BodyTag.tinyString + 2, 0x61, 0x62, BodyTag.int8, 1]
        bytes.withUnsafeBytes { raw in
            XCTAssertEqual(JSONValue(Body(raw), at: 0, keys: SharedKeys()), .array([]))
        }
    }
}

/// Found by the body fuzz target: a damaged body with two keys that are not
/// UTF-8 and read as one ("\u{FFFD}DDD") read with one value, but its copy,
/// whose keys were sorted as bytes, with the other.
final class NonUTF8KeyBodyTests: XCTestCase {
    func testACopyKeepsTheValueTheTreeReaderKeeps() {
        // {"\xC4DDD": "", "\x8FDDD": null} as a dict with string keys.
        let bytes: [UInt8] = [BodyTag.mixedDict, 37, 0, 0, 0, 2, 0, 0, 0,
                              27, 0, 0, 0x80, 32, 0, 0, 0x80, 25, 0, 0, 0, 26, 0, 0, 0,
                              BodyTag.tinyString, BodyTag.null,
                              BodyTag.tinyString + 4, 0xC4, 0x44, 0x44, 0x44, BodyTag.tinyString + 4, 0x8F, 0x44, 0x44, 0x44]
        let keys = SharedKeys()
        bytes.withUnsafeBytes { raw in
            let body = Body(raw)
            let tree = JSONValue(body, at: 0, keys: keys)
            XCTAssertEqual(tree, .dictionary(["\u{FFFD}DDD": .null]))
            var copy = BodyEncoder(sharedKeys: keys, assignsNewKeys: false)
            copy.writeValue(from: body, at: 0, keys: keys)
            copy.output.withUnsafeBytes { XCTAssertEqual(JSONValue(Body($0), at: 0, keys: keys), tree) }
        }
    }
}
