import Foundation

/// A date component named by the `part` argument of `date_diff_*` and
/// `date_add_*` (case-insensitive), with Couchbase Server's calendar
/// arithmetic on wall milliseconds (``CivilTime``).
enum DateComponent {
    case millisecond, second, minute, hour, day, week, month, quarter, year, decade, century, millennium

    /// Each component's name, lowercase.
    private static let names: [(StaticString, DateComponent)] = [
        ("millisecond", .millisecond), ("second", .second), ("minute", .minute), ("hour", .hour),
        ("day", .day), ("week", .week), ("month", .month), ("quarter", .quarter), ("year", .year),
        ("decade", .decade), ("century", .century), ("millennium", .millennium),
    ]

    /// The component named `name` in any case; nil for any other text.
    init?(name: UnsafeRawBufferPointer) {
        func lowercased(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        }
        for (candidate, component) in Self.names where candidate.utf8CodeUnitCount == name.count {
            if (0..<name.count).allSatisfy({ lowercased(name[$0]) == candidate.utf8Start[$0] }) {
                self = component
                return
            }
        }
        return nil
    }

    /// The fixed length of the component in milliseconds (up to a week).
    private var millis: Int64? {
        switch self {
        case .millisecond: return 1
        case .second: return CivilTime.millisPerSecond
        case .minute: return CivilTime.millisPerMinute
        case .hour: return CivilTime.millisPerHour
        case .day: return CivilTime.millisPerDay
        case .week: return 7 * CivilTime.millisPerDay
        default: return nil
        }
    }

    /// The component's length in calendar months (from a month up).
    private var months: Int64 {
        switch self {
        case .month: return 1
        case .quarter: return 3
        case .year: return 12
        case .decade: return 120
        case .century: return 1200
        default: return 12_000   // millennium
        }
    }

    /// `wall` plus `amount` of this component; nil when the result is out of
    /// range (``CivilTime/maxMillis``). Calendar units keep the day of the
    /// month, which overflows into the next month (Jan 31 + 1 month = Mar 3, or 2 in leap years).
    func adding(_ amount: Int64, to wall: Int64) -> Int64? {
        let result: Int64
        if let length = millis {
            let (delta, overflow) = amount.multipliedReportingOverflow(by: length)
            guard !overflow else { return nil }
            let (sum, sumOverflow) = wall.addingReportingOverflow(delta)
            guard !sumOverflow else { return nil }
            result = sum
        } else {
            let (delta, overflow) = amount.multipliedReportingOverflow(by: months)
            // Beyond a million years either way the result is out of range anyway.
            guard !overflow, delta.magnitude < 12_000_000 else { return nil }
            let date = CivilTime.date(ofWall: wall)
            let monthIndex = date.year * 12 + date.month - 1 + delta
            let target = CivilTime.CalendarDate(year: CivilTime.floorDivide(monthIndex, 12),
                                                month: monthIndex - CivilTime.floorDivide(monthIndex, 12) * 12 + 1, day: date.day)
            result = CivilTime.days(from: target) * CivilTime.millisPerDay + CivilTime.millisOfDay(wall)
        }
        return result.magnitude <= CivilTime.maxMillis ? result : nil
    }

    /// The number of this component's boundaries between wall times `end`
    /// and `start` (`end - start`, as Couchbase Server counts: 2018-01-01 minus
    /// 2017-12-31 is one year). Weeks are whole 7-day spans of the day difference.
    /// Both must be within ``CivilTime/maxMillis``.
    func difference(from start: Int64, to end: Int64) -> Int64 {
        switch self {
        case .millisecond:
            return end - start
        case .second, .minute, .hour, .day:
            let length = millis ?? 1
            return CivilTime.floorDivide(end, length) - CivilTime.floorDivide(start, length)
        case .week:
            return DateComponent.day.difference(from: start, to: end) / 7
        case .month, .quarter:
            func monthIndex(_ wall: Int64) -> Int64 {
                let date = CivilTime.date(ofWall: wall)
                return CivilTime.floorDivide(date.year * 12 + date.month - 1, months)
            }
            return monthIndex(end) - monthIndex(start)
        case .year, .decade, .century, .millennium:
            let years = months / 12
            return CivilTime.floorDivide(CivilTime.date(ofWall: end).year, years)
                - CivilTime.floorDivide(CivilTime.date(ofWall: start).year, years)
        }
    }
}

/// The device's time zone, for the functions that assume or write local
/// time. Read once, as Foundation does (`TimeZone.current` honours `TZ`).
/// Offsets are whole minutes, as the date strings write them.
enum LocalZone {
    private static let zone = TimeZone.current

    /// The local zone's offset at `instant` (milliseconds since the epoch), in minutes east of UTC.
    static func offsetMinutes(at instant: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000)) / 60)
    }

    /// The instant at which local clocks show wall time `wall` (in a
    /// transition's gap or overlap, one of the two nearby offsets applies).
    static func instant(ofWall wall: Int64) -> Int64 {
        let guess = wall - offsetMinutes(at: wall) * CivilTime.millisPerMinute
        return wall - offsetMinutes(at: guess) * CivilTime.millisPerMinute
    }
}
