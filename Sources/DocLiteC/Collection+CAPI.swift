import CDocLite
import DocLite
import Foundation

func collection(_ handle: OpaquePointer?) throws -> DocLite.Collection {
    try HandleRegistry.shared.object(handle, as: CollectionRef.self, "collection").collection
}

private func concurrencyControl(_ value: CBLConcurrencyControl) throws -> ConcurrencyControl {
    guard let control = ConcurrencyControl(rawValue: value) else {
        throw DocLiteError(.invalidParameter, "unknown concurrency control \(value)")
    }
    return control
}

@c @implementation
public func CBLCollection_Name(_ handle: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let name = try? collection(handle).name else { return nil }
    return HandleRegistry.shared.borrowedString(handle, slot: "name", name)
}

@c @implementation
public func CBLCollection_ScopeName(_ handle: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let name = try? collection(handle).scopeName else { return nil }
    return HandleRegistry.shared.borrowedString(handle, slot: "scope", name)
}

@c @implementation
public func CBLCollection_Count(_ handle: OpaquePointer?) -> UInt64 {
    (try? collection(handle).count) ?? 0
}

@c @implementation
public func CBLCollection_GetDocument(_ handle: OpaquePointer?, _ docID: UnsafePointer<CChar>?,
                                      _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        try collection(handle).document(id: try string(docID, "document ID")).map { HandleRegistry.shared.register($0) }
    }
}

@c @implementation
public func CBLCollection_GetMutableDocument(_ handle: OpaquePointer?, _ docID: UnsafePointer<CChar>?,
                                             _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        try collection(handle).document(id: try string(docID, "document ID")).map { HandleRegistry.shared.register($0.toMutable()) }
    }
}

@c @implementation
public func CBLCollection_SaveDocument(_ handle: OpaquePointer?, _ doc: OpaquePointer?,
                                       _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    CBLCollection_SaveDocumentWithConcurrencyControl(handle, doc, CBLConcurrencyControl(kCBLConcurrencyControlLastWriteWins), outError)
}

@c @implementation
public func CBLCollection_SaveDocumentsJSON(_ handle: OpaquePointer?, _ docIDs: UnsafePointer<CChar>?,
                                          _ bodies: UnsafePointer<CChar>?, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let target = try collection(handle)
        let lines = jsonLines(try string(bodies, "document bodies"))
        let ids = try optionalString(docIDs, "document IDs").map(jsonLines)
        if let ids, ids.count != lines.count {
            throw DocLiteError(.invalidParameter, "\(ids.count) document IDs for \(lines.count) document bodies")
        }
        try target.openDatabase().inBatch {
            for (index, line) in lines.enumerated() {
                do {
                    try target.save(document: try MutableDocument(id: ids?[index], json: line))
                } catch let error as DocLiteError {
                    var located = DocLiteError(domain: error.domain, code: error.code, message: "document \(index + 1): \(error.message)")
                    located.position = error.position
                    throw located
                }
            }
        }
        return true
    }
}

/// The lines of `text` (split at each LF byte), a final newline ending the last rather than starting an empty one.
private func jsonLines(_ text: String) -> [String] {
    guard !text.isEmpty else { return [] }
    let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    return (text.utf8.last == UInt8(ascii: "\n") ? lines.dropLast() : lines[...]).map { String(decoding: $0, as: UTF8.self) }
}

@c @implementation
public func CBLCollection_SaveDocumentWithConcurrencyControl(_ handle: OpaquePointer?, _ doc: OpaquePointer?,
                                                             _ concurrency: CBLConcurrencyControl,
                                                             _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let saved = try collection(handle).save(document: try mutableDocument(doc), concurrencyControl: try concurrencyControl(concurrency))
        guard saved else { throw DocLiteError(.conflict, "the document was changed since it was read") }
        return true
    }
}

@c @implementation
public func CBLCollection_DeleteDocument(_ handle: OpaquePointer?, _ doc: OpaquePointer?,
                                         _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    CBLCollection_DeleteDocumentWithConcurrencyControl(handle, doc, CBLConcurrencyControl(kCBLConcurrencyControlLastWriteWins), outError)
}

@c @implementation
public func CBLCollection_DeleteDocumentWithConcurrencyControl(_ handle: OpaquePointer?, _ doc: OpaquePointer?,
                                                               _ concurrency: CBLConcurrencyControl,
                                                               _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let deleted = try collection(handle).delete(document: try document(doc), concurrencyControl: try concurrencyControl(concurrency))
        guard deleted else { throw DocLiteError(.conflict, "the document was changed since it was read") }
        return true
    }
}

@c @implementation
public func CBLCollection_PurgeDocumentByID(_ handle: OpaquePointer?, _ docID: UnsafePointer<CChar>?,
                                            _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        do {
            try collection(handle).purge(id: try string(docID, "document ID"))
            return true
        } catch let error as DocLiteError where error.is(.notFound) {
            return false   // as couchbase-lite-C: no such document is false with error code 0
        }
    }
}

