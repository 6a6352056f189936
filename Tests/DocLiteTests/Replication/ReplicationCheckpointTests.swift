import XCTest
@testable import DocLite

/// A replicator's checkpoint: its stored form, and how its local and server copies combine.
final class ReplicationCheckpointTests: XCTestCase {
    func testTheStoredFormKeepsEveryField() throws {
        var checkpoint = ReplicationPlan.Checkpoint()
        checkpoint.local = 7
        checkpoint.remote = 42
        checkpoint.removals = 3
        checkpoint.granted = ["team", "public"]
        checkpoint.backfill = ["team"]
        XCTAssertEqual(ReplicationPlan.Checkpoint(json: checkpoint.json), checkpoint)
        XCTAssertNil(ReplicationPlan.Checkpoint(json: #"{"local":-1,"remote":0}"#))
        XCTAssertNil(try XCTUnwrap(ReplicationPlan.Checkpoint(json: #"{"local":1,"remote":2}"#)).granted, "no record of grants")
    }

    func testTheCopiesMergeToWhatBothVouchFor() {
        var local = ReplicationPlan.Checkpoint(), server = ReplicationPlan.Checkpoint()
        (local.local, local.remote, local.removals) = (10, 20, 5)
        (server.local, server.remote, server.removals) = (12, 15, 6)
        local.granted = ["a", "b", "c"]
        local.backfill = ["c"]
        server.granted = ["a", "d"]
        let merged = local.merged(withServers: server)
        XCTAssertEqual([merged.local, UInt64(merged.remote), UInt64(merged.removals)], [10, 15, 5])
        XCTAssertEqual(merged.granted, ["a", "b", "c", "d"], "a revocation of any channel either saw granted purges")
        XCTAssertEqual(merged.backfill, ["b", "c", "d"], "only a channel both pulled whole is not pulled again")

        server.granted = nil
        XCTAssertNil(local.merged(withServers: server).granted, "one copy without a record: every document is checked")
    }
}
