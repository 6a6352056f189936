/// Couchbase Lite's typed setters (`setDate`, `setDictionary`, `addArray`…) do not
/// throw, yet a value can be one a document cannot hold (a date outside the years
/// 0000–9999, a dictionary nested too deep). Such a value is not stored: its
/// container keeps the error, and saving the document throws it (Couchbase Lite too
/// reports an invalid value when the document is saved), never a trap.
protocol UnstorableValues: AnyObject {
    /// The errors of the values its setters could not store.
    var unstorable: UnstorableErrors { get set }
}

/// A container's kept errors, by key: a key set again, or removed, drops its error;
/// an array's error stays until the array is replaced.
struct UnstorableErrors {
    private var byKey: [String: DocLiteError] = [:]
    private var inArray: DocLiteError?

    /// Keeps `error` for the value set under `key` (nil: appended to an array).
    mutating func keep(_ error: Error, key: String?) {
        let error = error as? DocLiteError ?? DocLiteError(.invalidParameter, "\(error)")
        let place = key.map { "for key '\($0)'" } ?? "in an array"
        let kept = DocLiteError(domain: error.domain, code: error.code, message: "the value set \(place) cannot be stored: \(error.message)")
        if let key { byKey[key] = byKey[key] ?? kept } else { inArray = inArray ?? kept }
    }

    /// `key` now holds a stored value (or none).
    mutating func stored(key: String) {
        if !byKey.isEmpty { byKey[key] = nil }
    }

    /// The error a save throws: the array's, else the first key's; nil when every value was stored.
    var first: DocLiteError? { inArray ?? byKey.keys.sorted().first.flatMap { byKey[$0] } }
}

extension MutableDictionaryProtocol {
    /// `setValue`, or, when the value cannot be stored, its error kept for the save.
    func setOrKeepError(_ value: Any?, forKey key: String) -> Self {
        do {
            return try setValue(value, forKey: key)
        } catch {
            (self as? UnstorableValues)?.unstorable.keep(error, key: key)
            return self
        }
    }
}

extension MutableArrayProtocol {
    /// `addValue`, or, when the value cannot be stored, its error kept for the save.
    func addOrKeepError(_ value: Any?) -> Self {
        do {
            return try addValue(value)
        } catch {
            (self as? UnstorableValues)?.unstorable.keep(error, key: nil)
            return self
        }
    }
}
