/// A ``JSONSink`` that passes everything to `base` except one top-level
/// member: an imported document's ID field, which is the document's ID and
/// not one of its properties.
struct OmittingSink<Base: JSONSink>: JSONSink {
    var base: Base
    /// The top-level key left out.
    let key: [UInt8]
    private var depth = 0
    /// Containers open inside the member being left out; -1 while not in one.
    private var skipped = -1

    init(_ base: Base, omitting key: String) {
        self.base = base
        self.key = Array(key.utf8)
    }

    /// Whether the current value is left out (and, for a scalar, the member ends with it).
    private mutating func skipsScalar() -> Bool {
        guard skipped >= 0 else { return false }
        if skipped == 0 { skipped = -1 }
        return true
    }

    mutating func writeNull() { if !skipsScalar() { base.writeNull() } }
    mutating func writeBool(_ value: Bool) { if !skipsScalar() { base.writeBool(value) } }
    mutating func writeInt(_ value: Int64) { if !skipsScalar() { base.writeInt(value) } }
    mutating func writeUnsigned(_ value: UInt64) { if !skipsScalar() { base.writeUnsigned(value) } }
    mutating func writeDouble(_ value: Double) { if !skipsScalar() { base.writeDouble(value) } }
    mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>) { if !skipsScalar() { base.writeString(utf8) } }

    mutating func writeKey(_ utf8: UnsafeBufferPointer<UInt8>) {
        if skipped >= 0 { return }
        if depth == 1 && utf8.elementsEqual(key) { skipped = 0; return }
        base.writeKey(utf8)
    }

    mutating func beginDict() { begin(); if skipped < 0 { base.beginDict() } }
    mutating func beginArray() { begin(); if skipped < 0 { base.beginArray() } }
    mutating func endDict() { if end() { base.endDict() } }
    mutating func endArray() { if end() { base.endArray() } }

    private mutating func begin() {
        depth += 1
        if skipped >= 0 { skipped += 1 }
    }

    /// Whether the end is passed on (false inside the member left out).
    private mutating func end() -> Bool {
        depth -= 1
        guard skipped >= 0 else { return true }
        skipped -= 1
        if skipped == 0 { skipped = -1 }
        return false
    }
}
