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

    private struct Unsupported {}

    /// Values no document can hold, of every kind: an unsupported type, nested too
    /// deep (dictionaries, arrays, Swift arrays), not finite, a date past 9999.
    private var badValues: [(name: String, value: Any)] {
        var swiftArray: Any = 1
        for _ in 0..<10_000 { swiftArray = [swiftArray] }
        return [("unsupported", Unsupported()), ("deep dictionary", deepDictionary(300)), ("deep array", deepArray(300)),
                ("deep Swift array", swiftArray), ("NaN", Double.nan), ("far date", farFuture),
                ("unsupported inside", ["k": [Unsupported()]] as [String: Any])]
    }

    /// Every non-throwing setter of a dictionary-like object (document or dictionary), each with each bad value.
    private func dictionarySetters<D: MutableDictionaryProtocol>(_ make: @escaping () -> D) -> [(String, () -> D)] {
        var setters: [(String, () -> D)] = badValues.map { bad in ("setValue(\(bad.name))", { make().setValue(bad.value, forKey: "k") }) }
        setters += [("setArray", { make().setArray(self.deepArray(300), forKey: "k") }),
                    ("setDictionary", { make().setDictionary(self.deepDictionary(300), forKey: "k") }),
                    ("setDate", { make().setDate(self.farFuture, forKey: "k") }),
                    ("setDouble", { make().setDouble(.nan, forKey: "k") }),
                    ("setFloat", { make().setFloat(.infinity, forKey: "k") }),
                    ("setNumber", { make().setNumber(NSNumber(value: Double.nan), forKey: "k") })]
        return setters
    }

    /// Every non-throwing setter, adder and inserter of an array, each with each bad value, and indexes out of range.
    private func arraySetters() -> [(String, () -> MutableArrayObject)] {
        let make = { MutableArrayObject().addString("first") }
        var setters: [(String, () -> MutableArrayObject)] = []
        for bad in badValues {
            setters += [("addValue(\(bad.name))", { make().addValue(bad.value) }),
                        ("setValue(\(bad.name))", { make().setValue(bad.value, at: 0) }),
                        ("insertValue(\(bad.name))", { make().insertValue(bad.value, at: 0) }),
                        ("init(data: \(bad.name))", { MutableArrayObject(data: [bad.value]) })]
        }
        setters += [("addArray", { make().addArray(self.deepArray(300)) }), ("addDictionary", { make().addDictionary(self.deepDictionary(300)) }),
                    ("addDate", { make().addDate(self.farFuture) }), ("addDouble", { make().addDouble(.nan) }),
                    ("addFloat", { make().addFloat(.nan) }), ("addNumber", { make().addNumber(NSNumber(value: Float.infinity)) }),
                    ("setArray(at:)", { make().setArray(self.deepArray(300), at: 0) }),
                    ("setDictionary(at:)", { make().setDictionary(self.deepDictionary(300), at: 0) }),
                    ("setDate(at:)", { make().setDate(self.farFuture, at: 0) }), ("setDouble(at:)", { make().setDouble(.nan, at: 0) }),
                    ("setFloat(at:)", { make().setFloat(.nan, at: 0) }),
                    ("insertArray", { make().insertArray(self.deepArray(300), at: 1) }),
                    ("insertDictionary", { make().insertDictionary(self.deepDictionary(300), at: 1) }),
                    ("insertDate", { make().insertDate(self.farFuture, at: 1) }), ("insertDouble", { make().insertDouble(.nan, at: 1) }),
                    ("setString out of range", { make().setString("x", at: 1) }), ("setInt at -1", { make().setInt(1, at: -1) }),
                    ("insertInt out of range", { make().insertInt(1, at: 2) }), ("removeValue out of range", { make().removeValue(at: 5) })]
        return setters
    }

    /// Issue 41's walk: every non-throwing setter with a value too deep, an
    /// unsupported one and the other kinds a document cannot hold. None traps
    /// (the sanitizer runs include this test); each leaves its container
    /// unchanged and makes the save of the document holding it throw.
    func testNoSetterTrapsAndEverySaveReportsTheValue() throws {
        var documents: [(String, MutableDocument)] = []
        documents += dictionarySetters { MutableDocument(id: "d") }.map { ("document \($0.0)", $0.1()) }
        documents += badValues.map { bad in ("MutableDocument(data: \(bad.name))", MutableDocument(id: "d", data: ["k": bad.value])) }
        documents += badValues.map { bad in ("setData(\(bad.name))", MutableDocument(id: "d").setData(["k": bad.value])) }
        documents += dictionarySetters { MutableDictionaryObject() }.map { name, set in
            ("dictionary \(name)", MutableDocument(id: "d").setDictionary(set(), forKey: "outer"))
        }
        documents += badValues.map { bad in
            ("MutableDictionaryObject(data: \(bad.name))", MutableDocument(id: "d").setDictionary(MutableDictionaryObject(data: ["k": bad.value]), forKey: "outer"))
        }
        documents += arraySetters().map { name, set in ("array \(name)", MutableDocument(id: "d").setArray(set(), forKey: "outer")) }
        XCTAssertGreaterThan(documents.count, 80)
        for (name, document) in documents {
            XCTAssertNil(document.value(forKey: "k") ?? document.value(forKey: "outer"), "\(name): nothing stored")
            XCTAssertThrowsError(try defaultCollection.save(document: document), name) { error in
                XCTAssertTrue((error as? DocLiteError)?.message.contains("cannot be stored") == true, "\(name): \(error)")
            }
        }
        XCTAssertEqual(defaultCollection.count, 0)
    }
}
