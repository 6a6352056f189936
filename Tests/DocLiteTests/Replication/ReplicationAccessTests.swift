import Foundation
import XCTest
@testable import DocLite

/// Who may read and write what on the server: row-level security by owner
/// and by channel, through DocLite and through SQL.
final class ReplicationAccessTests: SyncTestCase {
    func testAUserCannotSeeOrChangeAnotherUsersDocuments() throws {
        try makeUser("alice", password: "alice-pw")
        try makeUser("bob", password: "bob-pw")
        let alice = try openDatabase("alice"), bob = try openDatabase("bob")
        let aliceCollection = try alice.defaultCollection(), bobCollection = try bob.defaultCollection()
        try aliceCollection.save(document: MutableDocument(id: "diary", data: ["text": "alice's secret"]))
        sync(try configuration([aliceCollection], user: "alice", password: "alice-pw"))
        try bobCollection.save(document: MutableDocument(id: "diary", data: ["text": "bob overwrites"]))
        try bobCollection.save(document: MutableDocument(id: "notes", data: ["text": "bob's own"]))

        let (status, documents) = replicate(try configuration([bobCollection], user: "bob", password: "bob-pw"))
        XCTAssertNil(status.error)
        XCTAssertEqual(documents.filter { $0.error == nil }.map(\.id), ["notes"])
        let refused = try XCTUnwrap(documents.first { $0.id == "diary" }?.error as? DocLiteError)
        XCTAssertEqual(refused.domain, .webSocket)
        XCTAssertEqual(refused.code, 403)
        XCTAssertEqual(try bobCollection.document(id: "diary")?.string(forKey: "text"), "bob overwrites", "bob's copy is untouched")
        XCTAssertEqual(try admin("SELECT body->>'text' FROM doclite.documents WHERE id = 'diary'"), ["alice's secret"])

        // Through SQL, as bob: alice's document is invisible and cannot be changed.
        let asBob = try PostgreSQLConnection(serverString(user: "bob", password: "bob-pw"))
        defer { asBob.close() }
        XCTAssertEqual(try asBob.query("SELECT id FROM doclite.documents ORDER BY id") { rows in (0..<rows.count).map { rows.string($0, 0) } },
                       ["notes"])
        try asBob.execute("UPDATE doclite.documents SET body = '{\"text\":\"hacked\"}' WHERE id = 'diary'")
        assertThrows(domain: .webSocket, code: 403) {
            try asBob.execute("UPDATE doclite.documents SET owner = 'alice' WHERE id = 'notes'")
        }
        assertThrows(domain: .webSocket, code: 403) { try asBob.execute("DELETE FROM doclite.documents") }
        XCTAssertEqual(try admin("SELECT body->>'text' FROM doclite.documents WHERE id = 'diary'"), ["alice's secret"])

        // Alice pulls nothing of bob's.
        sync(try configuration([aliceCollection], user: "alice", password: "alice-pw"))
        XCTAssertNil(try aliceCollection.document(id: "notes"))
    }

