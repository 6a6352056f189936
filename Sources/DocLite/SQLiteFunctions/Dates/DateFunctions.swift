import CSQLite

/// The SQL date functions (``DateFunction``), registered on
/// every connection under their JSON names.
///
/// A MISSING (NULL) argument gives MISSING; otherwise a JSON null argument
/// gives null; otherwise a string that is not a date, a millis, amount or
/// zone offset that is not a number (booleans are not), a format that is not
/// a string, or an instant beyond ``CivilTime/maxMillis`` gives null. An
/// unknown component gives MISSING in `date_diff_*` and null in `date_add_*`.
/// Millis are milliseconds since the epoch (a double is floored); zone
/// offsets are minutes east of UTC (less than a day).
///
/// Zones: `str_to_*` read a string without a zone as local time;
/// `date_diff_str` compares the dates as written (zones ignored);
/// `date_add_str` computes on the date as written and keeps its zone (none: UTC);
/// every function writes ISO-8601 unless given a format, whatever the input's
/// shape (LiteCore's rule since Couchbase Lite 3.1: `'2018-01-01'` + 1 century
/// is `'2118-01-01T00:00:00Z'`);
/// `millis_to_str` writes local time, `*_to_utc` UTC, `*_to_tz` the given offset;
/// `date_*_millis` compute in UTC.
enum DateFunctions {
    /// The functions, indexed by the user data they are registered with (index + 1).
    private static let functions = DateFunction.allCases

