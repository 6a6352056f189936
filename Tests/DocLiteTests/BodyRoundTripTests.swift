import Foundation
import XCTest
@testable import DocLite

/// Property-based round trips of JSON through the body format (parser, encoder,
/// reader, writer), alone and through stored documents, plus direct checks of
/// ``Body`` lookups and ``KeyPath`` parsing.
final class BodyRoundTripTests: DatabaseTestCase {
    static let valueCount = 2000

    // MARK: Property-based round trips

    /// Random values → JSON text (randomly formatted and escaped) → `JSONValue(json:)` → same value;
    /// and the writer's JSON of the parsed value parses back to the same value again.
    func testRandomValuesRoundTripThroughParser() throws {
        var generator = RandomJSON(seed: 0xD0C_1173)
        for index in 0..<Self.valueCount {
            let original = generator.value(depth: 0)
            let text = generator.serialize(original)
            let parsed: JSONValue
            do {
                parsed = try JSONValue(json: text)
            } catch {
                return XCTFail("value \(index): \(error) parsing \(text.prefix(300))")
            }
            if let difference = firstDifference(original, parsed) {
                return XCTFail("value \(index): \(difference)\nJSON: \(text.prefix(300))")
            }
            XCTAssertEqual(original, parsed, "value \(index)")
            let rewritten = parsed.json
            guard let reparsed = try? JSONValue(json: rewritten) else {
                return XCTFail("value \(index): the writer's JSON does not parse: \(rewritten.prefix(300))")
            }
            if let difference = firstDifference(original, reparsed) {
                return XCTFail("value \(index) after writing and parsing again: \(difference)")
            }
        }
        generator.coverage.assertComplete()
    }

    /// Random documents saved with `MutableDocument(id:json:)`, read back (`toJSON()`
    /// and property by property), and read again after reopening the database.
    /// Enough distinct keys are generated to fill the shared-key table (2048),
    /// so later documents store eligible keys as strings.
    func testRandomDocumentsRoundTripThroughStorage() throws {
        var generator = RandomJSON(seed: 0x5EED_0002)
        var originals: [JSONValue] = []
        let collection = defaultCollection
        for batchStart in stride(from: 0, to: Self.valueCount, by: 100) {
            try db.inBatch {
                for index in batchStart..<min(batchStart + 100, Self.valueCount) {
                    let original = generator.documentBody()
                    originals.append(original)
                    let text = generator.serialize(original)
                    let doc = try MutableDocument(id: "doc-\(index)", json: text)
                    if let difference = firstDifference(original, try JSONValue(json: doc.toJSON())) {
                        XCTFail("unsaved doc-\(index): \(difference)")
                    }
                    try collection.save(document: doc)
                    // The saved document object now holds the stored encoding.
                    if let difference = firstDifference(original, try JSONValue(json: doc.toJSON())) {
                        XCTFail("saved doc-\(index) object: \(difference)")
                    }
                }
            }
        }
        generator.coverage.assertComplete()
        XCTAssertEqual(collection.count, UInt64(Self.valueCount))
        XCTAssertEqual(db.sharedKeys.count, SharedKeys.maxCount, "the test should fill the shared-key table")

        var tags = Set<UInt8>()
        try checkStoredDocuments(originals, tags: &tags)
        for (tag, name) in [(BodyTag.dict1, "dict1"), (BodyTag.dict2, "dict2"), (BodyTag.dict4, "dict4"),
                            (BodyTag.mixedDict, "mixed dict"), (BodyTag.array1, "array1"),
                            (BodyTag.array2, "array2"), (BodyTag.array4, "array4"),
                            (BodyTag.shortString, "short string"), (BodyTag.longString, "long string"),
                            (BodyTag.int8, "int8"), (BodyTag.int16, "int16"), (BodyTag.int32, "int32"),
                            (BodyTag.int64, "int64"), (BodyTag.uint64, "uint64"), (BodyTag.double, "double")] {
            XCTAssertTrue(tags.contains(tag), "no stored body used the \(name) encoding")
        }

        try reopen()
        var ignored = Set<UInt8>()
        try checkStoredDocuments(originals, tags: &ignored)
    }

