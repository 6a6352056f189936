import Foundation

/// Values for a query's parameters (`["$name"]` in JSON, `$name` in SQL++),
/// as in Couchbase Lite: a parameter left unset, or set to nil, is MISSING.
public final class Parameters: @unchecked Sendable {   // its variables are behind `lock`
    private let lock = Lock()
    private var values: [String: JSONValue]
    /// The values that could not be set, by name (a later good value of the name clears its entry).
    private var mistakes: [String: DocLiteError] = [:]

    /// No parameters.
    public init() { values = [:] }

    /// A copy of `parameters`.
    public init(parameters: Parameters?) {
        (values, mistakes) = parameters?.lock.withLock { (parameters!.values, parameters!.mistakes) } ?? ([:], [:])
    }

    /// Parameters from a JSON object (`{"name": value, …}`), as the C API takes them.
    public convenience init(json: String) throws {
        guard case .dictionary(let members) = try JSONValue(json: json) else {
            throw DocLiteError(.invalidParameter, "query parameters must be a JSON object")
        }
        self.init()
        values = members.stringKeyed   // (names are ASCII letters, digits and _: checked when run)
    }

    /// Parameters holding `values`.
    init(values: [String: JSONValue]) {
        self.values = values
    }

    /// The value set for `name` (nil when unset).
    public func value(forName name: String) -> Any? {
        lock.withLock { values[name]?.anyValue(in: nil) }
    }

    /// Sets `name` to any value a document can hold (String, a number, Bool,
    /// Date, an array, a dictionary, ArrayObject, DictionaryObject or nil).
    /// Like Couchbase Lite's setters it does not throw: a value JSON cannot
    /// hold (NaN, an unsupported type) is remembered, and running a query with
    /// these parameters throws it.
    @discardableResult
    public func setValue(_ value: Any?, forName name: String) -> Parameters {
        do {
            let converted = try JSONValue(any: value)
            lock.withLock {
                values[name] = converted
                mistakes[name] = nil
            }
        } catch {
            let message = (error as? DocLiteError)?.message ?? "\(error)"
            lock.withLock {
                values[name] = nil   // not the earlier value either
                mistakes[name] = DocLiteError(.invalidParameter, "parameter '\(name)': \(message)")
            }
        }
        return self
    }

    /// Sets `name` to a string (nil leaves it MISSING).
    @discardableResult public func setString(_ value: String?, forName name: String) -> Parameters { setValue(value, forName: name) }
    /// Sets `name` to an integer.
    @discardableResult public func setInt(_ value: Int, forName name: String) -> Parameters { setValue(value, forName: name) }
    /// Sets `name` to a 64-bit integer.
    @discardableResult public func setInt64(_ value: Int64, forName name: String) -> Parameters { setValue(value, forName: name) }
    /// Sets `name` to a boolean.
    @discardableResult public func setBoolean(_ value: Bool, forName name: String) -> Parameters { setValue(value, forName: name) }
    /// Sets `name` to a date, as its ISO-8601 string (nil leaves it MISSING).
    @discardableResult public func setDate(_ value: Date?, forName name: String) -> Parameters { setValue(value, forName: name) }
    /// Sets `name` to an array (nil leaves it MISSING).
    @discardableResult public func setArray(_ value: ArrayObject?, forName name: String) -> Parameters { setValue(value, forName: name) }
    /// Sets `name` to a dictionary (nil leaves it MISSING).
    @discardableResult public func setDictionary(_ value: DictionaryObject?, forName name: String) -> Parameters { setValue(value, forName: name) }
    /// NaN and infinities, which JSON cannot hold, are remembered (see ``setValue(_:forName:)``).
    @discardableResult public func setDouble(_ value: Double, forName name: String) -> Parameters { setValue(value, forName: name) }
    /// NaN and infinities, which JSON cannot hold, are remembered (see ``setValue(_:forName:)``).
    @discardableResult public func setFloat(_ value: Float, forName name: String) -> Parameters { setValue(value, forName: name) }

    /// A value that could not be set (the first by name), if any: running a
    /// query with these parameters throws it.
    public var error: DocLiteError? { lock.withLock { Self.first(of: mistakes) } }

    private static func first(of mistakes: [String: DocLiteError]) -> DocLiteError? {
        mistakes.min { $0.key < $1.key }?.value
    }

    /// Whether `name` can name a parameter in a query: ASCII letters, digits
    /// and `_` (what `["$name"]` and `$name` accept).
    package static func isValidName(_ name: String) -> Bool {
        QueryValidator.isIdentifier(name)
    }

    /// A snapshot of the values; throws the first value that could not be set.
    package func snapshot() throws -> [String: JSONValue] {
        try lock.withLock {
            if let mistake = Self.first(of: mistakes) { throw mistake }
            return values
        }
    }
}
