import ArgumentParser
import DocLite
import Foundation

/// `doclite import DB FILE|- [--collection NAME] [--id-field _id] [--batch-size N]`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import documents from JSON lines (a file or standard input) or a JSON array.",
        discussion: """
            JSON lines are read as a stream, one document a line, so memory stays small whatever the \
            input's size; each is saved as the library's batch insert saves JSON. A JSON array (input whose \
            first character is '[') is read whole, then saved element by element.
            Each document's ID is the value of --id-field, which is left out of its properties; without \
            one an ID is generated.
            Documents are committed batch by batch (--batch-size). A malformed line stops the import with \
            its line number and byte offset and exit status 65: the batches before it stay committed, \
            the one it is in does not.
            """
    )

    @OptionGroup var location: DatabaseLocation
    @Argument(help: "The file to import, or - for standard input.")
    var file: String
    @Option(help: "The collection, as 'name' or 'scope.name' (default: the default collection).")
    var collection: String?
    @Option(help: "The property holding each document's ID.")
    var idField = "_id"
    @Option(help: "How many documents are committed together.")
    var batchSize = 10_000

    func validate() throws {
        guard batchSize > 0 else { throw ValidationError("--batch-size must be at least 1") }
    }

    func run() throws {
        let database = try location.open()
        defer { try? database.close() }
        let target = try location.collection(collection, in: database, create: true)
        let input = try ImportInput(path: file)
        var progress = ImportProgress(totalBytes: input.size)
        var committed = 0
        do {
            var documents = try input.documents(idField: idField)
            var finished = false
            while !finished {
                var count = 0
                try database.inBatch {
                    while count < batchSize, let document = try documents.next() {
                        try target.save(document: document)
                        count += 1
                    }
                }
                finished = count < batchSize
                committed += count
                progress.show(documents: committed, bytes: documents.bytesRead)
            }
        } catch let error as ImportError {
            progress.finish()
            let message = "doclite import: \(error.description); \(committed) documents committed (the batches before it)\n"
            FileHandle.standardError.write(Data(message.utf8))
            throw ExitCode(65)   // EX_DATAERR
        }
        progress.finish()
        print("imported \(committed) documents into \(target.fullName) in \(String(format: "%.2f", progress.seconds)) s")
    }
}

/// Why an import stopped: a document that could not be read or saved, and where it is.
struct ImportError: Error, CustomStringConvertible {
    let line: Int
    let offset: Int
    let message: String

    var description: String { "line \(line) (byte offset \(offset)): \(message)" }
}

/// The input of an import: a file or standard input, JSON lines or one JSON array.
struct ImportInput {
    let handle: FileHandle
    /// The file's size, when known (not for a pipe).
    let size: Int?

    init(path: String) throws {
        if path == "-" {
            handle = FileHandle.standardInput
            size = nil
        } else {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw ValidationError("cannot open '\(path)' for reading")
            }
            self.handle = handle
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            size = (attributes?[.type] as? FileAttributeType) == .typeRegular ? (attributes?[.size] as? Int) : nil
        }
    }

    /// The documents, in order.
    func documents(idField: String) throws -> ImportDocuments {
        var lines = LineReader(handle)
        guard try lines.firstNonBlankByte() == UInt8(ascii: "[") else { return .lines(lines, idField: idField) }
        let text = try lines.remainder()
        let items: MutableArrayObject
        do {
            items = try MutableArrayObject(json: text)
        } catch let error as DocLiteError {
            throw ImportError(line: 1, offset: error.position ?? 0, message: error.message)
        }
        return .array(items, index: 0, idField: idField, bytes: text.utf8.count)
    }
}

/// The documents of an import, read one at a time.
enum ImportDocuments {
    case lines(LineReader, idField: String)
    case array(MutableArrayObject, index: Int, idField: String, bytes: Int)

