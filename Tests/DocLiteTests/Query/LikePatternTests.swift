import XCTest
@testable import DocLite

/// The LIKE matcher against a plain recursive reference, and on patterns that
/// make backtracking matchers take exponential time.
final class LikePatternTests: XCTestCase {
    func testAgreesWithAReferenceMatcherOnRandomPatterns() {
        var random = SeededRandom(seed: 7)
        let patternAlphabet: [String] = ["a", "b", "é", "%", "_", "\\%", "\\_", "\\\\"]
        let textAlphabet: [String] = ["a", "b", "é", "%", "_", "\\"]
        for _ in 0..<5_000 {
            let pattern = (0..<Int(random.next() % 7)).map { _ in patternAlphabet[Int(random.next() % UInt64(patternAlphabet.count))] }.joined()
            let text = (0..<Int(random.next() % 8)).map { _ in textAlphabet[Int(random.next() % UInt64(textAlphabet.count))] }.joined()
            XCTAssertEqual(matches(text, pattern), referenceMatch(Array(text.unicodeScalars), Array(pattern.unicodeScalars)),
                           "'\(text)' LIKE '\(pattern)'")
        }
    }

    func testManyWildcardRunsStayFast() {
        let text = String(repeating: "a", count: 20_000)
        XCTAssertFalse(matches(text, String(repeating: "%a", count: 30) + "%b"))
        XCTAssertFalse(matches(text, String(repeating: "%_", count: 30) + "b"))
        XCTAssertTrue(matches(text + "b", String(repeating: "%a", count: 30) + "%b"))
    }

    private func matches(_ text: String, _ pattern: String) -> Bool {
        var pattern = pattern, text = text
        return pattern.withUTF8 { p in text.withUTF8 { t in LikePattern(UnsafeRawBufferPointer(p)).matches(UnsafeRawBufferPointer(t)) } }
    }

    /// LIKE by definition, on Unicode scalars: `%` any run, `_` one, `\` escapes.
    private func referenceMatch(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        switch first {
        case "%": return (0...text.count).contains { referenceMatch(Array(text[$0...]), Array(pattern.dropFirst())) }
        case "_": return !text.isEmpty && referenceMatch(Array(text.dropFirst()), Array(pattern.dropFirst()))
        case "\\" where pattern.count > 1:
            return text.first == pattern[1] && referenceMatch(Array(text.dropFirst()), Array(pattern.dropFirst(2)))
        default: return text.first == first && referenceMatch(Array(text.dropFirst()), Array(pattern.dropFirst()))
        }
    }
}
