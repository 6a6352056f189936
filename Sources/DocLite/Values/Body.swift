/// A read-only view of an encoded body (or any encoded value), bounds-checked:
/// a malformed encoding reads as "absent", never out of bounds. Values are
/// addressed by their byte offset; offset 0 is the root.
package struct Body {
    let bytes: UnsafeRawBufferPointer

    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    // MARK: Reading scalars

    @inline(__always)
    func tag(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    func type(at offset: Int) -> BodyValueType? {
        tag(at: offset).flatMap(BodyValueType.init(tag:))
    }

    /// The type of the value at `offset` when all of it is there: nil for an
    /// unknown tag or a value cut off, which the readers of whole values (the
    /// Swift tree, the JSON writer, the re-encoder) take as null. The query
    /// functions read only the parts they need (in bounds), so there a
    /// container cut off may read as empty.
    func wholeType(at offset: Int) -> BodyValueType? {
        size(at: offset) == nil ? nil : type(at: offset)
    }

    @inline(__always)
    private func uint(at offset: Int, width: Int) -> Int? {
        guard offset >= 0, offset + width <= bytes.count else { return nil }
        switch width {
        case 1: return Int(bytes[offset])
        case 2: return Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        default: return Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
    }

    /// The integer at `offset` (booleans read as 0 and 1; unsigned values above `Int64.max` are not integers here).
    func int64(at offset: Int) -> Int64? {
        guard let tag = tag(at: offset) else { return nil }
        switch tag {
        case BodyTag.false: return 0
        case BodyTag.true: return 1
        case BodyTag.int8:
            guard offset + 2 <= bytes.count else { return nil }
            return Int64(Int8(bitPattern: bytes[offset + 1]))
        case BodyTag.int16:
            guard offset + 3 <= bytes.count else { return nil }
            return Int64(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: Int16.self)))
        case BodyTag.int32:
            guard offset + 5 <= bytes.count else { return nil }
            return Int64(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: Int32.self)))
        case BodyTag.int64:
            guard offset + 9 <= bytes.count else { return nil }
            return Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: Int64.self))
        default:
            return nil
        }
    }

    func uint64(at offset: Int) -> UInt64? {
        guard tag(at: offset) == BodyTag.uint64, offset + 9 <= bytes.count else { return nil }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self))
    }

    func double(at offset: Int) -> Double? {
        guard tag(at: offset) == BodyTag.double, offset + 9 <= bytes.count else { return nil }
        return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self)))
    }

    /// The number at `offset` as a double (an integer converted); nil for any other
    /// value, booleans included.
    @inline(__always)
    func number(at offset: Int) -> Double? {
        switch tag(at: offset) {
        case BodyTag.double?: return double(at: offset)
        case BodyTag.uint64?: return uint64(at: offset).map(Double.init)
        case BodyTag.int8?, BodyTag.int16?, BodyTag.int32?, BodyTag.int64?: return int64(at: offset).map(Double.init)
        default: return nil
        }
    }

    /// The UTF-8 bytes of the string at `offset`.
    @inline(__always)
    func string(at offset: Int) -> UnsafeRawBufferPointer? {
        guard let tag = tag(at: offset) else { return nil }
        let start: Int, count: Int
        if tag & 0xC0 == BodyTag.tinyString {
            start = offset + 1; count = Int(tag & 0x3F)
        } else if tag == BodyTag.shortString {
            guard offset + 2 <= bytes.count else { return nil }
            start = offset + 2; count = Int(bytes[offset + 1])
        } else if tag == BodyTag.longString {
            guard let length = uint(at: offset + 1, width: 4) else { return nil }
            start = offset + 5; count = length
        } else {
            return nil
        }
        guard start + count <= bytes.count else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<start + count])
    }

    /// The size in bytes of the value at `offset`.
    func size(at offset: Int) -> Int? {
        guard let tag = tag(at: offset) else { return nil }
        switch tag {
        case BodyTag.null, BodyTag.false, BodyTag.true: return 1
        case BodyTag.int8: return fits(offset, 2)
        case BodyTag.int16: return fits(offset, 3)
        case BodyTag.int32: return fits(offset, 5)
        case BodyTag.int64, BodyTag.uint64, BodyTag.double: return fits(offset, 9)
        case BodyTag.tinyString...0x7F, BodyTag.shortString, BodyTag.longString:
            guard let s = string(at: offset) else { return nil }
            return s.count + (tag == BodyTag.longString ? 5 : tag == BodyTag.shortString ? 2 : 1)
        case BodyTag.dict1...BodyTag.array4:
            guard let size = uint(at: offset + 1, width: BodyTag.width(tag)), offset + size <= bytes.count else { return nil }
            return size
        default:
            return nil
        }
    }

    /// The encoded bytes of the value at `offset`.
    package func encoded(at offset: Int) -> UnsafeRawBufferPointer? {
        guard let size = size(at: offset) else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size])
    }

    @inline(__always)
    private func fits(_ offset: Int, _ size: Int) -> Int? {
        offset + size <= bytes.count ? size : nil
    }

    // MARK: Containers

    /// The offset of a container's child from its stored relative offset, which
    /// must point past the container's header and inside it: a corrupt body can
    /// then neither read out of bounds nor nest a container in itself. `width`
    /// is the container's field width (its size is the field after the tag):
    /// reading it here rather than through `size(at:)` is a third of a
    /// property lookup's instructions (measured with callgrind on Q0).
    @inline(__always)
    private func child(_ relative: Int, ofContainerAt offset: Int, width: Int, headerSize: Int) -> Int? {
        guard relative >= headerSize, let size = uint(at: offset + 1, width: width), offset + size <= bytes.count,
              relative < size else { return nil }
        return offset + relative
    }

    /// The header size of the container at `offset` with `count` entries.
    @inline(__always)
    private func headerSize(_ tag: UInt8, count: Int) -> Int {
        let width = BodyTag.width(tag)
        return 1 + width * (2 + (tag >= BodyTag.array1 ? count : 2 * count))
    }

    /// The number of members of the dict or elements of the array at `offset`.
    func count(at offset: Int) -> Int? {
        guard let tag = tag(at: offset), (BodyTag.dict1...BodyTag.array4).contains(tag) else { return nil }
        let width = BodyTag.width(tag)
        return uint(at: offset + 1 + width, width: width)
    }

    /// The offset of element `index` of the array at `offset`; a negative index counts from the end.
    func element(_ index: Int, ofArrayAt offset: Int) -> Int? {
        guard let tag = tag(at: offset), (BodyTag.array1...BodyTag.array4).contains(tag) else { return nil }
        let width = BodyTag.width(tag)
        guard let count = uint(at: offset + 1 + width, width: width) else { return nil }
        let i = index < 0 ? count + index : index
        guard i >= 0, i < count, let relative = uint(at: offset + 1 + width * (2 + i), width: width) else { return nil }
        return child(relative, ofContainerAt: offset, width: width, headerSize: headerSize(tag, count: count))
    }

    /// Calls `body` with the offset of each element of the array at `offset`.
    func forEachElement(ofArrayAt offset: Int, _ body: (Int) throws -> Void) rethrows {
        guard let tag = tag(at: offset), (BodyTag.array1...BodyTag.array4).contains(tag),
              let count = count(at: offset), let end = size(at: offset).map({ offset + $0 }) else { return }
        let width = BodyTag.width(tag)
        let headerSize = headerSize(tag, count: count)
        var next = offset + headerSize
        for i in 0..<count {
            guard let relative = uint(at: offset + 1 + width * (2 + i), width: width) else { return }
            let element = offset + relative
            guard follows(element, next: &next, end: end) else { return }
            try body(element)
        }
    }

    /// Calls `body` with each member's key and value offset, in stored order.
    func forEachMember(ofDictAt offset: Int, keys: SharedKeys, _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) rethrows {
        guard let tag = tag(at: offset), (BodyTag.dict1...BodyTag.mixedDict).contains(tag),
              let count = count(at: offset), let end = size(at: offset).map({ offset + $0 }) else { return }
        let width = BodyTag.width(tag)
        let headerSize = headerSize(tag, count: count)
        let keysStart = offset + 1 + 2 * width
        var next = offset + headerSize
        for i in 0..<count {
            guard let entry = uint(at: keysStart + i * width, width: width),
                  let relative = uint(at: keysStart + (count + i) * width, width: width) else { return }
            let value = offset + relative
            guard follows(value, next: &next, end: end) else { return }
            if tag == BodyTag.mixedDict && UInt32(entry) & BodyTag.stringKeyFlag != 0 {
                guard let key = string(at: offset + Int(UInt32(entry) & ~BodyTag.stringKeyFlag)) else { return }
                try body(key.assumingMemoryBound(to: UInt8.self), value)
            } else {
                try keys.withKey(entry) { try body($0, value) }
            }
        }
    }

    /// Whether a container's child at `offset` starts at or after `next` (the
    /// end of the child before it, at first the end of the header) and ends by
    /// `end` (the container's end), moving `next` past it; a cut-off child
    /// counts one byte. This is a traversal's bounds check, stricter than
    /// ``child(_:ofContainerAt:width:headerSize:)``'s: the encoder lays children
    /// out in order and apart, and holding a traversal to that bounds its work
    /// by the body's length, where a damaged body whose offsets share children
    /// would expand exponentially.
    @inline(__always)
    private func follows(_ offset: Int, next: inout Int, end: Int) -> Bool {
        guard offset >= next else { return false }
        next = offset + (size(at: offset) ?? 1)
        return next <= end
    }

    /// The offset of the member named by `key` in the dict at `offset`.
    @inline(__always)
    func member(_ key: UnsafePointer<KeyPath.Step>, ofDictAt offset: Int) -> Int? {
        guard let tag = tag(at: offset) else { return nil }
        let keyID = key.pointee.keyID
        switch tag {
        case BodyTag.dict1:
            guard keyID >= 0, offset + 3 <= bytes.count else { return nil }
            let count = Int(bytes[offset + 2])
            guard count > 0, offset + 3 + 2 * count <= bytes.count else { return nil }
            // IDs are given in first-seen order, so in documents of one shape the
            // member with ID k is usually the k-th: try there before scanning.
            let guess = min(keyID, count - 1)
            if Int(bytes[offset + 3 + guess]) == keyID {
                return child(Int(bytes[offset + 3 + count + guess]), ofContainerAt: offset, width: 1, headerSize: 3 + 2 * count)
            }
            var i = 0
            while i < count {
                let id = Int(bytes[offset + 3 + i])
                if id == keyID {
                    return child(Int(bytes[offset + 3 + count + i]), ofContainerAt: offset, width: 1, headerSize: 3 + 2 * count)
                }
                if id > keyID { return nil }
                i += 1
            }
            return nil
        case BodyTag.dict2, BodyTag.dict4:
            guard keyID >= 0 else { return nil }
            return sharedMember(keyID, ofDictAt: offset, width: BodyTag.width(tag))
        case BodyTag.mixedDict:
            return mixedMember(key, ofDictAt: offset)
        default:
            return nil
        }
    }

    private func sharedMember(_ id: Int, ofDictAt offset: Int, width: Int) -> Int? {
        guard let count = uint(at: offset + 1 + width, width: width) else { return nil }
        let keysStart = offset + 1 + 2 * width
        var low = 0, high = count - 1
        while low <= high {
            let mid = (low + high) / 2
            guard let entry = uint(at: keysStart + mid * width, width: width) else { return nil }
            if entry == id {
                return uint(at: keysStart + (count + mid) * width, width: width).flatMap {
                    child($0, ofContainerAt: offset, width: width, headerSize: 1 + width * (2 + 2 * count))
                }
            }
            if entry < id { low = mid + 1 } else { high = mid - 1 }
        }
        return nil
    }

    private func mixedMember(_ key: UnsafePointer<KeyPath.Step>, ofDictAt offset: Int) -> Int? {
        let keyID = key.pointee.keyID
        guard let count = uint(at: offset + 5, width: 4) else { return nil }
        let keysStart = offset + 9
        // Shared-ID entries come first (ascending), then string keys (bytewise ascending).
        var low = 0, high = count - 1
        while low <= high {
            let mid = (low + high) / 2
            guard let raw = uint(at: keysStart + mid * 4, width: 4) else { return nil }
            let entry = UInt32(raw)
            let order: Int
            if entry & BodyTag.stringKeyFlag == 0 {
                order = keyID >= 0 ? Int(entry) - keyID : -1
            } else if keyID >= 0 {
                order = 1
            } else {
                guard let stored = string(at: offset + Int(entry & ~BodyTag.stringKeyFlag)) else { return nil }
                order = key.pointee.name.withUnsafeBufferPointer {
                    BodyEncoder.compareBytes(stored.assumingMemoryBound(to: UInt8.self), $0)
                }
            }
            if order == 0 {
                return uint(at: keysStart + (count + mid) * 4, width: 4).flatMap { child($0, ofContainerAt: offset, width: 4, headerSize: 9 + 8 * count) }
            }
            if order < 0 { low = mid + 1 } else { high = mid - 1 }
        }
        return nil
    }

    // MARK: Validation

    /// Whether the body is a well-formed document, as DocLite writes one: a
    /// dict filling the whole body, every value with a known tag and inside its
    /// container, children laid out in order and apart, no deeper than a
    /// document may nest, every shared key ID below `keyCount`. Readers of one
    /// property stay bounds-checked without it (a damaged value reads as
    /// absent); readers of whole documents check it first and report a damaged
    /// body as ``DocLiteError/Code/corruptData``. Linear in the body's size.
    package func isWellFormedDocument(keyCount: Int) -> Bool {
        guard let tag = tag(at: 0), (BodyTag.dict1...BodyTag.mixedDict).contains(tag) else { return false }
        return wellFormedSize(at: 0, keyCount: keyCount, depth: 1) == bytes.count
    }

    /// The size of the value at `offset` when all of it is well formed
    /// (``isWellFormedDocument(keyCount:)``), else nil: one pass, each value's
    /// size read once (a get by ID pays for it: measured with callgrind).
    private func wellFormedSize(at offset: Int, keyCount: Int, depth: Int) -> Int? {
        guard let tag = tag(at: offset) else { return nil }
        guard (BodyTag.dict1...BodyTag.array4).contains(tag) else { return size(at: offset) }   // (nil for an unknown tag)
        let width = BodyTag.width(tag)
        guard depth <= JSONParser.maxDepth, let size = uint(at: offset + 1, width: width),
              let count = uint(at: offset + 1 + width, width: width), offset + size <= bytes.count else { return nil }
        let isArray = tag >= BodyTag.array1, end = offset + size
        var next = offset + headerSize(tag, count: count)
        guard next <= end else { return nil }
        let keysStart = offset + 1 + 2 * width, valuesStart = keysStart + (isArray ? 0 : count * width)
        for i in 0..<count {
            if !isArray {
                guard let entry = uint(at: keysStart + i * width, width: width) else { return nil }
                if tag == BodyTag.mixedDict && UInt32(entry) & BodyTag.stringKeyFlag != 0 {
                    let keyOffset = offset + Int(UInt32(entry) & ~BodyTag.stringKeyFlag)
                    guard string(at: keyOffset) != nil, let keySize = self.size(at: keyOffset), keyOffset + keySize <= end else { return nil }
                } else if entry >= keyCount {
                    return nil
                }
            }
            guard let relative = uint(at: valuesStart + i * width, width: width) else { return nil }
            let child = offset + relative
            guard child >= next, let childSize = wellFormedSize(at: child, keyCount: keyCount, depth: depth + 1),
                  child + childSize <= end else { return nil }
            next = child + childSize
        }
        return size
    }

    /// The offset of the value at `path`, starting from the value at `offset` (the root by default).
    @inline(__always)
    package func offset(of path: KeyPath, from offset: Int = 0) -> Int? {
        var current = offset
        let steps = UnsafePointer(path.steps.baseAddress!)
        for i in 0..<path.steps.count {
            let next = if let index = steps[i].index {
                element(index, ofArrayAt: current)
            } else {
                member(steps + i, ofDictAt: current)
            }
            guard let next else { return nil }
            current = next
        }
        return current
    }
}
