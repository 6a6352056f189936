import XCTest
@testable import DocLite

/// The README's QueryBuilder example, as written there.
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
        let token = try built.addChangeListener(withQueue: .global()) { change in
            XCTAssertEqual(change.results?.map { $0.string(forKey: "name")! } ?? [], ["Palace", "Grand"])
            XCTAssertNil(change.error)
            announced.fulfill()
        }
        wait(for: [announced], timeout: 5)
        token.remove()
    }
}
