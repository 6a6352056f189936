import XCTest
@testable import DocLite

/// The README's QueryBuilder and SQL++ examples, as written there.
final class BuilderReadmeExampleTests: DatabaseTestCase {
    func testTheReadmeJoinRuns() throws {
        let hotels = try db.createCollection(name: "hotels", scope: "inventory")
        let cities = try db.createCollection(name: "cities", scope: "inventory")
        try hotels.save(document: MutableDocument(id: "h1", json: #"{"name": "Grand", "rooms": 120, "city": "paris"}"#))
        try hotels.save(document: MutableDocument(id: "h2", json: #"{"name": "Small", "rooms": 12, "city": "paris"}"#))
        try hotels.save(document: MutableDocument(id: "h3", json: #"{"name": "Palace", "rooms": 300, "city": "rome"}"#))
        try cities.save(document: MutableDocument(id: "paris", json: #"{"country": "France"}"#))
        try cities.save(document: MutableDocument(id: "rome", json: #"{"country": "Italy"}"#))

        let (h, c) = ("h", "c")
        let built = QueryBuilder
            .select(SelectResult.expression(Expression.property("name").from(h)),
                    SelectResult.expression(Expression.property("country").from(c)).as("country"))
            .from(DataSource.collection(hotels).as(h))
            .join(Join.innerJoin(DataSource.collection(cities).as(c))
                    .on(Expression.property("city").from(h).equalTo(Meta.id.from(c))))
            .where(Expression.property("rooms").from(h).greaterThanOrEqualTo(Expression.parameter("minRooms")))
            .orderBy(Ordering.expression(Expression.property("rooms").from(h)).descending())
            .limit(Expression.int(10))
        built.parameters = Parameters().setInt(100, forName: "minRooms")
        let rows = try built.execute().map { [$0.string(forKey: "name"), $0.string(forKey: "country")] }
        XCTAssertEqual(rows, [["Palace", "Italy"], ["Grand", "France"]])

        let announced = expectation(description: "the live rows")
        let token = built.addChangeListener(withQueue: .global()) { change in
            XCTAssertEqual(change.results?.map { $0.string(forKey: "name")! } ?? [], ["Palace", "Grand"])
            XCTAssertNil(change.error)
            announced.fulfill()
        }
        wait(for: [announced], timeout: 5)
        token.remove()

        // The same query in SQL++, an index from SQL++, and the built query printed as SQL++.
        let sqlpp = try db.createQuery("""
            SELECT h.name, c.country AS country
            FROM inventory.hotels AS h JOIN inventory.cities AS c ON h.city = META(c).id
            WHERE h.rooms >= $minRooms ORDER BY h.rooms DESC LIMIT 10
            """)
        sqlpp.parameters = Parameters().setInt(100, forName: "minRooms")
        XCTAssertEqual(try sqlpp.execute().map { [$0.string(forKey: "name"), $0.string(forKey: "country")] }, rows)
        try hotels.createIndex(withName: "byCity", config: ValueIndexConfiguration(["city", "lower(name)"]))
        XCTAssertEqual(try hotels.indexes(), ["byCity"])
        let printed = try db.createQuery(built.sqlpp)
        printed.parameters = Parameters().setInt(100, forName: "minRooms")
        XCTAssertEqual(try printed.execute().map { [$0.string(forKey: "name"), $0.string(forKey: "country")] }, rows)
    }

    func testTheReadmePredicateQueryRuns() throws {
        try defaultCollection.save(document: MutableDocument(id: "p1", json: #"{"type": "post", "title": "Hello", "date": "2014-12-11", "tags": ["iOS"]}"#))
        try defaultCollection.save(document: MutableDocument(id: "p2", json: #"{"type": "post", "title": "Other", "date": "2015-01-01", "tags": []}"#))
        let posts = try PredicateQueryBuilder(database: db, select: ["title", "date"],
                                              where: "type == 'post' AND tags CONTAINS $TAG", orderBy: ["-date"])
        XCTAssertEqual(try posts.runQuery(context: ["TAG": "iOS"]).map { $0.value as? [String] }, [["Hello", "2014-12-11"]])
    }
}
