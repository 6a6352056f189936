import Foundation
import XCTest
@testable import DocLite

/// Couchbase Lite's typed setters do not throw. Given a value a document cannot hold
/// they trapped ('try!': a dictionary nested over 127 levels, a date past 9999); now
/// the value is not stored and saving the document throws its error (issue 41).
final class UnstorableValueTests: DatabaseTestCase {
    /// A dictionary nested `levels` deep.
    private func deepDictionary(_ levels: Int) -> MutableDictionaryObject {
        var dictionary = MutableDictionaryObject()
        for _ in 1..<levels { dictionary = MutableDictionaryObject().setDictionary(dictionary, forKey: "d") }
        return dictionary
    }

    private func deepArray(_ levels: Int) -> MutableArrayObject {
        var array = MutableArrayObject()
        for _ in 1..<levels { array = MutableArrayObject().addArray(array) }
        return array
    }

    private let farFuture = Date(timeIntervalSince1970: 300_000_000_000)   // the year 11476

    /// Every non-throwing setter of a document, dictionary and array, each with a value it cannot store.
    private var unstorableSetters: [(name: String, set: (MutableDocument) -> Void)] {
        [("setDate", { $0.setDate(self.farFuture, forKey: "k") }),
         ("setDictionary", { $0.setDictionary(self.deepDictionary(300), forKey: "k") }),
         ("setArray", { $0.setArray(self.deepArray(300), forKey: "k") }),
         ("nested setDate", { $0.setDictionary(MutableDictionaryObject().setDate(self.farFuture, forKey: "when"), forKey: "k") }),
         ("addDate", { $0.setArray(MutableArrayObject().addDate(self.farFuture), forKey: "k") }),
         ("addArray", { $0.setArray(MutableArrayObject().addArray(self.deepArray(300)), forKey: "k") }),
         ("addDictionary", { $0.setArray(MutableArrayObject().addDictionary(self.deepDictionary(300)), forKey: "k") })]
    }

    func testEveryNonThrowingSetterDefersItsErrorToTheSave() throws {
        for (name, set) in unstorableSetters {
            let doc = MutableDocument(id: "d").setString("kept", forKey: "other")
            set(doc)
            XCTAssertNil(doc.value(forKey: "k"), "\(name): the value is not stored")
            XCTAssertThrowsError(try defaultCollection.save(document: doc), name) { error in
                let error = error as? DocLiteError
                XCTAssertEqual(error?.code, DocLiteError.Code.invalidParameter.rawValue, name)
                XCTAssertTrue(error?.message.contains("cannot be stored") == true, "\(name): \(String(describing: error))")
            }
            XCTAssertNil(try defaultCollection.document(id: "d"), name)
            // Set again with a value it can hold, the key saves.
            doc.setString("fixed", forKey: "k")
            try defaultCollection.save(document: doc)
            XCTAssertEqual(try defaultCollection.document(id: "d")?.string(forKey: "k"), "fixed", name)
            try defaultCollection.purge(id: "d")
        }
    }

    func testTheErrorNamesTheKeyAndTheProblem() throws {
        let doc = MutableDocument(id: "d").setDate(farFuture, forKey: "when")
        XCTAssertThrowsError(try defaultCollection.save(document: doc)) { error in
            XCTAssertEqual((error as? DocLiteError)?.message,
                           "the value set for key 'when' cannot be stored: the date \(farFuture) is outside the years 0000–9999 that ISO-8601 text holds")
        }
        // A mutable copy keeps the error; removing the key drops it.
        let copy = doc.toMutable()
        XCTAssertThrowsError(try defaultCollection.save(document: copy))
        copy.removeValue(forKey: "when")
        try defaultCollection.save(document: copy)
    }
}
