import CSQLite

/// `doc_prediction(model, input)`: calls the registered predictive model `model`
/// (``Prediction``) with the dictionary `input`; the prediction (PREDICTION()'s
/// path argument is read from it by `doc_value`). A blob in the input reads its
/// content from the query's database. MISSING input or no prediction give MISSING; an unregistered model or an input that is not a
/// dictionary fail the query, and so does a fallible model's failure (and a save
/// that an index on a prediction makes call it: the index calls the model when
/// documents are added or updated, as in Couchbase Lite). Registered as deterministic, which a model is taken to be,
/// and direct-only: it runs the application's code, so no schema SQL (an
/// expression index, a trigger, a CHECK) may call it; a value index on a
/// prediction is kept as a predictive index (``Collection/createIndex(withName:config:)``).
enum PredictionCall {
    /// The function's user data: the database whose bodies and blobs the input comes from.
    private final class Source {
        let keys: SharedKeys
        let database: WeakDatabase

        init(_ database: Database) {
            keys = database.sharedKeys
            self.database = WeakDatabase(database)
        }
    }

    static func register(with registrar: FunctionRegistrar, database: Database) {
        let source = Source(database)
        registrar.add("doc_prediction", 2, userData: source, runsApplicationCode: true, predict)
    }

    private static let predict: BodyFunctions.Function = { context, _, argv in
        let source = FunctionRegistrar.userData(context, as: Source.self).takeUnretainedValue()
        let keys = source.keys
        guard case .string(let nameBytes) = RuntimeValue(argv![0]) else {
            return SQLFunctionError.set(context, DocLiteError(.invalidQuery, "PREDICTION() takes a model name first"))
        }
        let name = String(decoding: nameBytes, as: UTF8.self)
        guard let model = Database.prediction.model(named: name) else {
            return SQLFunctionError.set(context, DocLiteError(.invalidQuery, "no predictive model named '\(name)' is registered"))
        }
        let input: JSONValue
        switch RuntimeValue(argv![1]) {
        case .missing:
            sqlite3_result_null(context)
            return
        case .dictionary(let body, let offset):
            // (Queries run holding their database, so the body's keys may be read.)
            input = JSONValue(body, at: offset, keys: keys)
        default:
            return SQLFunctionError.set(context, DocLiteError(.invalidQuery, "PREDICTION() input must be a dictionary"))
        }
        guard case .dictionary(let members) = input else {
            sqlite3_result_null(context)
            return
        }
        let output: DictionaryObject?
        do {
            output = try prediction(by: model, for: DictionaryObject(members, database: source.database.database))
        } catch {
            return SQLFunctionError.set(context, DocLiteError(.invalidQuery, "predictive model '\(name)' failed: \(error)"))
        }
        guard let output, let result = try? JSONValue(any: output) else {
            sqlite3_result_null(context)
            return
        }
        var encoder = BodyEncoder(sharedKeys: keys, assignsNewKeys: false)
        result.encode(into: &encoder)
        encoder.output.withUnsafeBytes { RuntimeSubtype.setResult(context, Body($0), at: 0) }
    }

    private static func prediction(by model: PredictiveModel, for input: DictionaryObject) throws -> DictionaryObject? {
        if let model = model as? FalliblePredictiveModel { return try model.prediction(for: input) }
        return model.predict(input: input)
    }
}
