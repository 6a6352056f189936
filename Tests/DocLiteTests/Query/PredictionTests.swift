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
        return answer(input).flatMap { try? MutableDictionaryObject(data: $0) }
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
    /// documents are saved; the query on label and probability; the model unregistered.
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

        Database.prediction.unregisterModel(withName: "ImageClassifier")
        XCTAssertThrowsError(try query.execute().allResults()) { error in
            XCTAssertTrue("\(error)".contains("no predictive model named 'ImageClassifier'"), "\(error)")
        }
        // A save the index would have to predict for fails while the model is unregistered, and changes nothing.
        let photo = Blob(contentType: "image/jpeg", data: Data("wheel".utf8))
        XCTAssertThrowsError(try defaultCollection.save(document: MutableDocument(id: "p4").setBlob(photo, forKey: "photo")))
        XCTAssertNil(try defaultCollection.document(id: "p4"))
    }
}
