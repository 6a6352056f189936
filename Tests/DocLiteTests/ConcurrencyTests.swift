import Foundation
import XCTest
@testable import DocLite

/// One database used from several threads at once; and two database instances on one file.
final class ConcurrencyTests: DatabaseTestCase {
    private static let writers = 4, readers = 2, documentsPerWriter = 150

    private static func body(writer: Int, index: Int) -> String {
        // Each writer introduces its own new keys as it goes (concurrent shared-key assignment).
        #"{"writer":\#(writer),"index":\#(index),"w\#(writer)_k\#(index % 40)":\#(index),"text":"\#(String(repeating: "x", count: index))"}"#
    }

    /// Checks that `doc` is exactly what writer/index stored; returns a problem or nil.
    private static func problem(_ doc: Document, writer: Int, index: Int) -> String? {
        guard let read = try? JSONValue(json: doc.toJSON()) else { return "\(doc.id): unreadable body \(doc.toJSON())" }
        guard let expected = try? JSONValue(json: body(writer: writer, index: index)) else { return "bad test body" }
        return firstDifference(expected, read).map { "\(doc.id): \($0)" }
    }

    /// 4 threads write (single saves, batches, updates and deletes) while 2 read;
    /// afterwards every document is there with its content, and nothing else.
    func testConcurrentWritersAndReaders() throws {
        let database = db!
        let collection = defaultCollection
        let problems = Recorder<String>()
        let finishedWriters = Recorder<Int>()
        let reads = Recorder<Int>()

        DispatchQueue.concurrentPerform(iterations: Self.writers + Self.readers) { thread in
            do {
                if thread < Self.writers {
                    try Self.write(as: thread, database: database, collection: collection)
                    finishedWriters.append(thread)
                } else {
                    var count = 0
                    var rng = SeededRandom(seed: UInt64(thread))
                    while finishedWriters.all.count < Self.writers {
                        let writer = Int.random(in: 0..<Self.writers, using: &rng)
                        let index = Int.random(in: 0..<Self.documentsPerWriter, using: &rng)
                        if let doc = try collection.document(id: "w\(writer)-\(index)") {
                            if let problem = Self.problem(doc, writer: writer, index: index) { problems.append(problem) }
                        }
                        if let counter = try collection.document(id: "counter-\(writer)") {
                            if counter.int(forKey: "n") < 1 { problems.append("counter-\(writer): \(counter.toJSON())") }
                        }
                        _ = collection.count
                        count += 1
                    }
                    reads.append(count)
                }
            } catch {
                problems.append("thread \(thread): \(error)")
            }
        }

        XCTAssertEqual(problems.all, [])
        XCTAssertEqual(reads.all.count, Self.readers)
        try checkFinalState()
        try reopen()
        try checkFinalState()
    }

