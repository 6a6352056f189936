import Foundation
import XCTest
@testable import DocLite

/// Three devices make random edits, deletions and purges of the same
/// documents and sync in random interleavings; at the end every device
/// holds what the server holds, and a document only one device ever wrote
/// holds that device's last write.
final class ReplicationModelTests: SyncTestCase {
    /// What the model knows of one document.
    private enum Expectation {
        /// Written by one device only: its last write (nil: deleted).
        case single(device: Int, value: String?)
        /// Written by several devices (a conflict's outcome), or purged somewhere.
        case unknown
    }

    func testThreeDevicesConvergeAfterRandomEditsDeletesPurgesAndSyncs() throws {
        let seed = ProcessInfo.processInfo.environment["DOCLITE_SYNC_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970)
        let operations = ProcessInfo.processInfo.environment["DOCLITE_SYNC_OPERATIONS"].flatMap(Int.init) ?? 10_000
        var random = SeededRandom(seed: seed)
        let context = "seed \(seed) (DOCLITE_SYNC_SEED=\(seed) reproduces it)"
        print("sync model: \(context), \(operations) operations per device")

        let devices = try (0..<3).map { device -> [DocLite.Collection] in
            let database = try openDatabase("device\(device)")
            return [try database.defaultCollection(), try database.createCollection(name: "items", scope: "store")]
        }
        var model: [String: Expectation] = [:]   // by "collection/id"
        var syncs = 0
        for step in 0..<(3 * operations) {
            let device = Int.random(in: 0..<3, using: &random)
            let which = Int.random(in: 0..<2, using: &random)
            let collection = devices[device][which]
            // Half the operations touch documents every device writes, half a device's own.
            let id = Bool.random(using: &random) ? "shared-\(Int.random(in: 0..<60, using: &random))"
                : "device\(device)-\(Int.random(in: 0..<60, using: &random))"
            let key = "\(which)/\(id)"
            let existing = try collection.document(id: id)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<70:
                let value = "device\(device)-step\(step)"
                let document = existing?.toMutable() ?? MutableDocument(id: id)
                document.setString(value, forKey: "value")
                try collection.save(document: document)
                model[key] = Self.after(model[key], device: device, value: value)
            case 70..<88:
                guard let existing else { continue }
                try collection.delete(document: existing)
                model[key] = Self.after(model[key], device: device, value: nil)
            case 88..<91:
                guard existing != nil else { continue }
                try collection.purge(id: id)
                model[key] = .unknown
            default:
                let type = [ReplicatorType.push, .pull, .pushAndPull].randomElement(using: &random)!
                let (status, documents) = replicate(try configuration(devices[device], type: type))
                XCTAssertNil(status.error, "sync failed: \(String(describing: status.error)); \(context)")
                // (A push-only replicator reports a server revision newer than the local one, 409, as Couchbase Lite's.)
                for document in documents where document.error != nil && !(type == .push && (document.error as? DocLiteError)?.code == 409) {
                    XCTFail("document '\(document.id)' failed: \(document.error!); \(context)")
                }
                syncs += 1
            }
        }
        // Every device syncs until all agree; purged documents come back with a reset.
        for round in 0..<2 {
            for collections in devices {
                let (status, documents) = replicate(try configuration(collections), reset: round == 1)
                XCTAssertNil(status.error, "\(context)")
                for document in documents where document.error != nil {
                    XCTFail("document '\(document.id)' failed: \(document.error!); \(context)")
                }
            }
        }
        let server = try serverContents()
        for (device, collections) in devices.enumerated() {
            for (which, collection) in collections.enumerated() {
                let local = try contents(collection).mapValues { document -> String? in
                    guard case .dictionary(let members) = document else { return nil }
                    return members["value"]?.stringValue
                }
                let expected = server[which] ?? [:]
                let differences = Set(local.keys).union(expected.keys).filter { local[$0] != expected[$0] }.sorted()
                XCTAssertEqual(differences, [], "device \(device), collection \(which) differs from the server: "
                               + differences.prefix(5).map { "\($0): \(String(describing: local[$0])) here, \(String(describing: expected[$0])) there" }
                                   .joined(separator: "; ") + "; \(context)")
            }
        }
        for (key, expectation) in model {
            guard case .single(_, let value) = expectation else { continue }
            let parts = key.split(separator: "/")
            let actual: String? = server[Int(parts[0])!]?[String(parts[1])] ?? nil
            XCTAssertEqual(actual, value, "document \(key) lost its only writer's last write; \(context)")
        }
        print("sync model: \(syncs) syncs, \(model.count) documents, "
              + "\(model.values.filter { if case .single = $0 { true } else { false } }.count) with one writer")
    }

    private static func after(_ expectation: Expectation?, device: Int, value: String?) -> Expectation {
        switch expectation {
        case nil: return .single(device: device, value: value)
        case .single(let writer, _) where writer == device: return .single(device: device, value: value)
        default: return .unknown
        }
    }

    /// The server's live documents' values, by collection index and ID.
    private func serverContents() throws -> [Int: [String: String?]] {
        var contents: [Int: [String: String?]] = [:]
        let rows = try admin("SELECT collection || '|' || id || '|' || coalesce(body->>'value', '') FROM doclite.documents WHERE NOT deleted")
        for row in rows.compactMap({ $0 }) {
            let parts = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let which = parts[0] == "_default._default" ? 0 : 1
            contents[which, default: [:]][parts[1]] = .some(parts[2])
        }
        return contents
    }
}