    private func checkStoredDocuments(_ originals: [JSONValue], tags: inout Set<UInt8>, file: StaticString = #filePath, line: UInt = #line) throws {
        let collection = defaultCollection
        for (index, original) in originals.enumerated() {
            guard let doc = try collection.document(id: "doc-\(index)") else {
                XCTFail("doc-\(index) missing", file: file, line: line)
                continue
            }
            let json = doc.toJSON()
            guard let read = try? JSONValue(json: json) else {
                XCTFail("doc-\(index): toJSON() is not valid JSON: \(json.prefix(300))", file: file, line: line)
                continue
            }
            if let difference = firstDifference(original, read) {
                XCTFail("doc-\(index): \(difference)", file: file, line: line)
                continue
            }
            // Each top-level property, looked up in the stored body without decoding the rest.
            guard case .dictionary(let members) = original else { continue }
            let content = doc.state.withLock { $0.content }
            for (key, value) in members {
                guard let property = content.property(key.string) else {
                    XCTFail("doc-\(index): property \(key.string.debugDescription) not found by lookup", file: file, line: line)
                    break
                }
                if let difference = firstDifference(value, property, path: key.string.debugDescription) {
                    XCTFail("doc-\(index) lookup: \(difference)", file: file, line: line)
                    break
                }
            }
            XCTAssertNil(content.property("no such key"), file: file, line: line)
            guard case .encoded(let body, _) = content else {
                XCTFail("doc-\(index) read back is not encoded", file: file, line: line)
                continue
            }
            body.withUnsafeBytes { raw in
                Self.collectTags(Body(raw), at: 0, keys: db.sharedKeys, into: &tags)
            }
        }
    }

    private static func collectTags(_ body: Body, at offset: Int, keys: SharedKeys, into tags: inout Set<UInt8>) {
        guard let tag = body.tag(at: offset) else { return }
        tags.insert(tag)
        switch body.type(at: offset) {
        case .dictionary: body.forEachMember(ofDictAt: offset, keys: keys) { _, value in collectTags(body, at: value, keys: keys, into: &tags) }
        case .array: body.forEachElement(ofArrayAt: offset) { collectTags(body, at: $0, keys: keys, into: &tags) }
        default: break
        }
    }

    // MARK: Fixed round trips

    func testNumbersKeepTheirKind() throws {
        let json = #"{"i":5,"d":5.0,"e":5e0,"big":1e300,"neg":-0.5,"small":1e-7,"min":-9223372036854775808,"max":9223372036854775807,"umax":18446744073709551615,"over":18446744073709551616,"negzero":-0.0}"#
        let value = try JSONValue(json: json)
        let expected: JSONValue = .dictionary([
            "i": .int(5), "d": .double(5), "e": .double(5), "big": .double(1e300), "neg": .double(-0.5),
            "small": .double(1e-7), "min": .int(.min), "max": .int(.max), "umax": .unsigned(.max),
            "over": .double(18446744073709551616.0), "negzero": .double(-0.0),
        ])
        XCTAssertNil(firstDifference(expected, value))
        let doc = try MutableDocument(id: "n", json: json)
        try defaultCollection.save(document: doc)
        let read = try XCTUnwrap(defaultCollection.document(id: "n"))
        XCTAssertNil(firstDifference(expected, try JSONValue(json: read.toJSON())))
        XCTAssertEqual(read.value(forKey: "i") as? Int, 5)
        XCTAssertEqual(read.value(forKey: "d") as? Double, 5.0)
        XCTAssertEqual(read.value(forKey: "umax") as? UInt64, .max)
        XCTAssertEqual(read.value(forKey: "min") as? Int, .min)
    }

