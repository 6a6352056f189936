import Foundation
import XCTest
@testable import DocLite

/// A deterministic model of the tests' own, made of a function of the input; it counts its calls.
final class CountingModel: PredictiveModel, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private let answer: @Sendable (DictionaryObject) -> [String: Any]?

    init(_ answer: @escaping @Sendable (DictionaryObject) -> [String: Any]?) { self.answer = answer }

    var calls: Int { lock.withLock { count } }

    func predict(input: DictionaryObject) -> DictionaryObject? {
        lock.withLock { count += 1 }
        return answer(input).map { MutableDictionaryObject(data: $0) }
    }
}

/// The "sentiment" of a text: counted words of a fixed list.
private let sentiment = CountingModel { input in
    guard let text = input.string(forKey: "text") else { return nil }
    let words = text.lowercased().split(whereSeparator: { !$0.isLetter })
    let score = words.filter { ["good", "great", "love"].contains($0) }.count - words.filter { ["bad", "awful"].contains($0) }.count
    return ["label": score >= 0 ? "positive" : "negative", "score": score, "words": words.map(String.init)]
}

/// Predictive queries: PREDICTION() in the JSON form, SQL++ and the builder, a
/// model's nil as MISSING, its calls, and a model that is not registered.
final class PredictionTests: QueryTestCase {
    private let model = sentiment

