import DocLite
import Foundation

/// A hotel as the app passes it around: a value.
struct Hotel: Codable, Sendable, Equatable {
    var name: String
    var city: String
    var rooms: Int
}

/// A hotel as a document model (a class, as Couchbase Lite's Codable API wants).
final class HotelModel: Codable {
    @DocumentID var id: String?
    var name: String
    var city: String
    var rooms: Int

    init(name: String, city: String, rooms: Int) {
        self.name = name
        self.city = city
        self.rooms = rooms
    }
}

/// The app's storage: an actor owning one collection.
actor HotelStore {
    let database: Database
    let hotels: Collection

    init(directory: String) throws {
        database = try Database(name: "swift6-app", config: DatabaseConfiguration(directory: directory))
        hotels = try database.createCollection(name: "hotels", scope: "inventory")
    }

    func add(_ hotel: Hotel, id: String) throws {
        let document = MutableDocument(id: id)
            .setString(hotel.name, forKey: "name")
            .setString(hotel.city, forKey: "city")
            .setInt(hotel.rooms, forKey: "rooms")
        try hotels.save(document: document)
    }

    /// A stored document, handed out of the actor (documents are Sendable).
    func document(id: String) throws -> Document? {
        try hotels.document(id: id)
    }

    /// The hotels of `city` by name, from a query run asynchronously.
    func hotels(in city: String) async throws -> [Hotel] {
        let query = QueryBuilder
            .select(SelectResult.property("name"), SelectResult.property("city"), SelectResult.property("rooms"))
            .from(DataSource.collection(hotels))
            .where(Expression.property("city").equalTo(Expression.string(city)))
            .orderBy(Ordering.property("name"))
        return try await query.execute().map { try $0.data(as: Hotel.self) }
    }
}

/// What a screen shows, on the main actor.
@MainActor
final class HotelListModel {
    private(set) var names: [String] = []
    private(set) var changedIDs = 0

    func reload(from store: HotelStore, city: String) async throws {
        names = try await store.hotels(in: city).map(\.name)
    }

    func collectionChanged(_ change: CollectionChange) {
        changedIDs += change.documentIDs.count
    }
}

/// Records failed checks; the program exits non-zero when there is one.
@MainActor
final class Checks {
    private(set) var failures: [String] = []

    func expect(_ condition: Bool, _ what: String) {
        print(condition ? "ok    \(what)" : "FAIL  \(what)")
        if !condition { failures.append(what) }
    }
}

@main
@MainActor
struct Swift6App {
    static func main() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift6-app-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let checks = Checks()
        let store = try HotelStore(directory: directory)
        let listModel = HotelListModel()

        // A listener (called on DocLite's thread) hands the change to the main actor.
        let token = store.hotels.addChangeListener { change in
            Task { @MainActor in listModel.collectionChanged(change) }
        }

        // A task group: four tasks add hotels through the actor, one writes a batch directly.
        let database = store.database, hotels = store.hotels
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for i in 0..<100 {
                        let hotel = Hotel(name: "Hotel \(worker)-\(i)", city: i % 2 == 0 ? "Paris" : "Oslo", rooms: i)
                        try await store.add(hotel, id: "h\(worker)-\(i)")
                    }
                }
            }
            group.addTask {
                try database.inBatch {
                    for i in 0..<100 {
                        try hotels.save(document: MutableDocument(id: "b\(i)", data: ["name": "Batch \(i)", "city": "Rome", "rooms": i]))
                    }
                }
            }
            try await group.waitForAll()
        }
        checks.expect(hotels.count == 500, "500 documents saved from five tasks")

        // A document read inside the actor, used on the main actor.
        let document = try await store.document(id: "h2-7")
        checks.expect(document?.string(forKey: "name") == "Hotel 2-7" && document?.int(forKey: "rooms") == 7,
                      "a document crosses from the actor to the main actor")

        // A query built here and run in a detached task (queries and expressions are Sendable).
        let roomy = QueryBuilder.select(SelectResult.expression(Meta.id))
            .from(DataSource.collection(hotels))
            .where(Expression.property("rooms").greaterThanOrEqualTo(Expression.int(95)))
        let roomyCount = try await Task.detached { try await roomy.execute().allResults().count }.value
        checks.expect(roomyCount == 4 * 5 + 5, "a query runs in a detached task")

        // The main actor's model reloads from the actor's async query.
        try await listModel.reload(from: store, city: "Oslo")
        checks.expect(listModel.names.count == 200 && listModel.names.first == "Hotel 0-1", "the main actor's model reads an async query")

        // One MutableDocument shared by two tasks: its lock keeps every change.
        let shared = MutableDocument(id: "shared")
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<2 {
                group.addTask {
                    for i in 0..<1_000 { shared.setInt(i, forKey: "t\(task)-\(i)") }
                }
            }
        }
        checks.expect(shared.count == 2_000, "two tasks setting keys on one document lose nothing")

        // A Codable model saved and read back: the ID is its document's, never a property.
        let model = HotelModel(name: "Codable Inn", city: "Bern", rooms: 12)
        try hotels.save(from: model)
        let reread = try hotels.document(id: model.id ?? "", as: HotelModel.self)
        let stored = try hotels.document(id: model.id ?? "")
        checks.expect(reread?.name == "Codable Inn" && reread?.id == model.id && stored?.contains(key: "id") == false,
                      "a Codable model is saved and read back")

        // Query changes consumed on the main actor.
        var changes = try QueryBuilder.select(SelectResult.expression(Function.count(Expression.all())))
            .from(DataSource.collection(hotels)).changes().makeAsyncIterator()
        let counted = await changes.next()?.results?.next()?.int(at: 0)
        checks.expect(counted == 501, "query changes arrive as an async sequence on the main actor")

        // The listener's calls reach the main actor.
        for _ in 0..<200 where listModel.changedIDs < 501 { try await Task.sleep(for: .milliseconds(10)) }
        checks.expect(listModel.changedIDs == 501, "the change listener reaches the main actor (\(listModel.changedIDs) IDs)")
        token.remove()
        try store.database.close()

        if !checks.failures.isEmpty {
            print("\(checks.failures.count) check(s) failed")
            exit(1)
        }
    }
}
