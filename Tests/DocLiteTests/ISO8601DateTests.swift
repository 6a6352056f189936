import Foundation
import XCTest
@testable import DocLite

/// Dates written as ISO-8601 text (Expression.date, a Date property): to the nearest
/// millisecond, in the proleptic Gregorian calendar, and read back to the same instant.
final class ISO8601DateTests: XCTestCase {
    func testDatesAreWrittenToTheMillisecondInTheGregorianCalendar() throws {
        for (millis, text) in [(Int64(999), "1970-01-01T00:00:00.999Z"), (1_704_897_074_123, "2024-01-10T14:31:14.123Z"),
                               (-1, "1969-12-31T23:59:59.999Z"), (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
                               (-12_219_292_800_001, "1582-10-14T23:59:59.999Z")] {
            let date = Date(timeIntervalSince1970: Double(millis) / 1000)
            XCTAssertEqual(ISO8601.string(from: date), text)
            let read = try XCTUnwrap(ISO8601.date(from: text), text)
            XCTAssertEqual(Int64((read.timeIntervalSince1970 * 1000).rounded()), millis, text)
        }
        XCTAssertEqual(ISO8601.date(from: "2024-01-10T14:31:14+01:00")?.timeIntervalSince1970, 1_704_893_474)
        for text in ["2024-01-10T14:31:14", "2024-13-01T00:00:00Z", "yesterday", ""] {
            XCTAssertNil(ISO8601.date(from: text), text)
        }
    }
}
