import CDocLite
import DocLite
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The blob behind a handle.
func blob(_ handle: OpaquePointer?) throws -> Blob {
    try HandleRegistry.shared.object(handle, as: Blob.self, "blob")
}

private func blobReader(_ handle: OpaquePointer?) throws -> BlobReader {
    try HandleRegistry.shared.object(handle, as: BlobReader.self, "blob read stream")
}

private func blobWriter(_ handle: OpaquePointer?) throws -> BlobWriter {
    try HandleRegistry.shared.object(handle, as: BlobWriter.self, "blob write stream")
}

/// `length` bytes at `pointer` (NULL only for none).
private func bytes(_ pointer: UnsafeRawPointer?, _ length: Int, _ role: String) throws -> UnsafeRawBufferPointer {
    guard pointer != nil || length == 0 else { throw DocLiteError(.invalidParameter, "\(role) is NULL") }
    return UnsafeRawBufferPointer(start: length == 0 ? nil : pointer, count: length)
}

@c @implementation
public func CBLBlob_CreateWithData(_ contentType: UnsafePointer<CChar>?, _ contents: UnsafeRawPointer?, _ length: Int,
                                   _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let data = Data(try bytes(contents, length, "blob contents"))
        return HandleRegistry.shared.register(Blob(contentType: try optionalString(contentType, "content type"), data: data))
    }
}

@c @implementation
public func CBLBlob_Length(_ handle: OpaquePointer?) -> UInt64 {
    (try? blob(handle).length) ?? 0
}

@c @implementation
public func CBLBlob_ContentType(_ handle: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let type = try? blob(handle).contentType else { return nil }
    return HandleRegistry.shared.borrowedString(handle, slot: "contentType", type)
}

@c @implementation
public func CBLBlob_Digest(_ handle: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let digest = try? blob(handle).digest else { return nil }
    return HandleRegistry.shared.borrowedString(handle, slot: "digest", digest)
}

@c @implementation
public func CBLBlob_CreateJSON(_ handle: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let json = try? blob(handle).toJSON() else { return nil }
    return ownedString(json)
}

@c @implementation
public func CBLBlob_Equals(_ handle: OpaquePointer?, _ other: OpaquePointer?) -> Bool {
    guard let first = try? blob(handle), let second = try? blob(other) else { return false }
    return first == second
}

@c @implementation
public func CBLBlob_Content(_ handle: OpaquePointer?, _ outLength: UnsafeMutablePointer<Int>?,
                            _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutableRawPointer? {
    bridge(outError, failure: nil) {
        let content = try blob(handle).readContent()
        guard let copy = malloc(max(content.count, 1)) else { throw DocLiteError(.memoryError, "out of memory for \(content.count) bytes") }
        content.copyBytes(to: copy.assumingMemoryBound(to: UInt8.self), count: content.count)
        outLength?.pointee = content.count
        return copy
    }
}

@c @implementation
public func CBLBlob_OpenContentStream(_ handle: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        HandleRegistry.shared.register(try BlobReader(try blob(handle)))
    }
}

@c @implementation
public func CBLBlobReader_Read(_ stream: OpaquePointer?, _ dst: UnsafeMutableRawPointer?, _ maxLength: Int,
                               _ outError: UnsafeMutablePointer<CBLError>?) -> Int32 {
    bridge(outError, failure: -1) {
        let reader = try blobReader(stream)
        guard dst != nil || maxLength == 0 else { throw DocLiteError(.invalidParameter, "the destination buffer is NULL") }
        // (At most 1 GB per call, so the count fits the int result; a size_t above
        // INT64_MAX arrives negative.)
        let count = maxLength < 0 ? 1 << 30 : min(maxLength, 1 << 30)
        return Int32(try reader.read(into: UnsafeMutableRawBufferPointer(start: count == 0 ? nil : dst, count: count)))
    }
}

@c @implementation
public func CBLBlobReader_Seek(_ stream: OpaquePointer?, _ offset: Int64, _ base: CBLSeekBase,
                               _ outError: UnsafeMutablePointer<CBLError>?) -> Int64 {
    bridge(outError, failure: -1) {
        let reader = try blobReader(stream)
        let origin: Int64
        switch Int(base) {
        case kCBLSeekModeFromStart: origin = 0
        case kCBLSeekModeRelative: origin = Int64(reader.position)
        case kCBLSeekModeFromEnd: origin = Int64(reader.length)
        default: throw DocLiteError(.invalidParameter, "unknown seek mode \(base)")
        }
        let (target, overflow) = origin.addingReportingOverflow(offset)
        guard !overflow, target >= 0 else {
            throw DocLiteError(.invalidParameter, "cannot seek before the start of the blob")
        }
        try reader.seek(to: UInt64(target))
        return target
    }
}

@c @implementation
public func CBLBlobReader_Position(_ stream: OpaquePointer?) -> UInt64 {
    (try? blobReader(stream).position) ?? 0
}

@c @implementation
public func CBLBlobReader_Close(_ stream: OpaquePointer?) {
    guard let reader = try? blobReader(stream) else { return }
    reader.close()
    HandleRegistry.shared.release(UnsafeRawPointer(stream))
}

@c @implementation
public func CBLBlobWriter_Create(_ db: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        guard try database(db).path != nil else { throw DocLiteError(.notOpen, "the database is closed") }
        return HandleRegistry.shared.register(try BlobWriter())
    }
}

@c @implementation
public func CBLBlobWriter_Write(_ writer: OpaquePointer?, _ data: UnsafeRawPointer?, _ length: Int,
                                _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        try blobWriter(writer).write(try bytes(data, length, "data"))
        return true
    }
}

@c @implementation
public func CBLBlobWriter_Close(_ writer: OpaquePointer?) {
    guard (try? blobWriter(writer)) != nil else { return }
    HandleRegistry.shared.release(UnsafeRawPointer(writer))
}

@c @implementation
public func CBLBlob_CreateWithStream(_ contentType: UnsafePointer<CChar>?, _ writer: OpaquePointer?,
                                     _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let staged = try blobWriter(writer)
        defer { HandleRegistry.shared.release(UnsafeRawPointer(writer)) }   // consumed, also on failure
        let type = try optionalString(contentType, "content type")
        return HandleRegistry.shared.register(try Blob(contentType: type, writer: staged))
    }
}

@c @implementation
public func CBLDocument_SetBlob(_ doc: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ handle: OpaquePointer?,
                                _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let document = try mutableDocument(doc)
        document.setBlob(try blob(handle), forKey: try string(key, "key"))
        return true
    }
}

@c @implementation
public func CBLDocument_GetBlob(_ doc: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        try document(doc).blob(forKey: try string(key, "key")).map(HandleRegistry.shared.register)
    }
}

@c @implementation
public func CBLDatabase_SaveBlob(_ db: OpaquePointer?, _ handle: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        try database(db).saveBlob(blob: try blob(handle))
        return true
    }
}

@c @implementation
public func CBLDatabase_GetBlob(_ db: OpaquePointer?, _ propertiesJSON: UnsafePointer<CChar>?,
                                _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let database = try database(db)
        let text = try string(propertiesJSON, "blob properties")
        // Malformed JSON is a JSON error; JSON that is not an object is no blob's metadata.
        guard case .dictionary(let metadata) = try JSONValue(json: text) else {
            throw DocLiteError(.invalidParameter, "not a blob's metadata: it must be a JSON object")
        }
        return try database.getBlob(metadata: metadata).map(HandleRegistry.shared.register)
    }
}
