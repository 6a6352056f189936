/// What the JSON parser reports its values to: ``BodyEncoder`` writes the body
/// format; ``JSONValidator`` only checks.
protocol JSONSink {
    mutating func writeNull()
    mutating func writeBool(_ value: Bool)
    mutating func writeInt(_ value: Int64)
    mutating func writeUnsigned(_ value: UInt64)
    mutating func writeDouble(_ value: Double)
    mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>)
    mutating func writeKey(_ utf8: UnsafeBufferPointer<UInt8>)
    mutating func beginDict()
    mutating func endDict()
    mutating func beginArray()
    mutating func endArray()
}
