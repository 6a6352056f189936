import Foundation

/// The standard benchmark data: 100,000 hotel documents from
/// `../shared/bench/gen_hotels.py`, with IDs `doc-00000000`….
struct Dataset {
    struct Hotel {
        let id: String
        let json: String
        let type: String, name: String, city: String, description: String, street: String, zip: String
        let rating: Double
        let price: Int
        let tags: String      // JSON array text
    }

    let hotels: [Hotel]

    /// Loads the data, generating it with the shared script when the file is missing.
    static func load(count: Int, shared: URL, cache: URL) throws -> Dataset {
        let file = cache.appendingPathComponent("hotels_\(count).jsonl")
        if !FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            let generator = Process()
            generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            generator.arguments = ["python3", shared.appendingPathComponent("bench/gen_hotels.py").path, "\(count)", file.path]
            try generator.run()
            generator.waitUntilExit()
            guard generator.terminationStatus == 0 else { throw BenchmarkError("gen_hotels.py failed") }
        }
        let hotels = try lines(of: file).enumerated().map { index, line -> Hotel in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let address = object["address"] as! [String: Any]
            let tags = try JSONSerialization.data(withJSONObject: object["tags"]!)
            return Hotel(id: String(format: "doc-%08d", index), json: String(line),
                         type: object["type"] as! String, name: object["name"] as! String,
                         city: object["city"] as! String, description: object["description"] as! String,
                         street: address["street"] as! String, zip: address["zip"] as! String,
                         rating: (object["rating"] as! NSNumber).doubleValue, price: (object["price"] as! NSNumber).intValue,
                         tags: String(decoding: tags, as: UTF8.self))
        }
        return Dataset(hotels: hotels)
    }

    /// The lines of `file`, read one at a time (the file of 10,000,000 documents is
    /// 2.4 GB, which a whole-file read would hold beside its lines).
    private static func lines(of file: URL) throws -> [String] {
        guard let stream = fopen(file.path, "r") else { throw BenchmarkError("cannot read \(file.path)") }
        defer { fclose(stream) }
        var lines: [String] = [], line: UnsafeMutablePointer<CChar>?, capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, stream) > 0, let line {
            var text = String(cString: line)
            if text.hasSuffix("\n") { text.removeLast() }
            if !text.isEmpty { lines.append(text) }
        }
        return lines
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