    func testAChannelGrantSharesDocumentsAndAChannelFilterNarrowsThePull() throws {
        try makeUser("carol", password: "carol-pw")
        try makeUser("dave", password: "dave-pw")
        let carol = try openDatabase("carol"), dave = try openDatabase("dave")
        let carolCollection = try carol.defaultCollection(), daveCollection = try dave.defaultCollection()
        try carolCollection.save(document: MutableDocument(id: "team-plan", data: ["channels": ["team"], "v": 1]))
        try carolCollection.save(document: MutableDocument(id: "news", data: ["channels": "public", "v": 2]))
        try carolCollection.save(document: MutableDocument(id: "private", data: ["v": 3]))
        sync(try configuration([carolCollection], user: "carol", password: "carol-pw"))
        try admin("INSERT INTO doclite.channel_access VALUES ('dave', 'team'), ('dave', 'public')")

        sync(try configuration([daveCollection], type: .pull, user: "dave", password: "dave-pw") { $0.channels = ["team"] })
        XCTAssertEqual(try contents(daveCollection).keys.sorted(), ["team-plan"])
        sync(try configuration([daveCollection], type: .pull, user: "dave", password: "dave-pw"))
        XCTAssertEqual(try contents(daveCollection).keys.sorted(), ["news", "team-plan"])

        // Dave may edit a document of a channel granted to him; carol sees the edit.
        let edited = try XCTUnwrap(daveCollection.document(id: "team-plan")).toMutable()
        edited.setInt(10, forKey: "v")
        try daveCollection.save(document: edited)
        sync(try configuration([daveCollection], user: "dave", password: "dave-pw"))
        sync(try configuration([carolCollection], user: "carol", password: "carol-pw"))
        XCTAssertEqual(try carolCollection.document(id: "team-plan")?.int(forKey: "v"), 10)
        XCTAssertEqual(try admin("SELECT owner || ' ' || author FROM doclite.documents WHERE id = 'team-plan'"), ["carol dave"])
    }

    func testAGrantBringsTheChannelsOlderDocumentsAndARevocationPurgesThem() throws {
        try makeUser("erin", password: "erin-pw")
        try makeUser("frank", password: "frank-pw")
        let erin = try openDatabase("erin"), frank = try openDatabase("frank")
        let erinCollection = try erin.defaultCollection(), frankCollection = try frank.defaultCollection()
        try erinCollection.save(document: MutableDocument(id: "plan", data: ["channels": ["team"], "v": 1]))
        try erinCollection.save(document: MutableDocument(id: "memo", data: ["channels": "team", "v": 2]))
        sync(try configuration([erinCollection], user: "erin", password: "erin-pw"))
        // Frank's checkpoint passes erin's documents, which he cannot read yet (the second
        // sync pulls his own, pushed by the first).
        try frankCollection.save(document: MutableDocument(id: "own", data: ["channels": "team"]))
        sync(try configuration([frankCollection], user: "frank", password: "frank-pw"))
        sync(try configuration([frankCollection], user: "frank", password: "frank-pw"))
        XCTAssertEqual(try contents(frankCollection).keys.sorted(), ["own"])

        try admin("INSERT INTO doclite.channel_access VALUES ('frank', 'team')")
        sync(try configuration([frankCollection], user: "frank", password: "frank-pw"))
        XCTAssertEqual(try contents(frankCollection).keys.sorted(), ["memo", "own", "plan"])

        try admin("DELETE FROM doclite.channel_access WHERE role = 'frank'")
        let (status, documents) = replicate(try configuration([frankCollection], user: "frank", password: "frank-pw"))
        XCTAssertNil(status.error)
        XCTAssertEqual(try contents(frankCollection).keys.sorted(), ["own"], "his own document stays")
        XCTAssertEqual(documents.filter { $0.flags.contains(.accessRemoved) }.map(\.id).sorted(), ["memo", "plan"])
        XCTAssertEqual(try admin("SELECT count(*) FROM doclite.documents"), ["3"], "a purge does not replicate")
    }

