import Foundation
import XCTest
@testable import DocLite

/// EUCLIDEAN_DISTANCE and COSINE_DISTANCE, as LiteCore's "Query Distance Metrics" test
/// expects, and through the builder.
final class VectorFunctionTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try loadProbe(#"{"v": [3, 4], "w": [0, 0], "s": "abc", "n": [1, "x", true]}"#)
    }

    func testEuclideanDistance() throws {
        XCTAssertEqual(try value(of: #"["EUCLIDEAN_DISTANCE()", ["[]", 10, 10], ["[]", 13, 14]]"#), .double(5))
        XCTAssertEqual(try value(of: #"["EUCLIDEAN_DISTANCE()", ["[]", 10, 10], ["[]", 13, 14], 2]"#), .double(25))
        XCTAssertEqual(try value(of: #"["EUCLIDEAN_DISTANCE()", ["[]", 10, 10], ["[]", 13, 14], 3]"#), .double(125))
        XCTAssertEqual(try value(of: #"["EUCLIDEAN_DISTANCE()", ["[]", 1, 2, 3, 4, 5], ["[]", 1, 2, 3, 4, 5]]"#), .double(0))
        XCTAssertEqual(try value(of: #"["EUCLIDEAN_DISTANCE()", ["[]"], ["[]"]]"#), .double(0))
        XCTAssertEqual(try value(of: #"["EUCLIDEAN_DISTANCE()", [".v"], [".w"]]"#), .double(5))   // stored arrays
        XCTAssertEqual(try value(of: #"["EUCLIDEAN_DISTANCE()", [".n"], ["[]", 0, 0, 0]]"#), .double(2.0.squareRoot()))   // "x" is 0, true 1
    }

    func testCosineDistance() throws {
        XCTAssertEqual(try value(of: #"["COSINE_DISTANCE()", ["[]", 10, 0], ["[]", 0, 99]]"#), .double(1))
        XCTAssertEqual(try value(of: #"["COSINE_DISTANCE()", ["[]", 1, 2, 3, 4, 5], ["[]", 1, 2, 3, 4, 5]]"#), .double(0))
        XCTAssertEqual(try value(of: #"["COSINE_DISTANCE()", [".v"], ["[]", -3, -4]]"#), .double(2))
    }

    /// Anything but two arrays of one length is MISSING, as is a cosine of a zero vector.
    func testMissingUnlessTwoVectorsOfOneLength() throws {
        for expression in [#"["EUCLIDEAN_DISTANCE()", 18, "foo"]"#,
                           #"["EUCLIDEAN_DISTANCE()", ["[]", 10, 10], ["[]", 13]]"#,
                           #"["EUCLIDEAN_DISTANCE()", [".s"], [".v"]]"#,
                           #"["EUCLIDEAN_DISTANCE()", [".missing"], [".v"]]"#,
                           #"["EUCLIDEAN_DISTANCE()", null, [".v"]]"#,
                           #"["COSINE_DISTANCE()", ["[]"], ["[]"]]"#,
                           #"["COSINE_DISTANCE()", 18, "foo"]"#,
                           #"["COSINE_DISTANCE()", ["[]", 10, 10], ["[]", 13]]"#,
                           #"["COSINE_DISTANCE()", [".v"], [".w"]]"#] {
            XCTAssertNil(try value(of: expression), expression)
        }
    }

    func testWrongArityIsAnError() throws {
        XCTAssertThrowsError(try value(of: #"["EUCLIDEAN_DISTANCE()", [".v"]]"#)) { error in
            XCTAssertTrue("\(error)".contains("takes 2 or 3 arguments"), "\(error)")
        }
        XCTAssertThrowsError(try value(of: #"["COSINE_DISTANCE()", [".v"], [".v"], 2]"#))
    }

    /// The builder's functions and SQL++ reach the same functions, ordering by distance.
    func testBuilderAndSQLPPOrderByDistance() throws {
        try load([("near", #"{"v": [1, 1]}"#), ("far", #"{"v": [10, 10]}"#), ("mid", #"{"v": [4, 5]}"#)])
        let target = DocLite.Expression.array([0, 0])
        let query = QueryBuilder.select(SelectResult.expression(Meta.id))
            .from(DataSource.collection(defaultCollection))
            .where(Function.euclideanDistance(between: DocLite.Expression.property("v"), and: target).lessThan(DocLite.Expression.int(100)))
            .orderBy(Ordering.expression(Function.euclideanDistance(between: DocLite.Expression.property("v"), and: target)))
        XCTAssertEqual(try query.execute().allResults().map { $0.string(at: 0) }, ["near", "probe", "mid", "far"])
        let cosine = Function.cosineDistance(between: DocLite.Expression.property("v"), and: DocLite.Expression.property("w"))
        let squared = Function.squaredEuclideanDistance(between: DocLite.Expression.property("v"), and: target)
        XCTAssertEqual(JSONQueryWriter.json(squared.node), try JSONValue(json: #"["EUCLIDEAN_DISTANCE()", [".v"], ["[]", 0, 0], 2]"#))
        XCTAssertEqual(JSONQueryWriter.json(cosine.node), try JSONValue(json: #"["COSINE_DISTANCE()", [".v"], [".w"]]"#))
        let sqlpp = try db.createQuery("SELECT META().id FROM _ ORDER BY euclidean_distance(v, [0, 0]) LIMIT 2")
        XCTAssertEqual(try sqlpp.execute().allResults().map { $0.string(at: 0) }, ["near", "probe"])
    }
}
