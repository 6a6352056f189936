import DocLite
import Foundation

/// The targets of the document format: JSON text in, and stored bytes read back.
enum DocumentTargets {
    /// Any text as a document body. Every JSON object the tree parser accepts
    /// is accepted as a document and nothing else is; an accepted object comes
    /// back exactly (same keys, same values, same number types) from the
    /// writer's JSON and from the database after a save.
    static let json = FuzzTarget(name: "json", summary: "document JSON: parser, body encoder, reader and writer round trip") {
        let database = try FuzzDatabase.open(name: "json")
        let collection = try database.defaultCollection()
        return { input in
            let text = input.text
            let tree = try? JSONValue(json: text)
            let document: MutableDocument
            do {
                document = try MutableDocument(id: "fuzz", json: text)
            } catch {
                if case .dictionary? = tree { FuzzCheck.fail("an object the tree parser accepts is refused as a document: \(error)") }
                return
            }
            guard let tree, case .dictionary = tree else {
                FuzzCheck.fail("a document was made of text the tree parser refuses or that is not an object")
            }
            FuzzCheck.require((try? JSONValue(json: tree.json)) == tree, "the writer's JSON reads back differently: \(tree.json)")
            FuzzCheck.require((try? JSONValue(json: document.toJSON())) == tree, "the unsaved document's JSON differs: \(document.toJSON())")
            do {
                try collection.save(document: document)
            } catch {
                return   // a reserved top-level key or a blob that is not stored: refused with an error
            }
            guard let stored = try? collection.document(id: "fuzz") else { FuzzCheck.fail("a saved document cannot be read") }
            FuzzCheck.require((try? JSONValue(json: stored.toJSON())) == tree, "the stored document's JSON differs: \(stored.toJSON())")
        }
    }

    /// Any bytes as a stored body, as a damaged file would give. Every reader
    /// stays in bounds, and they agree: the JSON writer's text parses to what
    /// the tree reader reads, and a re-encoded copy reads the same again.
    static let body = FuzzTarget(name: "body", summary: "the body reader on arbitrary bytes (seeds: encode-body)") {
        let keys = seedKeys()
        let paths = try ["name", "tags", "tags[1]", "tags[-1]", "address.city", "address.geo[0]", "n", "x", "a.b.c", "missing"]
            .map { try KeyPath(parsing: $0) }
        return { input in
            let body = Body(input)
            let value = JSONValue(body, at: 0, keys: keys)
            var out: [UInt8] = []
            JSONWriter.append(body, at: 0, keys: keys, to: &out)
            let written = String(decoding: out, as: UTF8.self)
            let reread = try? JSONValue(json: written)
            FuzzCheck.require(reread == value.asReadFromJSON,
                              "the JSON written of a body, \(written.prefix(500)), reads as \(reread?.json.prefix(500) ?? "an error"), the body as \(value.json.prefix(500))")
            for path in paths {
                path.resolve(with: keys)
                if let offset = body.offset(of: path) { _ = body.encoded(at: offset) }
            }
            var copy = BodyEncoder(sharedKeys: keys, assignsNewKeys: false)
            copy.writeValue(from: body, at: 0, keys: keys)
            copy.output.withUnsafeBytes { copied in
                let copy = JSONValue(Body(copied), at: 0, keys: keys)
                // (Compared as JSON reads them: a damaged double may be NaN, which equals nothing.)
                FuzzCheck.require(copy.asReadFromJSON == value.asReadFromJSON, "a re-encoded body reads as \(copy.json.prefix(500)), the body as \(value.json.prefix(500))")
            }
        }
    }

    /// The body of `json` as the `body` target reads it (keys from ``seedKeys()``), or nil when it is not JSON.
    static func encodeBody(json: String) -> [UInt8]? {
        guard let value = try? JSONValue(json: json) else { return nil }
        var encoder = BodyEncoder(sharedKeys: seedKeys(), assignsNewKeys: false)
        value.encode(into: &encoder)
        return encoder.output
    }

    /// A shared-key table with the same IDs every time: bodies name these keys
    /// by ID, other keys as strings.
    private static func seedKeys() -> SharedKeys {
        let keys = SharedKeys()
        var encoder = BodyEncoder(sharedKeys: keys)
        JSONValue.dictionary(Dictionary(uniqueKeysWithValues: ["name", "tags", "address", "city", "geo", "n", "x", "a", "b", "c", "type"]
            .map { (ByteString($0), JSONValue.null) })).encode(into: &encoder)
        return keys
    }
}

extension JSONValue {
    /// This value as its JSON text reads back. Only a damaged body holds the
    /// values that change: infinities and NaN (written as null), and an
    /// unsigned integer small enough to be signed (the encoder writes those signed).
    var asReadFromJSON: JSONValue {
        switch self {
        case .double(let d) where !d.isFinite: .null
        case .unsigned(let u) where u <= UInt64(Int64.max): .int(Int64(u))
        case .array(let items): .array(items.map(\.asReadFromJSON))
        case .dictionary(let members): .dictionary(members.mapValues(\.asReadFromJSON))
        default: self
        }
    }
}
