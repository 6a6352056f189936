import Foundation
import XCTest
@testable import DocLite

/// The Swift examples of the QueryBuilder guide — their queries as the guide
/// writes them, their loops turned into assertions — run against a small
/// travel-sample-shaped database (its default collection, as
/// `DataSource.database` reads it). Tests/GuideExampleTests has the examples
/// exactly as written.
final class QueryBuilderGuideTests: DatabaseTestCase {
    var database: Database!

    override func setUpWithError() throws {
        try super.setUpWithError()
        database = try openDatabase(name: "travel-sample")
        let documents: [(String, String)] = [
            ("airline_10", #"{"type": "airline", "id": 10, "name": "40-Mile Air", "callsign": "MILE-AIR", "country": "United States", "iata": "Q5", "icao": "MLA"}"#),
            ("airline_17", #"{"type": "airline", "id": 17, "name": "Alaskan Airways", "callsign": "ALASKAN-AIR", "country": "United States", "iata": "AA", "icao": "AAA"}"#),
            ("hotel123", #"{"type": "hotel", "id": "hotel123", "name": "Hotel Ghia", "title": "Avignon", "city": "Avignon", "public_likes": ["Armani Langworth", "Elfrieda Gutkowski", "Maureen Ruecker"]}"#),
            ("hotel456", #"{"type": "hotel", "id": "hotel456", "name": "Hotel Deluxe", "title": "Aberdyfi", "city": "Aberdyfi", "public_likes": ["Maureen Ruecker"]}"#),
            ("hotel789", #"{"type": "hotel", "id": "hotel789", "name": "Auberge", "title": "Ardèche", "city": "Lyon"}"#),
            ("landmark_1", #"{"type": "landmark", "name": "Royal Engineers Museum", "country": "United Kingdom"}"#),
            ("landmark_2", #"{"type": "landmark", "name": "Engineer", "country": "France"}"#),
            ("landmark_3", #"{"type": "landmark", "name": "England Eagle", "country": "United Kingdom"}"#),
            ("landmark_4", #"{"type": "landmark", "name": "Tower Bridge", "country": "United Kingdom"}"#),
            ("landmark_5", #"{"type": "landmark", "name": "engineer", "country": "Canada"}"#),
            ("route_1", #"{"type": "route", "airlineid": "airline_10", "sourceairport": "RIX", "destinationairport": "ARN", "stops": 0, "airline": "Q5"}"#),
            ("route_2", #"{"type": "route", "airlineid": "airline_17", "sourceairport": "RIX", "destinationairport": "CPH", "stops": 1, "airline": "AA"}"#),
            ("route_3", #"{"type": "route", "airlineid": "airline_10", "sourceairport": "LHR", "destinationairport": "RIX", "stops": 0, "airline": "Q5"}"#),
            ("airport_1", #"{"type": "airport", "country": "France", "geo": {"alt": 400}, "tz": "Europe/Paris"}"#),
            ("airport_2", #"{"type": "airport", "country": "France", "geo": {"alt": 300}, "tz": "Europe/Paris"}"#),
            ("airport_3", #"{"type": "airport", "country": "France", "geo": {"alt": 100}, "tz": "Europe/Paris"}"#),
            ("airport_4", #"{"type": "airport", "country": "United States", "geo": {"alt": 456}, "tz": "America/Anchorage"}"#),
            ("user_1", #"{"type": "user", "first": "Armani", "last": "Langworth"}"#),
            ("user_2", #"{"type": "user", "first": "Bob", "username": "Armani"}"#),
            ("user_3", #"{"type": "user", "first": "Carol", "last": "Armand"}"#),
            ("gone", #"{"type": "hotel", "name": "Deleted Hotel"}"#),
        ]
        let collection = try database.defaultCollection()
        for (id, json) in documents { try collection.save(document: try MutableDocument(id: id, json: json)) }
        try collection.delete(document: try XCTUnwrap(collection.document(id: "gone")))
    }

    override func tearDownWithError() throws {
        try database?.close()
        try super.tearDownWithError()
    }

    private func all(_ query: BuilderQuery) throws -> [DocLite.Result] { try query.execute().allResults() }

    /// Examples 3, 4, 16, 17, 18: `SelectResult.all()` is keyed by the database name.
    func testSelectAll() throws {
        let query = QueryBuilder
            .select(SelectResult.all())
            .from(DataSource.database(database))
        let results = try all(query)
        XCTAssertEqual(results.count, 20)   // 21 saved, one deleted
        for row in results { XCTAssertEqual(row.keys, ["travel-sample"]) }
        let airline = try XCTUnwrap(results.first { $0.dictionary(forKey: "travel-sample")?.string(forKey: "type") == "airline" })
        XCTAssertEqual(airline.dictionary(forKey: "travel-sample")?.string(forKey: "callsign"), "MILE-AIR")
        XCTAssertEqual(airline.dictionary(at: 0)?.int(forKey: "id"), 10)
        XCTAssertEqual(try query.columnNames, ["travel-sample"])
    }

    /// Examples 5, 6: specific properties, keyed by property name, `id` for `Meta.id`.
    func testSelectProperties() throws {
        let query = QueryBuilder
            .select(
                SelectResult.expression(Meta.id),
                SelectResult.property("type"),
                SelectResult.property("name")
            )
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("hotel")))
        let results = try all(query)
        XCTAssertEqual(results.map { $0.keys }.first, ["id", "type", "name"])
        XCTAssertEqual(Set(results.compactMap { $0.string(forKey: "id") }), ["hotel123", "hotel456", "hotel789"])
        XCTAssertEqual(results.first { $0.string(forKey: "id") == "hotel123" }?.string(forKey: "name"), "Hotel Ghia")
    }

    /// Example 7: WHERE and LIMIT, reading `SelectResult.all()` by the database name.
    func testWhere() throws {
        let query = QueryBuilder
            .select(SelectResult.all())
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("hotel")))
            .limit(Expression.int(2))
        let names = try all(query).compactMap { $0.dictionary(forKey: "travel-sample")?.string(forKey: "name") }
        XCTAssertEqual(names.count, 2)
        XCTAssertTrue(Set(names).isSubset(of: ["Hotel Ghia", "Hotel Deluxe", "Auberge"]))
    }

    /// The CONTAINS example: `ArrayFunction.contains`.
    func testArrayContains() throws {
        let query = QueryBuilder
            .select(
                SelectResult.expression(Meta.id),
                SelectResult.property("name"),
                SelectResult.property("public_likes")
            )
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("hotel"))
                    .and(ArrayFunction.contains(Expression.property("public_likes"),
                                                value: Expression.string("Armani Langworth")))
            )
        let results = try all(query)
        XCTAssertEqual(results.map { $0.string(forKey: "id") }, ["hotel123"])
        XCTAssertEqual(results.first?.array(forKey: "public_likes")?.toArray() as? [String],
                       ["Armani Langworth", "Elfrieda Gutkowski", "Maureen Ruecker"])
    }

    /// The IN example.
    func testIn() throws {
        let values = [
            Expression.property("first"),
            Expression.property("last"),
            Expression.property("username")
        ]
        let query = QueryBuilder.select(SelectResult.all())
            .from(DataSource.database(database))
            .where(Expression.string("Armani").in(values))
        let firsts = try all(query).compactMap { $0.dictionary(forKey: "travel-sample")?.string(forKey: "first") }
        XCTAssertEqual(Set(firsts), ["Armani", "Bob"])
    }

    private func landmarkIDs(where condition: ExpressionProtocol) throws -> [String] {
        let query = QueryBuilder
            .select(
                SelectResult.expression(Meta.id),
                SelectResult.property("country"),
                SelectResult.property("name")
            )
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("landmark"))
                    .and(condition)
            )
            .limit(Expression.int(10))
        let results = try all(query)
        XCTAssertEqual(results.first?.keys, ["id", "country", "name"])
        return results.compactMap { $0.string(forKey: "id") }.sorted()
    }

    /// Examples 8–11: LIKE (case-sensitive, wildcards) and regex.
    func testLikeAndRegex() throws {
        XCTAssertEqual(try landmarkIDs(where: Function.lower(Expression.property("name"))
                                        .like(Expression.string("royal engineers museum"))), ["landmark_1"])
        XCTAssertEqual(try landmarkIDs(where: Function.lower(Expression.property("name"))
                                        .like(Expression.string("eng%e%"))), ["landmark_2", "landmark_3", "landmark_5"])
        XCTAssertEqual(try landmarkIDs(where: Expression.property("name").like(Expression.string("eng____r"))), ["landmark_5"])
        XCTAssertEqual(try landmarkIDs(where: Expression.property("name").regex(Expression.string("\\bEng.*e\\b"))), ["landmark_3"])
    }

    /// Example 12: deleted documents.
    func testDeletedDocuments() throws {
        let query = QueryBuilder
            .select(SelectResult.expression(Meta.id))
            .from(DataSource.database(database))
            .where(Meta.isDeleted)
        XCTAssertEqual(try all(query).map { $0.string(forKey: "id") }, ["gone"])
    }

    /// Example 13: JOIN of routes with their airlines.
    func testJoin() throws {
        let query = QueryBuilder
            .select(
                SelectResult.expression(Expression.property("name").from("airline")),
                SelectResult.expression(Expression.property("callsign").from("airline")),
                SelectResult.expression(Expression.property("destinationairport").from("route")),
                SelectResult.expression(Expression.property("stops").from("route")),
                SelectResult.expression(Expression.property("airline").from("route"))
            )
            .from(
                DataSource.database(database!).as("airline")
            )
            .join(
                Join.join(DataSource.database(database!).as("route"))
                    .on(
                        Meta.id.from("airline")
                            .equalTo(Expression.property("airlineid").from("route"))
                    )
            )
            .where(
                Expression.property("type").from("route").equalTo(Expression.string("route"))
                    .and(Expression.property("type").from("airline")
                            .equalTo(Expression.string("airline")))
                    .and(Expression.property("sourceairport").from("route")
                            .equalTo(Expression.string("RIX")))
            )
        let results = try all(query)
        XCTAssertEqual(results.first?.keys, ["name", "callsign", "destinationairport", "stops", "airline"])
        let rows = results.map { "\($0.string(forKey: "name")!)|\($0.string(forKey: "callsign")!)|\($0.string(forKey: "destinationairport")!)|\($0.int(forKey: "stops"))|\($0.string(forKey: "airline")!)" }
        XCTAssertEqual(rows.sorted(), ["40-Mile Air|MILE-AIR|ARN|0|Q5", "Alaskan Airways|ALASKAN-AIR|CPH|1|AA"])
    }

    /// Example 14: GROUP BY; the unnamed count is `$1`.
    func testGroupBy() throws {
        let query = QueryBuilder
            .select(
                SelectResult.expression(Function.count(Expression.all())),
                SelectResult.property("country"),
                SelectResult.property("tz"))
            .from(DataSource.database(database))
            .where(
                Expression.property("type").equalTo(Expression.string("airport"))
                    .and(Expression.property("geo.alt").greaterThanOrEqualTo(Expression.int(300)))
            ).groupBy(
                Expression.property("country"),
                Expression.property("tz")
            )
        let results = try all(query)
        XCTAssertEqual(results.first?.keys, ["$1", "country", "tz"])
        let lines = results.map { "\($0.int(forKey: "$1")) \($0.string(forKey: "tz")!) \($0.string(forKey: "country")!)" }
        XCTAssertEqual(lines.sorted(), ["1 America/Anchorage United States", "2 Europe/Paris France"])
    }

    /// Example 15: ORDER BY.
    func testOrderBy() throws {
        let query = QueryBuilder
            .select(
                SelectResult.expression(Meta.id),
                SelectResult.property("title"))
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("hotel")))
            .orderBy(Ordering.property("title").ascending())
            .limit(Expression.int(10))
        XCTAssertEqual(try all(query).map { $0.string(forKey: "title") }, ["Aberdyfi", "Ardèche", "Avignon"])
        let descending = QueryBuilder.select(SelectResult.property("title"))
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("hotel")))
            .orderBy(Ordering.property("title").descending())
        XCTAssertEqual(try all(descending).map { $0.string(forKey: "title") }, ["Avignon", "Ardèche", "Aberdyfi"])
    }

    /// Examples 19–24: `Meta.id` under an alias, and `document(withID:)`.
    func testMetaIDAlias() throws {
        let query = QueryBuilder
            .select(SelectResult.expression(Meta.id).as("metaId"),
                    SelectResult.expression(Expression.property("id")),
                    SelectResult.expression(Expression.property("name")),
                    SelectResult.expression(Expression.property("city")),
                    SelectResult.expression(Expression.property("type")))
            .from(DataSource.database(database))
        XCTAssertEqual(try query.columnNames, ["metaId", "id", "name", "city", "type"])
        let hotel = try XCTUnwrap(all(query).first { $0.string(forKey: "metaId") == "hotel456" })
        XCTAssertEqual(hotel.string(forKey: "city"), "Aberdyfi")

        let ids = QueryBuilder.select(SelectResult.expression(Meta.id).as("metaId"))
            .from(DataSource.database(database))
        let results = try all(ids)
        XCTAssertEqual(results.count, 20)   // 21 saved, one deleted
        for result in results {
            XCTAssertEqual(result.toDictionary().keys.sorted(), ["metaId"])
            let docId = result.string(forKey: "metaId")!
            let doc = database.document(withID: docId)!
            XCTAssertEqual(doc.id, docId)
        }
    }

    /// Examples 25–27: a count under an alias.
    func testCountAlias() throws {
        let query = QueryBuilder
            .select(SelectResult.expression(Function.count(Expression.all())).as("mycount"))
            .from (DataSource.database(database)).groupBy(Expression.property("type"))
        let counts = try all(query).map { $0.int(forKey: "mycount") }
        XCTAssertEqual(counts.sorted(), [2, 3, 3, 3, 4, 5])
    }

    /// Example 28: pagination with LIMIT and OFFSET.
    func testPagination() throws {
        let everything = try all(QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.database(database)))
            .compactMap { $0.string(forKey: "id") }
        var pages: [String] = []
        let limit = 8
        for offset in stride(from: 0, to: 24, by: limit) {
            let query = QueryBuilder
                .select(SelectResult.expression(Meta.id))
                .from(DataSource.database(database))
                .limit(Expression.int(limit), offset: Expression.int(offset))
            let page = try all(query).compactMap { $0.string(forKey: "id") }
            XCTAssertLessThanOrEqual(page.count, limit)
            pages += page
        }
        XCTAssertEqual(pages, everything)
        XCTAssertEqual(pages.count, 20)
    }

    /// Parameters set on a builder query, before and after it is compiled.
    func testParameters() throws {
        let query = QueryBuilder.select(SelectResult.expression(Meta.id))
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.parameter("type")))
            .orderBy(Ordering.expression(Meta.id))
        query.parameters = Parameters().setString("airline", forName: "type")
        XCTAssertEqual(try all(query).map { $0.string(forKey: "id") }, ["airline_10", "airline_17"])
        query.parameters = Parameters().setString("hotel", forName: "type")
        XCTAssertEqual(try all(query).map { $0.string(forKey: "id") }, ["hotel123", "hotel456", "hotel789"])
        XCTAssertTrue(try query.explain().contains("SELECT"))
    }

    /// `collate`: case-insensitive equality (ASCII) and accent-insensitive ordering (Unicode).
    func testCollate() throws {
        XCTAssertEqual(try landmarkIDs(where: Expression.property("name").collate(Collation.ascii().ignoreCase(true))
                                        .equalTo(Expression.string("ENGINEER"))), ["landmark_2", "landmark_5"])
        XCTAssertEqual(try landmarkIDs(where: Expression.property("name").like(Expression.string("%MUSEUM"))
                                        .collate(Collation.unicode().ignoreCase(true).locale("en"))), ["landmark_1"])
        let titles = QueryBuilder.select(SelectResult.property("title"))
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("hotel")))
            .orderBy(Ordering.expression(Expression.property("title").collate(Collation.unicode().ignoreAccents(true).locale("en"))).descending())
        XCTAssertEqual(try all(titles).map { $0.string(forKey: "title") }, ["Avignon", "Ardèche", "Aberdyfi"])
    }

    // MARK: Seed 002 (result sets)

    private var hotelQuery: Where {
        QueryBuilder
            .select(SelectResult.expression(Meta.id).as("metaId"),
                    SelectResult.expression(Expression.property("id")),
                    SelectResult.expression(Expression.property("name")),
                    SelectResult.expression(Expression.property("city")),
                    SelectResult.expression(Expression.property("type")))
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("hotel")))
    }

    /// Seed 002 example 4: all properties, read with `dictionary(at: 0)`.
    func testAccessAllProperties() throws {
        let query = QueryBuilder.select(SelectResult.all()).from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("hotel")))
        var hotels: [String: DictionaryObject] = [:]
        let results = try query.execute()
        for row in results {
            let docsProps = row.dictionary(at: 0)!
            let docid = docsProps.string(forKey: "id")!
            let name = docsProps.string(forKey: "name")!
            let type = docsProps.string(forKey: "type")!
            let city = docsProps.string(forKey: "city")!
            XCTAssertEqual(type, "hotel")
            XCTAssertFalse(name.isEmpty || city.isEmpty)
            let hotel = row.dictionary(at: 0)!
            guard let hotelId = hotel.string(forKey: "id") else { continue }
            XCTAssertEqual(hotelId, docid)
            hotels[hotelId] = hotel
        }
        XCTAssertEqual(hotels.keys.sorted(), ["hotel123", "hotel456", "hotel789"])
        XCTAssertEqual(hotels["hotel456"]?.string(forKey: "city"), "Aberdyfi")
    }

