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