@c @implementation
public func CBLCollection_GetDocumentExpiration(_ handle: OpaquePointer?, _ docID: UnsafePointer<CChar>?,
                                               _ outError: UnsafeMutablePointer<CBLError>?) -> CBLTimestamp {
    bridge(outError, failure: -1) {
        let date = try collection(handle).getDocumentExpiration(id: try string(docID, "document ID"))
        return date.map { CBLTimestamp(($0.timeIntervalSince1970 * 1000).rounded()) } ?? 0
    }
}

@c @implementation
public func CBLCollection_SetDocumentExpiration(_ handle: OpaquePointer?, _ docID: UnsafePointer<CChar>?,
                                               _ expiration: CBLTimestamp,
                                               _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let date = expiration == 0 ? nil : Date(timeIntervalSince1970: Double(expiration) / 1000)
        try collection(handle).setDocumentExpiration(id: try string(docID, "document ID"), expiration: date)
        return true
    }
}

// MARK: Indexes

@c @implementation
public func CBLCollection_CreateValueIndex(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                          _ config: CBLValueIndexConfiguration, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let target = try collection(handle)
        let expressions = try string(config.expressions, "index expressions")
        let condition = try optionalString(config.where, "index where clause")
        let configuration = try indexLanguage(config.expressionLanguage) == .sqlpp
            ? ValueIndexConfiguration([expressions], where: condition) : ValueIndexConfiguration(json: expressions, where: condition)
        try target.createIndex(withName: try string(name, "index name"), config: configuration)
        return true
    }
}

@c @implementation
public func CBLCollection_CreateFullTextIndex(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                             _ config: CBLFullTextIndexConfiguration, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let target = try collection(handle)
        let expressions = try string(config.expressions, "index expressions")
        let condition = try optionalString(config.where, "index where clause")
        let language = try optionalString(config.language, "index language")
        let configuration = try indexLanguage(config.expressionLanguage) == .sqlpp
            ? FullTextIndexConfiguration([expressions], where: condition, ignoreAccents: config.ignoreAccents, language: language)
            : FullTextIndexConfiguration(json: expressions, where: condition, ignoreAccents: config.ignoreAccents, language: language)
        try target.createIndex(withName: try string(name, "index name"), config: configuration)
        return true
    }
}

@c @implementation
public func CBLCollection_CreateArrayIndex(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                          _ config: CBLArrayIndexConfiguration, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let target = try collection(handle)
        let path = try string(config.path, "array index path")
        let expressions = try optionalString(config.expressions, "index expressions")
        let configuration = try indexLanguage(config.expressionLanguage) == .sqlpp
            ? ArrayIndexConfiguration(path: path, expressions: expressions.map { [$0] })
            : ArrayIndexConfiguration(path: path, json: expressions)
        try target.createIndex(withName: try string(name, "index name"), config: configuration)
        return true
    }
}

@c @implementation
public func CBLCollection_CreatePredictiveIndex(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                               _ config: CBLPredictiveIndexConfiguration,
                                               _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let target = try collection(handle)
        let model = try string(config.model, "model name")
        let input = try string(config.input, "predictive index input")
        var properties: [String]?
        if let text = try optionalString(config.properties, "predictive index properties") {
            let notPaths = DocLiteError(.invalidParameter, "the predictive index properties must be a JSON array of property paths")
            guard case .array(let items) = try JSONValue(json: text) else { throw notPaths }
            properties = try items.map { item in
                guard case .string(let path) = item else { throw notPaths }
                return path
            }
        }
        let configuration = try indexLanguage(config.expressionLanguage) == .sqlpp
            ? PredictiveIndexConfiguration(model: model, input: input, properties: properties)
            : PredictiveIndexConfiguration(model: model, json: input, properties: properties)
        try target.createIndex(withName: try string(name, "index name"), config: configuration)
        return true
    }
}

@c @implementation
public func CBLCollection_DeleteIndex(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                     _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        try collection(handle).deleteIndex(forName: try string(name, "index name"))
        return true
    }
}

@c @implementation
public func CBLCollection_GetIndexNames(_ handle: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    bridge(outError, failure: nil) {
        namesJSON(try collection(handle).indexes())
    }
}

/// The language of an index configuration's expressions.
func indexLanguage(_ language: CBLQueryLanguage) throws -> IndexExpressionLanguage {
    switch language {
    case CBLQueryLanguage(kCBLN1QLLanguage): return .sqlpp
    case CBLQueryLanguage(kCBLJSONLanguage): return .json
    default: throw DocLiteError(.invalidParameter, "unknown expression language \(language) (kCBLJSONLanguage or kCBLN1QLLanguage)")
    }
}
