import CDocLite
import DocLite

/// A `CBLVectorEncoding`: an encoding, or the mistake made creating one
/// (reported when an index is created with it, as couchbase-lite-C reports it).
final class VectorEncodingRef: Sendable {
    let encoding: Swift.Result<VectorEncoding, DocLiteError>

    init(_ encoding: Swift.Result<VectorEncoding, DocLiteError>) { self.encoding = encoding }
}

@c @implementation
public func CBLVectorEncoding_CreateNone() -> OpaquePointer? {
    HandleRegistry.shared.register(VectorEncodingRef(.success(.none)))
}

@c @implementation
public func CBLVectorEncoding_CreateScalarQuantizer(_ type: CBLScalarQuantizerType) -> OpaquePointer? {
    let encoding = ScalarQuantizerType(rawValue: type).map { VectorEncoding.scalarQuantizer(type: $0) }
    return HandleRegistry.shared.register(VectorEncodingRef(encoding.map(Swift.Result.success) ?? .failure(DocLiteError(
        .invalidParameter, "invalid vector index spec: scalar quantizer type \(type) (kCBLSQ4, kCBLSQ6 or kCBLSQ8)"))))
}

@c @implementation
public func CBLVectorEncoding_CreateProductQuantizer(_ subquantizers: UInt32, _ bits: UInt32) -> OpaquePointer? {
    HandleRegistry.shared.register(VectorEncodingRef(.success(.productQuantizer(subquantizers: subquantizers, bits: bits))))
}

@c @implementation
public func CBLVectorEncoding_Free(_ encoding: OpaquePointer?) {
    if encoding != nil { HandleRegistry.shared.release(UnsafeRawPointer(encoding)) }
}

@c @implementation
public func CBLCollection_CreateVectorIndex(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                           _ config: CBLVectorIndexConfiguration, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let target = try collection(handle)
        let expression = try string(config.expression, "vector index expression")
        var configuration = try indexLanguage(config.expressionLanguage) == .sqlpp
            ? VectorIndexConfiguration(expression: expression, dimensions: config.dimensions, centroids: config.centroids)
            : VectorIndexConfiguration(json: expression, dimensions: config.dimensions, centroids: config.centroids)
        if let encoding = config.encoding {
            configuration.encoding = try HandleRegistry.shared.object(encoding, as: VectorEncodingRef.self, "vector encoding")
                .encoding.get()
        }
        if config.metric != 0 {
            guard let metric = DistanceMetric(rawValue: Int(config.metric)) else {
                throw DocLiteError(.invalidParameter, "unknown distance metric \(config.metric) (a kCBLDistanceMetric value, or 0 for the default)")
            }
            configuration.metric = metric
        }
        configuration.numProbes = config.numProbes == 0 ? nil : config.numProbes
        configuration.minTrainingSize = config.minTrainingSize == 0 ? nil : config.minTrainingSize
        configuration.maxTrainingSize = config.maxTrainingSize == 0 ? nil : config.maxTrainingSize
        configuration.isLazy = config.isLazy
        try target.createIndex(withName: try string(name, "index name"), config: configuration)
        return true
    }
}
