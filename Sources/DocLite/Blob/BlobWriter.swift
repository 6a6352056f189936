import Foundation

/// Blob content written piece by piece (a stream, or C's `CBLBlobWriter_Write`),
/// staged in a temporary file and digested as it is written, so that content
/// of any size is never held in memory. ``Blob/init(contentType:writer:)``
/// takes the file; a writer dropped before that deletes it.
package final class BlobWriter {
    private let url: URL
    private var descriptor: Int32
    private let sha1: SHA1
    private var length: UInt64 = 0
    private var isFinished = false

    /// What a finished writer staged.
    struct Staged {
        let url: URL
        let length: UInt64
        let digest: String
    }

    /// Creates the temporary file; throws when it cannot be created.
    package init() throws {
        sha1 = try SHA1()   // (first: a throw after the file exists would leak it, deinit not running)
        sha1.begin()
        var template = Array((FileManager.default.temporaryDirectory.path + "/doclite-blob-XXXXXX").utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw DocLiteError(.ioError, "cannot create a temporary file for blob content: \(String(cString: strerror(errno)))")
        }
        url = URL(fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
        if !isFinished { unlink(url.path) }
    }

    /// Appends `bytes`; throws when the file cannot be written (the disk is full).
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !isFinished else { throw DocLiteError(.invalidParameter, "the blob writer was already used to make a blob") }
        var rest = bytes
        while !rest.isEmpty {
            let written = Glibc.write(descriptor, rest.baseAddress, rest.count)
            if written < 0 {
                if errno == EINTR { continue }
                throw DocLiteError(.ioError, "cannot write blob content: \(String(cString: strerror(errno)))")
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
        sha1.update(bytes)
        length += UInt64(bytes.count)
    }

    /// Appends everything `stream` gives until its end (opening it if needed).
    func write(contentsOf stream: InputStream) throws {
        if stream.streamStatus == .notOpen { stream.open() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: BlobReader.chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = stream.read(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), maxLength: buffer.count)
            if count == 0 { return }
            guard count > 0 else {
                throw DocLiteError(.ioError, "the blob's content stream failed: \(stream.streamError?.localizedDescription ?? "unknown error")")
            }
            try write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Closes the file and hands it over; the writer can write no more. Throws
    /// when it was already handed over (to one blob only: it deletes the file).
    func finish() throws -> Staged {
        guard !isFinished else { throw DocLiteError(.invalidParameter, "the blob writer was already used to make a blob") }
        isFinished = true
        Glibc.close(descriptor)
        descriptor = -1
        return Staged(url: url, length: length, digest: BlobDigest.finish(sha1))
    }

    /// The length and digest of the file at `url`, read in chunks.
    static func digest(ofFile url: URL) throws -> (length: UInt64, digest: String) {
        let reader = try BlobReader(file: url)
        defer { reader.close() }
        let sha1 = try SHA1()
        sha1.begin()
        try reader.forEachChunk { sha1.update($0) }
        return (reader.length, BlobDigest.finish(sha1))
    }
}
