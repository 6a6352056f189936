import DocLite

/// Compares a query's rows with a case's `expect` object (keys in the corpus
/// README): `ids`, `rows`, `count`, `columns`, `columns_at`, `missing_mask`,
/// `types`, with the options `ordered`, `check_columns`, `rows_prefix_only`,
/// `approx`, `subset_dicts` and `null_matches_missing`.
struct ResultComparison {
    let expect: [ByteString: JSONValue]
    let columns: [String]
    /// Each row's column values; nil is MISSING.
    let rows: [[JSONValue?]]

    var outcome: ConformanceRunner.Outcome {
        if let failure = firstFailure() { return .failed(failure) }
        return .passed
    }

    private var ordered: Bool { expect["ordered"]?.bool ?? false }

    private func firstFailure() -> String? {
        if let count = expect["count"]?.number, Int(count) != rows.count {
            return "expected \(Int(count)) rows, got \(rows.count)"
        }
        if let names = expect["columns"]?.array {
            let expected = names.compactMap(\.string)
            if expected != columns { return "expected columns \(expected), got \(columns)" }
        }
        if let named = expect["columns_at"]?.dictionary {
            for (index, name) in named.sorted(by: { $0.key < $1.key }) {
                let actual = Int(index.string).flatMap { columns.indices.contains($0) ? columns[$0] : nil }
                if actual != name.string { return "expected column \(index) named \(name.json), got \(actual ?? "none")" }
            }
        }
        if let ids = expect["ids"]?.array {
            let actual = rows.map { row -> JSONValue in row.first.flatMap { $0 } ?? .dictionary(["$missing": .bool(true)]) }
            if !sameList(ids, actual, matches: { matches($0, $1) }) {
                return "expected ids \(JSONValue.array(ids).json), got \(JSONValue.array(actual).json)"
            }
        }
        if let expectedRows = expect["rows"]?.array {
            let prefixOnly = expect["rows_prefix_only"]?.bool ?? false
            let actualRows = prefixOnly ? Array(rows.prefix(expectedRows.count)) : rows
            if !sameList(expectedRows, actualRows.map(Self.render), matches: { rowMatches($0, $1) }) {
                return "expected rows \(JSONValue.array(expectedRows).json), got \(JSONValue.array(actualRows.map(Self.render)).json)"
            }
        }
        if let masks = expect["missing_mask"]?.array {
            let actual = rows.map { row in row.enumerated().reduce(0) { $0 | ($1.element == nil ? 1 << $1.offset : 0) } }
            if masks.compactMap(\.number).map(Int.init) != actual { return "expected missing masks \(JSONValue.array(masks).json), got \(actual)" }
        }
        if let types = expect["types"]?.array {
            let actual = rows.map { row in row.map(Self.typeName) }
            let expected = types.map { $0.array?.compactMap(\.string) ?? [] }
            if expected != actual { return "expected types \(expected), got \(actual)" }
        }
        return nil
    }

    /// A row as the corpus writes it: MISSING as `{"$missing": true}`.
    private static func render(_ row: [JSONValue?]) -> JSONValue {
        .array(row.map { $0 ?? .dictionary(["$missing": .bool(true)]) })
    }

    private static func typeName(_ value: JSONValue?) -> String {
        switch value {
        case nil: "missing"
        case .null: "null"
        case .bool: "boolean"
        case .int, .unsigned, .double: "number"
        case .string: "string"
        case .array: "array"
        case .dictionary: "object"
        }
    }

    private func sameList(_ expected: [JSONValue], _ actual: [JSONValue], matches: (JSONValue, JSONValue) -> Bool) -> Bool {
        guard expected.count == actual.count else { return false }
        if ordered { return zip(expected, actual).allSatisfy(matches) }
        var remaining = actual
        for item in expected {
            guard let index = remaining.firstIndex(where: { matches(item, $0) }) else { return false }
            remaining.remove(at: index)
        }
        return true
    }

    private func rowMatches(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        guard let expectedItems = expected.array, let actualItems = actual.array else { return matches(expected, actual) }
        if let check = expect["check_columns"]?.array?.compactMap(\.number).map(Int.init) {
            return check.allSatisfy { i in
                expectedItems.indices.contains(i) && actualItems.indices.contains(i) && matches(expectedItems[i], actualItems[i])
            }
        }
        return expectedItems.count == actualItems.count && zip(expectedItems, actualItems).allSatisfy { matches($0, $1) }
    }

    /// Value equality: numbers by value (with a relative tolerance under `approx`),
    /// dicts as a subset under `subset_dicts`, null accepting MISSING under `null_matches_missing`.
    private func matches(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        let missing = JSONValue.dictionary(["$missing": .bool(true)])
        if expected == .null, actual == missing, expect["null_matches_missing"]?.bool == true { return true }
        switch (expected, actual) {
        case (.bool, _), (_, .bool):
            return expected == actual
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
        case (.dictionary(let a), .dictionary(let b)):
            if expect["subset_dicts"]?.bool != true, a.count != b.count { return false }
            return a.allSatisfy { key, value in b[key].map { matches(value, $0) } ?? false }
        default:
            guard let x = expected.number, let y = actual.number else { return expected == actual }
            if case .int(let i) = expected, case .int(let j) = actual { return i == j }
            if expect["approx"]?.bool == true { return x == y || abs(x - y) <= 1e-12 * max(abs(x), abs(y)) }
            return x == y
        }
    }
}
