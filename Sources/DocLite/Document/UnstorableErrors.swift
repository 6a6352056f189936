/// The errors of values a mutable document, dictionary or array could not
/// store: Couchbase Lite's setters do not throw, so the container keeps them and
/// saving the document throws the first, never a trap. By key: a key set again,
/// or removed, drops its error; an array's error stays until the array is replaced.
struct UnstorableErrors: Sendable {
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
