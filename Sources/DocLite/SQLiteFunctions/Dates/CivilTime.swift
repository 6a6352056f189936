/// Proleptic Gregorian calendar arithmetic on "wall milliseconds": the
/// milliseconds since 1970-01-01T00:00:00 of a date and time as written in
/// some zone (the UTC instant when the zone is UTC). Pure integer math, no
/// Foundation: days from a civil date and back with the 400-year era method.
enum CivilTime {
    static let millisPerSecond: Int64 = 1000
    static let millisPerMinute: Int64 = 60_000
    static let millisPerHour: Int64 = 3_600_000
    static let millisPerDay: Int64 = 86_400_000

    /// The instants the date functions accept: ±8.64e15 ms (±100,000,000 days,
    /// about years -271821…275760, the ECMAScript range). Wall times stay
    /// within it plus a day, so no arithmetic on them can overflow.
    static let maxMillis: Int64 = 8_640_000_000_000_000

    /// A calendar date.
    struct CalendarDate: Equatable {
        var year: Int64
        var month: Int64   // 1…12
        var day: Int64     // 1…31
    }

    /// Floor division (rounds towards negative infinity); `divisor` > 0.
    @inline(__always)
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// Whether `year` is a Gregorian leap year.
    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days of `month` (1…12) in `year`.
    static func daysInMonth(_ month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of `date`; a day past the end of the month
    /// continues into the next ones. |year| must be below 10^12.
    static func days(from date: CalendarDate) -> Int64 {
        // Years counted from March, so that the leap day ends the year.
        let year = date.month <= 2 ? date.year - 1 : date.year
        let era = floorDivide(year, 400)
        let yearOfEra = year - era * 400                                        // 0…399
        let dayOfYear = (153 * ((date.month + 9) % 12) + 2) / 5 + date.day - 1  // from March 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date `days` days after 1970-01-01.
    static func date(fromDays days: Int64) -> CalendarDate {
        let shifted = days + 719_468                                            // days since 0000-03-01
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097                                  // 0…146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153                              // 0 = March
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return CalendarDate(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// The calendar date of wall time `millis`.
    static func date(ofWall millis: Int64) -> CalendarDate {
        date(fromDays: floorDivide(millis, millisPerDay))
    }

    /// The milliseconds into its day of wall time `millis` (0 ..< millisPerDay).
    static func millisOfDay(_ millis: Int64) -> Int64 {
        millis - floorDivide(millis, millisPerDay) * millisPerDay
    }
}