    /// Seed 002 example 5: IDs, then the documents by ID.
    func testAccessByID() throws {
        let collection = try database.defaultCollection()
        var names: [String] = []
        for result in try hotelQuery.execute() {
            XCTAssertEqual(result.toDictionary().keys.sorted(), ["city", "id", "metaId", "name", "type"])
            let docId = result.string(forKey: "metaId")!
            if let doc = try collection.document(id: docId) {
                XCTAssertEqual(doc.string(forKey: "id"), docId)
                names.append(doc.string(forKey: "name")!)
            }
        }
        XCTAssertEqual(names.sorted(), ["Auberge", "Hotel Deluxe", "Hotel Ghia"])
    }

    /// Seed 002 example 6: `toJSON()` decoded with `JSONDecoder` and `JSONSerialization`.
    func testJSONResults() throws {
        struct Hotel: Codable {
            var id: String = "undefined"
            var type: String? = "hotel"
            var name: String? = "undefined"
            var city: String? = "undefined"
            var country: String? = nil
        }
        var hotels: [String: Hotel] = [:]
        for row in try hotelQuery.execute() {
            let jsonString = row.toJSON()
            let thisJsonObj: Dictionary = try (JSONSerialization.jsonObject(
                with: jsonString.data(using: .utf8)!, options: .allowFragments) as? [String: Any])!
            var this_hotel: Hotel = try JSONDecoder().decode(Hotel.self, from: jsonString.data(using: .utf8)!)
            XCTAssertEqual(this_hotel.id, thisJsonObj["id"] as? String)
            XCTAssertEqual(this_hotel.name, thisJsonObj["name"] as? String)
            XCTAssertNil(this_hotel.country)
            this_hotel.city = thisJsonObj["city"] as? String
            hotels[this_hotel.id] = this_hotel
        }
        XCTAssertEqual(hotels["hotel123"]?.name, "Hotel Ghia")
        XCTAssertEqual(hotels["hotel789"]?.city, "Lyon")
        XCTAssertEqual(hotels.count, 3)

        // SelectResult.all(): the JSON is keyed by the database name.
        let all = try QueryBuilder.select(SelectResult.all()).from(DataSource.database(database))
            .where(Meta.id.equalTo(Expression.string("airline_10"))).execute().allResults()
        let object = try JSONSerialization.jsonObject(with: Data(all[0].toJSON().utf8)) as? [String: [String: Any]]
        XCTAssertEqual(object?["travel-sample"]?["callsign"] as? String, "MILE-AIR")
    }

    /// `Query(database:JSONRepresentation:)` compiles a built query's JSON to the same results.
    func testJSONRepresentation() throws {
        let built = hotelQuery
        let query = try Query(database: database, JSONRepresentation: built.JSONRepresentation)
        XCTAssertEqual(query.JSONRepresentation, built.JSONRepresentation)
        XCTAssertEqual(try query.execute().allResults().map { $0.toJSON() }, try built.execute().allResults().map { $0.toJSON() })
        assertThrows(.invalidQuery) { _ = try Query(database: self.database, JSONRepresentation: Data("{\"WHAT\": 3".utf8)) }
    }
}
