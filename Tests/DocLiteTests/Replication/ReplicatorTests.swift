import Foundation
import XCTest
@testable import DocLite

/// Two local databases syncing through a real PostgreSQL server.
final class ReplicatorTests: SyncTestCase {
    private func collections(of database: Database) throws -> [DocLite.Collection] {
        [try database.defaultCollection(), try database.createCollection(name: "items", scope: "store"),
         try database.createCollection(name: "orders", scope: "store")]
    }

    func testTwoDatabasesConvergeThroughTheServer() throws {
        let a = try openDatabase("a"), b = try openDatabase("b")
        let aCollections = try collections(of: a), bCollections = try collections(of: b)
        for (n, collection) in aCollections.enumerated() {
            for i in 0..<30 {
                let document = MutableDocument(id: "doc-\(i)")
                document.setInt(i, forKey: "n")
                document.setString("collection \(n)", forKey: "where")
                document.setArray(MutableArrayObject(data: [i, "x", ["deep": true]]), forKey: "list")
                try collection.save(document: document)
            }
            try collection.delete(document: try XCTUnwrap(collection.document(id: "doc-3")))
        }
        let photo = MutableDocument(id: "photo")
        photo.setBlob(Blob(contentType: "image/png", data: Data((0..<5000).map { UInt8($0 % 251) })), forKey: "image")
        try aCollections[1].save(document: photo)

        sync(try configuration(aCollections))
        sync(try configuration(bCollections))
        for (mine, theirs) in zip(aCollections, bCollections) {
            XCTAssertEqual(try contents(mine), try contents(theirs))
            XCTAssertEqual(mine.count, 29 + (mine.name == "items" ? 1 : 0))
        }
        let image = try XCTUnwrap(bCollections[1].document(id: "photo")?.blob(forKey: "image"))
        XCTAssertEqual(image.content?.count, 5000)
        XCTAssertEqual(image.contentType, "image/png")

        // Changes from B: an edit, a deletion, a new document; then A pulls them.
        let edited = try XCTUnwrap(bCollections[2].document(id: "doc-7")).toMutable()
        edited.setString("edited on b", forKey: "note")
        try bCollections[2].save(document: edited)
        try bCollections[0].delete(document: try XCTUnwrap(bCollections[0].document(id: "doc-8")))
        try bCollections[1].save(document: MutableDocument(id: "new-on-b", data: ["from": "b"]))
        sync(try configuration(bCollections))
        sync(try configuration(aCollections))
        for (mine, theirs) in zip(aCollections, bCollections) {
            XCTAssertEqual(try contents(mine), try contents(theirs))
        }
        XCTAssertEqual(try aCollections[2].document(id: "doc-7")?.string(forKey: "note"), "edited on b")
        XCTAssertNil(try aCollections[0].document(id: "doc-8"))
        XCTAssertEqual(try aCollections[1].document(id: "new-on-b")?.string(forKey: "from"), "b")
        XCTAssertEqual(try admin("SELECT count(*) FROM doclite.documents WHERE deleted").first, "4")
    }

    func testASecondRunMovesOnlyWhatChanged() throws {
        let a = try openDatabase("a")
        let collection = try a.defaultCollection()
        for i in 0..<10 { try collection.save(document: MutableDocument(id: "d\(i)", data: ["i": i])) }
        let config = try configuration([collection], type: .push)
        XCTAssertEqual(replicate(config).documents.count, 10)
        XCTAssertEqual(replicate(config).documents.count, 0)
        try collection.save(document: MutableDocument(id: "d10", data: ["i": 10]))
        XCTAssertEqual(replicate(config).documents.map(\.id), ["d10"])
        XCTAssertEqual(try Replicator(config: config).pendingDocumentIds(collection: collection), [])
        try collection.save(document: MutableDocument(id: "d11", data: ["i": 11]))
        XCTAssertEqual(try Replicator(config: config).pendingDocumentIds(collection: collection), ["d11"])
        XCTAssertTrue(try Replicator(config: config).isDocumentPending("d11", collection: collection))
    }
}