    /// The next document, nil at the end; throws ``ImportError`` for one that cannot be read.
    mutating func next() throws -> MutableDocument? {
        switch self {
        case .lines(var reader, let idField):
            defer { self = .lines(reader, idField: idField) }
            guard let line = try reader.nextLine() else { return nil }
            do {
                return try MutableDocument(json: line.text, idField: idField)
            } catch let error as DocLiteError {
                throw ImportError(line: line.number, offset: line.offset + (error.position ?? 0), message: error.message)
            }
        case .array(let items, let index, let idField, let bytes):
            guard index < items.count else { return nil }
            self = .array(items, index: index + 1, idField: idField, bytes: bytes)
            guard let object = items.dictionary(at: index) else {
                throw ImportError(line: 1, offset: 0, message: "array element \(index + 1) is not a JSON object")
            }
            return try MutableDocument(json: object.toJSON(), idField: idField)   // (as a line is read)
        }
    }

    /// How much of the input has been read, in bytes.
    var bytesRead: Int {
        switch self {
        case .lines(let reader, _): reader.bytesRead
        case .array(_, _, _, let bytes): bytes
        }
    }
}

/// The lines of a file, read 1 MiB at a time; blank lines are skipped (but counted).
struct LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0
    /// The byte offset in the input of `buffer[0]`.
    private var bufferOffset = 0

    init(_ handle: FileHandle) { self.handle = handle }

    var bytesRead: Int { bufferOffset + start }

    /// Reads more input; false at the end.
    private mutating func fill() throws -> Bool {
        guard !atEnd else { return false }
        guard let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty else { atEnd = true; return false }
        if start > 0 {
            buffer.removeFirst(start)
            bufferOffset += start
            start = 0
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// The first byte that is not white space (the input is not consumed), nil for empty input.
    mutating func firstNonBlankByte() throws -> UInt8? {
        var i = start
        while true {
            while i < buffer.count {
                if !Self.isBlank(buffer[i]) { return buffer[i] }
                i += 1
            }
            guard try fill() else { return nil }
            i = start
        }
    }

    /// Everything not yet read, as text.
    mutating func remainder() throws -> String {
        while try fill() {}
        defer { start = buffer.count }
        return String(decoding: buffer[start...], as: UTF8.self)
    }

    /// The next non-blank line with its number (from 1) and byte offset; nil at the end.
    mutating func nextLine() throws -> (text: String, number: Int, offset: Int)? {
        while let end = try lineEnd() {
            let line = buffer[start..<end]
            let offset = bufferOffset + start
            start = min(end + 1, buffer.count)
            lineNumber += 1
            if !line.allSatisfy(Self.isBlank) { return (String(decoding: line, as: UTF8.self), lineNumber, offset) }
        }
        return nil
    }

    /// Where the line at `start` ends: its newline's index, or the end of the
    /// input for a last line without one; nil when nothing is left.
    private mutating func lineEnd() throws -> Int? {
        var searched = start
        while true {
            let found = buffer.withUnsafeBytes { bytes -> Int? in
                guard searched < bytes.count, let base = bytes.baseAddress else { return nil }
                return memchr(base + searched, 0x0A, bytes.count - searched).map { UnsafeRawPointer($0) - base }
            }
            if let found { return found }
            let unread = buffer.count - start
            guard try fill() else { return unread > 0 ? buffer.count : nil }
            searched = start + unread   // (fill() moved the unread bytes to the front)
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}

/// Progress on standard error, only when it is a terminal: documents, rate and time left.
struct ImportProgress {
    private let totalBytes: Int?
    private let started = Date()
    private let shows = isatty(STDERR_FILENO) != 0
    private var shown = false

    init(totalBytes: Int?) { self.totalBytes = totalBytes }

    var seconds: Double { Date().timeIntervalSince(started) }

    mutating func show(documents: Int, bytes: Int) {
        guard shows else { return }
        let rate = Double(documents) / max(seconds, 0.001)
        var text = "\rimported \(documents) documents, \(Int(rate)) docs/s"
        if let totalBytes, bytes > 0, totalBytes > bytes {
            text += ", about \(Int(seconds * Double(totalBytes - bytes) / Double(bytes))) s left"
        }
        FileHandle.standardError.write(Data((text + "   ").utf8))
        shown = true
    }

    mutating func finish() {
        if shown { FileHandle.standardError.write(Data("\n".utf8)) }
        shown = false
    }
}
