import Foundation
import XCTest
@testable import DocLite

/// `Database.performMaintenance(type:)`.
final class MaintenanceTests: DatabaseTestCase {
    private func fileSize() throws -> Int {
        let path = try XCTUnwrap(db.path)
        return try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    func testCompactionReclaimsPurgedSpaceAndTheOtherTasksKeepTheData() throws {
        let collection = defaultCollection
        let text = String(repeating: "x", count: 500)
        try db.inBatch {
            for i in 0..<1000 { try collection.save(document: MutableDocument(id: "d\(i)", json: #"{"n": \#(i), "t": "\#(text)"}"#)) }
        }
        try db.performMaintenance(type: .compact)
        let full = try fileSize()
        try db.inBatch { for i in 5..<1000 { try collection.purge(id: "d\(i)") } }
        try db.performMaintenance(type: .compact)
        XCTAssertLessThan(try fileSize(), full / 4)
        for type in [MaintenanceType.reindex, .integrityCheck, .optimize, .fullOptimize] {
            try db.performMaintenance(type: type)
        }
        XCTAssertEqual(collection.count, 5)
        XCTAssertEqual(try collection.document(id: "d3")?.int(forKey: "n"), 3)
    }

    func testNotInsideABatchNorOnAClosedDatabase() throws {
        try db.inBatch {
            assertThrows(.transactionNotClosed) { try self.db.performMaintenance(type: .compact) }
        }
        try db.close()
        assertThrows(.notOpen) { try self.db.performMaintenance(type: .integrityCheck) }
    }
}
