import Foundation
import XCTest
import CSQLite
@testable import DocLite

/// The shared folder beside the repository (`../shared`): corpora some tests
/// replay when it is there, and skip without.
enum SharedFolder {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")

    /// The path of `relativePath` in it; throws `XCTSkip`, naming the path, when it is not there.
    static func path(_ relativePath: String) throws -> String {
        let path = url.appendingPathComponent(relativePath).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("\(path) is not there (the shared folder is not beside the repository)")
        }
        return path
    }

    /// Each line of the JSON-lines file `relativePath`, read; none when the file is not there.
    static func jsonLines(_ relativePath: String) throws -> [JSONValue] {
        guard let text = try? String(contentsOf: url.appendingPathComponent(relativePath), encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONValue(json: String($0)) }
    }
}

/// A scheduler whose time moves only when a test advances it: the work that
/// falls due runs then, on the test's thread, so no test waits for a timer.
final class ManualScheduler: Scheduler, @unchecked Sendable {   // its variables are behind `lock`
    private let lock = NSLock()
    private var time = Date()
    private var pending: [Int: (time: Date, work: @Sendable () -> Void)] = [:]
    private var lastID = 0

    var now: Date { lock.withLock { time } }

    /// How many scheduled pieces of work have neither run nor been cancelled.
    var pendingCount: Int { lock.withLock { pending.count } }

    func run(at time: Date, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        lock.withLock {
            lastID += 1
            pending[lastID] = (time, work)
            return Entry(id: lastID, scheduler: self)
        }
    }

    /// Moves the time `seconds` on, running each piece of work that falls due
    /// (also work scheduled meanwhile), in time order.
    func advance(by seconds: TimeInterval) {
        let end = now.addingTimeInterval(seconds)
        while let work = lock.withLock({ () -> (@Sendable () -> Void)? in
            guard let (id, due) = pending.filter({ $0.value.time <= end }).min(by: { ($0.value.time, $0.key) < ($1.value.time, $1.key) })
            else { return nil }
            pending[id] = nil
            time = max(time, due.time)
            return due.work
        }) {
            work()
        }
        lock.withLock { time = end }
    }

    private struct Entry: ScheduledWork {
        let id: Int
        let scheduler: ManualScheduler
        func cancel() { scheduler.lock.withLock { scheduler.pending[id] = nil } }
    }
}

/// A test case with a fresh directory and an open database `db`.
class DatabaseTestCase: XCTestCase {
    var directory: String!
    var db: Database!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "doclite-tests-" + UUID().uuidString
        db = try openDatabase()
    }

    override func tearDownWithError() throws {
        try db?.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func openDatabase(name: String = "test", scheduler: Scheduler = SystemScheduler.shared) throws -> Database {
        try Database(name: name, config: DatabaseConfiguration(directory: directory), scheduler: scheduler)
    }

    func reopen() throws {
        try db.close()
        db = try openDatabase()
    }

    var defaultCollection: DocLite.Collection { try! db.defaultCollection() }

    /// Asserts that `body` throws a DocLite error with `code` whose message contains `text`.
    func assertThrows(_ code: DocLiteError.Code, containing text: String = "", file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let error = error as? DocLiteError else { return XCTFail("not a DocLiteError: \(error)", file: file, line: line) }
            XCTAssertTrue(error.is(code), "expected \(code), got \(error.domain) \(error.code): \(error.message)", file: file, line: line)
            XCTAssertTrue(text.isEmpty || error.message.contains(text), "message '\(error.message)' lacks '\(text)'", file: file, line: line)
        }
    }
}