    override func setUpWithError() throws {
        try super.setUpWithError()
        Database.prediction.registerModel(model, withName: "sentiment")
        try load([("r1", #"{"text": "Great room, good food"}"#), ("r2", #"{"text": "Awful noise"}"#), ("r3", #"{"stars": 4}"#)])
    }

    override func tearDownWithError() throws {
        Database.prediction.unregisterModel(withName: "sentiment")
        try super.tearDownWithError()
    }

    /// A value index on predictions is kept as the predictive index of that model and
    /// input (doc_prediction runs application code, so no expression index may call it:
    /// docs/security.md), whichever form its items take; other uses of PREDICTION() in
    /// a value index are refused.
    func testAValueIndexOnPredictionsIsKeptAsAPredictiveIndex() throws {
        try defaultCollection.createIndex(withName: "labels", config: ValueIndexConfiguration(["PREDICTION(sentiment, {'text': text}).label",
                                                                                               "PREDICTION(sentiment, {'text': text}, score)"]))
        XCTAssertEqual(try defaultCollection.indexes(), ["labels"])
        let calls = model.calls
        let query = try db.createQuery("SELECT META().id FROM _ WHERE PREDICTION(sentiment, {'text': text}).label = 'positive'")
        XCTAssertEqual(try query.execute().map { $0.string(at: 0) }, ["r1"])
        XCTAssertEqual(model.calls, calls, "the query read the kept predictions")
        let plan = try query.explain()
        XCTAssertTrue(plan.contains("USING INDEX"), plan)
        // The same index again is a no-op: nothing is predicted again.
        try defaultCollection.createIndex(withName: "labels", config: ValueIndexConfiguration(["PREDICTION(sentiment, {'text': text}).label",
                                                                                               "PREDICTION(sentiment, {'text': text}, score)"]))
        XCTAssertEqual(model.calls, calls)
        assertThrows(.unsupported, containing: "a value index on PREDICTION() takes items") {
            try defaultCollection.createIndex(withName: "lower", config: ValueIndexConfiguration(["lower(PREDICTION(sentiment, {'text': text}).label)"]))
        }
        assertThrows(.unsupported, containing: "a value index on PREDICTION() takes items") {
            try defaultCollection.createIndex(withName: "two", config: ValueIndexConfiguration(["PREDICTION(sentiment, {'text': text}).label",
                                                                                                "PREDICTION(sentiment, {'t': text}).label"]))
        }
    }

    func testPredictionsInEveryFrontEnd() throws {
        let json = try rows(#"{"WHAT": [["._id"], ["PREDICTION()", "sentiment", {"text": [".text"]}, ".label"]], "ORDER_BY": [["._id"]]}"#)
        XCTAssertEqual(json.map { $0.map { $0?.json ?? "MISSING" } }, [[#""r1""#, #""positive""#], [#""r2""#, #""negative""#], [#""r3""#, "MISSING"]])

        let sqlpp = try db.createQuery("SELECT META().id, PREDICTION(sentiment, {'text': text}, score) AS score FROM _ WHERE PREDICTION(sentiment, {'text': text}, label) = 'positive'")
        XCTAssertEqual(try sqlpp.execute().map { [$0.string(at: 0), "\($0.int(forKey: "score"))"] }, [["r1", "2"]])

        let built = QueryBuilder
            .select(SelectResult.expression(Meta.id), SelectResult.expression(Function.prediction(model: "sentiment",
                input: Expression.dictionary(["text": Expression.property("text")]))).as("prediction"))
            .from(DataSource.collection(defaultCollection))
            .orderBy(Ordering.expression(Meta.id))
        let first = try XCTUnwrap(try built.execute().next())
        XCTAssertEqual(first.dictionary(forKey: "prediction")?.string(forKey: "label"), "positive")
        XCTAssertEqual(first.dictionary(forKey: "prediction")?.array(forKey: "words")?.count, 4)
        XCTAssertEqual(built.sqlpp, try db.createQuery(built.sqlpp).sqlpp)   // the builder's query reads back through SQL++
    }

    func testAModelIsCalledOncePerRowItReads() throws {
        let before = model.calls
        _ = try rows(#"{"WHAT": [["PREDICTION()", "sentiment", {"text": [".text"]}, "label"]], "WHERE": ["=", ["._id"], "r1"]}"#)
        XCTAssertEqual(model.calls - before, 1)
    }

    func testAModelThatIsNotRegisteredFailsTheQueryNamingIt() throws {
        Database.prediction.unregisterModel(withName: "sentiment")
        let query = try db.createQuery(json: #"{"WHAT": [["PREDICTION()", "sentiment", {"text": [".text"]}]]}"#)
        XCTAssertThrowsError(try rows(query.json)) { error in
            XCTAssertTrue("\(error)".contains("no predictive model named 'sentiment'"), "\(error)")
        }
        Database.prediction.registerModel(model, withName: "sentiment")
        XCTAssertEqual(try rows(query.json).count, 3)
    }

    func testMistakesAreInvalidQueries() throws {
        XCTAssertThrowsError(try rows(#"{"WHAT": [["PREDICTION()", "sentiment", "text"]]}"#)) { error in
            XCTAssertTrue("\(error)".contains("must be a dictionary"), "\(error)")
        }
        XCTAssertThrowsError(try db.createQuery(json: #"{"WHAT": [["PREDICTION()", "sentiment", {}, 3]]}"#)) { error in
            XCTAssertTrue("\(error)".contains("property path"), "\(error)")
        }
    }

    /// The guide's examples 30-35 (Swift): a model reading the input's photo blob,
    /// registered; a value index on the prediction's label, which calls the model as
    /// documents are saved (kept as a predictive index); the query on label and
    /// probability; the model unregistered.
    func testTheGuidesPredictiveQuery() throws {
        // The classifier looks at the image's bytes: a "car" when they hold the word "wheel".
        let model = CountingModel { input in
            guard let blob = input.blob(forKey: "photo"), let imageData = blob.content else { return nil }
            let isCar = String(decoding: imageData, as: UTF8.self).contains("wheel")
            return ["label": isCar ? "car" : "other", "probablity": isCar ? 0.9 : 0.6]
        }
        Database.prediction.registerModel(model, withName: "ImageClassifier")
        defer { Database.prediction.unregisterModel(withName: "ImageClassifier") }

        let input = Expression.dictionary(["photo": Expression.property("photo")])
        let prediction = Function.prediction(model: "ImageClassifier", input: input)
        let index = IndexBuilder.valueIndex(items: ValueIndexItem.expression(prediction.property("label")))
        try db.createIndex(index, withName: "value-index-image-classifier")
        for (id, image) in [("p1", "four wheels and a roof"), ("p2", "a cat"), ("p3", "one wheel")] {
            let photo = Blob(contentType: "image/jpeg", data: Data(image.utf8))
            try defaultCollection.save(document: MutableDocument(id: id).setBlob(photo, forKey: "photo"))
        }
        XCTAssertGreaterThanOrEqual(model.calls, 3, "the index calls the model as documents are saved")

        let query = QueryBuilder
            .select(SelectResult.expression(Meta.id))
            .from(DataSource.database(db))
            .where(prediction.property("label").equalTo(Expression.string("car"))
                .and(prediction.property("probablity").greaterThanOrEqualTo(Expression.double(0.8))))
            .orderBy(Ordering.expression(Meta.id))
        XCTAssertEqual(try query.execute().map { $0.string(at: 0) }, ["p1", "p3"])
        let plan = try query.explain()
        XCTAssertTrue(plan.contains("USING INDEX"), plan)

        // The value index keeps the predictions (as a predictive index: docs/security.md), so the
        // query reads them without the model; one that needs the model again fails without it.
        Database.prediction.unregisterModel(withName: "ImageClassifier")
        XCTAssertEqual(try query.execute().map { $0.string(at: 0) }, ["p1", "p3"])
        let other = Function.prediction(model: "ImageClassifier", input: Expression.dictionary(["image": Expression.property("photo")]))
        XCTAssertThrowsError(try QueryBuilder.select(SelectResult.expression(other)).from(DataSource.database(db)).execute().allResults()) { error in
            XCTAssertTrue("\(error)".contains("no predictive model named 'ImageClassifier'"), "\(error)")
        }
        // A save the index would have to predict for fails while the model is unregistered, and changes nothing.
        let photo = Blob(contentType: "image/jpeg", data: Data("wheel".utf8))
        XCTAssertThrowsError(try defaultCollection.save(document: MutableDocument(id: "p4").setBlob(photo, forKey: "photo")))
        XCTAssertNil(try defaultCollection.document(id: "p4"))
    }

    /// A predictive index calls the model as documents are saved, updated and
    /// deleted, and queries with the same model and input read its cache: no model
    /// call, the property index in the plan, the rows a scan gives.
    func testAPredictiveIndexServesQueriesWithoutCallingTheModel() throws {
        let input = Expression.dictionary(["text": Expression.property("text")])
        let prediction = Function.prediction(model: "sentiment", input: input)
        let query = QueryBuilder.select(SelectResult.expression(Meta.id), SelectResult.expression(prediction.property("score")).as("score"))
            .from(DataSource.database(db))
            .where(prediction.property("label").equalTo(Expression.string("positive")))
            .orderBy(Ordering.expression(Meta.id))
        let scanned = try query.execute().allResults().map { $0.toJSON() }
        XCTAssertEqual(scanned, [#"{"id":"r1","score":2}"#])

        let callsBefore = model.calls
        try db.createIndex(IndexBuilder.predictiveIndex(model: "sentiment", input: input, properties: ["label"]), withName: "sentiment")
        XCTAssertEqual(model.calls - callsBefore, 3, "the index predicts once per document")
        let indexed = model.calls
        XCTAssertEqual(try query.execute().allResults().map { $0.toJSON() }, scanned)
        XCTAssertEqual(model.calls, indexed, "the query calls the model for no row")
        let plan = try query.explain()
        XCTAssertTrue(plan.contains("USING INDEX pred"), plan)

        // SQL++ and the JSON form find the same index (same model, same input).
        let sqlpp = try db.createQuery("SELECT META().id, PREDICTION(sentiment, {'text': text}).label AS label FROM _ ORDER BY META().id")
        XCTAssertEqual(try sqlpp.execute().allResults().map { $0.string(forKey: "label") }, ["positive", "negative", nil])
        let grouped = try db.createQuery("SELECT PREDICTION(sentiment, {'text': text}).label AS label, count(*) AS n FROM _ "
                                         + "GROUP BY PREDICTION(sentiment, {'text': text}).label ORDER BY label")
        XCTAssertEqual(try grouped.execute().allResults().map { $0.toJSON() }, [#"{"n":1}"#, #"{"label":"negative","n":1}"#, #"{"label":"positive","n":1}"#])
        XCTAssertEqual(model.calls, indexed)

        // Saves, updates and deletes keep the cache.
        try load([("r4", #"{"text": "I love it"}"#)])
        try defaultCollection.save(document: try XCTUnwrap(defaultCollection.document(id: "r2")).toMutable().setString("good", forKey: "text"))
        try defaultCollection.delete(document: try XCTUnwrap(defaultCollection.document(id: "r1")))
        XCTAssertEqual(model.calls, indexed + 2)
        XCTAssertEqual(try query.execute().allResults().map { $0.string(at: 0) }, ["r2", "r4"])
        XCTAssertEqual(model.calls, indexed + 2)

        // An input qualified by the source's alias is the same input.
        let aliased = try db.createQuery("SELECT META(d).id FROM _ AS d WHERE PREDICTION(sentiment, {'text': d.text}).label = 'positive' ORDER BY META(d).id")
        XCTAssertEqual(try aliased.execute().allResults().map { $0.string(at: 0) }, ["r2", "r4"])
        XCTAssertEqual(model.calls, indexed + 2, "the aliased input reads the cache too")
        // Tombstones have no cached prediction: a query that includes them calls the model for them.
        let withDeleted = try db.createQuery("SELECT META().id, META().deleted AS gone, PREDICTION(sentiment, {'text': text}).label AS label FROM _ ORDER BY META().id")
        XCTAssertEqual(try withDeleted.execute().allResults().map { $0.string(forKey: "id") }, ["r1", "r2", "r3", "r4"])
        // In a join's ON clause the cache is not used (it would be joined to the ON's right), and the query runs.
        let joined = try db.createQuery("""
            SELECT a.text FROM _ AS a LEFT JOIN _ AS b ON PREDICTION(sentiment, {'text': b.text}).label = 'positive' AND META(a).id = META(b).id
            ORDER BY META(a).id
            """)
        XCTAssertEqual(try joined.execute().allResults().count, 3)
        // A different input is not served by the index: the model is called.
        let other = try db.createQuery("SELECT META().id FROM _ WHERE PREDICTION(sentiment, {'text': lower(text)}).label = 'positive'")
        XCTAssertEqual(try other.execute().allResults().count, 2)
        XCTAssertGreaterThan(model.calls, indexed + 2)

        // Deleted, the index no longer serves the query; the model answers it again.
        try defaultCollection.deleteIndex(forName: "sentiment")
        let afterDrop = model.calls
        XCTAssertEqual(try query.execute().allResults().map { $0.string(at: 0) }, ["r2", "r4"])
        XCTAssertGreaterThan(model.calls, afterDrop)
    }

    /// A predictive index from a configuration (SQL++ or JSON input); while the model
    /// is unregistered, a save the index must predict for fails and changes nothing.
    func testAPredictiveIndexConfiguration() throws {
        try defaultCollection.createIndex(withName: "p", config: PredictiveIndexConfiguration(model: "sentiment", input: "{'text': text}"))
        try defaultCollection.createIndex(withName: "p", config: PredictiveIndexConfiguration(model: "sentiment", input: "{'text': text}"))
        XCTAssertEqual(try defaultCollection.indexes(), ["p"])
        try defaultCollection.createIndex(withName: "j", config: PredictiveIndexConfiguration(model: "sentiment", json: #"{"text": [".text"]}"#,
                                                                                             properties: ["score"]))
        let calls = model.calls
        let query = try db.createQuery("SELECT META().id FROM _ WHERE PREDICTION(sentiment, {'text': text}, 'score') < 0")
        XCTAssertEqual(try query.execute().allResults().map { $0.string(at: 0) }, ["r2"])
        XCTAssertEqual(model.calls, calls)
        Database.prediction.unregisterModel(withName: "sentiment")
        XCTAssertEqual(try query.execute().allResults().map { $0.string(at: 0) }, ["r2"], "the cache answers without the model")
        XCTAssertThrowsError(try defaultCollection.save(document: MutableDocument(id: "r9", json: #"{"text": "fine"}"#))) { error in
            XCTAssertTrue("\(error)".contains("no predictive model named 'sentiment'"), "\(error)")
        }
        XCTAssertNil(try defaultCollection.document(id: "r9"))
        Database.prediction.registerModel(model, withName: "sentiment")
        assertThrows(.invalidQuery) {
            try self.defaultCollection.createIndex(withName: "bad", config: PredictiveIndexConfiguration(model: "sentiment", input: "a, b"))
        }
        assertThrows(.invalidParameter, containing: "model") {
            try self.defaultCollection.createIndex(withName: "bad", config: PredictiveIndexConfiguration(model: "", input: "text"))
        }
    }

    /// A model whose prediction fails (as a C, Python or Rust model can): the query
    /// fails naming it and giving its message; an index build or a save that needs
    /// the prediction fails and changes nothing, and a batch holding that save rolls
    /// back whole: never a torn index.
    func testAModelThatFailsIsAnErrorNeverATornIndex() throws {
        Database.prediction.registerModel(FailingOnWord("explode"), withName: "picky")
        defer { Database.prediction.unregisterModel(withName: "picky") }
        let query = try db.createQuery("SELECT META().id, PREDICTION(picky, {'text': text}, length) AS n FROM _ ORDER BY n")
        XCTAssertEqual(try query.execute().allResults().map { $0.string(at: 0) }, ["r3", "r2", "r1"])

        try defaultCollection.save(document: MutableDocument(id: "bomb", json: #"{"text": "explode now"}"#))
        assertThrows(.invalidQuery, containing: "predictive model 'picky' failed: the text says explode") {
            _ = try query.execute().allResults()
        }
        let picky = PredictiveIndexConfiguration(model: "picky", input: "{'text': text}", properties: ["length"])
        assertThrows(.invalidQuery, containing: "the text says explode") {
            try self.defaultCollection.createIndex(withName: "byLength", config: picky)
        }
        XCTAssertEqual(try defaultCollection.indexes(), [])
        try defaultCollection.purge(id: "bomb")

        try defaultCollection.createIndex(withName: "byLength", config: picky)
        let indexed = try db.createQuery("SELECT META().id FROM _ WHERE PREDICTION(picky, {'text': text}, length) > 5 ORDER BY META().id")
        let plan = try indexed.explain()
        XCTAssertTrue(plan.contains("JOIN pred"), "the query reads the predictions cached: \(plan)")
        assertThrows(.invalidQuery, containing: "the text says explode") {
            try self.defaultCollection.save(document: MutableDocument(id: "r1", json: #"{"text": "explode it all"}"#))
        }
        assertThrows(.invalidQuery, containing: "the text says explode") {
            try self.db.inBatch {
                try self.defaultCollection.save(document: MutableDocument(id: "r4", json: #"{"text": "a long calm text"}"#))
                try self.defaultCollection.save(document: MutableDocument(id: "r5", json: #"{"text": "explode"}"#))
            }
        }
        XCTAssertNil(try defaultCollection.document(id: "r4"))
        XCTAssertEqual(try defaultCollection.document(id: "r1")?.string(forKey: "text"), "Great room, good food")
        XCTAssertEqual(try indexed.execute().allResults().map { $0.string(at: 0) }, ["r1", "r2"])
        try defaultCollection.deleteIndex(forName: "byLength")
        XCTAssertEqual(try indexed.execute().allResults().map { $0.string(at: 0) }, ["r1", "r2"], "the scan agrees with the index")
    }
}

/// The length of the input's text; fails (as a fallible model can) when the text holds `word`.
private final class FailingOnWord: FalliblePredictiveModel, @unchecked Sendable {
    let word: String

    init(_ word: String) { self.word = word }

    func predict(input: DictionaryObject) -> DictionaryObject? { try? prediction(for: input) }

    func prediction(for input: DictionaryObject) throws -> DictionaryObject? {
        guard let text = input.string(forKey: "text") else { return nil }
        if text.contains(word) { throw DocLiteError(.invalidQuery, "the text says \(word)") }
        return MutableDictionaryObject(data: ["length": text.count])
    }
}
