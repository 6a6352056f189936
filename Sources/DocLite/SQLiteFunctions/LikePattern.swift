/// A compiled LIKE pattern with Couchbase Lite's rules: `%` matches any run of
/// characters, `_` one character, a backslash escapes the next one, and the
/// comparison is case-sensitive (bytewise UTF-8).
struct LikePattern {
    private enum Token: Equatable {
        case literal(UInt8)
        case anyCharacter
        case anyRun
    }

    private let tokens: [Token]
    /// When the pattern has no `_`: its literal pieces between `%`s, for a fast substring search.
    private let pieces: [[UInt8]]?
    private let anchoredStart: Bool
    private let anchoredEnd: Bool
    /// A pattern ending in a lone escape matches nothing (SQLite's LIKE … ESCAPE '\').
    private let matchesNothing: Bool

    init(_ pattern: UnsafeRawBufferPointer) {
        var tokens: [Token] = []
        var escaped = false
        for byte in pattern {
            if escaped {
                tokens.append(.literal(byte))
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "%") {
                if tokens.last != .anyRun { tokens.append(.anyRun) }
            } else if byte == UInt8(ascii: "_") {
                tokens.append(.anyCharacter)
            } else {
                tokens.append(.literal(byte))
            }
        }
        self.tokens = tokens
        matchesNothing = escaped
        anchoredStart = tokens.first != .anyRun
        anchoredEnd = tokens.last != .anyRun
        if tokens.contains(.anyCharacter) {
            pieces = nil
        } else {
            var pieces: [[UInt8]] = [[]]
            for token in tokens {
                if case .literal(let byte) = token { pieces[pieces.count - 1].append(byte) } else { pieces.append([]) }
            }
            self.pieces = pieces
        }
    }

    /// Whether `text` (UTF-8) matches the whole pattern.
    func matches(_ text: UnsafeRawBufferPointer) -> Bool {
        if matchesNothing { return false }
        if let pieces { return matchPieces(pieces, text) }
        return matchTokens(text)
    }

    /// `%`-only patterns: anchored first and last pieces, the middle ones found left to right.
    private func matchPieces(_ pieces: [[UInt8]], _ text: UnsafeRawBufferPointer) -> Bool {
        if pieces.count == 1 { return text.elementsEqual(pieces[0]) }
        var start = 0
        var end = text.count
        if anchoredStart {
            guard hasPiece(pieces[0], in: text, at: 0) else { return false }
            start = pieces[0].count
        }
        if anchoredEnd {
            let last = pieces[pieces.count - 1]
            guard end - start >= last.count, hasPiece(last, in: text, at: end - last.count) else { return false }
            end -= last.count
        }
        for piece in pieces[1..<(pieces.count - 1)] where !piece.isEmpty {
            guard let found = find(piece, in: text, from: start, to: end) else { return false }
            start = found + piece.count
        }
        return true
    }

    private func hasPiece(_ piece: [UInt8], in text: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        if piece.isEmpty { return true }
        guard offset + piece.count <= text.count else { return false }
        return piece.withUnsafeBytes { memcmp(text.baseAddress! + offset, $0.baseAddress!, piece.count) == 0 }
    }

    private func find(_ piece: [UInt8], in text: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        guard end - start >= piece.count else { return nil }
        let first = piece[0]
        var i = start
        let last = end - piece.count
        while i <= last {
            guard let hit = memchr(text.baseAddress! + i, Int32(first), last - i + 1) else { return nil }
            i = UnsafeRawPointer(hit) - text.baseAddress!
            if hasPiece(piece, in: text, at: i) { return i }
            i += 1
        }
        return nil
    }

    /// General matcher: `_` consumes one UTF-8 character; on a mismatch only the
    /// last `%` seen takes one more character, which is enough for `%`/`_`
    /// patterns and keeps every pattern linear in space and O(pattern × text) in time.
    private func matchTokens(_ text: UnsafeRawBufferPointer) -> Bool {
        func characterEnd(after i: Int) -> Int {
            var i = i + 1
            while i < text.count && text[i] & 0xC0 == 0x80 { i += 1 }
            return i
        }
        var t = 0, i = 0
        var lastRun: (token: Int, text: Int)?
        while i < text.count {
            if t < tokens.count {
                switch tokens[t] {
                case .literal(let byte) where text[i] == byte:
                    t += 1
                    i += 1
                    continue
                case .anyCharacter:
                    t += 1
                    i = characterEnd(after: i)
                    continue
                case .anyRun:
                    lastRun = (t, i)
                    t += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let run = lastRun else { return false }
            let resumed = characterEnd(after: run.text)
            lastRun = (run.token, resumed)
            t = run.token + 1
            i = resumed
        }
        while t < tokens.count && tokens[t] == .anyRun { t += 1 }
        return t == tokens.count
    }
}

#if canImport(Glibc)
import Glibc
#endif
