import Foundation
import XCTest
@testable import DocLite

/// Document values nest at most as deep as the JSON reader reads back, so a
/// document made through the API always round-trips, and walking it (saving,
/// writing JSON, querying, releasing) stays shallow — also on a dispatch
/// queue's small thread stack. Deeper is an error, never a crash.
final class DocumentDepthTests: DatabaseTestCase {
    private func nested(_ levels: Int) -> MutableDictionaryObject {
        var value = MutableDictionaryObject()
        for _ in 1..<levels { value = MutableDictionaryObject().setValue(value, forKey: "a") }
        return value
    }

    /// Saved, read, written and queried on a thread with a dispatch worker's 512 KiB stack.
    func testTheDeepestValueRoundTripsOnASmallStack() throws {
        let deepest = nested(JSONParser.maxDepth - 1)
        let (database, collection) = (db!, defaultCollection)
        let outcome = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                try collection.save(document: MutableDocument(id: "deep").setValue(deepest, forKey: "a"))
                let json = try collection.document(id: "deep")?.toJSON() ?? ""
                let reread = try MutableDocument(json: json).toJSON()
                let row = try database.createQuery(json: #"{"WHAT": [["."]]}"#).execute().allResults().first?.dictionary(at: 0)?.toJSON()
                outcome.append(json)
                outcome.append(reread == json && row == json ? "same" : "different: \(reread.count), \(row?.count ?? -1)")
            } catch {
                outcome.append("\(error)")
            }
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        XCTAssertEqual(outcome.all.count, 2, "\(outcome.all)")
        XCTAssertEqual(outcome.all.first?.filter { $0 == "{" }.count, JSONParser.maxDepth)
        XCTAssertEqual(outcome.all.last, "same")
    }

    func testDeeperValuesAreRefused() throws {
        let tooDeep = MutableDictionaryObject().setValue(nested(JSONParser.maxDepth - 1), forKey: "a")
        XCTAssertNil(keptError(of: tooDeep))
        var swiftValue: Any = 1
        for _ in 0..<10_000 { swiftValue = [swiftValue] }
        for value in [tooDeep, swiftValue] {
            let doc = MutableDocument(id: "deep").setValue(value, forKey: "a")
            XCTAssertNil(doc.value(forKey: "a"))
            assertThrows(.invalidParameter, containing: "cannot nest more than") { try defaultCollection.save(document: doc) }
        }
        XCTAssertTrue(keptError(of: MutableArrayObject(data: [swiftValue]))?.message.contains("cannot nest more than") == true)
    }

    /// Swift arrays count as deep as DocLite's containers, those of numbers (read by their
    /// type) and empty ones included: one level more than a document holds is refused.
    func testSwiftArraysOfEveryKindCountTowardsTheDepth() throws {
        func wrapped(_ innermost: Any, levels: Int) -> Any {
            var value = innermost
            for _ in 1..<levels { value = [value] }
            return value
        }
        for innermost: Any in [[0.5], [Float(0.5)], [Any](), [String: Any]()] {
            let fits = MutableDocument(id: "fits").setValue(wrapped(innermost, levels: JSONParser.maxDepth - 1), forKey: "a")
            try defaultCollection.save(document: fits)
            XCTAssertEqual(try defaultCollection.document(id: "fits")?.toJSON().filter { $0 == "[" || $0 == "{" }.count, JSONParser.maxDepth)
            let deeper = MutableDocument(id: "deeper").setValue(wrapped(innermost, levels: JSONParser.maxDepth), forKey: "a")
            assertThrows(.invalidParameter, containing: "cannot nest more than") { try defaultCollection.save(document: deeper) }
        }
    }

    func testTwentyThousandNestingCallsStopAtTheLimit() throws {
        var value = MutableDictionaryObject(), refusedAt: Int?
        for level in 0..<20_000 {
            value = MutableDictionaryObject().setValue(value, forKey: "a")
            if refusedAt == nil, keptError(of: value) != nil { refusedAt = level }
        }
        XCTAssertEqual(refusedAt, JSONParser.maxDepth - 1)   // (the outermost holds 128 levels: a document's value may hold 127)
        let doc = MutableDocument(id: "deep").setValue(value, forKey: "a")
        assertThrows(.invalidParameter, containing: "cannot nest more than") { try defaultCollection.save(document: doc) }
    }
}
