import XCTest
@testable import DocLite

/// SHA-1 (OpenSSL) against the FIPS 180 test vectors, and the revision IDs built on it.
final class SHA1Tests: XCTestCase {
    private let sha1 = try! SHA1()

    private func hex(_ parts: String...) -> String {
        var digest: [UInt8] = []
        sha1.begin()
        for part in parts { Array(part.utf8).withUnsafeBytes { sha1.update($0) } }
        sha1.finish(appendingTo: &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    func testVectors() {
        XCTAssertEqual(hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(hex(String(repeating: "a", count: 1000)), "291e9a6c66994949b57ba5e650361e98fc36b1ba")
    }

    func testPartsDigestAsTheirConcatenation() {
        XCTAssertEqual(hex("abcdbcdecdefdefgefghfghighijhijk", "ijkljklmklmnlmnomnopnopq"), "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    func testRevisionIDs() {
        let first = RevisionID.next(after: nil, deleted: false, body: [1, 2, 3], sha1: sha1).text
        XCTAssertTrue(first.hasPrefix("1-"))
        XCTAssertEqual(first.count, 42)
        let second = RevisionID.next(after: first, deleted: false, body: [1, 2, 3], sha1: sha1).text
        XCTAssertTrue(second.hasPrefix("2-"))
        XCTAssertNotEqual(RevisionID.next(after: first, deleted: true, body: [1, 2, 3], sha1: sha1).text, second)
        XCTAssertEqual(RevisionID.next(after: first, deleted: false, body: [1, 2, 3], sha1: sha1).text, second, "the digest depends only on its inputs")
        XCTAssertEqual(RevisionID.generation(of: "17-abc"), 17)
    }

    func testStoredRevisionIDsRoundTrip() {
        let revisionID = RevisionID.next(after: "41-" + String(repeating: "ab", count: 20), deleted: false, body: [9], sha1: sha1)
        XCTAssertTrue(revisionID.text.hasPrefix("42-"))
        XCTAssertEqual(revisionID.stored.count, 24)
        XCTAssertEqual(RevisionID.decode(stored: revisionID.stored), revisionID.text)
    }

    func testAutomaticIDs() {
        let id = DocumentIDs.generate()
        XCTAssertEqual(id.count, 23)
        XCTAssertTrue(id.hasPrefix("~"))
        XCTAssertNoThrow(try DocumentIDs.validate(id))
        XCTAssertNotEqual(DocumentIDs.generate(), id)
    }

    func testAutomaticIDsSortByTheirTime() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        // (Each at the middle of its millisecond: the conversion to whole milliseconds truncates.)
        let ids = (0..<1000).map { DocumentIDs.generate(at: start.addingTimeInterval((Double($0) + 0.5) / 1000)) }
        XCTAssertTrue(zip(ids, ids.dropFirst()).allSatisfy { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "a later millisecond sorts later")
        let sameTime = (0..<10_000).map { _ in DocumentIDs.generate(at: start) }
        XCTAssertEqual(Set(sameTime).count, sameTime.count, "IDs of one millisecond differ by their random part")
        XCTAssertEqual(Set(sameTime.map { $0.prefix(9) }).count, 1)
    }
}

/// Numbers parse to exactly what Swift's own parser gives, on both the fast
/// path (short decimals) and the general one.
final class NumberParsingTests: XCTestCase {
    private func parsed(_ literal: String) throws -> JSONValue {
        guard case .dictionary(let members) = try JSONValue(json: "{\"n\": \(literal)}") else { throw DocLiteError(.jsonError, "not a dict") }
        return members["n"]!
    }

    func testDecimalsMatchSwiftParsing() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let digits = Int.random(in: 1...17, using: &generator)
            let mantissa = String(UInt64.random(in: 0..<UInt64(pow(10, Double(digits))), using: &generator))
            let point = Int.random(in: 0..<mantissa.count, using: &generator)
            let literal = (Bool.random(using: &generator) ? "-" : "") + String(mantissa.prefix(point).isEmpty ? "0" : String(mantissa.prefix(point)))
                + "." + String(mantissa.dropFirst(point))
            XCTAssertEqual(try parsed(literal), .double(Double(literal)!), literal)
        }
    }

    func testEdgeCases() throws {
        XCTAssertEqual(try parsed("5.0"), .double(5.0))
        XCTAssertEqual(try parsed("-0.0"), .double(-0.0))
        XCTAssertEqual(try parsed("0.1"), .double(0.1))
        XCTAssertEqual(try parsed("1e300"), .double(1e300))
        XCTAssertEqual(try parsed("2.5E-3"), .double(0.0025))
        XCTAssertEqual(try parsed("12345678901234567890.5"), .double(12345678901234567890.5))
        XCTAssertEqual(try parsed("0.0000000000000000000000001"), .double(1e-25))
        XCTAssertEqual(try parsed("-9223372036854775808"), .int(Int64.min))
        XCTAssertEqual(try parsed("18446744073709551615"), .unsigned(UInt64.max))
        XCTAssertEqual(try parsed("18446744073709551616"), .double(18446744073709551616))
        XCTAssertThrowsError(try parsed("1e400"))
        XCTAssertThrowsError(try parsed("1."))
    }
}
