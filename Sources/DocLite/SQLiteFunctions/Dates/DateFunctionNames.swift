/// The date functions of the query language (Couchbase Lite's `MILLIS_TO_STR`,
/// `DATE_DIFF_STR`, …; lower case in the JSON form): their
/// JSON names, which are also their SQL names (``DateFunctions``), and arities.
enum DateFunction: String, CaseIterable {
    case strToMillis = "str_to_millis"
    case strToUTC = "str_to_utc"
    case strToTZ = "str_to_tz"
    case millisToStr = "millis_to_str"
    case millisToUTC = "millis_to_utc"
    case millisToTZ = "millis_to_tz"
    case dateDiffStr = "date_diff_str"
    case dateDiffMillis = "date_diff_millis"
    case dateAddStr = "date_add_str"
    case dateAddMillis = "date_add_millis"

    /// How many arguments the function takes.
    var arity: ClosedRange<Int> {
        switch self {
        case .strToMillis: return 1...1
        case .strToUTC, .millisToStr, .millisToUTC: return 1...2
        case .strToTZ, .millisToTZ: return 2...3
        case .dateDiffStr, .dateDiffMillis, .dateAddMillis: return 3...3
        case .dateAddStr: return 3...4
        }
    }
}