    func testAGrantMadeWhileAPullRunsIsFollowedAndItsRevocationPurges() throws {
        try makeUser("kim", password: "kim-pw")
        try makeUser("lee", password: "lee-pw")
        try admin("INSERT INTO doclite.channel_access VALUES ('lee', 'public')")
        let kim = try openDatabase("kim"), lee = try openDatabase("lee")
        let kimCollection = try kim.defaultCollection(), leeCollection = try lee.defaultCollection()
        // On the server in this order: a team document, a batch and one more of public ones, another team document.
        try kimCollection.save(document: MutableDocument(id: "team-old", data: ["channels": "team"]))
        sync(try configuration([kimCollection], user: "kim", password: "kim-pw"))
        try kim.inBatch {
            for n in 0...CollectionSync.batchSize {
                try kimCollection.save(document: MutableDocument(id: "public-\(n)", data: ["channels": "public"]))
            }
        }
        sync(try configuration([kimCollection], user: "kim", password: "kim-pw"))
        try kimCollection.save(document: MutableDocument(id: "team-new", data: ["channels": "team"]))
        sync(try configuration([kimCollection], user: "kim", password: "kim-pw"))

        // Team is granted while lee's first batch is stored: the second brings team-new, not team-old.
        let server = try serverString()
        sync(try configuration([leeCollection], type: .pull, user: "lee", password: "lee-pw") {
            $0.pullFilter = { document, _ in
                if document.id == "public-0", let admin = try? PostgreSQLConnection(server) {
                    _ = try? admin.execute("INSERT INTO doclite.channel_access VALUES ('lee', 'team')")
                    admin.close()
                }
                return true
            }
        })
        XCTAssertEqual(try admin("SELECT count(*) FROM doclite.channel_access WHERE role = 'lee'"), ["2"])
        XCTAssertNotNil(try leeCollection.document(id: "team-new"))
        XCTAssertNil(try leeCollection.document(id: "team-old"))

        // Revoked before the next pull, which purges what the grant brought.
        try admin("DELETE FROM doclite.channel_access WHERE role = 'lee' AND channel = 'team'")
        let (_, documents) = replicate(try configuration([leeCollection], type: .pull, user: "lee", password: "lee-pw"))
        XCTAssertNil(try leeCollection.document(id: "team-new"))
        XCTAssertEqual(documents.filter { $0.flags.contains(.accessRemoved) }.map(\.id), ["team-new"])

        // Granted again: the whole channel comes.
        try admin("INSERT INTO doclite.channel_access VALUES ('lee', 'team')")
        sync(try configuration([leeCollection], type: .pull, user: "lee", password: "lee-pw"))
        XCTAssertNotNil(try leeCollection.document(id: "team-old"))
        XCTAssertNotNil(try leeCollection.document(id: "team-new"))
    }

    func testAPullCutOffAfterAGrantsBackfillStillPurgesOnRevocation() throws {
        try makeUser("ola", password: "ola-pw")
        try admin("INSERT INTO doclite.channel_access VALUES ('ola', 'public')")
        let owner = try openDatabase("owner").defaultCollection(), ola = try openDatabase("ola").defaultCollection()
        try owner.save(document: MutableDocument(id: "team-old", data: ["channels": "team"]))
        try owner.save(document: MutableDocument(id: "news", data: ["channels": "public"]))
        sync(try configuration([owner]))
        sync(try configuration([ola], type: .pull, user: "ola", password: "ola-pw"))   // (the checkpoint passes team-old)
        XCTAssertEqual(try contents(ola).keys.sorted(), ["news"])
        try admin("INSERT INTO doclite.channel_access VALUES ('ola', 'team')")

        // The replicator is stopped while the backfill stores team-old: the pull ends there.
        let stopping = StoppingFilter(at: "team-old")
        let cutOff = Replicator(config: try configuration([ola], type: .pull, user: "ola", password: "ola-pw") {
            $0.pullFilter = { document, _ in stopping.pass(document) }
        })
        stopping.replicator = cutOff
        let stopped = DispatchSemaphore(value: 0)
        let token = cutOff.addChangeListener(withQueue: DispatchQueue(label: "cut off")) { if $0.status.activity == .stopped { stopped.signal() } }
        defer { token.remove() }
        cutOff.start()
        XCTAssertEqual(stopped.wait(timeout: .now() + 60), .success)
        XCTAssertNotNil(try ola.document(id: "team-old"))

        try admin("DELETE FROM doclite.channel_access WHERE role = 'ola' AND channel = 'team'")
        sync(try configuration([ola], type: .pull, user: "ola", password: "ola-pw"))
        XCTAssertEqual(try contents(ola).keys.sorted(), ["news"], "the revocation purges what the cut-off pull brought")
    }

