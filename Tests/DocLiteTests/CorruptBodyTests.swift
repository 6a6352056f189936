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
        var generator = SeededGenerator(seed: 7)
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
