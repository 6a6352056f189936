import Foundation

/// Values for a query's parameters (`["$name"]` in JSON, `$name` in SQL++),
/// as in Couchbase Lite: a parameter left unset, or set to nil, is MISSING.
public final class Parameters: @unchecked Sendable {
    private let lock = Lock()
    private var values: [String: JSONValue]

    /// No parameters.
    public init() { values = [:] }

    /// A copy of `parameters`.
    public init(parameters: Parameters?) {
        values = parameters?.lock.withLock { parameters!.values } ?? [:]
    }

    /// Parameters from a JSON object (`{"name": value, …}`), as the C API takes them.
    public convenience init(json: String) throws {
        guard case .dictionary(let members) = try JSONValue(json: json) else {
            throw DocLiteError(.invalidParameter, "query parameters must be a JSON object")
        }
        self.init()
        values = members
    }

    /// The value set for `name` (nil when unset).
    public func value(forName name: String) -> Any? {
        lock.withLock { values[name]?.anyValue }
    }

    /// Sets `name` to any value a document can hold (String, a number, Bool,
    /// Date, an array, a dictionary, ArrayObject, DictionaryObject or nil).
    @discardableResult
    public func setValue(_ value: Any?, forName name: String) throws -> Parameters {
        let converted = try JSONValue(any: value)
        lock.withLock { values[name] = converted }
        return self
    }

    @discardableResult public func setString(_ value: String?, forName name: String) -> Parameters { try! setValue(value, forName: name) }
    @discardableResult public func setInt(_ value: Int, forName name: String) -> Parameters { try! setValue(value, forName: name) }
    @discardableResult public func setInt64(_ value: Int64, forName name: String) -> Parameters { try! setValue(value, forName: name) }
    @discardableResult public func setBoolean(_ value: Bool, forName name: String) -> Parameters { try! setValue(value, forName: name) }
    @discardableResult public func setDate(_ value: Date?, forName name: String) -> Parameters { try! setValue(value, forName: name) }
    @discardableResult public func setArray(_ value: ArrayObject?, forName name: String) -> Parameters { try! setValue(value, forName: name) }
    @discardableResult public func setDictionary(_ value: DictionaryObject?, forName name: String) -> Parameters { try! setValue(value, forName: name) }
    /// Throws for NaN and infinities, which JSON cannot hold.
    @discardableResult public func setDouble(_ value: Double, forName name: String) throws -> Parameters { try setValue(value, forName: name) }
    /// Throws for NaN and infinities, which JSON cannot hold.
    @discardableResult public func setFloat(_ value: Float, forName name: String) throws -> Parameters { try setValue(value, forName: name) }

    /// Whether `name` can name a parameter in a query: ASCII letters, digits
    /// and `_` (what `["$name"]` and `$name` accept).
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(JSONQueryParser.isIdentifierByte)
    }

    /// A snapshot of the values.
    package var snapshot: [String: JSONValue] { lock.withLock { values } }
}
