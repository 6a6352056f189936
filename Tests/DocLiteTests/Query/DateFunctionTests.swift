import CSQLite
import Foundation
import XCTest
@testable import DocLite

/// The date functions through JSON queries: MISSING and
/// null, wrong types, invalid dates, formats, zones, calendar arithmetic,
/// negative years, local time, and random inputs.
final class DateFunctionTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try loadProbe(#"{"date": "2018-10-23T18:33:01Z", "ms": 1540319581000, "msd": 1540319581123.0, "t": true, "nul": null, "a": [1], "o": {"k": "v"}}"#)
    }

    /// Evaluates every expression as one column of one query over the probe
    /// document and compares each value's JSON with the expected text (nil: MISSING).
    func check(_ cases: [(String, String?)], file: StaticString = #filePath, line: UInt = #line) throws {
        let row = try rows(#"{"WHAT": [\#(cases.map(\.0).joined(separator: ", "))], "WHERE": ["=", ["._id"], "probe"]}"#)
        XCTAssertEqual(row.count, 1, file: file, line: line)
        for (i, (expression, expected)) in cases.enumerated() {
            XCTAssertEqual(row.first?[i]?.json, expected, expression, file: file, line: line)
        }
    }

    func testMissingGivesMissingAndNullGivesNull() throws {
        try check([
            (#"["STR_TO_MILLIS()", [".nope"]]"#, nil),
            (#"["STR_TO_MILLIS()", null]"#, "null"),
            (#"["STR_TO_MILLIS()", [".nul"]]"#, "null"),
            (#"["STR_TO_UTC()", [".date"], [".nope"]]"#, nil),
            (#"["STR_TO_TZ()", null, [".nope"]]"#, nil),   // MISSING wins over null
            (#"["STR_TO_TZ()", [".date"], null]"#, "null"),
            (#"["MILLIS_TO_STR()", [".nope"]]"#, nil),
            (#"["MILLIS_TO_UTC()", [".ms"], null]"#, "null"),
            (#"["MILLIS_TO_TZ()", [".ms"], 0, ["MISSING"]]"#, nil),
            (#"["DATE_DIFF_STR()", [".date"], [".nope"], "day"]"#, nil),
            (#"["DATE_DIFF_STR()", [".date"], null, "day"]"#, "null"),
            (#"["DATE_DIFF_MILLIS()", [".ms"], [".ms"], [".nope"]]"#, nil),
            (#"["DATE_ADD_STR()", [".date"], [".nope"], "day"]"#, nil),
            (#"["DATE_ADD_STR()", [".date"], 1, "day", null]"#, "null"),
            (#"["DATE_ADD_MILLIS()", null, 1, "day"]"#, "null"),
        ])
    }

    func testWrongTypesGiveNull() throws {
        try check([
            (#"["STR_TO_MILLIS()", 123]"#, "null"),
            (#"["STR_TO_MILLIS()", true]"#, "null"),
            (#"["STR_TO_MILLIS()", [".a"]]"#, "null"),
            (#"["STR_TO_MILLIS()", [".o"]]"#, "null"),
            (#"["MILLIS_TO_UTC()", "0"]"#, "null"),
            (#"["MILLIS_TO_UTC()", true]"#, "null"),
            (#"["MILLIS_TO_UTC()", [".t"]]"#, "null"),
            (#"["MILLIS_TO_UTC()", [".a"]]"#, "null"),
            (#"["MILLIS_TO_UTC()", [".ms"], 5]"#, "null"),   // a format must be a string
            (#"["MILLIS_TO_TZ()", [".ms"], "60"]"#, "null"),
            (#"["MILLIS_TO_TZ()", [".ms"], 1.5]"#, "null"),
            (#"["MILLIS_TO_TZ()", [".ms"], 1440]"#, "null"),   // an offset is less than a day
            (#"["DATE_ADD_MILLIS()", 0, 1.5, "day"]"#, "null"),
            (#"["DATE_ADD_MILLIS()", 0, "1", "day"]"#, "null"),
            (#"["DATE_ADD_MILLIS()", 0, 1, 7]"#, "null"),
            (#"["DATE_DIFF_MILLIS()", 0, "0", "day"]"#, "null"),
            (#"["DATE_DIFF_STR()", [".date"], 20181023, "day"]"#, "null"),
        ])
    }

    func testComponentsAreCaseInsensitiveAndAnUnknownOneIsMissingInDiffs() throws {
        try check([
            (#"["DATE_DIFF_STR()", "2018-01-01", "2017-01-01", "YEAR"]"#, "1"),
            (#"["DATE_DIFF_STR()", "2018-01-01", "2017-01-01", "Month"]"#, "12"),
            (#"["DATE_ADD_MILLIS()", 0, 1, "mIlLiSeCoNd"]"#, "1"),
            (#"["DATE_DIFF_STR()", "2018-01-01", "2017-01-01", "fortnight"]"#, nil),
            (#"["DATE_DIFF_STR()", "2018-02-30", "2017-01-01", "years"]"#, nil),
            (#"["DATE_DIFF_MILLIS()", 0, 0, "days"]"#, nil),
            (#"["DATE_DIFF_MILLIS()", 0, 0, 1]"#, nil),
            (#"["DATE_ADD_STR()", "2018-01-01", 1, "fortnight"]"#, "null"),
            (#"["DATE_ADD_MILLIS()", 0, 1, ""]"#, "null"),
        ])
    }

    func testInvalidDatesGiveNull() throws {
        let invalid = ["", "x", "2018-02-30", "2018-02-29", "2100-02-29", "2018-04-31", "2018-13-01", "2018-00-10", "2018-01-00",
                       "2018-01-32", "18-01-01", "2018-1-01", "1234567-01-01", "275761-01-01", "2018-01-01T", "2018-01-01T12", "2018-01-01T24:00",
                       "2018-01-01T12:60", "2018-01-01T12:00:60", "2018-01-01T12:00:00.", "2018-01-01T12:00:00 Z",
                       "2018-01-01T12:00:00+2400", "2018-01-01T12:00:00+01:60", "2018-01-01T12:00:00+1", "12:00:00",
                       "2018-01-01x", " 2018-01-01", "2018-01-01T12:00:00Zx", "2018/01/01"]
        try check(invalid.flatMap { text in [
            ("[\"STR_TO_MILLIS()\", \"\(text)\"]", "null"),
            ("[\"STR_TO_UTC()\", \"\(text)\"]", "null"),
            ("[\"DATE_ADD_STR()\", \"\(text)\", 1, \"day\"]", "null"),
            ("[\"DATE_DIFF_STR()\", \"2018-01-01\", \"\(text)\", \"day\"]", "null"),
        ] })
    }

    func testInputForms() throws {
        try check([
            (#"["STR_TO_MILLIS()", "2018-10-23T18:33:01Z"]"#, "1540319581000"),
            (#"["STR_TO_MILLIS()", "2018-10-23T18:33:01z"]"#, "1540319581000"),
            (#"["STR_TO_MILLIS()", "2018-10-23 18:33:01Z"]"#, "1540319581000"),
            (#"["STR_TO_MILLIS()", "2018-10-23   18:33:01+00:00"]"#, "1540319581000"),
            (#"["STR_TO_MILLIS()", "2018-10-23T18:33Z"]"#, "1540319580000"),
            (#"["STR_TO_MILLIS()", "2018-10-23T18:33:01.1Z"]"#, "1540319581100"),
            (#"["STR_TO_MILLIS()", "2018-10-23T18:33:01.12Z"]"#, "1540319581120"),
            (#"["STR_TO_MILLIS()", "2018-10-23T18:33:01.123999Z"]"#, "1540319581123"),   // truncated
            (#"["STR_TO_MILLIS()", "2018-10-24T00:03:01+05:30"]"#, "1540319581000"),
            (#"["STR_TO_MILLIS()", "2018-10-24T00:03:01+0530"]"#, "1540319581000"),
            (#"["STR_TO_MILLIS()", "2018-10-23T11:33:01-0700"]"#, "1540319581000"),
            (#"["STR_TO_MILLIS()", "2018-10-23Z"]"#, "1540252800000"),
            (#"["STR_TO_MILLIS()", "1944-06-06T06:30:00+01:00"]"#, "-806956200000"),
            (#"["STR_TO_MILLIS()", "2016-02-29T00:00:00Z"]"#, "1456704000000"),
            (#"["STR_TO_MILLIS()", "2000-02-29T00:00:00Z"]"#, "951782400000"),
            (#"["STR_TO_MILLIS()", "0000-01-01T00:00:00Z"]"#, "-62167219200000"),
            (#"["STR_TO_MILLIS()", "-0001-01-01T00:00:00Z"]"#, "-62198755200000"),
            (#"["STR_TO_MILLIS()", "-9999-01-01T00:00:00Z"]"#, "-377705116800000"),
            (#"["STR_TO_MILLIS()", "9999-12-31T23:59:59.999Z"]"#, "253402300799999"),
            (#"["STR_TO_UTC()", "2018-10-23T11:33:01+03:30"]"#, #""2018-10-23T08:03:01Z""#),
        ])
    }

    func testOutputFormats() throws {
        func utc(_ format: String, _ millis: Int64 = 1540319581123) -> String { "[\"MILLIS_TO_UTC()\", \(millis), \"\(format)\"]" }
        func tz(_ format: String, _ minutes: Int) -> String { "[\"MILLIS_TO_TZ()\", 1540319581123, \(minutes), \"\(format)\"]" }
        let iso = #""2018-10-23T18:33:01.123Z""#
        try check([
            (#"["MILLIS_TO_UTC()", 1540319581123]"#, iso),
            (#"["MILLIS_TO_UTC()", 1540319581000]"#, #""2018-10-23T18:33:01Z""#),
            (utc("1111-11-11"), #""2018-10-23""#),
            (utc("11:11:11"), #""18:33:01""#),
            (utc("11:11:11.111"), #""18:33:01.123""#),
            (utc("11:11:11.111", 1540319581000), #""18:33:01""#),   // milliseconds only when not zero
            (utc("1111-11-11T11:11:11Z"), #""2018-10-23T18:33:01Z""#),
            (utc("1111-11-11 11:11:11"), #""2018-10-23 18:33:01""#),
            (tz("1111-11-11 11:11:11.111+09:00", 540), #""2018-10-24 03:33:01.123+09:00""#),
            (tz("1111-11-11T11:11:11+0900", -570), #""2018-10-23T09:03:01-0930""#),
            (utc("%Y-%m-%d"), #""2018-10-23""#),
            (utc("%Y/%m/%d"), #""2018/10/23""#),
            (utc("%F"), #""2018-10-23""#),
            (utc("%H:%M:%S"), #""18:33:01""#),
            (utc("%T%.s"), #""18:33:01.123""#),
            (utc("%F %T%s"), #""2018-10-23 18:33:01.123""#),
            (utc("%Y/%m/%d %H:%M:%S%z"), #""2018/10/23 18:33:01Z""#),
            (tz("%FT%T%.s%Ez", -420), #""2018-10-23T11:33:01.123-07:00""#),
            (tz("%FT%T%z", 330), #""2018-10-24T00:03:01+0530""#),
            (utc("invalid"), iso),
            (utc(""), iso),
            (utc("%Q"), iso),
            (utc("%F%T"), iso),
            (utc("1111-11-11T11:11"), iso),
            (utc("%FT"), iso),
            (utc("%z"), iso),
            (utc("1111-11%T"), iso),
            (utc("11:11%F"), iso),
            (utc("+09:00"), iso),
        ])
    }

    func testZonesAndExtremeMillis() throws {
        try check([
            (#"["STR_TO_TZ()", [".date"], -420]"#, #""2018-10-23T11:33:01-0700""#),
            (#"["STR_TO_TZ()", [".date"], 0]"#, #""2018-10-23T18:33:01Z""#),
            (#"["STR_TO_TZ()", [".date"], 330.0, "%FT%T%Ez"]"#, #""2018-10-24T00:03:01+05:30""#),
            (#"["MILLIS_TO_TZ()", 0, 60]"#, #""1970-01-01T01:00:00+0100""#),
            (#"["MILLIS_TO_TZ()", 0, -90]"#, #""1969-12-31T22:30:00-0130""#),
            (#"["MILLIS_TO_TZ()", 0, -1439]"#, #""1969-12-31T00:01:00-2359""#),
            (#"["MILLIS_TO_UTC()", [".msd"]]"#, #""2018-10-23T18:33:01.123Z""#),
            (#"["MILLIS_TO_UTC()", -1]"#, #""1969-12-31T23:59:59.999Z""#),
            (#"["MILLIS_TO_UTC()", -0.5]"#, #""1969-12-31T23:59:59.999Z""#),   // floored
            (#"["MILLIS_TO_UTC()", -62198755200000]"#, #""-0001-01-01T00:00:00Z""#),
            (#"["MILLIS_TO_UTC()", -377705116800000]"#, #""-9999-01-01T00:00:00Z""#),
            (#"["MILLIS_TO_UTC()", 8640000000000000]"#, #""275760-09-13T00:00:00Z""#),
            (#"["MILLIS_TO_UTC()", -8640000000000000]"#, #""-271821-04-20T00:00:00Z""#),
            (#"["MILLIS_TO_UTC()", 8640000000000001]"#, "null"),
            (#"["MILLIS_TO_UTC()", 9223372036854775807]"#, "null"),
            (#"["MILLIS_TO_UTC()", -9223372036854775808]"#, "null"),
            (#"["MILLIS_TO_UTC()", 1e300]"#, "null"),
            (#"["STR_TO_MILLIS()", ["MILLIS_TO_UTC()", -377705116800000]]"#, "-377705116800000"),
            (#"["STR_TO_MILLIS()", ["MILLIS_TO_STR()", 8640000000000000]]"#, "8640000000000000"),
            (#"["STR_TO_MILLIS()", ["MILLIS_TO_STR()", -8640000000000000]]"#, "-8640000000000000"),
            (#"["STR_TO_MILLIS()", ["MILLIS_TO_TZ()", 8640000000000000, 1439]]"#, "8640000000000000"),
            (#"["STR_TO_MILLIS()", ["MILLIS_TO_TZ()", -8640000000000000, -1439]]"#, "-8640000000000000"),
            (#"["STR_TO_MILLIS()", "275760-09-13T00:00:00.001Z"]"#, "null"),
            (#"["STR_TO_MILLIS()", "275760-09-13T23:00:00+23:00"]"#, "8640000000000000"),
            (#"["DATE_ADD_STR()", "275760-09-13T00:00:00Z", 1, "millisecond"]"#, "null"),
        ])
    }

    func testServerCalendarArithmetic() throws {
        try check([
            (#"["DATE_DIFF_STR()", "2018-01-01", "2017-12-31", "year"]"#, "1"),
            (#"["DATE_DIFF_STR()", "2018-01-01T00:00:00Z", "2017-12-31T23:59:59.999Z", "millisecond"]"#, "1"),
            (#"["DATE_DIFF_STR()", "2018-01-31T02:00:00-07:00", "2018-01-31T00:00:00-08:00", "hour"]"#, "2"),   // as written
            (#"["DATE_DIFF_STR()", "2017-01-08", "2017-01-01", "week"]"#, "1"),
            (#"["DATE_DIFF_STR()", "2017-01-07", "2017-01-01", "week"]"#, "0"),
            (#"["DATE_DIFF_STR()", "2017-01-01", "2017-01-15", "week"]"#, "-2"),
            (#"["DATE_DIFF_STR()", "2015-01-01", "2014-12-31", "quarter"]"#, "1"),
            (#"["DATE_DIFF_STR()", "2001-01-01", "2000-12-31", "millennium"]"#, "0"),
            (#"["DATE_DIFF_STR()", "2000-01-01", "1999-12-31", "millennium"]"#, "1"),
            (#"["DATE_DIFF_STR()", "0001-01-01", "-0001-12-31", "year"]"#, "2"),
            (#"["DATE_DIFF_STR()", "-0001-01-01", "-0011-01-01", "decade"]"#, "1"),
            (#"["DATE_DIFF_STR()", "-0001-01-01", "0000-01-01", "century"]"#, "-1"),
            (#"["DATE_DIFF_MILLIS()", -1, 0, "day"]"#, "-1"),
            (#"["DATE_DIFF_MILLIS()", -1, 0, "second"]"#, "-1"),
            (#"["DATE_DIFF_MILLIS()", 999, 0, "second"]"#, "0"),
            (#"["DATE_DIFF_MILLIS()", -8640000000000000, 8640000000000000, "millisecond"]"#, "-17280000000000000"),
            (#"["DATE_ADD_STR()", "2018-01-31", 1, "month"]"#, #""2018-03-03T00:00:00Z""#),
            (#"["DATE_ADD_STR()", "2016-01-31", 1, "month"]"#, #""2016-03-02T00:00:00Z""#),
            (#"["DATE_ADD_STR()", "2018-03-31", -1, "month"]"#, #""2018-03-03T00:00:00Z""#),
            (#"["DATE_ADD_STR()", "2016-02-29", 1, "year"]"#, #""2017-03-01T00:00:00Z""#),
            (#"["DATE_ADD_STR()", "2016-01-01T00:00:00-07:00", 1, "day"]"#, #""2016-01-02T00:00:00-0700""#),
            (#"["DATE_ADD_STR()", "2018-01-01T10:00:00.500+05:30", 1, "millisecond"]"#, #""2018-01-01T10:00:00.501+0530""#),
            (#"["DATE_ADD_STR()", "2018-10-23T18:33:01", 1, "hour"]"#, #""2018-10-23T19:33:01Z""#),   // no zone: UTC
            (#"["DATE_ADD_STR()", "2018-01-01", 1, "day", "%F %T"]"#, #""2018-01-02 00:00:00""#),
            (#"["DATE_ADD_STR()", "2018-01-01", 1.0, "day"]"#, #""2018-01-02T00:00:00Z""#),
            (#"["DATE_ADD_STR()", "0001-01-01", -1, "day"]"#, #""0000-12-31T00:00:00Z""#),
            (#"["DATE_ADD_STR()", "0000-03-01", -1, "day"]"#, #""0000-02-29T00:00:00Z""#),
            (#"["DATE_ADD_STR()", "-0001-03-01", -1, "day"]"#, #""-0001-02-28T00:00:00Z""#),
            // Always ISO-8601 unless a format is given, whatever the input's shape (QueryTest.cc "Query Date Functions").
            (#"["DATE_ADD_STR()", "2018-01-01", 1, "century"]"#, #""2118-01-01T00:00:00Z""#),
            (#"["DATE_ADD_STR()", "2018-01-01", 1, "century", "1111-11-11"]"#, #""2118-01-01""#),
            (#"["DATE_ADD_STR()", "2018-01-01", 9223372036854775807, "day"]"#, "null"),
            (#"["DATE_ADD_STR()", "2018-01-01", -9223372036854775808, "millennium"]"#, "null"),
            (#"["DATE_ADD_STR()", "2018-01-01", 1000, "millennium"]"#, "null"),
            (#"["DATE_ADD_MILLIS()", 0, -1, "day"]"#, "-86400000"),
            (#"["DATE_ADD_MILLIS()", 0, 1, "quarter"]"#, "7776000000"),
            (#"["DATE_ADD_MILLIS()", 8640000000000000, 1, "millisecond"]"#, "null"),
            (#"["DATE_ADD_MILLIS()", 8640000000000000, -1, "millisecond"]"#, "8639999999999999"),
        ])
    }

    /// Local time comes from TimeZone.current (which honours TZ): expectations
    /// are computed from it, so these hold in any zone.
    func testLocalTimeAssumptions() throws {
        let zone = TimeZone.current
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let local = try XCTUnwrap(calendar.date(from: DateComponents(year: 2018, month: 10, day: 23, hour: 18, minute: 33, second: 1)))
        let localMillis = Int64((local.timeIntervalSince1970 * 1000).rounded())
        let instant = Date(timeIntervalSince1970: 1540319581.123)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        let offset = zone.secondsFromGMT(for: instant) / 60
        let zoneText = offset == 0 ? "Z" : String(format: "%@%02d%02d", offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60)
        let localText = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.123", parts.year!, parts.month!, parts.day!,
                               parts.hour!, parts.minute!, parts.second!) + zoneText
        try check([
            (#"["STR_TO_MILLIS()", "2018-10-23T18:33:01"]"#, "\(localMillis)"),
            (#"["STR_TO_MILLIS()", "2018-10-23 18:33:01.000"]"#, "\(localMillis)"),
            (#"["STR_TO_UTC()", "2018-10-23T18:33:01", "%FT%T%z"]"#, "\"\(utcText(localMillis))\""),
            (#"["STR_TO_TZ()", "2018-10-23T18:33:01", 0]"#, "\"\(utcText(localMillis))\""),
            (#"["MILLIS_TO_STR()", 1540319581123]"#, "\"\(localText)\""),
            (#"["STR_TO_MILLIS()", ["MILLIS_TO_STR()", 1540319581123]]"#, "1540319581123"),
            (#"["DATE_DIFF_STR()", "2018-10-23T18:33:01", "2018-10-23T18:33:01Z", "millisecond"]"#, "0"),   // as written
        ])
    }

    /// The UTC ISO text of `millis` within years 1970…9999, by Foundation.
    private func utcText(_ millis: Int64) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSince1970: Double(millis) / 1000))
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.year!, parts.month!, parts.day!,
                      parts.hour!, parts.minute!, parts.second!)
    }

    func testArityErrorsAndGroupedArguments() throws {
        assertThrows(.invalidQuery, containing: "WHAT[0]: str_to_millis() takes 1 argument, got 0") {
            _ = try self.db.createQuery(json: #"{"WHAT": [["STR_TO_MILLIS()"]]}"#)
        }
        assertThrows(.invalidQuery, containing: "WHERE: date_add_str() takes 3 or 4 arguments, got 2") {
            _ = try self.db.createQuery(json: #"{"WHERE": ["date_add_str()", "2018-01-01", 1]}"#)
        }
        assertThrows(.invalidQuery, containing: "WHAT[0][2]: unknown function 'frobnicate()'") {
            _ = try self.db.createQuery(json: #"{"WHAT": [["MILLIS_TO_UTC()", 0, ["FROBNICATE()"]]]}"#)
        }
        try load([("other", #"{"ms": 0, "t": false}"#)])
        XCTAssertEqual(try rows(#"{"WHAT": [["MILLIS_TO_UTC()", [".ms"]], ["MILLIS_TO_UTC()", ["MAX()", [".ms"]]], ["MILLIS_TO_UTC()", [".t"]]], "#
                                + #""GROUP_BY": [[".ms"], [".t"]], "ORDER_BY": [[".ms"]]}"#).map { $0.map { $0?.json } },
                       [[#""1970-01-01T00:00:00Z""#, #""1970-01-01T00:00:00Z""#, "null"],
                        [#""2018-10-23T18:33:01Z""#, #""2018-10-23T18:33:01Z""#, "null"]])
        XCTAssertEqual(try ids(#"{"WHAT": [["._id"]], "WHERE": ["<", ["STR_TO_MILLIS()", "2000-01-01T00:00:00Z"], [".ms"]]}"#), ["probe"])
    }

    // MARK: Random inputs

    /// Random byte strings, many close to dates and formats, some invalid UTF-8.
    private func randomInputs(count: Int) -> [[UInt8]] {
        var random = SeededRandom(seed: 0xDA7E)
        let alphabet = Array("0123456789-:T .Zz+%FYmdHMSsEzx/".utf8)
        let seeds = ["2018-10-23T18:33:01.123+05:30", "-0001-02-29 23:59", "%FT%T%.s%Ez", "1111-11-11 11:11:11.111Z", "2016-02-29"]
        return (0..<count).map { i in
            switch i % 3 {
            case 0:   // a seed with random edits
                var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &random)].utf8)
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = alphabet.randomElement(using: &random)!
                }
                return Bool.random(using: &random) ? bytes : Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            case 1:
                return (0..<Int.random(in: 0...32, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            default:   // any bytes: invalid UTF-8, NULs
                return (0..<Int.random(in: 0...24, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
        }
    }

    func testRandomStringsGiveResultsOrNullNeverACrash() throws {
        let sql = """
            SELECT str_to_millis(CAST(?1 AS TEXT)), str_to_millis(str_to_utc(CAST(?1 AS TEXT))),
                   date_add_str(CAST(?1 AS TEXT), 1, 'day'), date_diff_str(CAST(?1 AS TEXT), '2018-01-01', 'day'),
                   millis_to_utc(1540319581123, CAST(?1 AS TEXT)), date_add_str('2018-01-01', 1, CAST(?1 AS TEXT))
            """
        var parsed = 0
        try db.read { connection in
            try connection.withStatement(sql) { statement in
                for input in randomInputs(count: 4000) {
                    statement.reset()
                    statement.bind(1, input)
                    XCTAssertTrue(try statement.step())
                    let millis = sqlite3_column_type(statement.handle, 0) == SQLITE_INTEGER ? statement.int64(0) : nil
                    for (column, type) in [SQLITE_INTEGER, SQLITE_INTEGER, SQLITE_TEXT, SQLITE_INTEGER, SQLITE_TEXT, SQLITE_TEXT].enumerated() {
                        switch sqlite3_column_type(statement.handle, Int32(column)) {
                        case SQLITE_NULL: break   // MISSING
                        case SQLITE_BLOB: XCTAssertEqual(statement.bytes(Int32(column)), [], "column \(column) of \(input)")   // null
                        case let found: XCTAssertEqual(found, type, "column \(column) of \(input)")
                        }
                    }
                    if let millis {
                        parsed += 1
                        XCTAssertEqual(statement.int64(1), millis, "str_to_utc round trip of \(input)")
                        XCTAssertEqual(sqlite3_column_type(statement.handle, 2), SQLITE_TEXT, "date_add_str of \(input)")
                    }
                    XCTAssertEqual(sqlite3_column_type(statement.handle, 4), SQLITE_TEXT)   // any format string writes something
                }
            }
        }
        XCTAssertGreaterThan(parsed, 100)   // the inputs do reach the valid paths
    }

    func testMillisRoundTripExactlyAcrossYearsMinus9999To9999() throws {
        let sql = """
            SELECT str_to_millis(millis_to_utc(?1)), str_to_millis(millis_to_tz(?1, ?2)), str_to_millis(millis_to_str(?1)),
                   str_to_millis(millis_to_tz(?1, ?2, '1111-11-11 11:11:11.111+11:11')), millis_to_utc(?1)
            """
        var random = SeededRandom(seed: 42)
        let range: ClosedRange<Int64> = -377_705_116_800_000...253_402_300_799_999   // -9999-01-01 … 9999-12-31T23:59:59.999
        try db.read { connection in
            try connection.withStatement(sql) { statement in
                for i in 0..<5000 {
                    let millis = i < 2 ? (i == 0 ? range.lowerBound : range.upperBound) : Int64.random(in: range, using: &random)
                    statement.reset()
                    statement.bind(1, millis)
                    statement.bind(2, Int64.random(in: -1439...1439, using: &random))
                    XCTAssertTrue(try statement.step())
                    for column: Int32 in 0...3 { XCTAssertEqual(statement.optionalInt64(column), millis, "column \(column), \(millis)") }
                    if millis >= 0 {   // Foundation's Gregorian calendar agrees where it is proleptic
                        XCTAssertEqual(statement.string(4).replacingOccurrences(of: #"\.\d{3}"#, with: "", options: .regularExpression),
                                       utcText(millis))
                    }
                }
            }
        }
    }
}
