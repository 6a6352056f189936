/// Writes JSON text: encoded body values straight to UTF-8, and escaped strings.
package enum JSONWriter {
    /// Appends the JSON text of the body value at `offset` to `out`.
    package static func append(_ body: Body, at offset: Int, keys: SharedKeys, to out: inout [UInt8]) {
        guard let type = body.wholeType(at: offset) else { out.append(contentsOf: "null".utf8); return }   // corrupt
        switch type {
        case .null: out.append(contentsOf: "null".utf8)
        case .boolean: out.append(contentsOf: (body.tag(at: offset) == BodyTag.true ? "true" : "false").utf8)
        case .integer: out.append(contentsOf: String(body.int64(at: offset) ?? 0).utf8)
        case .unsigned: out.append(contentsOf: String(body.uint64(at: offset) ?? 0).utf8)
        case .double: appendDouble(body.double(at: offset) ?? 0, to: &out)
        case .string:
            appendString(body.string(at: offset)!.assumingMemoryBound(to: UInt8.self), to: &out)
        case .array:
            out.append(UInt8(ascii: "["))
            var first = true
            body.forEachElement(ofArrayAt: offset) { element in
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                append(body, at: element, keys: keys, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary:
            out.append(UInt8(ascii: "{"))
            var first = true
            body.forEachMember(ofDictAt: offset, keys: keys) { key, value in
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                append(body, at: value, keys: keys, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A double in the shortest form that reads back exactly, always with a '.' or exponent.
    static func appendDouble(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { out.append(contentsOf: "null".utf8); return }
        out.append(contentsOf: value.description.utf8)
    }

    /// Appends `utf8` as a quoted JSON string.
    static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func appendString(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { appendString($0, to: &out) }
    }
}
