import DocLite
import Foundation
import GRDB

/// The work each contender does, the same for all: insert every hotel in one
/// transaction, read five typed columns of every row, get hotels by ID.
protocol Contender {
    static var name: String { get }
    init(directory: URL) throws
    func insert(_ lines: [HotelLine]) throws
    /// Reads id, name, city, rating and price of every row; returns a checksum.
    func readRows() throws -> Int
    /// Gets each hotel by ID, reading its name and price; returns a checksum.
    func get(_ ids: [String]) throws -> Int
}

/// DocLite, documents built with Couchbase Lite's setters (the object path).
struct DocLiteObjects: Contender {
    static let name = "DocLite setters"
    let database: DocLite.Database
    let hotels: DocLite.Collection

    init(directory: URL) throws {
        database = try DocLite.Database(name: "bench", config: DatabaseConfiguration(directory: directory.path))
        hotels = try database.defaultCollection()
    }

    func insert(_ lines: [HotelLine]) throws {
        try database.inBatch {
            for line in lines {
                let hotel = line.hotel
                let address = MutableDictionaryObject()
                    .setString(hotel.address.street, forKey: "street")
                    .setString(hotel.address.zip, forKey: "zip")
                let tags = MutableArrayObject()
                for tag in hotel.tags { tags.addString(tag) }
                let document = MutableDocument(id: line.id)
                    .setString(hotel.type, forKey: "type")
                    .setString(hotel.name, forKey: "name")
                    .setString(hotel.city, forKey: "city")
                    .setDouble(hotel.rating, forKey: "rating")
                    .setInt(hotel.price, forKey: "price")
                    .setArray(tags, forKey: "tags")
                    .setString(hotel.description, forKey: "description")
                    .setDictionary(address, forKey: "address")
                try hotels.save(document: document)
            }
        }
    }

    func readRows() throws -> Int {
        let query = QueryBuilder
            .select(SelectResult.expression(Meta.id), SelectResult.property("name"), SelectResult.property("city"),
                    SelectResult.property("rating"), SelectResult.property("price"))
            .from(DataSource.collection(hotels))
        var checksum = 0
        for row in try query.execute() {
            checksum &+= (row.string(at: 0)?.utf8.count ?? 0) &+ (row.string(at: 1)?.utf8.count ?? 0)
                &+ (row.string(at: 2)?.utf8.count ?? 0) &+ Int(row.double(at: 3)) &+ row.int(at: 4)
        }
        return checksum
    }

    func get(_ ids: [String]) throws -> Int {
        var checksum = 0
        for id in ids {
            guard let document = try hotels.document(id: id) else { continue }
            checksum &+= (document.string(forKey: "name")?.utf8.count ?? 0) &+ document.int(forKey: "price")
        }
        return checksum
    }
}

/// DocLite, documents saved from their JSON text (its fastest insert): the object path's yardstick.
struct DocLiteJSON: Contender {
    static let name = "DocLite JSON"
    let objects: DocLiteObjects

    init(directory: URL) throws { objects = try DocLiteObjects(directory: directory) }

    func insert(_ lines: [HotelLine]) throws {
        try objects.database.inBatch {
            for line in lines { try objects.hotels.save(document: try MutableDocument(id: line.id, json: line.json)) }
        }
    }

    func readRows() throws -> Int { try objects.readRows() }
    func get(_ ids: [String]) throws -> Int { try objects.get(ids) }
}

/// GRDB with the pragmas DocLite uses (WAL, synchronous=NORMAL).
private func openQueue(_ directory: URL) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
    }
    return try DatabaseQueue(path: directory.appendingPathComponent("grdb.sqlite").path, configuration: configuration)
}

/// Reads the five columns `sql` selects (id, name, city, rating, price) as typed values; returns a checksum.
private func readTypedColumns(_ queue: DatabaseQueue, sql: String) throws -> Int {
    try queue.read { db in
        var checksum = 0
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() {
            let id: String = row[0], name: String = row[1], city: String = row[2], rating: Double = row[3], price: Int = row[4]
            checksum &+= id.utf8.count &+ name.utf8.count &+ city.utf8.count &+ Int(rating) &+ price
        }
        return checksum
    }
}

/// GRDB, a relational table written and read through its record type.
struct GRDBRelational: Contender {
    static let name = "GRDB relational"
    let queue: DatabaseQueue

    init(directory: URL) throws {
        queue = try openQueue(directory)
        try queue.write { db in
            try db.create(table: "hotels") { table in
                table.primaryKey("id", .text)
                for column in ["type", "name", "city", "tags", "description", "street", "zip"] { table.column(column, .text).notNull() }
                table.column("rating", .double).notNull()
                table.column("price", .integer).notNull()
            }
        }
    }

    func insert(_ lines: [HotelLine]) throws {
        try queue.write { db in
            for line in lines { try HotelRecord(line).insert(db) }
        }
    }

    func readRows() throws -> Int {
        try readTypedColumns(queue, sql: "SELECT id, name, city, rating, price FROM hotels")
    }

    func get(_ ids: [String]) throws -> Int {
        try queue.read { db in
            var checksum = 0
            for id in ids {
                guard let hotel = try HotelRecord.fetchOne(db, key: id) else { continue }
                checksum &+= hotel.name.utf8.count &+ hotel.price
            }
            return checksum
        }
    }
}

/// GRDB, JSON text in one column, read with SQLite's `->>`.
struct GRDBJSONText: Contender {
    static let name = "GRDB JSON text"
    let queue: DatabaseQueue

    init(directory: URL) throws {
        queue = try openQueue(directory)
        try queue.write { db in try db.execute(sql: "CREATE TABLE hotels (id TEXT PRIMARY KEY NOT NULL, body TEXT NOT NULL)") }
    }

    func insert(_ lines: [HotelLine]) throws {
        try queue.write { db in
            let insert = try db.makeStatement(sql: "INSERT INTO hotels (id, body) VALUES (?, ?)")
            for line in lines { try insert.execute(arguments: [line.id, line.json]) }
        }
    }

    func readRows() throws -> Int {
        try readTypedColumns(queue, sql: "SELECT id, body->>'$.name', body->>'$.city', body->>'$.rating', body->>'$.price' FROM hotels")
    }

    func get(_ ids: [String]) throws -> Int {
        try queue.read { db in
            var checksum = 0
            let select = try db.makeStatement(sql: "SELECT body->>'$.name', body->>'$.price' FROM hotels WHERE id = ?")
            for id in ids {
                guard let row = try Row.fetchOne(select, arguments: [id]) else { continue }
                let name: String = row[0], price: Int = row[1]
                checksum &+= name.utf8.count &+ price
            }
            return checksum
        }
    }
}