    static func register(with registrar: FunctionRegistrar) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS | SQLITE_SUBTYPE
        for (index, function) in functions.enumerated() {
            for arity in function.arity {
                sqlite3_create_function_v2(registrar.connection.handle, function.rawValue, Int32(arity), flags,
                                           UnsafeMutableRawPointer(bitPattern: index + 1), { context, argc, argv in
                    guard let argv else { return sqlite3_result_null(context) }
                    let function = DateFunctions.functions[Int(bitPattern: sqlite3_user_data(context)) - 1]
                    DateFunctions.setResult(context, DateFunctions.evaluate(function, Arguments(values: argv, count: Int(argc))))
                }, nil, nil, nil)
            }
        }
    }

    /// What a date function returns.
    private enum Result {
        case missing, null
        case integer(Int64)
        /// A date written with a format (no text is made until the result is set).
        case text(wallMillis: Int64, offsetMinutes: Int64, format: DateFormat)

        /// The instant written in the zone `offsetMinutes` east of UTC.
        static func text(instant: Int64, offsetMinutes: Int64, format: DateFormat) -> Result {
            .text(wallMillis: instant + offsetMinutes * CivilTime.millisPerMinute, offsetMinutes: offsetMinutes, format: format)
        }
    }

    private static func evaluate(_ function: DateFunction, _ arguments: Arguments) -> Result {
        if arguments.containsMissing { return .missing }
        if arguments.containsNull { return .null }
        switch function {
        case .strToMillis:
            guard let instant = arguments.date(0)?.instant else { return .null }
            return .integer(instant)
        case .strToUTC:
            guard let instant = arguments.date(0)?.instant, let format = arguments.format(1) else { return .null }
            return .text(instant: instant, offsetMinutes: 0, format: format)
        case .strToTZ:
            guard let instant = arguments.date(0)?.instant, let offset = arguments.zoneOffset(1),
                  let format = arguments.format(2) else { return .null }
            return .text(instant: instant, offsetMinutes: offset, format: format)
        case .millisToStr:
            guard let millis = arguments.millis(0), let format = arguments.format(1) else { return .null }
            return .text(instant: millis, offsetMinutes: LocalZone.offsetMinutes(at: millis), format: format)
        case .millisToUTC:
            guard let millis = arguments.millis(0), let format = arguments.format(1) else { return .null }
            return .text(instant: millis, offsetMinutes: 0, format: format)
        case .millisToTZ:
            guard let millis = arguments.millis(0), let offset = arguments.zoneOffset(1), let format = arguments.format(2) else { return .null }
            return .text(instant: millis, offsetMinutes: offset, format: format)
        case .dateDiffStr:
            guard let component = arguments.component(2) else { return .missing }
            guard let end = arguments.date(0), let start = arguments.date(1) else { return .null }
            return .integer(component.difference(from: start.wallMillis, to: end.wallMillis))
        case .dateDiffMillis:
            guard let component = arguments.component(2) else { return .missing }
            guard let end = arguments.millis(0), let start = arguments.millis(1) else { return .null }
            return .integer(component.difference(from: start, to: end))
        case .dateAddStr:
            guard let date = arguments.date(0), let amount = arguments.integer(1), let component = arguments.component(2),
                  let format = arguments.format(3),
                  let wall = component.adding(amount, to: date.wallMillis) else { return .null }
            return .text(wallMillis: wall, offsetMinutes: date.offsetMinutes ?? 0, format: format)
        case .dateAddMillis:
            guard let millis = arguments.millis(0), let amount = arguments.integer(1), let component = arguments.component(2),
                  let sum = component.adding(amount, to: millis) else { return .null }
            return .integer(sum)
        }
    }

    private static func setResult(_ context: OpaquePointer?, _ result: Result) {
        switch result {
        case .missing:
            sqlite3_result_null(context)
        case .null:
            sqlite3_result_zeroblob(context, 0)
        case .integer(let value):
            sqlite3_result_int64(context, value)
        case .text(let wall, let offset, let format):
            format.withText(wallMillis: wall, offsetMinutes: offset) { text in
                sqlite3_result_text(context, text.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(text.count), csqlite_transient())
            }
        }
    }

    /// The SQL arguments of one call, read as the date functions take them.
    private struct Arguments {
        let values: UnsafeMutablePointer<OpaquePointer?>
        let count: Int

        var containsMissing: Bool { (0..<count).contains { sqlite3_value_type(values[$0]) == SQLITE_NULL } }

        var containsNull: Bool {
            (0..<count).contains { sqlite3_value_type(values[$0]) == SQLITE_BLOB && sqlite3_value_bytes(values[$0]) == 0 }
        }

        private func type(_ index: Int) -> Int32 { sqlite3_value_type(values[index]) }

        /// The date in a string argument.
        func date(_ index: Int) -> ParsedDate? {
            type(index) == SQLITE_TEXT ? DateParser.parse(BodyFunctions.rawText(values[index])) : nil
        }

        /// The component named by a string argument.
        func component(_ index: Int) -> DateComponent? {
            type(index) == SQLITE_TEXT ? DateComponent(name: BodyFunctions.rawText(values[index])) : nil
        }

        /// The format argument at `index`: ``DateFormat/iso`` when there is none,
        /// nil when it is not a string (a string that is no format is ISO too).
        func format(_ index: Int) -> DateFormat? {
            guard index < count else { return .iso }
            return type(index) == SQLITE_TEXT ? DateFormat(argument: BodyFunctions.rawText(values[index])) : nil
        }

        /// A number argument (a boolean is none): an integer, or a finite double.
        private func number(_ index: Int) -> (integer: Int64?, real: Double)? {
            let value = values[index]
            switch sqlite3_value_type(value) {
            case SQLITE_INTEGER where sqlite3_value_subtype(value) != RuntimeSubtype.boolean:
                let integer = sqlite3_value_int64(value)
                return (integer, Double(integer))
            case SQLITE_FLOAT:
                let real = sqlite3_value_double(value)
                return real.isFinite ? (nil, real) : nil
            default:
                return nil
            }
        }

        /// An integral number argument.
        func integer(_ index: Int) -> Int64? {
            guard let number = number(index) else { return nil }
            return number.integer ?? Int64(exactly: number.real)
        }

        /// A millis argument: a number, floored, within ``CivilTime/maxMillis``.
        func millis(_ index: Int) -> Int64? {
            guard let number = number(index),
                  let millis = number.integer ?? Int64(exactly: number.real.rounded(.down)),
                  millis.magnitude <= CivilTime.maxMillis else { return nil }
            return millis
        }

        /// A zone offset argument: an integral number of minutes, less than a day either way.
        func zoneOffset(_ index: Int) -> Int64? {
            guard let minutes = integer(index), minutes.magnitude < 24 * 60 else { return nil }
            return minutes
        }
    }
}
