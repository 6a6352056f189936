import Foundation
import XCTest
@testable import DocLite

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

    func openDatabase(name: String = "test") throws -> Database {
        try Database(name: name, config: DatabaseConfiguration(directory: directory))
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
            XCTAssertTrue(error.message.contains(text), "message '\(error.message)' lacks '\(text)'", file: file, line: line)
        }
    }
}
