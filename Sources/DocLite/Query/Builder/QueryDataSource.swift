/// The source of a query's documents: Couchbase Lite's `DataSourceProtocol`.
public protocol DataSourceProtocol: Sendable {}

/// A data source that can be given an alias with ``as(_:)``.
public protocol DataSourceAs: DataSourceProtocol {
    /// The alias by which properties (`Expression.property("p").from("a")`),
    /// joins and `SelectResult.all()` name this source: `{"AS": "a"}`.
    func `as`(_ alias: String?) -> DataSourceProtocol
}

/// Couchbase Lite's `DataSource`: a collection, or a database's default collection.
public final class DataSource {
    private init() {}

    /// The documents of a collection: `{"COLLECTION": "scope.name"}`.
    public static func collection(_ collection: Collection) -> DataSourceAs {
        QuerySource(database: collection.database, collection: collection, item: DataSourceItem(collection: collection.fullName))
    }

    /// The documents of the database's default collection, keyed in
    /// `SelectResult.all()` results by the database name (the legacy
    /// Couchbase Lite form, `{"AS": "<database name>"}`).
    public static func database(_ database: Database) -> DataSourceAs {
        QuerySource(database: database, collection: nil, item: DataSourceItem(alias: database.name))
    }
}

/// A builder data source: the database it reads, the collection it names
/// (none for a database's default collection) and its `FROM` item.
struct QuerySource: DataSourceAs, Setting {
    weak var database: Database?
    var collection: Collection?
    var item: DataSourceItem

    func `as`(_ alias: String?) -> DataSourceProtocol {
        // A database source always has an alias (its name unless renamed); a collection's is optional.
        setting(\.item.alias, to: alias ?? (item.collection == nil ? database?.name ?? item.alias : nil))
    }
}

extension DataSourceProtocol {
    var source: QuerySource? { self as? QuerySource }
}
