import DocLite

/// Mutates query text for the fuzz tests: between one and two changes to its
/// space-separated tokens — swapped, dropped, repeated, replaced or joined by
/// words of `vocabulary`, cut inside a token, random (often invalid UTF-8) bytes,
/// deep nesting with one of the `nesting` pairs, or truncation.
struct TextMutator {
    let vocabulary: [String]
    let nesting: [(open: String, close: String)]

    func mutate(_ seed: String, _ random: inout SeededRandom) -> String {
        var tokens = seed.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for _ in 0..<Int.random(in: 1...2, using: &random) {
            let i = Int.random(in: 0..<tokens.count, using: &random), j = Int.random(in: 0..<tokens.count, using: &random)
            switch Int.random(in: 0..<9, using: &random) {
            case 0: tokens.swapAt(i, j)
            case 1 where tokens.count > 1: tokens.remove(at: i)
            case 2: tokens.insert(tokens[i], at: j)
            case 3: tokens[i] = vocabulary.randomElement(using: &random)!
            case 4: tokens.insert(vocabulary.randomElement(using: &random)!, at: i)
            case 5:   // cut inside a token
                let bytes = Array(tokens[i].utf8)
                tokens[i] = String(decoding: bytes.prefix(Int.random(in: 0...bytes.count, using: &random)), as: UTF8.self)
            case 6:   // random bytes, invalid UTF-8 among them (decoded as replacement characters)
                tokens[i] = String(decoding: (0..<Int.random(in: 1...6, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) },
                                   as: UTF8.self)
            case 7:   // deep nesting
                let depth = Int.random(in: 1...400, using: &random)
                let (open, close) = nesting.randomElement(using: &random)!
                tokens[i] = String(repeating: open, count: depth) + tokens[i] + String(repeating: close, count: depth)
            default:   // truncation
                tokens = Array(tokens.prefix(i + 1))
            }
        }
        return tokens.joined(separator: " ")
    }
}
