import CSQLite

/// `doc_prediction(model, input[, path])`: calls the registered predictive model
/// `model` (``Prediction``) with the dictionary `input`; the prediction, or its
/// property at `path` (`label`, `scores[0]`). A blob in the input reads its
/// content from the query's database. MISSING input, no prediction or no
/// such property give MISSING; an unregistered model or an input that is not a
/// dictionary fail the query (and a save that a value index on a prediction makes
/// call it: the index calls the model when documents are added or updated, as in
/// Couchbase Lite). Registered as deterministic, which a model is taken to be, so
/// that a value index may hold predictions.
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
        registrar.add("doc_prediction", 2, userData: source, predict)
        registrar.add("doc_prediction", 3, userData: source, predict)
    }

    private static let predict: BodyFunctions.Function = { context, argc, argv in
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
        guard case .dictionary(let members) = input, let output = model.predict(input: DictionaryObject(members, database: source.database.database)),
              var result = try? JSONValue(any: output) else {
            sqlite3_result_null(context)
            return
        }
        if argc == 3 {
            guard case .string(let pathBytes) = RuntimeValue(argv![2]),
                  let path = try? PropertyPath.parse(String(decoding: pathBytes, as: UTF8.self)) else {
                return SQLFunctionError.set(context, DocLiteError(.invalidQuery, "PREDICTION()'s third argument must be a property path"))
            }
            guard let found = result.value(at: path) else {
                sqlite3_result_null(context)
                return
            }
            result = found
        }
        var encoder = BodyEncoder(sharedKeys: keys, assignsNewKeys: false)
        result.encode(into: &encoder)
        encoder.output.withUnsafeBytes { RuntimeSubtype.setResult(context, Body($0), at: 0) }
    }
}

private extension JSONValue {
    /// The value at `path` inside this one, nil when there is none.
    func value(at path: [PathComponent]) -> JSONValue? {
        var current = self
        for component in path {
            switch (component, current) {
            case (.key(let key), .dictionary(let members)):
                guard let next = members[ByteString(key)] else { return nil }
                current = next
            case (.index(let index), .array(let items)):
                let position = index < 0 ? items.count + index : index
                guard items.indices.contains(position) else { return nil }
                current = items[position]
            default:
                return nil
            }
        }
        return current
    }
}