/// Two local databases, one the other's endpoint (Couchbase Lite's `DatabaseEndpoint`).
final class DatabaseEndpointTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "doclite-endpoint-tests-" + UUID().uuidString
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func run(_ config: ReplicatorConfiguration) throws -> Replicator.Status {
        let replicator = Replicator(config: config)
        replicator.start()
        XCTAssertTrue(waitUntil(replicator, timeout: 30) { replicator.status.activity == .stopped })
        return replicator.status
    }

    func testTwoDatabasesSyncWithoutAServer() throws {
        let phone = try Database(name: "phone", config: DatabaseConfiguration(directory: directory))
        let laptop = try Database(name: "laptop", config: DatabaseConfiguration(directory: directory))
        defer { try? phone.close(); try? laptop.close() }
        let notes = try phone.createCollection(name: "notes", scope: "app")
        for i in 0..<20 { try notes.save(document: MutableDocument(id: "n\(i)", data: ["i": i])) }
        let photo = MutableDocument(id: "photo")
        photo.setBlob(Blob(contentType: "image/png", data: Data(repeating: 7, count: 2000)), forKey: "image")
        try notes.save(document: photo)
        var config = ReplicatorConfiguration(target: DatabaseEndpoint(database: laptop))
        config.addCollection(notes)
        XCTAssertNil(try run(config).error)
        let copy = try XCTUnwrap(laptop.collection(name: "notes", scope: "app"))
        XCTAssertEqual(copy.count, 21)
        XCTAssertEqual(try copy.document(id: "photo")?.blob(forKey: "image")?.content?.count, 2000)
        XCTAssertEqual(try copy.document(id: "n5")?.revisionID, try notes.document(id: "n5")?.revisionID)

        // Changes on the laptop come back; a conflict ends the same on both.
        let onLaptop = try XCTUnwrap(copy.document(id: "n1")).toMutable()
        onLaptop.setString("laptop", forKey: "by")
        try copy.save(document: onLaptop)
        try copy.delete(document: try XCTUnwrap(copy.document(id: "n2")))
        let onPhone = try XCTUnwrap(notes.document(id: "n1")).toMutable()
        onPhone.setString("phone", forKey: "by")
        onPhone.setInt(1, forKey: "again")
        try notes.save(document: onPhone)
        let phoneAgain = try XCTUnwrap(notes.document(id: "n1")).toMutable()
        phoneAgain.setInt(2, forKey: "again")
        try notes.save(document: phoneAgain)   // (two edits here, one there: the phone's wins)
        XCTAssertNil(try run(config).error)
        XCTAssertNil(try notes.document(id: "n2"))
        XCTAssertEqual(try notes.document(id: "n1")?.string(forKey: "by"), "phone")
        XCTAssertEqual(try copy.document(id: "n1")?.string(forKey: "by"), "phone")
        XCTAssertEqual(try copy.document(id: "n1")?.revisionID, try notes.document(id: "n1")?.revisionID)
    }

    func testADatabaseCannotSyncWithItself() throws {
        let db = try Database(name: "self", config: DatabaseConfiguration(directory: directory))
        defer { try? db.close() }
        var config = ReplicatorConfiguration(target: DatabaseEndpoint(database: db))
        config.addCollection(try db.defaultCollection())
        XCTAssertTrue((try run(config).error as? DocLiteError)?.message.contains("with itself") == true)
    }

    func testAContinuousReplicatorFollowsTheOtherDatabase() throws {
        let a = try Database(name: "a", config: DatabaseConfiguration(directory: directory))
        let b = try Database(name: "b", config: DatabaseConfiguration(directory: directory))
        defer { try? a.close(); try? b.close() }
        var config = ReplicatorConfiguration(target: DatabaseEndpoint(database: b))
        config.addCollection(try a.defaultCollection())
        config.continuous = true
        let replicator = Replicator(config: config)
        replicator.start()
        defer { replicator.stop() }
        XCTAssertTrue(waitUntil(replicator, timeout: 10) { replicator.status.activity == .idle })
        try b.defaultCollection().save(document: MutableDocument(id: "from-b", data: [:]))
        XCTAssertTrue(try waitUntil(replicator, timeout: 2) { try a.defaultCollection().document(id: "from-b") != nil })
        try a.defaultCollection().save(document: MutableDocument(id: "from-a", data: [:]))
        XCTAssertTrue(try waitUntil(replicator, timeout: 2) { try b.defaultCollection().document(id: "from-a") != nil })
        replicator.stop()
        XCTAssertTrue(waitUntil(replicator, timeout: 10) { replicator.status.activity == .stopped })
    }
}
