import Foundation
import CDocLite
import DocLite

// The QueryBuilder by handle. Each part handle (CBLQueryExpression,
// CBLQuerySelectResult, CBLQueryDataSource, CBLQueryJoin, CBLQueryOrdering,
// CBLQueryCollation, CBLQueryLimit) holds one object of the Swift builder, or the error that kept it from being
// made. A part passed in a part position is consumed: the callee takes the
// object and releases the caller's reference, also when the call fails. No
// query logic lives here: every call is the Swift builder's.

/// A query part: a Swift builder object, or the error that replaces it.
final class QueryPart<Value>: QueryPartHandle {
    let value: Swift.Result<Value, DocLiteError>
    /// Objects the part keeps alive (a data source's collection handle object).
    let keep: [AnyObject]

    init(_ value: Swift.Result<Value, DocLiteError>, keep: [AnyObject] = []) {
        self.value = value
        self.keep = keep
    }

    static var cTypeName: String {
        let names: [(Any.Type, String)] = [
            (ExpressionProtocol.self, "CBLQueryExpression"), (SelectResultProtocol.self, "CBLQuerySelectResult"),
            (DataSourceProtocol.self, "CBLQueryDataSource"), (JoinProtocol.self, "CBLQueryJoin"),
            (OrderingProtocol.self, "CBLQueryOrdering"), (CollationProtocol.self, "CBLQueryCollation"),
            (QueryLimit.self, "CBLQueryLimit"),
        ]
        return names.first { ObjectIdentifier($0.0) == ObjectIdentifier(Value.self) }?.1 ?? "\(Value.self)"
    }
}

/// Any query part, whatever its kind: what a part position consumes.
protocol QueryPartHandle: AnyObject {
    static var cTypeName: String { get }
}

func asDocLiteError(_ error: Error) -> DocLiteError {
    error as? DocLiteError ?? DocLiteError(.unexpectedError, "unexpected error: \(error)")
}

/// Takes the part `handle` in a part position: its value (or why there is
/// none) and what it keeps alive. The caller's reference is released whenever
/// the handle is a live query part, of this kind or not; other handles (a
/// database…) are left alone.
func takePart<Value>(_ handle: OpaquePointer?, _ kind: Value.Type,
                             _ role: String) -> (value: Swift.Result<Value, DocLiteError>, keep: [AnyObject]) {
    let registry = HandleRegistry.shared
    let part: QueryPart<Value>
    do {
        part = try registry.object(handle, as: QueryPart<Value>.self, role)
    } catch {
        if (try? registry.object(handle, as: QueryPartHandle.self, role)) != nil {
            registry.release(UnsafeRawPointer(handle))
        }
        return (.failure(asDocLiteError(error)), [])
    }
    registry.release(UnsafeRawPointer(handle))
    return (part.value, part.keep)
}

/// Takes the part `handle` in a part position (see ``takePart(_:_:_:)``).
func take<Value>(_ handle: OpaquePointer?, _ kind: Value.Type, _ role: String) -> Swift.Result<Value, DocLiteError> {
    takePart(handle, kind, role).value
}

/// Takes an optional part: nil for NULL.
func takeOptional<Value>(_ handle: OpaquePointer?, _ kind: Value.Type, _ role: String) -> Swift.Result<Value?, DocLiteError> {
    guard handle != nil else { return .success(nil) }
    return take(handle, kind, role).map { $0 }
}

/// Takes every expression of a borrowed C array (each element consumed, even after a bad one).
func takeAll(_ array: UnsafePointer<OpaquePointer?>?, _ count: Int,
                     _ role: String) -> Swift.Result<[ExpressionProtocol], DocLiteError> {
    guard count > 0 else { return .success([]) }
    guard let array else { return .failure(DocLiteError(.invalidParameter, "\(role) array is NULL but its count is \(count)")) }
    let taken = (0..<count).map { take(array[$0], ExpressionProtocol.self, "\(role) \($0 + 1)") }
    var values: [ExpressionProtocol] = []
    for result in taken {
        switch result {
        case .success(let value): values.append(value)
        case .failure(let error): return .failure(error)
        }
    }
    return .success(values)
}

/// Registers a new part: +1 for the caller. `make` runs only when every input is good.
func part<Value>(_ make: () throws -> Value, keep: [AnyObject] = []) -> OpaquePointer {
    let value: Swift.Result<Value, DocLiteError>
    do { value = .success(try make()) } catch { value = .failure(asDocLiteError(error)) }
    return HandleRegistry.shared.register(QueryPart(value, keep: keep))
}

/// Registers a new expression part; one the builder could not make (too deep) is an error part.
func expression(_ make: () throws -> ExpressionProtocol) -> OpaquePointer {
    part {
        let expression = try make()
        if let error = expression.builderError { throw error }
        return expression
    }
}
