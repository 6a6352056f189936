import DocLite

/// One case of the query conformance corpus (`cases.jsonl`): a dataset, a
/// LiteCore JSON query, parameters and the expected result.
struct ConformanceCase {
    let id: String
    let members: [ByteString: JSONValue]

    init(line: String) throws {
        guard case .dictionary(let members) = try JSONValue(json: line), case .string(let id)? = members["id"] else {
            throw ConformanceError("a case must be a JSON object with an \"id\"")
        }
        self.id = id
        self.members = members
    }

    var dataset: String { members["dataset"]?.string ?? "inline" }
    var query: JSONValue { members["query"] ?? .null }
    var expect: [ByteString: JSONValue] { members["expect"]?.dictionary ?? [:] }
    var docs: [JSONValue] { members["docs"]?.array ?? [] }
    var extraDocs: [JSONValue] { members["extra_docs"]?.array ?? [] }
    var setup: [JSONValue] { members["setup"]?.array ?? [] }
    var indexes: [JSONValue] { members["indexes"]?.array ?? [] }
    var params: JSONValue? { members["params"] }
    var environment: [ByteString: JSONValue] { members["env"]?.dictionary ?? [:] }
}

/// A fault in the corpus or its data (not a failing case).
struct ConformanceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension JSONValue {
    var string: String? { if case .string(let text) = self { text } else { nil } }
    var array: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    var dictionary: [ByteString: JSONValue]? { if case .dictionary(let members) = self { members } else { nil } }
    var bool: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// Replaces each `{"$now": delta}` with the current time in milliseconds plus delta.
    func resolvingNow(_ nowMillis: Int64) -> JSONValue {
        switch self {
        case .dictionary(let members):
            if members.count == 1, let delta = members["$now"]?.number { return .int(nowMillis + Int64(delta)) }
            return .dictionary(members.mapValues { $0.resolvingNow(nowMillis) })
        case .array(let items): return .array(items.map { $0.resolvingNow(nowMillis) })
        default: return self
        }
    }
}