extension XCTestCase {
    /// Asserts that `body` throws a DocLite error in `domain` with `code` whose message contains `text`.
    func assertThrows(domain: DocLiteError.Domain, code: Int32, containing text: String = "",
                      file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let error = error as? DocLiteError else { return XCTFail("not a DocLiteError: \(error)", file: file, line: line) }
            XCTAssertEqual(error.domain, domain, "wrong domain for '\(error.message)'", file: file, line: line)
            XCTAssertEqual(error.code, code, "wrong code for '\(error.message)'", file: file, line: line)
            XCTAssertTrue(text.isEmpty || error.message.contains(text), "message '\(error.message)' lacks '\(text)'", file: file, line: line)
        }
    }

    /// Waits until `condition` holds, checking it now and again after each call of the
    /// listeners `listen` adds (given the signal to fire), never by the clock; false
    /// when `timeout` seconds pass first.
    func waitUntil(timeout: TimeInterval = 30, notifiedBy listen: (Signal) -> [ListenerToken],
                   _ condition: () throws -> Bool) rethrows -> Bool {
        let signal = Signal()
        let tokens = listen(signal)
        defer { tokens.forEach { $0.remove() } }
        return try signal.wait(timeout: timeout, until: condition)
    }

    /// Waits until `condition` holds, checked after each of `replicator`'s changes of
    /// status and replicated documents (announced on a queue of their own: the main
    /// queue, the default, is this thread's, which waits).
    func waitUntil(_ replicator: Replicator, timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        let queue = DispatchQueue(label: "waitUntil")
        return try waitUntil(timeout: timeout, notifiedBy: { signal in
            [replicator.addChangeListener(withQueue: queue) { _ in signal.fire() },
             replicator.addDocumentReplicationListener(withQueue: queue) { _ in signal.fire() }]
        }, condition)
    }
}

/// An event other threads announce, so that a test waits for the event, never for time.
final class Signal: @unchecked Sendable {   // `count` is behind `condition`
    private let condition = NSCondition()
    private var count = 0

    func fire() { condition.withLock { count += 1; condition.broadcast() } }

    /// Waits until `test` holds, checking it now and after each ``fire()`` (outside the
    /// lock: it may take locks of its own); false if `timeout` seconds pass first.
    func wait(timeout: TimeInterval, until test: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = condition.withLock { count }
        while try !test() {
            let fired = condition.withLock { () -> Bool in
                while count == seen { if !condition.wait(until: deadline) { return false } }
                seen = count
                return true
            }
            if !fired { return try test() }
        }
        return true
    }
}

/// Collects values from any thread (listener callbacks).
final class Recorder<Element>: @unchecked Sendable {   // `items` is behind `condition`
    private let condition = NSCondition()
    private var items: [Element] = []

    func append(_ item: Element) { condition.withLock { items.append(item); condition.broadcast() } }

    var all: [Element] { condition.withLock { items } }

    /// Waits until `test` holds for the values collected, woken by each new one; false
    /// if `timeout` seconds pass first.
    func wait(timeout: TimeInterval = 10, until test: ([Element]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while !test(items) { if !condition.wait(until: deadline) { return test(items) } }
            return true
        }
    }
}

/// The first difference between two values, comparing strictly: ints stay ints,
/// doubles compare by bit pattern (so -0.0 differs from 0.0), strings by UTF-8
/// bytes (not by Unicode equivalence). Nil when identical.
func firstDifference(_ a: JSONValue, _ b: JSONValue, path: String = "$") -> String? {
    switch (a, b) {
    case (.null, .null):
        return nil
    case (.bool(let x), .bool(let y)):
        return x == y ? nil : "\(path): \(x) vs \(y)"
    case (.int(let x), .int(let y)):
        return x == y ? nil : "\(path): \(x) vs \(y)"
    case (.unsigned(let x), .unsigned(let y)):
        return x == y ? nil : "\(path): \(x) vs \(y)"
    case (.double(let x), .double(let y)):
        return x.bitPattern == y.bitPattern ? nil : "\(path): \(x) vs \(y)"
    case (.string(let x), .string(let y)):
        return Array(x.utf8) == Array(y.utf8) ? nil : "\(path): string \(x.debugDescription.prefix(80)) (\(x.utf8.count) bytes) vs \(y.debugDescription.prefix(80)) (\(y.utf8.count) bytes)"
    case (.array(let x), .array(let y)):
        guard x.count == y.count else { return "\(path): array of \(x.count) vs \(y.count) elements" }
        for i in x.indices {
            if let difference = firstDifference(x[i], y[i], path: "\(path)[\(i)]") { return difference }
        }
        return nil
    case (.dictionary(let x), .dictionary(let y)):
        let xKeys = x.keys.sorted(), yKeys = y.keys.sorted()
        guard xKeys == yKeys else {
            let missing = x.keys.filter { y[$0] == nil }.prefix(3), extra = y.keys.filter { x[$0] == nil }.prefix(3)
            return "\(path): keys differ (\(x.count) vs \(y.count)); only left: \(Array(missing)), only right: \(Array(extra))"
        }
        for key in x.keys.sorted() {
            if let difference = firstDifference(x[key]!, y[key]!, path: "\(path).\(key.string.debugDescription)") { return difference }
        }
        return nil
    default:
        return "\(path): \(kind(a)) vs \(kind(b))"
    }
}

