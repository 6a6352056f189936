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
                    let (id, json) = try documents.document(at: index)
                    try target.save(document: try MutableDocument(id: id, json: json))
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
/// Parsed with DocLite's own parser, so that numbers keep their exact form.
struct JSONDocuments {
    private enum Source { case lines([Substring]), array([JSONValue]) }
    private let source: Source
    let idField: String

    init(data: Data, idField: String) throws {
        self.idField = idField
        let text = String(decoding: data, as: UTF8.self)
        if text.first(where: { !$0.isWhitespace }) == "[" {
            guard case .array(let items) = try JSONValue(json: text) else { throw ValidationError("the file is not a JSON array") }
            source = .array(items)
        } else {
            source = .lines(text.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy(\.isWhitespace) })
        }
    }

    var count: Int {
        switch source {
        case .lines(let lines): lines.count
        case .array(let items): items.count
        }
    }

    /// The ID (nil: generated) and JSON body of document `index`; the ID field is removed from the body.
    func document(at index: Int) throws -> (String?, String) {
        let value: JSONValue
        switch source {
        case .array(let items):
            value = items[index]
        case .lines(let lines):
            do {
                value = try JSONValue(json: String(lines[index]))
            } catch let error as DocLiteError {
                throw ValidationError("line \(index + 1): \(error.message)")
            }
        }
        guard case .dictionary(var members) = value else { throw ValidationError("document \(index + 1) is not a JSON object") }
        let id: String? = switch members.removeValue(forKey: idField) {
        case .string(let text)?: text
        case let other?: other.json
        case nil: nil
        }
        return (id, JSONValue.dictionary(members).json)
    }
}
