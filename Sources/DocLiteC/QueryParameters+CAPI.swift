import Foundation
import CDocLite
import DocLite

// Typed query parameters by handle (Couchbase Lite's CBLQueryParameters). The
// setters return nothing, as Couchbase Lite's do: a mistake is remembered and
// reported by CBLQuery_SetQueryParameters, so values are never half-applied.

/// A CBLQueryParameters handle: the Swift `Parameters`, and the first mistake made setting them.
final class QueryParametersRef: @unchecked Sendable {   // `mistake` is behind `lock`
    private let lock = NSLock()
    let parameters: Parameters
    private var mistake: DocLiteError?

    init(_ parameters: Parameters, mistake: DocLiteError? = nil) {
        self.parameters = parameters
        self.mistake = mistake
    }

    /// The first mistake: a bad name or argument here, or a value `Parameters` could not hold.
    var error: DocLiteError? { lock.withLock { mistake } ?? parameters.error }

    /// Sets `name` to the value `make` gives (a JSONValue, or a Swift value `Parameters.setValue` takes), or remembers why it cannot.
    func set(_ name: UnsafePointer<CChar>?, _ make: () throws -> Any?) {
        do {
            let name = try string(name, "parameter name")
            guard Parameters.isValidName(name) else {
                throw DocLiteError(.invalidParameter, "parameter name '\(name)' must be letters, digits and _")
            }
            parameters.setValue(try make(), forName: name)
        } catch {
            lock.withLock { mistake = mistake ?? asDocLiteError(error) }
        }
    }
}

private func parametersRef(_ handle: OpaquePointer?) throws -> QueryParametersRef {
    try HandleRegistry.shared.object(handle, as: QueryParametersRef.self, "query parameters")
}

/// Runs a setter on a live handle; a bad handle has nowhere to keep the mistake, so it is ignored.
private func set(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ make: () throws -> Any?) {
    (try? parametersRef(handle))?.set(name, make)
}

private func finiteNumber(_ value: Double) throws -> Double {
    guard value.isFinite else { throw DocLiteError(.invalidParameter, "a parameter cannot be \(value) (JSON has no NaN or infinity)") }
    return value
}

@c @implementation
public func CBLQueryParameters_New() -> OpaquePointer? {
    HandleRegistry.shared.register(QueryParametersRef(Parameters()))
}

@c @implementation
public func CBLQueryParameters_Copy(_ handle: OpaquePointer?) -> OpaquePointer? {
    guard let source = try? parametersRef(handle) else {
        return HandleRegistry.shared.register(QueryParametersRef(Parameters(), mistake: DocLiteError(
            .invalidParameter, "CBLQueryParameters_Copy of a NULL or released CBLQueryParameters")))
    }
    return HandleRegistry.shared.register(QueryParametersRef(Parameters(parameters: source.parameters), mistake: source.error))
}

@c @implementation
public func CBLQueryParameters_SetString(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) {
    set(handle, name) { try string(value, "parameter value") }
}

@c @implementation
public func CBLQueryParameters_SetInt(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: Int64) {
    set(handle, name) { value }
}

@c @implementation
public func CBLQueryParameters_SetDouble(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: Double) {
    set(handle, name) { try finiteNumber(value) }
}

@c @implementation
public func CBLQueryParameters_SetFloat(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: Float) {
    // Its shortest decimal form, as CBLQueryExpression_Float: 1.1f is 1.1, not 1.100000023841858.
    set(handle, name) { try finiteNumber(value.isFinite ? Double(value.description) ?? Double(value) : Double(value)) }
}

@c @implementation
public func CBLQueryParameters_SetBool(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: Bool) {
    set(handle, name) { value }
}

@c @implementation
public func CBLQueryParameters_SetDate(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ millis: Int64) {
    set(handle, name) { Date(timeIntervalSince1970: Double(millis) / 1000) }
}

@c @implementation
public func CBLQueryParameters_SetNull(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?) {
    set(handle, name) { NSNull() }
}

@c @implementation
public func CBLQueryParameters_SetJSON(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ json: UnsafePointer<CChar>?) {
    set(handle, name) { try JSONValue(json: try string(json, "parameter JSON")) }
}

@c @implementation
public func CBLQueryParameters_CopyJSON(_ handle: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let ref = try? parametersRef(handle), ref.error == nil,
          let values = try? ref.parameters.snapshot() else { return nil }
    return ownedString(JSONValue.dictionary(Dictionary(stringKeys: values)).json)
}

@c @implementation
public func CBLQuery_SetQueryParameters(_ handle: OpaquePointer?, _ parameters: OpaquePointer?,
                                       _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let query = try query(handle)
        guard parameters != nil else {
            query.parameters = nil
            return true
        }
        let ref = try parametersRef(parameters)
        if let error = ref.error { throw error }
        query.parameters = ref.parameters   // the query keeps a copy
        return true
    }
}

@c @implementation
public func CBLQuery_CopyParameters(_ handle: OpaquePointer?) -> OpaquePointer? {
    guard let query = try? query(handle),
          let parameters = query.parameters else { return nil }
    return HandleRegistry.shared.register(QueryParametersRef(parameters))
}
