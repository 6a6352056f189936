/// Builds a ``JSONValue`` tree from the JSON parser's events, for
/// `JSONValue(json:)`: one pass, no intermediate body or key table (measured
/// with callgrind on `doclite import`: half the instructions of encoding a body
/// and decoding it).
struct JSONTreeBuilder: JSONSink {
    private enum Container {
        case array([JSONValue])
        case dictionary([String: JSONValue], key: String)
    }

    private var open: [Container] = []
    /// The finished top-level value.
    private(set) var value: JSONValue = .null

    mutating func writeNull() { add(.null) }
    mutating func writeBool(_ value: Bool) { add(.bool(value)) }
    mutating func writeInt(_ value: Int64) { add(.int(value)) }
    /// Values that fit `Int64` are integers, as a body stores them.
    mutating func writeUnsigned(_ value: UInt64) { add(Int64(exactly: value).map { .int($0) } ?? .unsigned(value)) }
    mutating func writeDouble(_ value: Double) { add(.double(value)) }
    mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>) { add(.string(String(decoding: utf8, as: UTF8.self))) }

    mutating func writeKey(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard case .dictionary(let members, _)? = open.popLast() else { return }
        open.append(.dictionary(members, key: String(decoding: utf8, as: UTF8.self)))
    }

    mutating func beginDict() { open.append(.dictionary([:], key: "")) }
    mutating func beginArray() { open.append(.array([])) }

    mutating func endDict() {
        guard case .dictionary(let members, _)? = open.popLast() else { return }
        add(.dictionary(members))
    }

    mutating func endArray() {
        guard case .array(let items)? = open.popLast() else { return }
        add(.array(items))
    }

    /// Adds a finished value to the innermost container (a repeated key: the last wins).
    private mutating func add(_ item: JSONValue) {
        switch open.popLast() {
        case nil:
            value = item
        case .array(var items)?:
            items.append(item)
            open.append(.array(items))
        case .dictionary(var members, let key)?:
            members[key] = item
            open.append(.dictionary(members, key: key))
        }
    }
}
