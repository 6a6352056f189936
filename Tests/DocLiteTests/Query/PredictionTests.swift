import Foundation
import XCTest
@testable import DocLite

/// A small deterministic model of the project's own: the "sentiment" of a text,
/// counted words of a fixed list; it counts its calls.
final class SentimentModel: PredictiveModel, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var calls: Int { lock.withLock { count } }

    func predict(input: DictionaryObject) -> DictionaryObject? {
        lock.withLock { count += 1 }
        guard let text = input.string(forKey: "text") else { return nil }
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter })
        let score = words.filter { ["good", "great", "love"].contains($0) }.count - words.filter { ["bad", "awful"].contains($0) }.count
        return try? MutableDictionaryObject(data: ["label": score >= 0 ? "positive" : "negative", "score": score,
                                                    "words": words.map(String.init)])
    }
}

/// Predictive queries: PREDICTION() in the JSON form, SQL++ and the builder, a
/// model's nil as MISSING, its calls, and a model that is not registered.
final class PredictionTests: QueryTestCase {
    private var model = SentimentModel()

    override func setUpWithError() throws {
        try super.setUpWithError()
        model = SentimentModel()
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
        XCTAssertThrowsError(try defaultCollection.createIndex(withName: "byLabel",
            config: ValueIndexConfiguration(json: #"[["PREDICTION()", "sentiment", {"text": [".text"]}, ".label"]]"#)))
    }
}
