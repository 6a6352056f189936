import XCTest
@testable import DocLite

/// SHA-1 (OpenSSL) against the FIPS 180 test vectors, and the revision IDs built on it.
final class SHA1Tests: XCTestCase {
    private let sha1 = try! SHA1()

    private func hex(_ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { sha1.digest($0) }.map { String(format: "%02x", $0) }.joined()
    }

    func testVectors() {
        XCTAssertEqual(hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(hex(String(repeating: "a", count: 1000)), "291e9a6c66994949b57ba5e650361e98fc36b1ba")
    }

    func testPartsDigestAsTheirConcatenation() {
        let a = Array("abcdbcdecdefdefgefghfghighijhijk".utf8), b = Array("ijkljklmklmnlmnomnopnopq".utf8)
        let parts = a.withUnsafeBytes { a in b.withUnsafeBytes { sha1.digest(a, $0) } }
        XCTAssertEqual(parts.map { String(format: "%02x", $0) }.joined(), "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
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
        let id = DocumentID.generate()
        XCTAssertEqual(id.count, 23)
        XCTAssertTrue(id.hasPrefix("~"))
        XCTAssertNoThrow(try DocumentID.validate(id))
        XCTAssertNotEqual(DocumentID.generate(), id)
    }
}
