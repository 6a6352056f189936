import ArgumentParser
import DocLite
import Foundation

/// `doclite import DB FILE [--collection NAME] [--id-field _id]`: JSON lines or a JSON array.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import documents from a JSON-lines file or a JSON array.",
        discussion: "Each document's ID is taken from --id-field (and removed from the body), or generated when absent."
    )

    @OptionGroup var location: DatabaseLocation
    @Argument(help: "The file to import.")
    var file: String
    @Option(help: "The collection, as 'name' or 'scope.name' (default: the default collection).")
    var collection: String?
    @Option(help: "The property holding each document's ID.")
    var idField = "_id"

    func run() throws {
        let database = try location.open()
        defer { try? database.close() }
        let target = try location.collection(collection, in: database, create: true)
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let documents = try JSONDocuments(data: data, idField: idField)
        let showsProgress = documents.count >= 10_000
        let started = Date()
        var imported = 0
        for batch in stride(from: 0, to: documents.count, by: 5_000) {
            try database.inBatch {
                for index in batch..<min(batch + 5_000, documents.count) {
                    let (id, properties) = try documents.document(at: index)
                    try target.save(document: MutableDocument(id: id, properties: properties))
                    imported += 1
                }
            }
            if showsProgress {
                FileHandle.standardError.write(Data("\rimported \(imported) of \(documents.count)".utf8))
            }
        }
        if showsProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        let seconds = Date().timeIntervalSince(started)
        print("imported \(imported) documents into \(target.fullName) in \(String(format: "%.2f", seconds)) s")
    }
}

/// The documents of an import file: JSON lines, or one JSON array of objects.
/// Parsed with DocLite's own parser, so that numbers keep their exact form;
/// each document once (lines are split as bytes, the parsed properties saved as they are).
struct JSONDocuments {
    private enum Source { case lines(Data, [Range<Int>]), array([JSONValue]) }
    private let source: Source
    let idField: String

    init(data: Data, idField: String) throws {
        self.idField = idField
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if data.first(where: { !isBlank($0) }) == UInt8(ascii: "[") {
            guard case .array(let items) = try JSONValue(json: String(decoding: data, as: UTF8.self)) else {
                throw ValidationError("the file is not a JSON array")
            }
            source = .array(items)
        } else {
            var lines: [Range<Int>] = []
            data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                var start = 0
                while start < bytes.count {
                    let end = memchr(base + start, 0x0A, bytes.count - start).map { UnsafeRawPointer($0) - base } ?? bytes.count
                    if !bytes[start..<end].allSatisfy(isBlank) { lines.append(start..<end) }
                    start = end + 1
                }
            }
            source = .lines(data, lines)
        }
    }

    var count: Int {
        switch source {
        case .lines(_, let lines): lines.count
        case .array(let items): items.count
        }
    }

    /// The ID (nil: generated) and properties of document `index`; the ID field is removed from them.
    func document(at index: Int) throws -> (String?, [ByteString: JSONValue]) {
        let value: JSONValue
        switch source {
        case .array(let items):
            value = items[index]
        case .lines(let data, let lines):
            do {
                let line = data.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[lines[index]]), as: UTF8.self) }
                value = try JSONValue(json: line)
            } catch let error as DocLiteError {
                throw ValidationError("line \(index + 1): \(error.message)")
            }
        }
        guard case .dictionary(var members) = value else { throw ValidationError("document \(index + 1) is not a JSON object") }
        let id: String? = switch members.removeValue(forKey: ByteString(idField)) {
        case .string(let text)?: text
        case let other?: other.json
        case nil: nil
        }
        return (id, members)
    }
}
