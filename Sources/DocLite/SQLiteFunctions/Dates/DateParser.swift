/// A date string as ``DateParser`` read it.
struct ParsedDate {
    /// The date and time as written, in wall milliseconds (``CivilTime``).
    var wallMillis: Int64
    /// The zone written, in minutes east of UTC; nil when the string has none.
    var offsetMinutes: Int64?

    /// The instant written (a string without a zone is in the device's local
    /// time); nil beyond ``CivilTime/maxMillis``.
    var instant: Int64? {
        let instant = offsetMinutes.map { wallMillis - $0 * CivilTime.millisPerMinute } ?? LocalZone.instant(ofWall: wallMillis)
        return instant.magnitude <= CivilTime.maxMillis ? instant : nil
    }
}

/// Parses the date strings of the query language's date functions:
/// `[-]YYYY-MM-DD` (years of up to 6 digits are read too, as far as
/// ``CivilTime/maxMillis``, so that every date written reads back), then optionally `T` or spaces and `HH:MM[:SS[.fraction]]`,
/// then optionally a zone `Z`, `z`, `±HH:MM` or `±HHMM`. Fields are
/// range-checked (the day against its month and leap years); the fraction
/// is truncated to milliseconds. Reads bytes, so any input is safe.
enum DateParser {
    /// The date in `text`, or nil when it is not one.
    static func parse(_ text: UnsafeRawBufferPointer) -> ParsedDate? {
        var scanner = ByteScanner(text)
        let negative = scanner.skip(UInt8(ascii: "-"))
        guard let digits = scanner.number(digits: 4...6), scanner.skip(UInt8(ascii: "-")),
              let month = scanner.number(digits: 2), scanner.skip(UInt8(ascii: "-")),
              let day = scanner.number(digits: 2) else { return nil }
        let year = negative ? -digits : digits
        guard (1...12).contains(month), (1...CivilTime.daysInMonth(month, of: year)).contains(day) else { return nil }
        var wall = CivilTime.days(from: CivilTime.CalendarDate(year: year, month: month, day: day)) * CivilTime.millisPerDay

        if scanner.skip(UInt8(ascii: "T")) || scanner.skipAll(UInt8(ascii: " ")) {
            guard let timeOfDay = parseTime(&scanner) else { return nil }
            wall += timeOfDay
        }
        guard wall.magnitude <= CivilTime.maxMillis + CivilTime.millisPerDay else { return nil }   // any zone's wall time of an instant in range
        var offset: Int64?
        if !scanner.atEnd {
            guard let zone = parseZone(&scanner), scanner.atEnd else { return nil }
            offset = zone
        }
        return ParsedDate(wallMillis: wall, offsetMinutes: offset)
    }

    /// `HH:MM[:SS[.fraction]]` as milliseconds into the day.
    private static func parseTime(_ scanner: inout ByteScanner) -> Int64? {
        guard let hour = scanner.number(digits: 2), scanner.skip(UInt8(ascii: ":")),
              let minute = scanner.number(digits: 2), hour < 24, minute < 60 else { return nil }
        var second: Int64 = 0, millis: Int64 = 0
        if scanner.skip(UInt8(ascii: ":")) {
            guard let seconds = scanner.number(digits: 2), seconds < 60 else { return nil }
            second = seconds
            if scanner.skip(UInt8(ascii: ".")) {
                var scale: Int64 = 100, count = 0
                while let digit = scanner.digit() {
                    millis += digit * scale
                    scale /= 10
                    count += 1
                }
                guard count > 0 else { return nil }
            }
        }
        return hour * CivilTime.millisPerHour + minute * CivilTime.millisPerMinute + second * CivilTime.millisPerSecond + millis
    }

    /// `Z`, `z`, `±HH:MM` or `±HHMM` as minutes east of UTC.
    private static func parseZone(_ scanner: inout ByteScanner) -> Int64? {
        if scanner.skip(UInt8(ascii: "Z")) || scanner.skip(UInt8(ascii: "z")) { return 0 }
        let sign: Int64
        if scanner.skip(UInt8(ascii: "+")) { sign = 1 } else if scanner.skip(UInt8(ascii: "-")) { sign = -1 } else { return nil }
        guard let hours = scanner.number(digits: 2) else { return nil }
        _ = scanner.skip(UInt8(ascii: ":"))
        guard let minutes = scanner.number(digits: 2), hours < 24, minutes < 60 else { return nil }
        return sign * (hours * 60 + minutes)
    }
}

/// A forward reader over the bytes of a date or format string.
struct ByteScanner {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var atEnd: Bool { position >= bytes.count }

    /// The next byte, not consumed.
    var next: UInt8? { atEnd ? nil : bytes[position] }

    /// Consumes `byte` if it comes next.
    mutating func skip(_ byte: UInt8) -> Bool {
        guard next == byte else { return false }
        position += 1
        return true
    }

    /// Consumes one or more `byte`s; false when none comes next.
    mutating func skipAll(_ byte: UInt8) -> Bool {
        guard skip(byte) else { return false }
        while skip(byte) {}
        return true
    }

    /// Consumes `literal` if it comes next.
    mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        for i in 0..<count where bytes[position + i] != literal.utf8Start[i] { return false }
        position += count
        return true
    }

    /// Runs `match`; when it fails, moves back to where it started.
    mutating func backtracking(_ match: (inout ByteScanner) -> Bool) -> Bool {
        let start = position
        guard match(&self) else { position = start; return false }
        return true
    }

    /// Consumes one ASCII digit and returns its value.
    mutating func digit() -> Int64? {
        guard let byte = next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        position += 1
        return Int64(byte - UInt8(ascii: "0"))
    }

    /// Consumes exactly `digits` ASCII digits and returns their value; consumes nothing when they are not there.
    mutating func number(digits: Int) -> Int64? {
        number(digits: digits...digits)
    }

    /// Consumes as many ASCII digits as come next, up to `digits.upperBound`
    /// (at most 18), and returns their value; consumes nothing when fewer than `digits.lowerBound` come.
    mutating func number(digits: ClosedRange<Int>) -> Int64? {
        let start = position
        var value: Int64 = 0, count = 0
        while count < digits.upperBound, let digit = digit() {
            value = value * 10 + digit
            count += 1
        }
        guard count >= digits.lowerBound else { position = start; return nil }
        return value
    }
}
