import DocLite

/// A collection handle keeps its database open, as in couchbase-lite-C.
final class CollectionRef {
    let collection: DocLite.Collection
    let database: Database

    init(_ collection: DocLite.Collection, database: Database) {
        self.collection = collection
        self.database = database
    }
}
