import Foundation

/// Prefix and suffix tests on the UTF-8 bytes. Swift's `hasPrefix`,
/// `hasSuffix` and `dropFirst` work on Characters (grapheme clusters), so a
/// `.` followed by a combining mark or a zero-width joiner is one Character
/// that is not a `.`; query text must be read byte by byte, as SQLite and
/// Couchbase Lite read it.
extension String {
    /// Whether the UTF-8 bytes begin with those of `prefix`.
    func hasUTF8Prefix(_ prefix: String) -> Bool {
        utf8.starts(with: prefix.utf8)
    }

    /// Whether the UTF-8 bytes hold those of `part` (a byte search: Foundation's
    /// `contains` compares Unicode-aware and was a tenth of a pull's time).
    func containsUTF8(_ part: String) -> Bool {
        var text = self, part = part
        return text.withUTF8 { text in
            part.withUTF8 { part in
                guard let first = part.first, let needle = part.baseAddress else { return true }
                guard text.count >= part.count, var start = text.baseAddress else { return false }
                let end = start + (text.count - part.count + 1)   // (past the last place it may start)
                while start < end, let found = memchr(start, Int32(first), end - start) {
                    let candidate = found.assumingMemoryBound(to: UInt8.self)
                    if memcmp(candidate, needle, part.count) == 0 { return true }
                    start = UnsafePointer(candidate) + 1
                }
                return false
            }
        }
    }

    /// Whether the UTF-8 bytes end with those of `suffix`.
    func hasUTF8Suffix(_ suffix: String) -> Bool {
        utf8.count >= suffix.utf8.count && utf8.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
    }

    /// The text without its first `first` and last `last` bytes (an ASCII
    /// prefix or suffix, so the rest stays whole scalars).
    func droppingUTF8(first: Int = 0, last: Int = 0) -> String {
        String(decoding: utf8.dropFirst(first).dropLast(last), as: UTF8.self)
    }

    /// The least string greater than every string beginning with this one (in code
    /// point order, which is UTF-8 byte order): the upper bound of a prefix range.
    /// Nil when there is none (the empty string).
    var prefixEnd: String? {
        var scalars = Array(unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                return String(String.UnicodeScalarView(scalars))
            }
        }
        return nil
    }
}
