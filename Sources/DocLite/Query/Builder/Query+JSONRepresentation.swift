import Foundation

/// Couchbase Lite's JSON form of a query (`-[CBLQuery initWithDatabase:JSONRepresentation:]`
/// and `JSONRepresentation`): a query saved as JSON and compiled again later.
extension Query {
    /// Compiles a query from its JSON (UTF-8 LiteCore JSON query, as ``JSONRepresentation`` gives);
    /// throws ``DocLiteError/Code/invalidQuery`` for malformed JSON or an invalid query.
    public convenience init(database: Database, JSONRepresentation: Data) throws {
        try self.init(database: database, statement: JSONQueryParser.parse(json: String(decoding: JSONRepresentation, as: UTF8.self)))
    }

    /// The query as UTF-8 JSON (LiteCore's JSON query language).
    public var JSONRepresentation: Data { Data(json.utf8) }
}

extension BuilderQuery {
    /// The built query as UTF-8 JSON; ``Query/init(database:JSONRepresentation:)`` reads it back.
    public var JSONRepresentation: Data { Data(json.utf8) }
}
