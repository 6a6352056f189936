/// Builds a ``JSONValue`` tree from the JSON parser's events, for
/// `JSONValue(json:)`: one pass, no intermediate body or key table (measured
/// with callgrind on `doclite import`: half the instructions of encoding a body
/// and decoding it). The members of the open containers wait on one flat
/// stack, and each container is built once, when it closes.
struct JSONTreeBuilder: JSONSink {
    /// The finished values inside the open containers, in order, with their keys ("" in an array).
    private var values: [JSONValue] = []
    private var keys: [ByteString] = []
    /// Where each open container's values start in `values`, and the key it will be stored under.
    private var open: [(start: Int, key: String)] = []
    private var key = ""
    /// The finished top-level value.
    private(set) var value: JSONValue = .null

    mutating func writeNull() { add(.null) }
    mutating func writeBool(_ value: Bool) { add(.bool(value)) }
    mutating func writeInt(_ value: Int64) { add(.int(value)) }
    /// Values that fit `Int64` are integers, as a body stores them.
    mutating func writeUnsigned(_ value: UInt64) { add(Int64(exactly: value).map { .int($0) } ?? .unsigned(value)) }
    mutating func writeDouble(_ value: Double) { add(.double(value)) }
    mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>) { add(.string(String(decoding: utf8, as: UTF8.self))) }
    mutating func writeKey(_ utf8: UnsafeBufferPointer<UInt8>) { key = String(decoding: utf8, as: UTF8.self) }

    mutating func beginDict() { begin() }
    mutating func beginArray() { begin() }

    mutating func endDict() {
        let start = end()
        var members: [ByteString: JSONValue] = [:]
        for i in start..<values.count { members[keys[i]] = values[i] }   // a repeated key: the last wins
        finish(.dictionary(members), from: start)
    }

    mutating func endArray() {
        let start = end()
        finish(.array(Array(values[start...])), from: start)
    }

    private mutating func begin() {
        open.append((values.count, key))
        key = ""
    }

    /// Closes the innermost container: where its values start; its own key becomes current again.
    private mutating func end() -> Int {
        let (start, containerKey) = open.removeLast()
        key = containerKey
        return start
    }

    private mutating func finish(_ container: JSONValue, from start: Int) {
        values.removeSubrange(start...)
        keys.removeSubrange(start...)
        add(container)
    }

    private mutating func add(_ item: JSONValue) {
        guard !open.isEmpty else { value = item; return }
        values.append(item)
        keys.append(ByteString(key))
    }
}
