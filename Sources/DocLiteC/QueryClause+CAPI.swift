import Foundation
import CDocLite
import DocLite

// Query-builder clause parts by handle: select results, data sources, joins
// and orderings.

@c @implementation
public func CBLQuerySelectResult_Expression(_ a: OpaquePointer?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "select result expression")
    return part { SelectResult.expression(try value.get()) as SelectResultProtocol }
}

@c @implementation
public func CBLQuerySelectResult_Property(_ name: UnsafePointer<CChar>?) -> OpaquePointer? {
    part { SelectResult.property(try string(name, "property name")) as SelectResultProtocol }
}

@c @implementation
public func CBLQuerySelectResult_ExpressionAs(_ a: OpaquePointer?, _ alias: UnsafePointer<CChar>?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "select result expression")
    return part { SelectResult.expression(try value.get()).as(try string(alias, "select result alias")) }
}

@c @implementation
public func CBLQuerySelectResult_All(_ alias: UnsafePointer<CChar>?) -> OpaquePointer? {
    part { SelectResult.all().from(try optionalString(alias, "data source alias")) }
}

/// A data source over the object (a collection, a database) behind `handle`: borrowed,
/// looked up once and kept alive by the part; `aliased` names it `alias`.
private func source<Owner: AnyObject>(_ handle: OpaquePointer?, _ kind: Owner.Type, _ role: String,
                                      _ alias: UnsafePointer<CChar>?, aliased: Bool,
                                      _ make: (Owner) -> DataSourceAs) -> OpaquePointer {
    let owner = Swift.Result { try HandleRegistry.shared.object(handle, as: kind, role) }
    return part({ () throws -> DataSourceProtocol in
        let source = make(try owner.get())
        return aliased ? source.as(try string(alias, "data source alias")) : source
    }, keep: (try? owner.get()).map { [$0] } ?? [])
}

private func collectionSource(_ handle: OpaquePointer?, _ alias: UnsafePointer<CChar>?, aliased: Bool) -> OpaquePointer {
    source(handle, CollectionRef.self, "collection", alias, aliased: aliased) { DataSource.collection($0.collection) }
}

@c @implementation
public func CBLQueryDataSource_Collection(_ collection: OpaquePointer?) -> OpaquePointer? {
    collectionSource(collection, nil, aliased: false)
}

@c @implementation
public func CBLQueryDataSource_CollectionAs(_ collection: OpaquePointer?, _ alias: UnsafePointer<CChar>?) -> OpaquePointer? {
    collectionSource(collection, alias, aliased: true)
}

/// The default collection of a database (Couchbase Lite's legacy `database:` source).
private func databaseSource(_ handle: OpaquePointer?, _ alias: UnsafePointer<CChar>?, aliased: Bool) -> OpaquePointer {
    source(handle, Database.self, "database", alias, aliased: aliased) { DataSource.database($0) }
}

@c @implementation
public func CBLQueryDataSource_Database(_ database: OpaquePointer?) -> OpaquePointer? {
    databaseSource(database, nil, aliased: false)
}

@c @implementation
public func CBLQueryDataSource_DatabaseAs(_ database: OpaquePointer?, _ alias: UnsafePointer<CChar>?) -> OpaquePointer? {
    databaseSource(database, alias, aliased: true)
}

@c @implementation
public func CBLQueryJoin_Join(_ dataSource: OpaquePointer?, _ on: OpaquePointer?) -> OpaquePointer? {
    let (source, kept) = takePart(dataSource, DataSourceProtocol.self, "data source of Join")
    let condition = take(on, ExpressionProtocol.self, "ON condition of Join")
    return part({ Join.join(try source.get()).on(try condition.get()) }, keep: kept)
}

@c @implementation
public func CBLQueryJoin_LeftJoin(_ dataSource: OpaquePointer?, _ on: OpaquePointer?) -> OpaquePointer? {
    let (source, kept) = takePart(dataSource, DataSourceProtocol.self, "data source of LeftJoin")
    let condition = take(on, ExpressionProtocol.self, "ON condition of LeftJoin")
    return part({ Join.leftJoin(try source.get()).on(try condition.get()) }, keep: kept)
}

@c @implementation
public func CBLQueryJoin_CrossJoin(_ dataSource: OpaquePointer?) -> OpaquePointer? {
    let (source, kept) = takePart(dataSource, DataSourceProtocol.self, "data source of CrossJoin")
    return part({ Join.crossJoin(try source.get()) }, keep: kept)
}

@c @implementation
public func CBLQueryOrdering_Ascending(_ a: OpaquePointer?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "ordering expression")
    return part { Ordering.expression(try value.get()).ascending() }
}

@c @implementation
public func CBLQueryOrdering_Descending(_ a: OpaquePointer?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "ordering expression")
    return part { Ordering.expression(try value.get()).descending() }
}

@c @implementation
public func CBLQueryOrdering_Property(_ name: UnsafePointer<CChar>?) -> OpaquePointer? {
    part { Ordering.property(try string(name, "ordering property name")) as OrderingProtocol }
}

@c @implementation
public func CBLQueryOrdering_Expression(_ a: OpaquePointer?) -> OpaquePointer? {
    let value = take(a, ExpressionProtocol.self, "ordering expression")
    return part { Ordering.expression(try value.get()) as OrderingProtocol }
}

@c @implementation
public func CBLQueryOrdering_Descend(_ ordering: OpaquePointer?) -> OpaquePointer? {
    let value = take(ordering, OrderingProtocol.self, "ordering of Descend")
    return part {
        guard let order = try value.get() as? DocLite.SortOrder else {
            throw DocLiteError(.invalidParameter, "ordering of Descend is not a CBLQueryOrdering made by the builder")
        }
        return order.descending()
    }
}