    func testDuplicateKeysLastOneWins() throws {
        let value = try JSONValue(json: #"{"a":1,"long key with spaces":2,"a":3,"long key with spaces":4,"b":{"x":1,"x":[2]}}"#)
        XCTAssertEqual(value, .dictionary(["a": .int(3), "long key with spaces": .int(4), "b": .dictionary(["x": .array([.int(2)])])]))
    }

    func testNestingOfTheDeepestJSONIsStored() throws {
        let levels = JSONParser.maxDepth - 1
        let json = String(repeating: #"{"a":"#, count: levels) + #"{"leaf":true}"# + String(repeating: "}", count: levels)
        let doc = try MutableDocument(id: "deep", json: json)
        try defaultCollection.save(document: doc)
        let read = try XCTUnwrap(defaultCollection.document(id: "deep"))
        XCTAssertEqual(read.toJSON(), json)
    }

    // MARK: Body lookups

    private static let lookupJSON = #"""
        {"name":"Grand","address":{"city":"Paris","zip":"75001","geo":{"lat":48.86,"lon":2.35}},
         "tags":["a","b",{"deep":[10,20,30]}],"empty":{},"none":[],"nil":null,
         "a key longer than sixteen bytes":1,"ключ":"unicode","x.y":"dotted","":"empty key",
         "rooms":[{"n":1},{"n":2}]}
        """#

    /// The value at `path` in the body of `json`, found by `Body.offset(of:)`.
    private func lookup(_ path: String, in json: String = lookupJSON) throws -> JSONValue? {
        let keys = SharedKeys()
        var encoder = BodyEncoder(sharedKeys: keys)
        var text = json
        try text.withUTF8 { try JSONParser.encodeObject($0, into: &encoder) }
        let keyPath = try DocLite.KeyPath(parsing: path)
        keyPath.resolve(with: keys)
        return encoder.output.withUnsafeBytes { raw in
            let body = Body(raw)
            return body.offset(of: keyPath).map { JSONValue(body, at: $0, keys: keys) }
        }
    }

    func testLookupOfNestedKeys() throws {
        XCTAssertEqual(try lookup("name"), .string("Grand"))
        XCTAssertEqual(try lookup("address.city"), .string("Paris"))
        XCTAssertEqual(try lookup("address.geo.lon"), .double(2.35))
        XCTAssertEqual(try lookup("address.geo"), .dictionary(["lat": .double(48.86), "lon": .double(2.35)]))
        XCTAssertEqual(try lookup("empty"), .dictionary([:]))
        XCTAssertEqual(try lookup("nil"), .null)
        XCTAssertEqual(try lookup("a key longer than sixteen bytes"), .int(1))
        XCTAssertEqual(try lookup("ключ"), .string("unicode"))
        XCTAssertEqual(try lookup(#"x\.y"#), .string("dotted"))
        XCTAssertEqual(try lookup("rooms[1].n"), .int(2))
    }

    func testLookupOfArrayIndexes() throws {
        XCTAssertEqual(try lookup("tags[0]"), .string("a"))
        XCTAssertEqual(try lookup("tags[1]"), .string("b"))
        XCTAssertEqual(try lookup("tags[2].deep[0]"), .int(10))
        XCTAssertEqual(try lookup("tags[-1].deep[-1]"), .int(30))
        XCTAssertEqual(try lookup("tags[-3]"), .string("a"))
        XCTAssertEqual(try lookup("tags[2].deep[-3]"), .int(10))
        XCTAssertNil(try lookup("tags[3]"))
        XCTAssertNil(try lookup("tags[-4]"))
        XCTAssertNil(try lookup("none[0]"))
        XCTAssertNil(try lookup("none[-1]"))
        XCTAssertEqual(try lookup("[0]", in: "{}"), nil, "the root is not an array")
    }

    func testLookupOfMissingPaths() throws {
        XCTAssertNil(try lookup("missing"))
        XCTAssertNil(try lookup("address.missing"))
        XCTAssertNil(try lookup("address.city.more"), "a key below a string")
        XCTAssertNil(try lookup("name[0]"), "an index into a string")
        XCTAssertNil(try lookup("address[0]"), "an index into a dict")
        XCTAssertNil(try lookup("tags.a"), "a key into an array")
        XCTAssertNil(try lookup("empty.x"))
        XCTAssertNil(try lookup("nil.x"))
        XCTAssertNil(try lookup("Name"), "keys are case-sensitive")
        XCTAssertNil(try lookup("a key longer than sixteen byte"), "a prefix of a string key")
        XCTAssertNil(try lookup("a key longer than sixteen bytes!"))
    }

    /// Lookups in wide dicts: shared keys with 2-byte IDs, and a mixed dict with many string keys.
    func testLookupInWideDicts() throws {
        let shared = (0..<300).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        for i in [0, 1, 127, 255, 256, 298, 299] {
            XCTAssertEqual(try lookup("k\(i)", in: "{\(shared)}"), .int(Int64(i)), "k\(i)")
        }
        XCTAssertNil(try lookup("k300", in: "{\(shared)}"))
        let mixed = (0..<300).map { i in i % 2 == 0 ? "\"k\(i)\":\(i)" : "\"key number \(i)\":\(i)" }.joined(separator: ",")
        for i in [0, 1, 2, 99, 100, 101, 298, 299] {
            let key = i % 2 == 0 ? "k\(i)" : "key number \(i)"
            XCTAssertEqual(try lookup(key, in: "{\(mixed)}"), .int(Int64(i)), key)
        }
        XCTAssertNil(try lookup("k1", in: "{\(mixed)}"))
        XCTAssertNil(try lookup("key number 0", in: "{\(mixed)}"))
        XCTAssertNil(try lookup("key number 3000", in: "{\(mixed)}"))
    }

    // MARK: KeyPath parsing

    func testKeyPathParsing() throws {
        let path = try DocLite.KeyPath(parsing: #"a.b[2][-1].c\.d"#)
        let rendered = path.steps.map { step -> String in
            if let index = step.index { return "index \(index)" }
            return "key \(String(decoding: step.name, as: UTF8.self))"
        }
        XCTAssertEqual(rendered, ["key a", "key b", "index 2", "index -1", "key c.d"])
        XCTAssertEqual(try DocLite.KeyPath(parsing: "[0]").steps.count, 1)
    }

    func testKeyPathErrors() {
        assertThrows(.invalidQuery, containing: "empty path") { _ = try DocLite.KeyPath(parsing: "") }
        assertThrows(.invalidQuery, containing: "empty property name") { _ = try DocLite.KeyPath(parsing: "a..b") }
        assertThrows(.invalidQuery, containing: "empty property name") { _ = try DocLite.KeyPath(parsing: ".a") }
        assertThrows(.invalidQuery, containing: "empty property name") { _ = try DocLite.KeyPath(parsing: "a.") }
        assertThrows(.invalidQuery, containing: "array index must be an integer") { _ = try DocLite.KeyPath(parsing: "a[x]") }
        assertThrows(.invalidQuery, containing: "array index must be an integer") { _ = try DocLite.KeyPath(parsing: "a[]") }
        assertThrows(.invalidQuery, containing: "array index must be an integer") { _ = try DocLite.KeyPath(parsing: "a[1") }
        assertThrows(.invalidQuery, containing: "expected '.' or '['") { _ = try DocLite.KeyPath(parsing: "a[1]b") }
        assertThrows(.invalidQuery, containing: "trailing backslash") { _ = try DocLite.KeyPath(parsing: #"a\"#) }
        assertThrows(.invalidQuery, containing: "'a..b'") { _ = try DocLite.KeyPath(parsing: "a..b") }
    }
}

// MARK: - Random JSON

/// Generates random JSON values and serializes them with random (valid) formatting.
struct RandomJSON {
    /// Draws for values; serializing swaps in `formatRNG`, so that values do not
    /// depend on formatting. Nothing depends on hashing order: runs reproduce.
    private var rng: SeededRandom
    private var formatRNG: SeededRandom
    var coverage = Coverage()
    private var nextKeyNumber = 0

    init(seed: UInt64) {
        rng = SeededRandom(seed: seed)
        formatRNG = SeededRandom(seed: ~seed)
    }

    /// What the generated values contained, so a test can check it covered the interesting cases.
    struct Coverage {
        var maxDepth = 0, wideDicts = 0, wideArrays = 0, longStrings = 0, hugeStrings = 0
        var nulCharacters = 0, astralCharacters = 0, unsigned = 0, int64Extremes = 0
        var longKeys = 0, unicodeKeys = 0, emptyContainers = 0, integralDoubles = 0

        func assertComplete(file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(maxDepth, 5, "depth", file: file, line: line)
            for (name, count) in [("wide dicts", wideDicts), ("wide arrays", wideArrays), ("long strings", longStrings),
                                  ("huge strings", hugeStrings), ("NUL characters", nulCharacters),
                                  ("astral characters", astralCharacters), ("unsigned", unsigned),
                                  ("Int64 extremes", int64Extremes), ("long keys", longKeys),
                                  ("unicode keys", unicodeKeys), ("empty containers", emptyContainers),
                                  ("integral doubles", integralDoubles)] {
                XCTAssertGreaterThanOrEqual(count, 2, "too few \(name) generated", file: file, line: line)
            }
        }
    }

    private mutating func roll(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }
    private mutating func chance(_ percent: Double) -> Bool { Double.random(in: 0..<100, using: &rng) < percent }

    /// Any JSON value; containers nest up to depth 5.
    mutating func value(depth: Int) -> JSONValue {
        coverage.maxDepth = max(coverage.maxDepth, depth)
        if depth < 5 && roll(100) < 45 - 7 * depth {
            return roll(2) == 0 ? object(depth: depth) : array(depth: depth)
        }
        return scalar()
    }

    /// A top-level document body: an object without the reserved keys.
    mutating func documentBody() -> JSONValue {
        guard case .dictionary(var members) = object(depth: 0, wideChance: 0.5) else { fatalError() }
        for reserved in JSONValidator.reservedKeys { members[ByteString(reserved)] = nil }
        if chance(0.3) {
            // A dict larger than 65535 bytes whose keys are all shared: the 4-byte-wide shared-key form.
            coverage.hugeStrings += 1
            members["blob"] = .dictionary(["payload": .string(string(length: 65_536 + roll(100))), "n": integer()])
        }
        return .dictionary(members)
    }

    /// An object; a wide one (more than 255 members) has scalar values and keys
    /// `w0`, `w1`, … (all shared, so 2-byte key IDs appear), half the time mixed with other keys.
    private mutating func object(depth: Int, wideChance: Double = 0.2) -> JSONValue {
        var members: [ByteString: JSONValue] = [:]
        if chance(wideChance) {
            let mixKeys = roll(2) == 0
            for i in 0..<(256 + roll(200)) { members[ByteString(mixKeys && roll(3) == 0 ? key() : "w\(i)")] = scalar() }
        } else {
            for _ in 0..<roll(8) { members[ByteString(key())] = value(depth: depth + 1) }
        }
        if members.count > 255 { coverage.wideDicts += 1 }
        if members.isEmpty { coverage.emptyContainers += 1 }
        return .dictionary(members)
    }

    private mutating func array(depth: Int) -> JSONValue {
        let wide = chance(0.2)
        let count = wide ? 256 + roll(400) : roll(8)
        if wide { coverage.wideArrays += 1 }
        if count == 0 { coverage.emptyContainers += 1 }
        return .array((0..<count).map { _ in wide ? scalar() : value(depth: depth + 1) })
    }

    private mutating func scalar() -> JSONValue {
        switch roll(12) {
        case 0: return .null
        case 1: return .bool(roll(2) == 0)
        case 2, 3, 4: return integer()
        case 5, 6, 7: return double()
        default: return .string(string())
        }
    }

    private static let specialIntegers: [Int64] = [
        0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536,
        Int64(Int32.max), Int64(Int32.max) + 1, Int64(Int32.min), Int64(Int32.min) - 1,
        Int64.max, Int64.min, Int64.max - 1, Int64.min + 1,
    ]

    private mutating func integer() -> JSONValue {
        switch roll(8) {
        case 0:
            let value = Self.specialIntegers.randomElement(using: &rng)!
            if value == .max || value == .min { coverage.int64Extremes += 1 }
            return .int(value)
        case 1:
            coverage.unsigned += 1
            let values: [UInt64] = [.max, UInt64(Int64.max) + 1, .random(in: UInt64(Int64.max) + 1 ... .max, using: &rng)]
            return .unsigned(values.randomElement(using: &rng)!)
        case 2:
            return .int(.random(in: .min ... .max, using: &rng))
        default:
            let bits = Int64(roll(62) + 1)
            return .int(.random(in: -(1 << bits) ... (1 << bits) - 1, using: &rng))
        }
    }

    private static let specialDoubles: [Double] = [
        5.0, 1e300, -0.5, 1e-7, 0.0, -0.0, 0.1, -5.0, 1.5, 1e16, 1e21, 1e-300, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude,
        9007199254740991, 9.223372036854776e18, 18446744073709551616.0, 123456789.0, 2.5e-8,
    ]

    private mutating func double() -> JSONValue {
        let value: Double
        switch roll(6) {
        case 0, 1: value = Self.specialDoubles.randomElement(using: &rng)!
        case 2:
            var bits = Double(bitPattern: rng.next())
            while !bits.isFinite { bits = Double(bitPattern: rng.next()) }
            value = bits
        case 3: value = Double(roll(20001) - 10000)
        default: value = .random(in: -1e6...1e6, using: &rng)
        }
        if value == value.rounded() { coverage.integralDoubles += 1 }
        return .double(value)
    }

    private mutating func string() -> String {
        let length: Int
        let r = roll(10_000)
        if r < 400 {
            length = 0
        } else if r < 403 {
            length = 65_536 + roll(5_000)   // at least 65536 bytes: some of them need a 4-byte container
            coverage.hugeStrings += 1
        } else if r < 500 {
            length = 256 + roll(500)
            coverage.longStrings += 1
        } else {
            length = 1 + roll(r < 3_000 ? 100 : 16)
        }
        return string(length: length)
    }

    private mutating func string(length: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length { scalars.append(character()) }
        return String(scalars)
    }

    /// A Unicode scalar: mostly ASCII, sometimes characters that need escaping, NUL, 2-, 3- and 4-byte UTF-8.
    private mutating func character() -> Unicode.Scalar {
        switch roll(100) {
        case 0..<55: return Unicode.Scalar(UInt8(0x20 + roll(0x5F)))
        case 55..<62: return ["\"", "\\", "/"].randomElement(using: &rng)!
        case 62..<68:
            let byte = UInt8(roll(0x20))
            if byte == 0 { coverage.nulCharacters += 1 }
            return Unicode.Scalar(byte)
        case 68..<70:
            coverage.nulCharacters += 1
            return "\u{0}"
        case 70..<80: return Unicode.Scalar(UInt32(0x80 + roll(0x780)))!
        case 80..<90:
            var value = UInt32(0x800 + roll(0x10000 - 0x800))
            if (0xD800...0xDFFF).contains(value) { value = 0x4E2D }
            return Unicode.Scalar(value)!
        default:
            coverage.astralCharacters += 1
            return Unicode.Scalar(UInt32(0x10000 + roll(0x100000)))!
        }
    }

    private static let commonKeys = ["name", "type", "a", "b", "id2", "x-y", "A_B-9", "_x", "_attachments",
                                     "abcdefghijklmnop", "value", "tags", "count"]
    private static let oddKeys = ["with space", "ключ", "😀", "a.b", "", "a\u{0}b", "quote\"key", "tab\tkey",
                                  "abcdefghijklmnopq", "é", "e\u{301}x", "[0]"]

    /// A key: eligible for sharing (many distinct ones, to fill the table) or not.
    private mutating func key() -> String {
        switch roll(10) {
        case 0..<4:
            // Distinct eligible keys, more and more of them over the run.
            nextKeyNumber += 1
            return "k\(roll(nextKeyNumber / 2 + 10))"
        case 4..<7:
            return Self.commonKeys.randomElement(using: &rng)!
        case 7:
            coverage.longKeys += 1
            let letters = Array("abcdefghijklmnopqrstuvwxyz_-0123456789")
            return String((0..<(17 + roll(30))).map { _ in letters.randomElement(using: &rng)! })
        case 8:
            coverage.unicodeKeys += 1
            return Self.oddKeys.randomElement(using: &rng)!
        default:
            coverage.unicodeKeys += 1
            var scalars = String.UnicodeScalarView()
            for _ in 0..<(1 + roll(20)) { scalars.append(character()) }
            return String(scalars)
        }
    }

    // MARK: Serializing

    /// `value` as JSON text with random whitespace, escapes and number spellings.
    mutating func serialize(_ value: JSONValue) -> String {
        swap(&rng, &formatRNG)
        defer { swap(&rng, &formatRNG) }
        var out: [UInt8] = []
        write(value, to: &out)
        whitespace(&out)
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func whitespace(_ out: inout [UInt8]) {
        guard chance(8) else { return }
        for _ in 0..<(1 + roll(3)) { out.append([0x20, 0x0A, 0x0D, 0x09][roll(4)]) }
    }

    private mutating func write(_ value: JSONValue, to out: inout [UInt8]) {
        whitespace(&out)
        switch value {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .int(let i): out += String(i).utf8
        case .unsigned(let u): out += String(u).utf8
        case .double(let d): out += spell(d).utf8
        case .string(let s): writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { whitespace(&out); out.append(UInt8(ascii: ",")) }
                write(item, to: &out)
                whitespace(&out)
            }
            if items.isEmpty { whitespace(&out) }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let members):
            out.append(UInt8(ascii: "{"))
            // In a random order, independent of hashing.
            let keys = members.keys.sorted().shuffled(using: &rng)
            for (i, key) in keys.enumerated() {
                let member = members[key]!
                if i > 0 { out.append(UInt8(ascii: ",")) }
                whitespace(&out)
                writeString(key.string, to: &out)
                whitespace(&out)
                out.append(UInt8(ascii: ":"))
                write(member, to: &out)
                whitespace(&out)
            }
            if members.isEmpty { whitespace(&out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A spelling of `d` that reads back exactly as a double.
    private mutating func spell(_ d: Double) -> String {
        var text = d.description
        if d != 0, d == d.rounded(), abs(d) < 1e15, chance(30) {
            return roll(2) == 0 ? "\(Int64(d))e0" : "\(Int64(d)).000"
        }
        if chance(30) {
            text = text.replacingOccurrences(of: "e+", with: roll(2) == 0 ? "E" : "e")
        }
        return text
    }

    private mutating func writeString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let escapeAll = chance(5)
        for scalar in string.unicodeScalars {
            let value = scalar.value
            switch scalar {
            case "\"": out += #"\""#.utf8
            case "\\": out += #"\\"#.utf8
            case "/" where chance(50): out += #"\/"#.utf8
            case "\u{8}" where chance(50): out += #"\b"#.utf8
            case "\u{C}" where chance(50): out += #"\f"#.utf8
            case "\n" where chance(50): out += #"\n"#.utf8
            case "\r" where chance(50): out += #"\r"#.utf8
            case "\t" where chance(50): out += #"\t"#.utf8
            default:
                if value < 0x20 || escapeAll || chance(3) {
                    if value > 0xFFFF {
                        let v = value - 0x10000
                        out += hex4(0xD800 + (v >> 10)).utf8
                        out += hex4(0xDC00 + (v & 0x3FF)).utf8
                    } else {
                        out += hex4(value).utf8
                    }
                } else {
                    out += String(scalar).utf8
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private mutating func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: roll(2) == 0)
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
