import Foundation
import XCTest
@testable import DocLite

/// Document expiration: setting and reading it, and purging expired documents
/// when the database opens and from the background timer.
final class ExpirationTests: DatabaseTestCase {
    private func save(_ id: String, in collection: DocLite.Collection? = nil) throws {
        try (collection ?? defaultCollection).save(document: MutableDocument(id: id, json: #"{"id":"\#(id)"}"#))
    }

    func testSetAndGetExpiration() throws {
        let collection = defaultCollection
        try save("d")
        XCTAssertNil(try collection.getDocumentExpiration(id: "d"), "no expiration by default")
        let date = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded() + 0.123)
        try collection.setDocumentExpiration(id: "d", expiration: date)
        let read = try XCTUnwrap(collection.getDocumentExpiration(id: "d"))
        XCTAssertEqual(read.timeIntervalSince1970, date.timeIntervalSince1970, accuracy: 0.001)
        try reopen()
        XCTAssertEqual(try defaultCollection.getDocumentExpiration(id: "d")?.timeIntervalSince1970 ?? 0,
                       date.timeIntervalSince1970, accuracy: 0.001, "the expiration persists")
        try defaultCollection.setDocumentExpiration(id: "d", expiration: nil)
        XCTAssertNil(try defaultCollection.getDocumentExpiration(id: "d"), "nil clears the expiration")
        XCTAssertNotNil(try defaultCollection.document(id: "d"))
    }

    func testExpirationOfMissingDocument() throws {
        let collection = defaultCollection
        XCTAssertNil(try collection.getDocumentExpiration(id: "missing"))
        assertThrows(.notFound, containing: "'missing' not found") {
            try collection.setDocumentExpiration(id: "missing", expiration: Date().addingTimeInterval(60))
        }
        assertThrows(.notFound) { try collection.setDocumentExpiration(id: "missing", expiration: nil) }
        XCTAssertEqual(collection.count, 0)
    }

    func testExpirationSurvivesAnUpdate() throws {
        let collection = defaultCollection
        try save("d")
        let date = Date().addingTimeInterval(3600)
        try collection.setDocumentExpiration(id: "d", expiration: date)
        let update = try XCTUnwrap(collection.document(id: "d")).toMutable()
        update.setInt(2, forKey: "v")
        try collection.save(document: update)
        XCTAssertEqual(try collection.getDocumentExpiration(id: "d")?.timeIntervalSince1970 ?? 0, date.timeIntervalSince1970, accuracy: 0.001)
    }

    func testExpirationIsPerCollection() throws {
        let other = try db.createCollection(name: "other")
        try save("d")
        try save("d", in: other)
        try other.setDocumentExpiration(id: "d", expiration: Date().addingTimeInterval(3600))
        XCTAssertNil(try defaultCollection.getDocumentExpiration(id: "d"))
        XCTAssertNotNil(try other.getDocumentExpiration(id: "d"))
    }

    /// An expiration that passed while the database was closed: the document is
    /// gone as soon as the database opens (no timer involved).
    func testExpiredDocumentIsPurgedWhenTheDatabaseOpens() throws {
        try save("expired")
        try save("future")
        try save("never")
        let other = try db.createCollection(name: "other", scope: "s")
        try save("expired-too", in: other)
        try db.close()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        rawSQL("INSERT INTO expirations VALUES (1, 'expired', \(now - 60_000)), (1, 'future', \(now + 3_600_000)), (2, 'expired-too', \(now - 1))")

        db = try openDatabase()
        XCTAssertNil(try defaultCollection.document(id: "expired"))
        XCTAssertNotNil(try defaultCollection.document(id: "future"))
        XCTAssertNotNil(try defaultCollection.document(id: "never"))
        XCTAssertNil(try db.collection(name: "other", scope: "s")?.document(id: "expired-too"))
        XCTAssertEqual(defaultCollection.count, 2)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM kv_1 WHERE key = 'expired'"), 0, "purged, not only hidden")
        XCTAssertEqual(rawSQL("SELECT count(*) FROM tombstones"), 0, "a purge leaves no tombstone")
        XCTAssertEqual(rawSQL("SELECT count(*) FROM expirations"), 1, "the purged documents' times go with them")
    }

    /// Setting an expiration in the past through the API: the document disappears promptly.
    func testExpirationInThePast() throws {
        let clock = ManualScheduler()
        try db.close()
        db = try openDatabase(scheduler: clock)
        try save("d")
        try defaultCollection.setDocumentExpiration(id: "d", expiration: clock.now.addingTimeInterval(-10))
        clock.advance(by: 0)
        XCTAssertNil(try defaultCollection.document(id: "d"))
        try reopen()
        XCTAssertNil(try defaultCollection.document(id: "d"))
    }

    /// An expired document's rows in the full-text, array and predictive indexes go with it
    /// (the purge keeps them in step: DerivedRows).
    func testAnExpiredDocumentLeavesItsIndexes() throws {
        let clock = ManualScheduler()
        try db.close()
        db = try openDatabase(scheduler: clock)
        let collection = defaultCollection
        try collection.save(document: MutableDocument(id: "d", json: #"{"s": "gone soon", "tags": ["x"]}"#))
        try collection.save(document: MutableDocument(id: "e", json: #"{"s": "stays here", "tags": ["x"]}"#))
        try collection.createIndex(withName: "words", config: FullTextIndexConfiguration(["s"]))
        try collection.createIndex(withName: "tags", config: ArrayIndexConfiguration(path: "tags"))
        try collection.setDocumentExpiration(id: "d", expiration: clock.now.addingTimeInterval(-10))
        clock.advance(by: 0)
        XCTAssertNil(try collection.document(id: "d"))
        let table = IndexType.fullText.sqlName(collection: 1, index: "words")
        XCTAssertEqual(rawSQL("SELECT count(*) FROM \(table)"), 1)
        let elements = IndexType.array.sqlName(collection: 1, index: "tags")
        XCTAssertEqual(rawSQL("SELECT count(*) FROM \(elements)"), 1)
    }

    /// A document expiring in a second is purged by the background timer when
    /// the second has passed, not before, and a change listener hears about it;
    /// the timer is set again for the next one.
    func testBackgroundPurgeAndListener() throws {
        let clock = ManualScheduler()
        try db.close()
        db = try openDatabase(scheduler: clock)
        let collection = defaultCollection
        try save("soon")
        try save("later")
        try save("kept")
        let changes = Recorder<[String]>()
        let token = collection.addChangeListener { changes.append($0.documentIDs) }
        defer { token.remove() }
        try collection.setDocumentExpiration(id: "later", expiration: clock.now.addingTimeInterval(1.6))
        try collection.setDocumentExpiration(id: "soon", expiration: clock.now.addingTimeInterval(1.0))

        clock.advance(by: 0.9)
        XCTAssertNotNil(try collection.document(id: "soon"), "purged before it expired")
        clock.advance(by: 0.2)
        XCTAssertNil(try collection.document(id: "soon"))
        XCTAssertNotNil(try collection.document(id: "later"))
        clock.advance(by: 0.6)
        XCTAssertNil(try collection.document(id: "later"), "the timer was not set again")
        XCTAssertNotNil(try collection.document(id: "kept"))
        XCTAssertEqual(clock.pendingCount, 0, "nothing left to expire")
        XCTAssertEqual(collection.count, 1)
        XCTAssertTrue(changes.wait { $0.count >= 2 })
        XCTAssertEqual(changes.all, [["soon"], ["later"]])
    }

    func testClearedExpirationIsNotPurged() throws {
        let clock = ManualScheduler()
        try db.close()
        db = try openDatabase(scheduler: clock)
        let collection = defaultCollection
        try save("d")
        try collection.setDocumentExpiration(id: "d", expiration: clock.now.addingTimeInterval(0.5))
        XCTAssertEqual(clock.pendingCount, 1)
        try collection.setDocumentExpiration(id: "d", expiration: nil)
        XCTAssertEqual(clock.pendingCount, 0, "the timer is cancelled")
        clock.advance(by: 1.0)
        XCTAssertNotNil(try collection.document(id: "d"))
    }

    func testTombstoneExpiration() throws {
        let collection = defaultCollection
        try save("d")
        try collection.delete(document: XCTUnwrap(collection.document(id: "d")))
        let date = Date().addingTimeInterval(3600)
        try collection.setDocumentExpiration(id: "d", expiration: date)
        XCTAssertEqual(try collection.getDocumentExpiration(id: "d")?.timeIntervalSince1970 ?? 0, date.timeIntervalSince1970, accuracy: 0.001)
        try db.close()
        rawSQL("UPDATE expirations SET expiration = 1 WHERE collection = 1 AND key = 'd'")
        db = try openDatabase()
        XCTAssertEqual(rawSQL("SELECT count(*) FROM tombstones"), 0, "an expired tombstone is purged")
        let fresh = try MutableDocument(id: "d", json: "{}")
        try defaultCollection.save(document: fresh)
        XCTAssertEqual(RevisionID.generation(of: fresh.revisionID), 1)
    }

    /// A file of schema 6 kept tombstones and expiration times in each
    /// collection's own tables: opening it moves them to the shared ones, and
    /// every document keeps its state, its expiration, and a tombstone its
    /// body, in every collection; value indexes stay.
    func testASchema6FileKeepsItsTombstonesAndExpirations() throws {
        let later = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded())
        let other = try db.createCollection(name: "other", scope: "s")
        try defaultCollection.createIndex(withName: "byID", config: ValueIndexConfiguration(["id"]))
        try save("live")
        try save("gone")
        try save("kept")
        try save("there", in: other)
        try save("elsewhere", in: other)
        try defaultCollection.setDocumentExpiration(id: "live", expiration: later)
        try defaultCollection.setDocumentExpiration(id: "gone", expiration: later.addingTimeInterval(60))
        try other.setDocumentExpiration(id: "there", expiration: later.addingTimeInterval(120))
        try defaultCollection.delete(document: XCTUnwrap(defaultCollection.document(id: "gone")))
        try other.delete(document: XCTUnwrap(other.document(id: "elsewhere")))
        _ = try defaultCollection.delete(document: XCTUnwrap(defaultCollection.document(id: "kept")),
                                         concurrencyControl: .lastWriteWins, keepingProperties: true)
        try db.close()
        editFile(Self.schema6(collections: [1, 2]))
        XCTAssertEqual(rawSQL("SELECT count(*) FROM kv_del_1 WHERE expiration IS NOT NULL"), 1, "the fixture is schema 6's")
        XCTAssertEqual(rawSQL("SELECT count(*) FROM kv_2 WHERE expiration IS NOT NULL"), 1)

        db = try openDatabase()
        XCTAssertEqual(rawSQL("PRAGMA user_version"), Schema.version)
        XCTAssertEqual(rawSQL("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'kv_del_%' OR name LIKE 'kv_%_expiration'"), 0)
        try reopen()   // the upgraded file is one this release writes
        let moved = try XCTUnwrap(db.collection(name: "other", scope: "s"))
        XCTAssertEqual(try defaultCollection.getDocumentExpiration(id: "live"), later)
        XCTAssertEqual(try defaultCollection.getDocumentExpiration(id: "gone"), later.addingTimeInterval(60))
        XCTAssertEqual(try moved.getDocumentExpiration(id: "there"), later.addingTimeInterval(120))
        XCTAssertNotNil(try defaultCollection.document(id: "live"))
        XCTAssertNil(try defaultCollection.document(id: "gone"))
        let deleted = #"{"WHAT": [["._id"], [".id"]], "WHERE": ["._deleted"], "ORDER_BY": [["._id"]]}"#
        let rows = try db.createQuery(json: deleted).execute().allResults()
        XCTAssertEqual(rows.map { $0.string(at: 0) }, ["gone", "kept"])
        XCTAssertEqual(rows.map { $0.string(at: 1) }, [nil, "kept"], "a tombstone keeps its body")
        XCTAssertEqual(try db.createQuery("SELECT META().id FROM s.other WHERE META().deleted").execute().map { $0.string(at: 0) }, ["elsewhere"])
        XCTAssertEqual(try defaultCollection.indexes(), ["byID"])
        let index = IndexType.value.sqlName(collection: 1, index: "byID")
        XCTAssertTrue(try db.createQuery("SELECT META().id FROM _ WHERE id = 'live'").explain().contains(index), "the index is used")
        let revived = try MutableDocument(id: "gone", json: "{}")
        try defaultCollection.save(document: revived)
        XCTAssertEqual(RevisionID.generation(of: revived.revisionID), 3, "the tombstone's revision history is kept")
    }

    /// Schema 7 keeps expiration times apart from documents, so an index
    /// cannot read META().expiration; a schema-6 file's index on it is dropped
    /// by the upgrade (queries on it still run, reading the shared table).
    func testMetaExpirationCannotBeIndexedAndASchema6IndexOnItIsDropped() throws {
        assertThrows(.invalidQuery, containing: "META().expiration cannot be indexed") {
            try defaultCollection.createIndex(withName: "when", config: ValueIndexConfiguration(["META().expiration"]))
        }
        let definition = IndexDefinition(kind: .value, expressions: [try SQLPPParser.parseExpressions("META().expiration")[0]], condition: nil)
        let legacy = try IndexPlan(index: "when", definition: definition, collection: defaultCollection, database: db, schemaVersion: 6)
        XCTAssertEqual(legacy.recorded, ["expiration"])
        try save("d")
        try defaultCollection.setDocumentExpiration(id: "d", expiration: Date().addingTimeInterval(3600))
        try db.close()
        editFile(Self.schema6() + legacy.statements + ["""
            INSERT INTO indexes VALUES (1, 'when', 'value', \(SQLLiteral.string(definition.json)), '\(legacy.sqlName)', '["expiration"]')
            """])
        db = try openDatabase()
        XCTAssertEqual(try defaultCollection.indexes(), [])
        XCTAssertEqual(rawSQL("SELECT count(*) FROM sqlite_schema WHERE name = '\(legacy.sqlName)'"), 0)
        XCTAssertEqual(try db.createQuery("SELECT META().id FROM _ WHERE META().expiration > 0").execute().map { $0.string(at: 0) }, ["d"])
    }

    /// Expiration times of a collection the file does not hold (only a changed
    /// file has them) are neither purged nor waited for.
    func testExpirationsOfAnUnknownCollectionAreIgnored() throws {
        try save("d")
        try db.close()
        rawSQL("INSERT INTO expirations VALUES (99, 'stray', 1)")
        db = try openDatabase()
        XCTAssertNil(try db.housekeeper.earliestExpiration(), "no timer for a time already past, again and again")
        XCTAssertNotNil(try defaultCollection.document(id: "d"))
    }

    /// Purging a document takes its expiration with it: a new document of the
    /// same ID does not inherit it.
    func testAPurgedDocumentsExpirationGoesWithIt() throws {
        try save("d")
        try defaultCollection.setDocumentExpiration(id: "d", expiration: Date().addingTimeInterval(3600))
        try defaultCollection.purge(id: "d")
        try save("d")
        XCTAssertNil(try defaultCollection.getDocumentExpiration(id: "d"))
    }

    /// META().expiration in a query reads the expiration of each document, of
    /// each source of a join, and is null without one.
    func testMetaExpirationInAQuery() throws {
        let later = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded())
        try save("a")
        try save("b")
        try defaultCollection.setDocumentExpiration(id: "b", expiration: later)
        let rows = try db.createQuery("""
            SELECT META(x).id, META(x).expiration, META(y).expiration, META(x) FROM _ AS x JOIN _ AS y ON META(y).id = 'b'
            ORDER BY META(x).id
            """).execute().allResults()
        let millis = Int(later.timeIntervalSince1970 * 1000)
        XCTAssertEqual(rows.map { $0.string(at: 0) }, ["a", "b"])
        XCTAssertEqual(rows.map { $0.value(at: 1) as? Int }, [nil, millis])
        XCTAssertEqual(rows.map { $0.value(at: 2) as? Int }, [millis, millis])
        XCTAssertEqual(rows.map { $0.dictionary(at: 3)?.value(forKey: "expiration") as? Int }, [nil, millis])
    }
}
