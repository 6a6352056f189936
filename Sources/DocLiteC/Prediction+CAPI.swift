import CDocLite
import DocLite
#if canImport(Glibc)
import Glibc
#endif

/// A model given through the C API: its callbacks and context. Its answer is a
/// JSON object, NULL for none, or a JSON string: the message of its failure.
private final class CPredictiveModel: FalliblePredictiveModel, @unchecked Sendable {   // C functions and a context: couchbase-lite-C's contract lets any thread call them
    let model: CBLPredictiveModel

    init(_ model: CBLPredictiveModel) { self.model = model }

    deinit { model.unregistered?(model.context) }

    func predict(input: DictionaryObject) -> DictionaryObject? {
        try? prediction(for: input)
    }

    func prediction(for input: DictionaryObject) throws -> DictionaryObject? {
        guard let output = input.toJSON().withCString({ model.prediction?(model.context, $0) }) else { return nil }
        defer { free(output) }
        let text = String(cString: output)
        switch try? JSONValue(json: text) {
        case .dictionary(let members)?: return DictionaryObject(members)
        case .string(let message)?: throw DocLiteError(.invalidQuery, message)
        default:
            throw DocLiteError(.invalidQuery, "it answered \(text.prefix(40).debugDescription), not a JSON object, NULL or a JSON string (a failure)")
        }
    }
}

@c @implementation
public func CBL_RegisterPredictiveModel(_ name: UnsafePointer<CChar>?, _ model: CBLPredictiveModel) {
    guard let name = try? string(name, "model name"), model.prediction != nil else { return }
    Database.prediction.registerModel(CPredictiveModel(model), withName: name)
}

@c @implementation
public func CBL_UnregisterPredictiveModel(_ name: UnsafePointer<CChar>?) {
    guard let name = try? string(name, "model name") else { return }
    Database.prediction.unregisterModel(withName: name)
}
