import CDocLite
import DocLite
#if canImport(Glibc)
import Glibc
#endif

/// A model given through the C API: its callbacks and context.
private final class CPredictiveModel: PredictiveModel, @unchecked Sendable {
    let model: CBLPredictiveModel

    init(_ model: CBLPredictiveModel) { self.model = model }

    deinit { model.unregistered?(model.context) }

    func predict(input: DictionaryObject) -> DictionaryObject? {
        guard let output = input.toJSON().withCString({ model.prediction?(model.context, $0) }) else { return nil }
        defer { free(output) }
        return try? MutableDictionaryObject(json: String(cString: output))
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