    func testAPullStartedOverChecksEveryDocumentOfAChannel() throws {
        try makeUser("max", password: "max-pw")
        try makeUser("ned", password: "ned-pw")
        try admin("INSERT INTO doclite.channel_access VALUES ('ned', 'team')")
        let max = try openDatabase("max"), ned = try openDatabase("ned")
        let maxCollection = try max.defaultCollection(), nedCollection = try ned.defaultCollection()
        try maxCollection.save(document: MutableDocument(id: "plan", data: ["channels": "team"]))
        sync(try configuration([maxCollection], user: "max", password: "max-pw"))
        sync(try configuration([nedCollection], user: "ned", password: "ned-pw"))
        XCTAssertNotNil(try nedCollection.document(id: "plan"))

        try admin("DELETE FROM doclite.channel_access WHERE role = 'ned'")
        let (status, documents) = replicate(try configuration([nedCollection], user: "ned", password: "ned-pw"), reset: true)
        XCTAssertNil(status.error)
        XCTAssertNil(try nedCollection.document(id: "plan"), "started over, the pull still finds the revoked channel's document")
        XCTAssertEqual(documents.filter { $0.flags.contains(.accessRemoved) }.map(\.id), ["plan"])
    }

    func testADocumentMovedOutOfTheUsersChannelsIsPurgedUnlessAutoPurgeIsOff() throws {
        try makeUser("gina", password: "gina-pw")
        try makeUser("hal", password: "hal-pw")
        try makeUser("ivy", password: "ivy-pw")
        try admin("INSERT INTO doclite.channel_access VALUES ('hal', 'team'), ('ivy', 'team')")
        let gina = try openDatabase("gina"), hal = try openDatabase("hal"), ivy = try openDatabase("ivy")
        let ginaCollection = try gina.defaultCollection(), halCollection = try hal.defaultCollection()
        let ivyCollection = try ivy.defaultCollection()
        try ginaCollection.save(document: MutableDocument(id: "draft", data: ["channels": "team"]))
        try ginaCollection.save(document: MutableDocument(id: "shared", data: ["channels": "team"]))
        sync(try configuration([ginaCollection], user: "gina", password: "gina-pw"))
        sync(try configuration([halCollection], user: "hal", password: "hal-pw"))
        sync(try configuration([ivyCollection], user: "ivy", password: "ivy-pw"))
        XCTAssertEqual(halCollection.count, 2)

        let draft = try XCTUnwrap(ginaCollection.document(id: "draft")).toMutable()
        draft.setValue("private", forKey: "channels")
        try ginaCollection.save(document: draft)
        sync(try configuration([ginaCollection], user: "gina", password: "gina-pw"))

        sync(try configuration([halCollection], user: "hal", password: "hal-pw"))
        XCTAssertEqual(try contents(halCollection).keys.sorted(), ["shared"])
        var keep = try configuration([ivyCollection], user: "ivy", password: "ivy-pw")
        keep.enableAutoPurge = false
        let (_, documents) = replicate(keep)
        XCTAssertEqual(try contents(ivyCollection).keys.sorted(), ["draft", "shared"], "auto-purge off: kept")
        XCTAssertEqual(documents.filter { $0.flags.contains(.accessRemoved) }.map(\.id), ["draft"])
    }

    func testAGrantWakesAContinuousReplicator() throws {
        try makeUser("jo", password: "jo-pw")
        let owner = try openDatabase("owner").defaultCollection(), jo = try openDatabase("jo").defaultCollection()
        try owner.save(document: MutableDocument(id: "news", data: ["channels": "news"]))
        sync(try configuration([owner]))
        var config = try configuration([jo], user: "jo", password: "jo-pw")
        config.continuous = true
        let replicator = Replicator(config: config)
        replicator.start()
        defer { replicator.stop() }
        XCTAssertTrue(waitUntil(replicator, timeout: 10) { replicator.status.activity == .idle })
        try admin("INSERT INTO doclite.channel_access VALUES ('jo', 'news')")
        XCTAssertTrue(try waitUntil(replicator, timeout: 2) { try jo.document(id: "news") != nil }, "the grant did not reach the idle replicator")
        replicator.stop()
        XCTAssertTrue(waitUntil(replicator, timeout: 10) { replicator.status.activity == .stopped })
    }

