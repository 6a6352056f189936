/// Writes values in the body format (``BodyTag``), streaming: containers are opened,
/// filled and closed, and each close writes the container's header in front of
/// its values. Used by the JSON parser and by ``MutableDocument``.
package struct BodyEncoder: JSONSink {
    package private(set) var output: [UInt8] = []
    let sharedKeys: SharedKeys

    private struct Member {
        var keyID: Int32          // shared key ID, or -1 for a string key
        var keyStart: Int32       // string key: range in `keyBytes`
        var keyCount: Int32
        var valueStart: Int32     // range in `output`
        var valueEnd: Int32
    }

    private struct Frame {
        var start: Int
        var firstMember: Int      // dict: index into `members`; array: into `elements`
        var isDict: Bool
    }

    private var frames: [Frame] = []
    private var members: [Member] = []
    private var elements: [Int32] = []   // array element starts
    private var keyBytes: [UInt8] = []
    private var pendingKey: (id: Int32, start: Int32, count: Int32)?
    /// Scratch space for a container header.
    private var header: [UInt8] = []

    /// Whether new keys get shared IDs; when false (values built by queries,
    /// outside any transaction) only existing IDs are used.
    let assignsNewKeys: Bool
    /// Whether a dictionary of the output has the key `@type`, so that it may
    /// hold a blob's metadata (which a save checks against the blob store).
    package private(set) var mayHoldBlobMetadata = false
    /// The dictionary key that marks a blob's metadata (`"@type": "blob"`).
    static let blobTypeKey = "@type"

    package init(sharedKeys: SharedKeys, assignsNewKeys: Bool = true) {
        self.assignsNewKeys = assignsNewKeys
        self.sharedKeys = sharedKeys
        output.reserveCapacity(256)
    }

    /// Clears the output for another document, keeping buffers.
    mutating func reset() {
        output.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        elements.removeAll(keepingCapacity: true)
        keyBytes.removeAll(keepingCapacity: true)
        pendingKey = nil
        mayHoldBlobMetadata = false
    }

    // MARK: Scalars

    mutating func writeNull() { beginValue(); output.append(BodyTag.null) }

    mutating func writeBool(_ value: Bool) { beginValue(); output.append(value ? BodyTag.true : BodyTag.false) }

    mutating func writeInt(_ value: Int64) {
        beginValue()
        if let v = Int8(exactly: value) {
            output.append(BodyTag.int8); append(UInt8(bitPattern: v))
        } else if let v = Int16(exactly: value) {
            output.append(BodyTag.int16); appendLittleEndian(UInt16(bitPattern: v))
        } else if let v = Int32(exactly: value) {
            output.append(BodyTag.int32); appendLittleEndian(UInt32(bitPattern: v))
        } else {
            output.append(BodyTag.int64); appendLittleEndian(UInt64(bitPattern: value))
        }
    }

    mutating func writeUnsigned(_ value: UInt64) {
        if let signed = Int64(exactly: value) { writeInt(signed); return }
        beginValue()
        output.append(BodyTag.uint64); appendLittleEndian(value)
    }

    mutating func writeDouble(_ value: Double) {
        beginValue()
        output.append(BodyTag.double); appendLittleEndian(value.bitPattern)
    }

    mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>) {
        beginValue()
        appendString(utf8, to: &output)
    }

    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { writeString($0) }
    }

    /// Copies an already-encoded value (for example a nested container read from a body).
    mutating func writeEncoded(_ bytes: UnsafeRawBufferPointer) {
        beginValue()
        output.append(contentsOf: bytes)
    }

    /// Copies the value at `offset` of `body`, whose keys come from `keys`,
    /// re-mapping its dictionary keys to this encoder's table.
    package mutating func writeValue(from body: Body, at offset: Int, keys: SharedKeys) {
        switch body.wholeType(at: offset) {
        case .dictionary:
            beginDict()
            body.forEachMember(ofDictAt: offset, keys: keys) { key, value in
                // A damaged body's key may not be UTF-8: written as the tree reader reads it,
                // so that keys it reads as one are one here too.
                writeKey(String(decoding: key, as: UTF8.self))
                writeValue(from: body, at: value, keys: keys)
            }
            endDict()
        case .array:
            beginArray()
            body.forEachElement(ofArrayAt: offset) { writeValue(from: body, at: $0, keys: keys) }
            endArray()
        default:
            if let encoded = body.encoded(at: offset) { writeEncoded(encoded) } else { writeNull() }   // corrupt: null
        }
    }

    // MARK: Containers

    mutating func beginDict() {
        beginValue()
        frames.append(Frame(start: output.count, firstMember: members.count, isDict: true))
    }

    /// Sets the key of the next value written into the innermost dict.
    mutating func writeKey(_ utf8: UnsafeBufferPointer<UInt8>) {
        if utf8.count == 5, utf8.first == UInt8(ascii: "@"), utf8.elementsEqual(Self.blobTypeKey.utf8) { mayHoldBlobMetadata = true }
        if let id = assignsNewKeys ? sharedKeys.idOrAssign(utf8) : sharedKeys.id(of: utf8) {
            pendingKey = (Int32(id), 0, 0)
        } else {
            let start = keyBytes.count
            keyBytes.append(contentsOf: utf8)
            pendingKey = (-1, Int32(start), Int32(utf8.count))
        }
    }

    mutating func writeKey(_ key: String) {
        var key = key
        key.withUTF8 { writeKey($0) }
    }

    mutating func endDict() {
        closeLastValue()
        let frame = frames.removeLast()
        if isSortedAndUnique(members[frame.firstMember...]) {
            writeSharedDict(members[frame.firstMember...], frame: frame)
        } else {
            let sorted = sortedKeepingLast(members[frame.firstMember...])
            if sorted.last.map({ $0.keyID < 0 }) ?? false {
                writeMixedDict(sorted, frame: frame)
            } else {
                writeSharedDict(sorted[...], frame: frame)
            }
        }
        members.removeSubrange(frame.firstMember...)
    }

    mutating func beginArray() {
        beginValue()
        frames.append(Frame(start: output.count, firstMember: elements.count, isDict: false))
    }

    mutating func endArray() {
        let frame = frames.removeLast()
        let count = elements.count - frame.firstMember
        let valuesSize = output.count - frame.start
        let width = Self.width(forHeaderEntries: count, valuesSize: valuesSize, maxEntry: 0)
        let headerSize = 1 + width * (2 + count)
        header.removeAll(keepingCapacity: true)
        header.append(width == 1 ? BodyTag.array1 : width == 2 ? BodyTag.array2 : BodyTag.array4)
        Self.appendUInt(headerSize + valuesSize, width: width, to: &header)
        Self.appendUInt(count, width: width, to: &header)
        for start in elements[frame.firstMember...] {
            Self.appendUInt(headerSize + Int(start) - frame.start, width: width, to: &header)
        }
        elements.removeSubrange(frame.firstMember...)
        output.insert(contentsOf: header, at: frame.start)
    }

    // MARK: Internals

    /// Records where a value starts inside the innermost container.
    private mutating func beginValue() {
        guard let frame = frames.last else { return }
        if frame.isDict {
            closeLastValue()
            let key = pendingKey ?? (-1, 0, 0)
            pendingKey = nil
            members.append(Member(keyID: key.id, keyStart: key.start, keyCount: key.count,
                                  valueStart: Int32(output.count), valueEnd: -1))
        } else {
            elements.append(Int32(output.count))
        }
    }

    /// Sets the end of the innermost dict's last member, if still open.
    private mutating func closeLastValue() {
        guard let frame = frames.last, frame.isDict, members.count > frame.firstMember,
              members[members.count - 1].valueEnd < 0 else { return }
        members[members.count - 1].valueEnd = Int32(output.count)
    }

    /// True when every key is shared and the IDs ascend (the usual case: keys in first-seen order).
    private func isSortedAndUnique(_ list: ArraySlice<Member>) -> Bool {
        var previous: Int32 = -1
        for member in list {
            if member.keyID <= previous { return false }
            previous = member.keyID
        }
        return true
    }

    /// Members sorted by key (shared IDs first), keeping only the last of duplicate keys.
    private func sortedKeepingLast(_ list: ArraySlice<Member>) -> [Member] {
        let indexed = list.enumerated().sorted { a, b in
            let order = compareKeys(a.element, b.element)
            return order != 0 ? order < 0 : a.offset < b.offset
        }
        var result: [Member] = []
        result.reserveCapacity(list.count)
        for (_, member) in indexed {
            if let last = result.last, compareKeys(last, member) == 0 {
                result[result.count - 1] = member
            } else {
                result.append(member)
            }
        }
        return result
    }

    private func compareKeys(_ a: Member, _ b: Member) -> Int {
        if a.keyID >= 0 || b.keyID >= 0 {
            if a.keyID >= 0 && b.keyID >= 0 { return Int(a.keyID) - Int(b.keyID) }
            return a.keyID >= 0 ? -1 : 1
        }
        return keyBytes.withUnsafeBufferPointer { bytes in
            let ka = UnsafeBufferPointer(rebasing: bytes[Int(a.keyStart)..<Int(a.keyStart + a.keyCount)])
            let kb = UnsafeBufferPointer(rebasing: bytes[Int(b.keyStart)..<Int(b.keyStart + b.keyCount)])
            return Self.compareBytes(ka, kb)
        }
    }

    static func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(a.count, b.count)
        if n > 0 {
            let c = memcmp(a.baseAddress!, b.baseAddress!, n)
            if c != 0 { return Int(c) }
        }
        return a.count - b.count
    }

    /// Whether the members' values lie in `output` in member order with nothing between.
    private func valuesAreInPlace(_ list: ArraySlice<Member>, from start: Int) -> Bool {
        var expected = Int32(start)
        for member in list {
            if member.valueStart != expected { return false }
            expected = member.valueEnd
        }
        return Int(expected) == output.count
    }

    private mutating func writeSharedDict(_ list: ArraySlice<Member>, frame: Frame) {
        let count = list.count
        let valuesSize = list.reduce(0) { $0 + Int($1.valueEnd - $1.valueStart) }
        let maxID = Int(list.last?.keyID ?? 0)
        let width = Self.width(forHeaderEntries: 2 * count, valuesSize: valuesSize, maxEntry: maxID)
        let headerSize = 1 + width * (2 + 2 * count)
        header.removeAll(keepingCapacity: true)
        header.append(width == 1 ? BodyTag.dict1 : width == 2 ? BodyTag.dict2 : BodyTag.dict4)
        Self.appendUInt(headerSize + valuesSize, width: width, to: &header)
        Self.appendUInt(count, width: width, to: &header)
        for member in list { Self.appendUInt(Int(member.keyID), width: width, to: &header) }
        var offset = headerSize
        for member in list {
            Self.appendUInt(offset, width: width, to: &header)
            offset += Int(member.valueEnd - member.valueStart)
        }
        if valuesAreInPlace(list, from: frame.start) {
            output.insert(contentsOf: header, at: frame.start)
        } else {
            for member in list { header.append(contentsOf: output[Int(member.valueStart)..<Int(member.valueEnd)]) }
            output.replaceSubrange(frame.start..., with: header)
        }
    }

    private mutating func writeMixedDict(_ list: [Member], frame: Frame) {
        let count = list.count
        let headerSize = 1 + 4 * (2 + 2 * count)
        var values: [UInt8] = []
        var valueOffsets: [Int] = []
        var keyOffsets: [Int] = []
        for member in list {
            valueOffsets.append(headerSize + values.count)
            values.append(contentsOf: output[Int(member.valueStart)..<Int(member.valueEnd)])
        }
        for member in list where member.keyID < 0 {
            keyOffsets.append(headerSize + values.count)
            keyBytes.withUnsafeBufferPointer { bytes in
                appendString(UnsafeBufferPointer(rebasing: bytes[Int(member.keyStart)..<Int(member.keyStart + member.keyCount)]), to: &values)
            }
        }
        var header: [UInt8] = [BodyTag.mixedDict]
        header.reserveCapacity(headerSize + values.count)
        Self.appendUInt(headerSize + values.count, width: 4, to: &header)
        Self.appendUInt(count, width: 4, to: &header)
        var nextKeyOffset = keyOffsets.makeIterator()
        for member in list {
            let entry = member.keyID >= 0 ? UInt32(member.keyID) : BodyTag.stringKeyFlag | UInt32(nextKeyOffset.next()!)
            Self.appendUInt(Int(entry), width: 4, to: &header)
        }
        for offset in valueOffsets { Self.appendUInt(offset, width: 4, to: &header) }
        header.append(contentsOf: values)
        output.replaceSubrange(frame.start..., with: header)
    }

    /// The narrowest width whose range holds the container's size and entries.
    private static func width(forHeaderEntries entries: Int, valuesSize: Int, maxEntry: Int) -> Int {
        for width in [1, 2] {
            let limit = 1 << (8 * width)
            if 1 + width * (2 + entries) + valuesSize < limit && maxEntry < limit { return width }
        }
        return 4
    }

    private static func appendUInt(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var v = UInt32(truncatingIfNeeded: value)
        for _ in 0..<width {
            bytes.append(UInt8(truncatingIfNeeded: v))
            v >>= 8
        }
    }

    private mutating func append(_ byte: UInt8) { output.append(byte) }

    private mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { output.append(contentsOf: $0) }
    }

    private func appendString(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        if utf8.count <= BodyTag.tinyStringMaxLength {
            bytes.append(BodyTag.tinyString + UInt8(utf8.count))
        } else if utf8.count <= 0xFF {
            bytes.append(BodyTag.shortString)
            bytes.append(UInt8(utf8.count))
        } else {
            bytes.append(BodyTag.longString)
            withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: utf8)
    }
}

#if canImport(Glibc)
import Glibc
#endif
