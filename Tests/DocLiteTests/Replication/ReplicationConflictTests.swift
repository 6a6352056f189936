import Foundation
import XCTest
@testable import DocLite

/// Conflicts: a document changed on two devices before either synced.
final class ReplicationConflictTests: SyncTestCase {
    /// Devices A and B each edit the same synced document; A syncs first, then B
    /// (which meets the conflict), then A again. Returns both documents.
    private func conflict(aEdits: Int, bEdits: Int, bDeletes: Bool = false,
                          resolver: ConflictResolverProtocol? = nil) throws -> (a: Document?, b: Document?) {
        let a = try openDatabase("a"), b = try openDatabase("b")
        let aCollection = try a.defaultCollection(), bCollection = try b.defaultCollection()
        try aCollection.save(document: MutableDocument(id: "shared", data: ["v": "original"]))
        let aConfig = try configuration([aCollection]) { $0.conflictResolver = resolver }
        let bConfig = try configuration([bCollection]) { $0.conflictResolver = resolver }
        sync(aConfig)
        sync(bConfig)
        for i in 0..<aEdits {
            let document = try XCTUnwrap(aCollection.document(id: "shared")).toMutable()
            document.setString("a\(i)", forKey: "v")
            try aCollection.save(document: document)
        }
        if bDeletes {
            try bCollection.delete(document: try XCTUnwrap(bCollection.document(id: "shared")))
        }
        for i in 0..<bEdits {
            let document = try XCTUnwrap(bCollection.document(id: "shared")).toMutable()
            document.setString("b\(i)", forKey: "v")
            try bCollection.save(document: document)
        }
        sync(aConfig)
        sync(bConfig)
        sync(aConfig)
        let onA = try aCollection.document(id: "shared"), onB = try bCollection.document(id: "shared")
        XCTAssertEqual(onA?.revisionID, onB?.revisionID, "both devices end on the same revision")
        XCTAssertEqual(onA?.toJSON(), onB?.toJSON())
        return (onA, onB)
    }

    func testTheDefaultResolverKeepsTheLocalRevisionWithMoreEdits() throws {
        XCTAssertEqual(try conflict(aEdits: 1, bEdits: 2).a?.string(forKey: "v"), "b1")
    }

    func testTheDefaultResolverKeepsTheRemoteRevisionWithMoreEdits() throws {
        XCTAssertEqual(try conflict(aEdits: 3, bEdits: 1).a?.string(forKey: "v"), "a2")
    }

    func testTheDefaultResolverLetsADeletionWin() throws {
        let (a, b) = try conflict(aEdits: 3, bEdits: 0, bDeletes: true)
        XCTAssertNil(a)
        XCTAssertNil(b)
        XCTAssertEqual(try admin("SELECT deleted::text FROM doclite.documents WHERE id = 'shared'"), ["true"])
    }

    func testACustomResolverMergesAndBothSidesKeepTheMerge() throws {
        struct Merge: ConflictResolverProtocol {
            func resolve(conflict: Conflict) -> Document? {
                let merged = MutableDocument(id: conflict.documentID)
                let values = [conflict.localDocument, conflict.remoteDocument].compactMap { $0?.string(forKey: "v") }.sorted()
                merged.setString(values.joined(separator: "+"), forKey: "v")
                return merged
            }
        }
        XCTAssertEqual(try conflict(aEdits: 1, bEdits: 1, resolver: Merge()).a?.string(forKey: "v"), "a0+b0")
    }

    func testACustomResolverChoosingTheLocalSideWinsEverywhere() throws {
        struct Local: ConflictResolverProtocol {
            func resolve(conflict: Conflict) -> Document? { conflict.localDocument }
        }
        // B resolves (it pulls A's revision into its own edit): B's edit wins, though A made more.
        XCTAssertEqual(try conflict(aEdits: 4, bEdits: 1, resolver: Local()).a?.string(forKey: "v"), "b0")
    }

    func testAPushOnlyReplicatorReportsTheConflictAndLeavesTheServer() throws {
        let a = try openDatabase("a"), b = try openDatabase("b")
        let aCollection = try a.defaultCollection(), bCollection = try b.defaultCollection()
        try aCollection.save(document: MutableDocument(id: "d", data: ["v": "a"]))
        try bCollection.save(document: MutableDocument(id: "d", data: ["v": "b"]))
        sync(try configuration([aCollection], type: .push))
        let (status, documents) = replicate(try configuration([bCollection], type: .push))
        XCTAssertNil(status.error)
        XCTAssertEqual(documents.count, 1)
        let error = try XCTUnwrap(documents.first?.error as? DocLiteError)
        XCTAssertEqual(error.domain, .webSocket)
        XCTAssertEqual(error.code, 409)
        XCTAssertEqual(try admin("SELECT body->>'v' FROM doclite.documents WHERE id = 'd'"), ["a"])
    }
}