    func testAChannelMemberDeletesASharedDocumentAndEveryoneSeesIt() throws {
        try makeUser("fay", password: "fay-pw")
        try makeUser("gus", password: "gus-pw")
        try admin("INSERT INTO doclite.channel_access VALUES ('gus', 'team')")
        let fay = try openDatabase("fay").defaultCollection(), gus = try openDatabase("gus").defaultCollection()
        try fay.save(document: MutableDocument(id: "plan", data: ["channels": ["team"], "v": 1]))
        sync(try configuration([fay], user: "fay", password: "fay-pw"))
        sync(try configuration([gus], user: "gus", password: "gus-pw"))
        try gus.delete(document: try XCTUnwrap(gus.document(id: "plan")))
        sync(try configuration([gus], user: "gus", password: "gus-pw"))
        sync(try configuration([fay], user: "fay", password: "fay-pw"))
        XCTAssertNil(try fay.document(id: "plan"), "the owner sees the member's deletion")
        XCTAssertEqual(try admin("SELECT deleted::text || ' ' || array_to_string(channels, ',') FROM doclite.documents"), ["true team"],
                       "the tombstone keeps its channels")
        // A member taking the document out of the channel is refused for that document (403), not the batch.
        let again = MutableDocument(id: "plan-2", data: ["channels": ["team"]])
        try fay.save(document: again)
        sync(try configuration([fay], user: "fay", password: "fay-pw"))
        sync(try configuration([gus], user: "gus", password: "gus-pw"))
        let moved = try XCTUnwrap(gus.document(id: "plan-2")).toMutable()
        moved.setValue(["gus-only"], forKey: "channels")
        try gus.save(document: moved)
        try gus.save(document: MutableDocument(id: "gus-own", data: [:]))
        let (_, documents) = replicate(try configuration([gus], user: "gus", password: "gus-pw"))
        XCTAssertEqual((documents.first { $0.id == "plan-2" }?.error as? DocLiteError)?.code, 403)
        XCTAssertNil(documents.first { $0.id == "gus-own" }?.error)
    }

    func testHandWrittenSQLCannotTakeADocumentOrRewindTheFeed() throws {
        try makeUser("hal", password: "hal-pw")
        try makeUser("ivy", password: "ivy-pw")
        try admin("INSERT INTO doclite.channel_access VALUES ('ivy', 'team')")
        let hal = try openDatabase("hal").defaultCollection()
        try hal.save(document: MutableDocument(id: "shared", data: ["channels": ["team"]]))
        sync(try configuration([hal], user: "hal", password: "hal-pw"))
        let asIvy = try PostgreSQLConnection(serverString(user: "ivy", password: "ivy-pw"))
        defer { asIvy.close() }
        assertThrows(domain: .webSocket, code: 403) { try asIvy.execute("UPDATE doclite.documents SET owner = 'ivy' WHERE id = 'shared'") }
        try asIvy.execute("UPDATE doclite.documents SET sequence = 9000000000000000000, author = 'hal' WHERE id = 'shared'")
        XCTAssertEqual(try admin("SELECT (sequence < 1000000)::text || ' ' || owner || ' ' || author FROM doclite.documents"),
                       ["true hal ivy"], "the server numbers the change and names its author")
        // Only the server records that a document left a channel (a false record would make devices check it).
        assertThrows(domain: .webSocket, code: 403) {
            try asIvy.execute("INSERT INTO doclite.removals VALUES ('_default._default', 'shared', '{team}', 1)")
        }
    }
}

/// A pull filter that stops its replicator when it sees document `id` (and lets it through).
private final class StoppingFilter: @unchecked Sendable {   // `replicator` is set before the replicator starts
    let id: String
    var replicator: Replicator?

    init(at id: String) { self.id = id }

    func pass(_ document: Document) -> Bool {
        if document.id == id { replicator?.stop() }
        return true
    }
}
