import Foundation

/// Document models to and from documents: Foundation's JSON coders, dates as
/// ISO-8601 text (as the document API stores them), no raw `Data` (a document
/// holds binary content as a ``Blob``).
enum DocumentCoding {
    /// The encoder: dates as ISO-8601 strings; `Data` refused.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(from: date))
        }
        encoder.dataEncodingStrategy = .custom { _, encoder in
            throw EncodingError.invalidValue(Data(), EncodingError.Context(
                codingPath: encoder.codingPath, debugDescription: "raw Data cannot be stored in a document: use a Blob"))
        }
        return encoder
    }

    /// The decoder: dates from ISO-8601 strings.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = ISO8601.date(from: text) else {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an ISO-8601 date"))
            }
            return date
        }
        return decoder
    }

    /// The `@DocumentID` property of `object`; throws `invalidParameter` when it has none.
    static func reference(in object: AnyObject) throws -> DocumentID {
        guard let reference = DocumentID.of(object) else {
            throw DocLiteError(.invalidParameter, "\(type(of: object)) has no @DocumentID property to hold its document ID")
        }
        return reference
    }

    /// `document`'s properties as a model, which then holds the document's ID and revision.
    static func decode<T: Decodable & AnyObject>(_ type: T.Type, from document: Document) throws -> T {
        let model: T
        do {
            model = try decoder().decode(type, from: Data(document.toJSON().utf8))
        } catch let error as DecodingError {
            throw DocLiteError(.decodingError, "document \(DocLiteError.quoted(document.id)) is not a \(type): \(describe(error))")
        }
        try reference(in: model).update(from: document)
        return model
    }

    /// Replaces `document`'s properties with `model`'s (its `@DocumentID` left out).
    static func encode(_ model: some Encodable & AnyObject, into document: MutableDocument) throws {
        let reference = try reference(in: model)
        reference.isEncodingIntoDocument = true
        defer { reference.isEncodingIntoDocument = false }
        let json: JSONValue
        do {
            json = try JSONValue(json: String(decoding: try encoder().encode(model), as: UTF8.self))
        } catch let error as EncodingError {
            throw DocLiteError(.encodingError, "\(type(of: model)) cannot be stored: \(describe(error))")
        }
        guard case .dictionary(let properties) = json else {
            throw DocLiteError(.encodingError, "\(type(of: model)) does not encode as a dictionary of properties")
        }
        document.state.withLock { state in
            state.content = .tree(properties)
            state.unstorable = UnstorableErrors()
            state.generation += 1
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): return "no value for '\(path(context.codingPath + [key]))'"
        case .typeMismatch(let type, let context): return "'\(path(context.codingPath))' is not a \(type)"
        case .valueNotFound(let type, let context): return "'\(path(context.codingPath))' is null, not a \(type)"
        case .dataCorrupted(let context): return "'\(path(context.codingPath))': \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    private static func describe(_ error: EncodingError) -> String {
        switch error {
        case .invalidValue(_, let context): return "'\(path(context.codingPath))': \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    private static func path(_ keys: [CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
