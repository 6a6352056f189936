import DocLite
import Foundation

/// The function library's parsers of user text (LIKE patterns, date strings
/// and formats, regular expressions), driven through prepared SQL++ queries
/// with the input bound as parameters, as an application would call them
/// (over a database of one document, so that each query gives one row).
enum FunctionTargets {
    /// Input: PATTERN NUL SUBJECT. LIKE agrees with a reference matcher over Unicode scalars.
    static let like = FuzzTarget(name: "like", summary: "LIKE patterns against subjects, checked against a reference matcher") {
        let database = try FuzzDatabase.openWithOneDocument(name: "like")
        let query = try database.createQuery("SELECT $subject LIKE $pattern, $subject NOT LIKE $pattern FROM _")
        return { input in
            let (pattern, subject) = input.textPair
            let row = firstRow(of: query, ["pattern": pattern, "subject": subject])
            let expected = ReferenceLike.matches(pattern: pattern, subject: subject)
            FuzzCheck.require(row.first as? Bool == expected && row.last as? Bool == !expected,
                              "LIKE gives \(row) where \(expected) is expected: \(subject.debugDescription) LIKE \(pattern.debugDescription)")
        }
    }

    /// Input: DATE NUL FORMAT. A date string that parses gives the same
    /// instant again after it is written in UTC; every date function runs on
    /// the date and the format (an error is allowed, a crash or hang is not).
    static let date = FuzzTarget(name: "date", summary: "date strings and formats: parser, writer, arithmetic") {
        let database = try FuzzDatabase.openWithOneDocument(name: "date")
        let query = try database.createQuery("""
            SELECT STR_TO_MILLIS($date), STR_TO_MILLIS(MILLIS_TO_UTC(STR_TO_MILLIS($date))),
                   MILLIS_TO_STR(STR_TO_MILLIS($date), $format), STR_TO_UTC($date, $format), STR_TO_TZ($date, -90, $format),
                   DATE_ADD_STR($date, 7, 'month'), DATE_DIFF_STR($date, '2000-01-01T00:00:00Z', 'day'),
                   MILLIS_TO_TZ(STR_TO_MILLIS($date), 330), STR_TO_MILLIS($format)
            FROM _
            """)
        return { input in
            let (date, format) = input.textPair
            let row = firstRow(of: query, ["date": date, "format": format])
            if let millis = row.first.flatMap({ $0 as? NSNumber })?.int64Value {
                let again = (row[1] as? NSNumber)?.int64Value
                FuzzCheck.require(again == millis, "\(date.debugDescription) is \(millis) ms, but written in UTC it reads as \(again.map(String.init) ?? "nothing")")
            }
        }
    }

    /// Input: PATTERN NUL SUBJECT. A bad pattern fails the query, never the
    /// process; a good one gives answers that agree with each other.
    static let regex = FuzzTarget(name: "regex", summary: "regular expressions (PCRE2): compile, match, replace") {
        let database = try FuzzDatabase.openWithOneDocument(name: "regex")
        let query = try database.createQuery("""
            SELECT REGEXP_CONTAINS($subject, $pattern), REGEXP_POSITION($subject, $pattern),
                   REGEXP_LIKE($subject, $pattern), REGEXP_REPLACE($subject, $pattern, '[$0]', 2)
            FROM _
            """)
        return { input in
            let (pattern, subject) = input.textPair
            let row = firstRow(of: query, ["pattern": pattern, "subject": subject])
            guard row.count == 4, let contains = row[0] as? Bool, let position = (row[1] as? NSNumber)?.intValue else { return }
            FuzzCheck.require(contains == (position >= 0), "REGEXP_CONTAINS is \(contains) but REGEXP_POSITION \(position) for /\(pattern)/ in \(subject.debugDescription)")
            if row[2] as? Bool == true { FuzzCheck.require(contains, "REGEXP_LIKE matches but REGEXP_CONTAINS does not: /\(pattern)/") }
        }
    }

    /// The values of the first row of `query` run with `parameters`; empty when it fails.
    private static func firstRow(of query: Query, _ parameters: [String: String]) -> [Any?] {
        let values = Parameters()
        for (name, value) in parameters { values.setString(value, forName: name) }
        query.parameters = values
        guard let results = try? query.execute(), let row = results.next() else { return [] }
        return (0..<row.count).map { row.value(at: $0) }
    }
}

/// LIKE as Couchbase Lite defines it, written as plainly as possible to check
/// the real one: `%` any run of characters, `_` one character, `\` makes the
/// next character literal (a trailing lone `\` matches nothing), case-sensitive.
enum ReferenceLike {
    private enum Token: Equatable { case literal(Unicode.Scalar), one, run }

    static func matches(pattern: String, subject: String) -> Bool {
        var tokens: [Token] = []
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped { tokens.append(.literal(scalar)); escaped = false; continue }
            switch scalar {
            case "\\": escaped = true
            case "%": tokens.append(.run)
            case "_": tokens.append(.one)
            default: tokens.append(.literal(scalar))
            }
        }
        if escaped { return false }
        let text = Array(subject.unicodeScalars)
        // matched[i]: the tokens so far match text[..<i].
        var matched = [Bool](repeating: false, count: text.count + 1)
        matched[0] = true
        for token in tokens {
            var next = [Bool](repeating: false, count: text.count + 1)
            for i in 0...text.count {
                switch token {
                case .run: next[i] = matched[i] || (i > 0 && next[i - 1])
                case .one: next[i] = i > 0 && matched[i - 1]
                case .literal(let scalar): next[i] = i > 0 && matched[i - 1] && text[i - 1] == scalar
                }
            }
            matched = next
        }
        return matched[text.count]
    }
}