private func kind(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let b): "bool \(b)"
    case .int(let i): "int \(i)"
    case .unsigned(let u): "unsigned \(u)"
    case .double(let d): "double \(d)"
    case .string(let s): "string \(s.debugDescription.prefix(40))"
    case .array(let items): "array of \(items.count)"
    case .dictionary(let members): "dictionary of \(members.count)"
    }
}

extension DatabaseTestCase {
    /// The database file's path (also after closing).
    var databaseFilePath: String { Database.filePath(name: "test", directory: directory) }

    /// The statements that make a closed file of this schema a file of schema
    /// 6, as an older release wrote it: tombstones and expiration times back in
    /// the own tables of each of `collections` (every collection of the file),
    /// their value indexes kept. Run with `editFile` (they write `sqlite_schema`).
    static func schema6(collections: [Int64] = [1]) -> [String] {
        collections.flatMap { id -> [String] in
            let live = Schema.liveTable(id), tables = Schema.Version6.createCollectionTables(id: id)
            return [
                "ALTER TABLE \(live) ADD COLUMN expiration INTEGER",
                "UPDATE sqlite_schema SET sql = \(SQLLiteral.string(tables[0])) WHERE name = '\(live)'",
                "UPDATE \(live) SET expiration = (SELECT expiration FROM expirations e WHERE e.collection = \(id) AND e.key = \(live).key)",
            ] + tables.dropFirst() + [
                """
                INSERT INTO \(Schema.Version6.deletedTable(id)) (sequence, key, revid, expiration, body)
                SELECT t.sequence, t.key, t.revid, e.expiration, t.body
                FROM tombstones t LEFT JOIN expirations e ON e.collection = t.collection AND e.key = t.key WHERE t.collection = \(id)
                """,
            ]
        } + ["DROP TABLE tombstones", "DROP TABLE expirations", "PRAGMA user_version = 6"]
    }

    /// Runs `statements` on the file through a connection of its own, with
    /// `writable_schema` on (as an older release, or an attacker, wrote it);
    /// the database must be closed.
    func editFile(_ statements: [String], file: StaticString = #filePath, line: UInt = #line) {
        var handle: OpaquePointer?
        guard sqlite3_open(databaseFilePath, &handle) == SQLITE_OK else { return XCTFail("cannot open the file", file: file, line: line) }
        defer { sqlite3_close(handle) }
        for sql in ["PRAGMA writable_schema = ON"] + statements where sqlite3_exec(handle, sql, nil, nil, nil) != SQLITE_OK {
            XCTFail("\(sql): \(String(cString: sqlite3_errmsg(handle)))", file: file, line: line)
        }
    }

    /// Runs SQL on the database file through a separate raw SQLite connection
    /// (to look at or change the file behind DocLite's back). Returns the first
    /// column of the first row as an integer, if any.
    @discardableResult
    func rawSQL(_ sql: String, path: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> Int64? {
        let path = path ?? databaseFilePath
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else {
            XCTFail("cannot open \(path)", file: file, line: line)
            return nil
        }
        defer { sqlite3_close_v2(handle) }
        sqlite3_busy_timeout(handle, 10_000)
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            XCTFail("cannot prepare \(sql): \(String(cString: sqlite3_errmsg(handle)))", file: file, line: line)
            return nil
        }
        defer { sqlite3_finalize(statement) }
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW { return sqlite3_column_int64(statement, 0) }
        if rc != SQLITE_DONE { XCTFail("\(sql): \(String(cString: sqlite3_errmsg(handle)))", file: file, line: line) }
        return nil
    }
}

/// The error a mutable document, dictionary or array keeps for its save (a value it could not store).
func keptError(of document: Document) -> DocLiteError? { document.state.withLock { $0.unstorable.first } }
/// The error a dictionary keeps for the save of the document it is put in.
func keptError(of dictionary: DictionaryObject) -> DocLiteError? { dictionary.state.withLock { $0.unstorable.first } }
/// The error an array keeps for the save of the document it is put in.
func keptError(of array: ArrayObject) -> DocLiteError? { array.state.withLock { $0.unstorable.first } }
