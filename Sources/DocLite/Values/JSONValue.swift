/// A JSON value as a Swift tree: what mutable documents, arrays and
/// dictionaries hold before they are encoded. Keys and strings are byte
/// strings, as in JSON and the stored body: `"é"` and `"e\u{301}"` are two
/// keys and two values (Swift's `String ==` would call them one).
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case dictionary([ByteString: JSONValue])

    /// Decodes the body value at `offset`. The caller holds `keys.lock` or the database lock.
    package init(_ body: Body, at offset: Int, keys: SharedKeys) {
        switch body.wholeType(at: offset) {
        case .null, nil: self = .null
        case .boolean: self = .bool(body.tag(at: offset) == BodyTag.true)
        case .integer: self = .int(body.int64(at: offset) ?? 0)
        case .unsigned: self = .unsigned(body.uint64(at: offset) ?? 0)
        case .double: self = .double(body.double(at: offset) ?? 0)
        case .string: self = .string(String(decoding: body.string(at: offset) ?? UnsafeRawBufferPointer(start: nil, count: 0), as: UTF8.self))
        case .array:
            var items: [JSONValue] = []
            body.forEachElement(ofArrayAt: offset) { items.append(JSONValue(body, at: $0, keys: keys)) }
            self = .array(items)
        case .dictionary:
            var members: [ByteString: JSONValue] = [:]
            body.forEachMember(ofDictAt: offset, keys: keys) { key, value in
                members[ByteString(String(decoding: key, as: UTF8.self))] = JSONValue(body, at: value, keys: keys)
            }
            self = .dictionary(members)
        }
    }

    /// Writes this value with `encoder`. Dictionary keys are written in sorted
    /// order so that the output does not depend on hashing.
    package func encode(into encoder: inout BodyEncoder) {
        switch self {
        case .null: encoder.writeNull()
        case .bool(let b): encoder.writeBool(b)
        case .int(let i): encoder.writeInt(i)
        case .unsigned(let u): encoder.writeUnsigned(u)
        case .double(let d): encoder.writeDouble(d)
        case .string(let s): encoder.writeString(s)
        case .array(let items):
            encoder.beginArray()
            for item in items { item.encode(into: &encoder) }
            encoder.endArray()
        case .dictionary(let members):
            encoder.beginDict()
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                encoder.writeKey(key.string)
                value.encode(into: &encoder)
            }
            encoder.endDict()
        }
    }

    /// Parses JSON text into a tree (by the document parser, so the rules are the same).
    package init(json: String) throws {
        var builder = JSONTreeBuilder()
        var text = json
        try text.withUTF8 { try JSONParser.encodeValue($0, into: &builder) }
        self = builder.value
    }

    /// The JSON text of this value; dictionary keys sorted.
    package var json: String {
        var out: [UInt8] = []
        appendJSON(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the JSON text of this value (dictionary keys sorted) to `out`.
    package func appendJSON(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .unsigned(let u): out.append(contentsOf: String(u).utf8)
        case .double(let d): JSONWriter.appendDouble(d, to: &out)
        case .string(let s): JSONWriter.appendString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.appendJSON(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(key.string, to: &out)
                out.append(UInt8(ascii: ":"))
                value.appendJSON(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Equal as JSON: strings (and keys) byte for byte, numbers by type and value.
    package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.unsigned(let x), .unsigned(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.array(let x), .array(let y)): return x == y
        case (.dictionary(let x), .dictionary(let y)): return x == y
        default: return false
        }
    }
}
