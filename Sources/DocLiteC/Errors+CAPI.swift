import CDocLite
import DocLite
#if canImport(Glibc)
import Glibc
#endif

/// Recent error messages, found again by `CBLError.internal_info`.
private final class ErrorMessages: @unchecked Sendable {   // its variables are behind `lock`
    static let shared = ErrorMessages()
    private static let capacity: UInt32 = 1024
    private let lock = Lock()
    private var messages: [UInt32: (domain: UInt8, code: Int32, text: String)] = [:]
    private var next: UInt32 = 0

    func record(domain: UInt8, code: Int32, text: String) -> UInt32 {
        lock.withLock {
            next = next == UInt32.max ? 1 : next + 1
            messages[next] = (domain, code, text)
            messages[next &- Self.capacity] = nil
            return next
        }
    }

    func text(for error: CBLError) -> String? {
        lock.withLock {
            guard let entry = messages[error.internal_info], entry.domain == error.domain, entry.code == error.code else { return nil }
            return entry.text
        }
    }
}

/// Runs `body`, turning a thrown error into `outError` and the `failure` value.
/// On success `outError` is cleared (code 0).
@inline(__always)
func bridge<R>(_ outError: UnsafeMutablePointer<CBLError>?, failure: R, _ body: () throws -> R) -> R {
    do {
        let result = try body()
        outError?.pointee = CBLError()
        return result
    } catch {
        outError?.pointee = cblError(error)
        return failure
    }
}

/// The C form of a Swift error; its message is kept for `CBLError_Message`.
func cblError(_ error: Error) -> CBLError {
    let e = error as? DocLiteError ?? DocLiteError(.unexpectedError, "unexpected error: \(error)")
    let domain = UInt8(e.domain.rawValue)
    let info = ErrorMessages.shared.record(domain: domain, code: e.code, text: e.message)
    return CBLError(domain: domain, code: e.code, internal_info: info)
}

/// Reads a required C string argument; throws for NULL or invalid UTF-8.
func string(_ pointer: UnsafePointer<CChar>?, _ role: String) throws -> String {
    guard let pointer else { throw DocLiteError(.invalidParameter, "\(role) is NULL") }
    guard let value = String(validatingCString: pointer) else {
        throw DocLiteError(.invalidParameter, "\(role) is not valid UTF-8")
    }
    return value
}

/// Reads an optional C string argument (NULL gives nil); throws for invalid UTF-8.
func optionalString(_ pointer: UnsafePointer<CChar>?, _ role: String) throws -> String? {
    guard let pointer else { return nil }
    return try string(pointer, role)
}

/// Names as an owned JSON array (`["a","b"]`).
func namesJSON(_ names: [String]) -> UnsafeMutablePointer<CChar>? {
    ownedString(JSONValue.array(names.map(JSONValue.string)).json)
}

/// An owned C copy of `value`, for the caller to free with `CBL_FreeString`.
func ownedString(_ value: String) -> UnsafeMutablePointer<CChar>? {
    strdup(value)
}

@c @implementation
public func CBLError_Message(_ error: UnsafePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    guard let error = error?.pointee, error.code != 0 else { return nil }
    if let text = ErrorMessages.shared.text(for: error) { return ownedString(text) }
    return ownedString("error \(error.code) in domain \(error.domain)")
}

@c @implementation
public func CBL_FreeString(_ string: UnsafeMutablePointer<CChar>?) {
    free(string)
}
