/// SHA-1 (FIPS 180-4), used for Couchbase Lite's content-derived revision IDs.
/// Not for security: revision digests only need to be well distributed.
struct SHA1 {
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0)
    /// Bytes waiting for a full 64-byte block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    init() { pending.reserveCapacity(64) }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var input = bytes[...]
        if !pending.isEmpty {
            let take = min(64 - pending.count, input.count)
            pending.append(contentsOf: input.prefix(take))
            input = input.dropFirst(take)
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress(UnsafeRawBufferPointer($0)) }
            pending.removeAll(keepingCapacity: true)
        }
        while input.count >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: input.prefix(64)))
            input = input.dropFirst(64)
        }
        pending.append(contentsOf: input)
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Pads the message and returns the digest as five big-endian words.
    mutating func finish() -> (UInt32, UInt32, UInt32, UInt32, UInt32) {
        let bitLength = length &* 8
        pending.append(0x80)
        if pending.count > 56 {
            pending.append(contentsOf: repeatElement(0, count: 64 - pending.count))
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        pending.append(contentsOf: repeatElement(0, count: 56 - pending.count))
        withUnsafeBytes(of: bitLength.bigEndian) { pending.append(contentsOf: $0) }
        pending.withUnsafeBytes { compress($0) }
        return h
    }

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for i in 0..<16 {
                w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = h
            @inline(__always) func round(_ f: UInt32, _ k: UInt32, _ i: Int) {
                let t = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                e = d; d = c; c = b << 30 | b >> 2; b = a; a = t
            }
            for i in 0..<20 { round((b & c) | (~b & d), 0x5A827999, i) }
            for i in 20..<40 { round(b ^ c ^ d, 0x6ED9EBA1, i) }
            for i in 40..<60 { round((b & c) | (b & d) | (c & d), 0x8F1BBCDC, i) }
            for i in 60..<80 { round(b ^ c ^ d, 0xCA62C1D6, i) }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        }
    }
}
