import DocLite
import Foundation

/// Loads the corpus's datasets (`data/datasets.json`) into a collection with
/// the document IDs and sequence order the upstream tests used.
struct DatasetLoader {
    let dataDirectory: URL
    private let datasets: [ByteString: JSONValue]

    init(dataDirectory: URL) throws {
        self.dataDirectory = dataDirectory
        let text = try String(contentsOf: dataDirectory.appendingPathComponent("datasets.json"), encoding: .utf8)
        guard let datasets = try JSONValue(json: text).dictionary else { throw ConformanceError("datasets.json is not an object") }
        self.datasets = datasets
    }

    /// The documents of dataset `name` as (ID, JSON body) in insertion order.
    func documents(of name: String) throws -> [(id: String, json: String)] {
        guard let parts = datasets[ByteString(name)]?.dictionary?["parts"]?.array else { throw ConformanceError("unknown dataset '\(name)'") }
        var documents: [(String, String)] = []
        for part in parts {
            guard let part = part.dictionary, let file = part["file"]?.string, let format = part["format"]?.string else {
                throw ConformanceError("dataset '\(name)' has a malformed part")
            }
            let text = try String(contentsOf: dataDirectory.appendingPathComponent(file), encoding: .utf8)
            var bodies: [JSONValue]
            if format == "json_array" {
                guard let items = try JSONValue(json: text).array else { throw ConformanceError("\(file) is not a JSON array") }
                bodies = items
            } else {
                bodies = try text.split(whereSeparator: \.isNewline).map { try JSONValue(json: String($0)) }
            }
            if let limit = part["limit"]?.number { bodies = Array(bodies.prefix(Int(limit))) }
            for (i, body) in bodies.enumerated() {
                guard var members = body.dictionary else { throw ConformanceError("\(file) line \(i + 1) is not an object") }
                let id: String
                if let idField = part["id_field"]?.string ?? (format == "jsonl_with_id" ? "_id" : nil) {
                    guard let value = members.removeValue(forKey: ByteString(idField))?.string else {
                        throw ConformanceError("\(file) line \(i + 1) has no \(idField)")
                    }
                    id = value
                } else {
                    id = Self.formatID(part["id_format"]?.string ?? "%07d", i + 1)
                }
                documents.append((id, JSONValue.dictionary(members).json))
            }
        }
        return documents
    }

    /// `%07d`-style ID formats with one number and an optional prefix.
    static func formatID(_ format: String, _ number: Int) -> String {
        guard let percent = format.firstIndex(of: "%") else { return format + String(number) }
        let prefix = format[..<percent]
        let width = Int(format[format.index(after: percent)...].filter(\.isNumber)) ?? 0
        let digits = String(number)
        return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
