import Foundation

extension Result {
    /// The row decoded as `type`, as Couchbase Lite's `data(as:dataKey:)`: its
    /// columns by title, or with `dataKey` the dictionary in that column (a
    /// `SelectResult.all()` row's document is under its data source's name or
    /// alias). Dates decode from ISO-8601 strings. Throws the `DecodingError`.
    public func data<T: Decodable>(as type: T.Type, dataKey: String? = nil) throws -> T {
        try data(as: type, dataKey: dataKey, decoder: DocumentCoding.decoder())
    }

    /// The row decoded by `decoder` (one made by ``makeDecoder()``, shared by a
    /// result set's rows).
    fileprivate func data<T: Decodable>(as type: T.Type, dataKey: String?, decoder: JSONDecoder) throws -> T {
        let object: JSONValue
        if let dataKey {
            guard let index = columns.index(of: dataKey), let value = values[index], case .dictionary = value else {
                throw DecodingError.valueNotFound(type, DecodingError.Context(
                    codingPath: [], debugDescription: "the row has no dictionary in a column titled '\(dataKey)'"))
            }
            object = value
        } else {
            object = .dictionary(jsonMembers)
        }
        return try decoder.decode(type, from: Data(object.json.utf8))
    }
}

extension ResultSet {
    /// The remaining rows decoded as `type` (see ``Result/data(as:dataKey:)``);
    /// reads them all at once.
    public func data<T: Decodable>(as type: T.Type, dataKey: String? = nil) throws -> [T] {
        let decoder = DocumentCoding.decoder()
        return try map { try $0.data(as: type, dataKey: dataKey, decoder: decoder) }
    }
}