    /// A writer's work: single saves, every tenth index starts a batch of 5, an
    /// update of each document, a counter document updated each time, and every
    /// seventh document deleted.
    private static func write(as writer: Int, database: Database, collection: DocLite.Collection) throws {
        var index = 0
        while index < documentsPerWriter {
            let count = index % 10 == 0 ? min(5, documentsPerWriter - index) : 1
            try database.inBatch {
                for i in index..<index + count {
                    // Saved first with another body, then updated to the final one.
                    let doc = try MutableDocument(id: "w\(writer)-\(i)", json: #"{"draft":true}"#)
                    try collection.save(document: doc)
                    try doc.setJSON(body(writer: writer, index: i))
                    try collection.save(document: doc)
                    let counter = try collection.document(id: "counter-\(writer)")?.toMutable() ?? MutableDocument(id: "counter-\(writer)")
                    counter.setInt(counter.int(forKey: "n") + 1, forKey: "n")
                    try collection.save(document: counter)
                }
            }
            for i in index..<index + count where i % 7 == 3 {
                guard let doc = try collection.document(id: "w\(writer)-\(i)") else { throw DocLiteError(.notFound, "w\(writer)-\(i) vanished") }
                try collection.delete(document: doc)
            }
            index += count
        }
    }

    private func checkFinalState(file: StaticString = #filePath, line: UInt = #line) throws {
        let collection = defaultCollection
        let deletedPerWriter = (0..<Self.documentsPerWriter).filter { $0 % 7 == 3 }.count
        XCTAssertEqual(collection.count, UInt64(Self.writers * (Self.documentsPerWriter - deletedPerWriter + 1)), file: file, line: line)
        var sequences = Set<UInt64>()
        for writer in 0..<Self.writers {
            XCTAssertEqual(try collection.document(id: "counter-\(writer)")?.int(forKey: "n"), Self.documentsPerWriter, file: file, line: line)
            for index in 0..<Self.documentsPerWriter {
                let doc = try collection.document(id: "w\(writer)-\(index)")
                if index % 7 == 3 {
                    XCTAssertNil(doc, "w\(writer)-\(index) should be deleted", file: file, line: line)
                    continue
                }
                guard let doc else {
                    XCTFail("w\(writer)-\(index) missing", file: file, line: line)
                    continue
                }
                if let problem = Self.problem(doc, writer: writer, index: index) { XCTFail(problem, file: file, line: line) }
                XCTAssertEqual(RevisionID.generation(of: doc.revisionID), 2, doc.id, file: file, line: line)
                XCTAssertTrue(sequences.insert(doc.sequence).inserted, "duplicate sequence \(doc.sequence)", file: file, line: line)
            }
        }
    }

    /// Two instances on one file: one writes documents that each bring a new
    /// shared key, the other reads each one as soon as it appears. The reader
    /// must decode every property, including the key it has never seen.
    /// Issue 41's race: two tasks setting keys on one MutableDocument crashed or lost
    /// updates. The document's lock (`Document.state`, a Mutex) serializes them;
    /// a save in the middle sees one state, and nothing is lost (TSan runs this).
    func testTasksSharingOneMutableDocumentLoseNothing() async throws {
        let document = MutableDocument(id: "shared")
        let nested = MutableDictionaryObject(), list = MutableArrayObject()
        let collection = defaultCollection
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<2 {
                group.addTask {
                    for i in 0..<1_000 {
                        document.setInt(i, forKey: "t\(task)-\(i)")
                        nested.setInt(i, forKey: "t\(task)-\(i)")
                        list.addInt(i)
                        if i % 250 == 0 { try collection.save(document: document) }
                    }
                }
            }
            group.addTask {
                for _ in 0..<50 { _ = document.count; _ = document.toJSON(); _ = list.count }
            }
            try await group.waitForAll()
        }
        XCTAssertEqual(document.count, 2_000)
        XCTAssertEqual(nested.count, 2_000)
        XCTAssertEqual(list.count, 2_000)
        try collection.save(document: document.setDictionary(nested, forKey: "nested").setArray(list, forKey: "list"))
        let saved = try XCTUnwrap(try collection.document(id: "shared"))
        XCTAssertEqual(saved.count, 2_002)
        XCTAssertEqual(saved.dictionary(forKey: "nested")?.count, 2_000)
        XCTAssertEqual(saved.array(forKey: "list")?.count, 2_000)
    }

    func testSecondInstanceReadsDocumentsWithNewKeys() throws {
        let writerDatabase = db!
        let reader = try openDatabase()
        defer { try? reader.close() }
        let readerCollection = try reader.defaultCollection()
        let count = 1_000
        let problems = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do {
                let collection = try writerDatabase.defaultCollection()
                for i in 0..<count {
                    try collection.save(document: MutableDocument(id: "n\(i)", json: #"{"fresh\#(i)":\#(i),"common":true}"#))
                }
            } catch {
                problems.append("writer: \(error)")
            }
            done.signal()
        }
        var next = 0
        let deadline = Date().addingTimeInterval(60)
        while next < count && Date() < deadline {
            guard let doc = try readerCollection.document(id: "n\(next)") else { continue }
            // Decode right away, before any later read could load the new key.
            let json = doc.toJSON()
            if json != #"{"common":true,"fresh\#(next)":\#(next)}"# && json != #"{"fresh\#(next)":\#(next),"common":true}"# {
                problems.append("n\(next) read as \(json)")
            }
            next += 1
        }
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(next, count, "the reader did not see every document in time")
        XCTAssertEqual(problems.all.prefix(5), [], "\(problems.all.count) of \(count) documents read wrongly")
    }

    /// Two instances write to the same file at once; every document survives with its content.
    func testTwoInstancesWritingConcurrently() throws {
        let first = db!
        let second = try openDatabase()
        defer { try? second.close() }
        let problems = Recorder<String>()
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            do {
                let database = thread == 0 ? first : second
                let collection = try database.defaultCollection()
                for i in 0..<100 {
                    try database.inBatch {
                        try collection.save(document: MutableDocument(id: "t\(thread)-\(i)", json: #"{"t\#(thread)_\#(i % 30)":\#(i)}"#))
                    }
                }
            } catch {
                problems.append("thread \(thread): \(error)")
            }
        }
        XCTAssertEqual(problems.all, [])
        try reopen()
        XCTAssertEqual(defaultCollection.count, 200)
        var sequences = Set<UInt64>()
        for thread in 0..<2 {
            for i in 0..<100 {
                let doc = try XCTUnwrap(defaultCollection.document(id: "t\(thread)-\(i)"))
                XCTAssertEqual(doc.toJSON(), #"{"t\#(thread)_\#(i % 30)":\#(i)}"#)
                XCTAssertTrue(sequences.insert(doc.sequence).inserted, "duplicate sequence \(doc.sequence) for \(doc.id)")
            }
        }
        XCTAssertEqual(sequences, Set(1...200))
    }
}
