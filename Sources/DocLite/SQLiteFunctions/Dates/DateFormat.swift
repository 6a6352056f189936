/// How a date function writes a date: which parts, in which style. Read
/// from a format argument (``init(argument:)``) and written without
/// allocating (``withText(wallMillis:offsetMinutes:_:)``).
struct DateFormat: Equatable {
    /// How the calendar date is written, if at all.
    enum DateStyle { case none, dashes, slashes }
    /// How the zone is written, if at all: `Z` for UTC, otherwise `±hhmm` or `±hh:mm`.
    enum ZoneStyle { case none, compact, colon }

    var date: DateStyle
    /// The byte between the date and the time when both are written (`T` or space).
    var separator: UInt8 = UInt8(ascii: "T")
    var time: Bool
    /// Whether the time has `.mmm`; written only when the milliseconds are not zero.
    var millis: Bool
    var zone: ZoneStyle

    /// The default: `YYYY-MM-DDThh:mm:ss[.mmm]` and `Z` or `±hhmm`.
    static let iso = DateFormat(date: .dashes, time: true, millis: true, zone: .compact)

    init(date: DateStyle, time: Bool, millis: Bool, zone: ZoneStyle) {
        (self.date, self.time, self.millis, self.zone) = (date, time, millis, zone)
    }

    /// The format a format argument asks for; ``iso`` when it asks for none.
    /// An argument is a sequence of parts, each given by example or by
    /// strftime-like tokens:
    /// - date: `1111-11-11`, `%Y-%m-%d` or `%F` (dashes); `%Y/%m/%d` (slashes);
    /// - then, if there is a date and a time, `T` or a space;
    /// - time: `11:11:11`, `%H:%M:%S` or `%T`;
    /// - milliseconds, after a time: `.111` (any number of digits), `%s` or `%.s`;
    /// - zone: `Z` or `+0900` or `%z` (compact); `+09:00` or `%Ez` (with a colon).
    init(argument text: UnsafeRawBufferPointer) {
        var scanner = ByteScanner(text)
        var format = DateFormat(date: .none, time: false, millis: false, zone: .none)
        if scanner.skip("%F") || scanner.skip("%Y-%m-%d") || scanner.backtracking(Self.skipDashedExample) {
            format.date = .dashes
        } else if scanner.skip("%Y/%m/%d") {
            format.date = .slashes
        }
        if format.date != .none, let byte = scanner.next, byte == UInt8(ascii: "T") || byte == UInt8(ascii: " ") {
            format.separator = byte
            _ = scanner.skip(byte)
            guard scanner.backtracking(Self.skipTime) else { self = .iso; return }
            format.time = true
        } else if format.date == .none {
            format.time = scanner.backtracking(Self.skipTime)
        }
        if format.time {
            format.millis = scanner.skip("%s") || scanner.skip("%.s") || scanner.backtracking(Self.skipFractionExample)
        }
        if scanner.skip("%Ez") {
            format.zone = .colon
        } else if scanner.skip("%z") || scanner.skip(UInt8(ascii: "Z")) {
            format.zone = .compact
        } else if scanner.skip(UInt8(ascii: "+")) || scanner.skip(UInt8(ascii: "-")) {
            guard scanner.number(digits: 2) != nil else { self = .iso; return }
            format.zone = scanner.skip(UInt8(ascii: ":")) ? .colon : .compact
            guard scanner.number(digits: 2) != nil else { self = .iso; return }
        }
        self = scanner.atEnd && (format.date != .none || format.time) ? format : .iso
    }

    private static func skipDashedExample(_ scanner: inout ByteScanner) -> Bool {
        scanner.number(digits: 4) != nil && scanner.skip(UInt8(ascii: "-")) && scanner.number(digits: 2) != nil
            && scanner.skip(UInt8(ascii: "-")) && scanner.number(digits: 2) != nil
    }

    private static func skipTime(_ scanner: inout ByteScanner) -> Bool {
        scanner.skip("%T") || scanner.skip("%H:%M:%S")
            || (scanner.number(digits: 2) != nil && scanner.skip(UInt8(ascii: ":")) && scanner.number(digits: 2) != nil
                && scanner.skip(UInt8(ascii: ":")) && scanner.number(digits: 2) != nil)
    }

    private static func skipFractionExample(_ scanner: inout ByteScanner) -> Bool {
        guard scanner.skip(UInt8(ascii: ".")), scanner.digit() != nil else { return false }
        while scanner.digit() != nil {}
        return true
    }

    /// The longest text: a 19-digit signed year, `-MM-DD`, separator, `hh:mm:ss.mmm`, `+hh:mm`.
    private static let capacity = 48

    /// Calls `use` with the UTF-8 text of wall time `wallMillis` in a zone
    /// `offsetMinutes` east of UTC (the offset is written only if the format has a zone).
    func withText<R>(wallMillis: Int64, offsetMinutes: Int64, _ use: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.capacity) { buffer in
            var writer = Writer(buffer: buffer)
            if date != .none {
                let day = CivilTime.date(ofWall: wallMillis)
                let dash = date == .slashes ? UInt8(ascii: "/") : UInt8(ascii: "-")
                if day.year < 0 { writer.append(UInt8(ascii: "-")) }
                writer.append(day.year.magnitude, width: 4)
                writer.append(dash)
                writer.append(UInt64(day.month), width: 2)
                writer.append(dash)
                writer.append(UInt64(day.day), width: 2)
                if time { writer.append(separator) }
            }
            if time {
                let millisOfDay = UInt64(CivilTime.millisOfDay(wallMillis))
                writer.append(millisOfDay / 3_600_000, width: 2)
                writer.append(UInt8(ascii: ":"))
                writer.append(millisOfDay / 60_000 % 60, width: 2)
                writer.append(UInt8(ascii: ":"))
                writer.append(millisOfDay / 1000 % 60, width: 2)
                if millis, millisOfDay % 1000 != 0 {
                    writer.append(UInt8(ascii: "."))
                    writer.append(millisOfDay % 1000, width: 3)
                }
            }
            if zone != .none {
                if offsetMinutes == 0 {
                    writer.append(UInt8(ascii: "Z"))
                } else {
                    writer.append(offsetMinutes < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                    writer.append(offsetMinutes.magnitude / 60, width: 2)
                    if zone == .colon { writer.append(UInt8(ascii: ":")) }
                    writer.append(offsetMinutes.magnitude % 60, width: 2)
                }
            }
            return use(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[..<writer.count]))
        }
    }

    /// Appends ASCII to a fixed buffer; bytes past its end are dropped.
    private struct Writer {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func append(_ byte: UInt8) {
            guard count < buffer.count else { return }
            buffer[count] = byte
            count += 1
        }

        /// Appends `value` in decimal, zero-padded to at least `width` digits.
        mutating func append(_ value: UInt64, width: Int) {
            var digits = 1, scale: UInt64 = 1
            while value / scale >= 10 { scale *= 10; digits += 1 }
            for _ in digits..<max(width, digits) { append(UInt8(ascii: "0")) }
            while scale > 0 {
                append(UInt8(ascii: "0") + UInt8(value / scale % 10))
                scale /= 10
            }
        }
    }
}
