/// A machine-learning model a query calls with `PREDICTION(model, input)`
/// (Couchbase Lite's `PredictiveModel`): given the input dictionary, it returns
/// the prediction as a dictionary, or nil for none (the query reads MISSING).
///
/// Queries call it while they hold their database, from any thread, several
/// at once: a model may read that database's blobs (``Database/getBlob(properties:)``
/// with a blob's metadata from the input) but must not change a database or
/// use another one.
public protocol PredictiveModel: AnyObject, Sendable {
    /// The prediction for `input` (the dictionary the query gives), or nil for none.
    func predict(input: DictionaryObject) -> DictionaryObject?
}

/// A model whose prediction can fail (a C model, and through it a Python or
/// Rust one): its error fails the query, or the save whose predictive index
/// needed the prediction, which then changes nothing.
package protocol FalliblePredictiveModel: PredictiveModel {
    /// The prediction for `input`, nil for none; throws when the model failed.
    func prediction(for input: DictionaryObject) throws -> DictionaryObject?
}

/// The registered predictive models, by name (Couchbase Lite's `Prediction`,
/// reached as `Database.prediction`). Registration is process-wide, as there.
public final class Prediction: @unchecked Sendable {   // `models` is behind `lock`
    private let lock = Lock()
    private var models: [String: PredictiveModel] = [:]

    init() {}

    /// Registers `model` as `name`, replacing a model registered under that name.
    public func registerModel(_ model: PredictiveModel, withName name: String) {
        lock.withLock { models[name] = model }
    }

    /// Unregisters the model `name`: queries calling it then fail, naming it.
    public func unregisterModel(withName name: String) {
        lock.withLock { models[name] = nil }
    }

    /// The model registered as `name`.
    func model(named name: String) -> PredictiveModel? {
        lock.withLock { models[name] }
    }
}

extension Database {
    /// The predictive models queries can call (`PREDICTION(name, input)`).
    public static let prediction = Prediction()
}
