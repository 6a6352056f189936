import CSQLite
import Foundation

/// Reads a blob's content in chunks, with a position that can be moved, from
/// wherever the content is: memory, a file, or the database. A stored blob is
/// read through SQLite's incremental blob I/O on a snapshot reader of its own,
/// held until ``close()``, so that content of any size is read piece by piece.
/// (Inside a batch, whose changes only the batch's connection sees, the content
/// is read whole first.) One thread at a time.
package final class BlobReader {
    /// The size of the chunks content is copied in.
    static let chunkSize = 1 << 20

    private enum Content {
        case memory(Data)
        case file(descriptor: Int32)
        case stored(database: Database, reader: QueryReader, handle: OpaquePointer)
        case closed
    }

    private var content: Content
    /// The content's length in bytes.
    package let length: UInt64
    /// Where the next read starts.
    package private(set) var position: UInt64 = 0

    /// A reader of `blob`'s content; throws when it cannot be opened (its
    /// database closed or not holding it, its file unreadable).
    package convenience init(_ blob: Blob) throws {
        switch blob.source {
        case .data(let data): self.init(memory: data)
        case .file(let url, _): try self.init(file: url)
        case .stored(let database): try self.init(database: database.get(), digest: blob.digest)
        }
    }

    init(memory data: Data) {
        content = .memory(data)
        length = UInt64(data.count)
    }

    init(file url: URL) throws {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { Glibc.close(descriptor) }
            throw DocLiteError(.ioError, "cannot read blob content from \(url.path): \(reason)")
        }
        content = .file(descriptor: descriptor)
        length = UInt64(status.st_size)
    }

    init(database: Database, digest: String) throws {
        (content, length) = try database.lock.withLock {
            _ = try database.openConnection()   // throws once the database is closed
            guard database.transaction.depth == 0 else {
                let data = try database.blobContent(digest: digest)
                return (Content.memory(data), UInt64(data.count))
            }
            try database.syncBeforeQuery()
            let reader = try database.checkOutReader()
            do {
                guard let rowID = try database.blobRowID(digest: digest, reader.connection) else {
                    throw database.missingBlob(digest)
                }
                var handle: OpaquePointer?
                let rc = sqlite3_blob_open(reader.connection.handle, "main", "blobs", "content", rowID, 0, &handle)
                guard rc == SQLITE_OK, let handle else {
                    sqlite3_blob_close(handle)
                    throw reader.connection.error(rc, context: "cannot read blob \(digest)")
                }
                return (Content.stored(database: database, reader: reader, handle: handle), UInt64(sqlite3_blob_bytes(handle)))
            } catch {
                database.returnReader(reader)
                throw error
            }
        }
    }

    deinit { close() }

    /// Reads up to `buffer.count` bytes at the position and moves past them;
    /// 0 at the end. Throws when the content cannot be read (the file changed,
    /// the reader was closed).
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = Int(min(UInt64(buffer.count), length - min(position, length)))
        guard count > 0 else {
            if case .closed = content { throw Self.closedError }
            return 0
        }
        switch content {
        case .memory(let data):
            data.withUnsafeBytes { bytes in
                buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + Int(position), byteCount: count)
            }
        case .file(let descriptor):
            var done = 0
            while done < count {
                let read = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(position) + off_t(done))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else {
                    throw DocLiteError(.ioError, "cannot read blob content: \(read < 0 ? String(cString: strerror(errno)) : "the file is shorter than it was")")
                }
                done += read
            }
        case .stored(_, let reader, let handle):
            let rc = sqlite3_blob_read(handle, buffer.baseAddress, Int32(count), Int32(position))
            guard rc == SQLITE_OK else { throw reader.connection.error(rc, context: "cannot read blob content") }
        case .closed:
            throw Self.closedError
        }
        position += UInt64(count)
        return count
    }

    /// Moves the position to `offset` (at most the length).
    package func seek(to offset: UInt64) throws {
        if case .closed = content { throw Self.closedError }
        guard offset <= length else {
            throw DocLiteError(.invalidParameter, "cannot seek to \(offset): the blob has \(length) bytes")
        }
        position = offset
    }

    /// Calls `body` with each chunk of the content from the position to the end.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        while case let count = try read(into: buffer), count > 0 {
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Releases the file or the database snapshot; reading afterwards throws.
    package func close() {
        switch content {
        case .file(let descriptor):
            Glibc.close(descriptor)
        case .stored(let database, let reader, let handle):
            sqlite3_blob_close(handle)
            database.lock.withLock { database.returnReader(reader) }
        case .memory, .closed:
            break
        }
        content = .closed
    }

    private static let closedError = DocLiteError(.invalidParameter, "the blob reader is closed")
}

/// A blob's ``Blob/contentStream``: Foundation's `InputStream` over a ``BlobReader``.
final class BlobInputStream: InputStream {
    private let reader: BlobReader
    private var status = Stream.Status.notOpen
    private var failure: Error?

    init(_ reader: BlobReader) {
        self.reader = reader
        super.init(data: Data())
    }

    override func open() {
        if status == .notOpen { status = .open }
    }

    override func close() {
        reader.close()
        status = .closed
    }

    override var streamStatus: Stream.Status { status }
    override var streamError: Error? { failure }
    override var hasBytesAvailable: Bool { status == .open }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard status == .open else { return status == .atEnd ? 0 : -1 }
        do {
            let count = try reader.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max(0, length)))
            if count == 0 && length > 0 { status = .atEnd }
            return count
        } catch {
            failure = error
            status = .error
            return -1
        }
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>) -> Bool {
        false
    }
}
