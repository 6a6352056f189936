// The Swift examples of the Couchbase Lite Swift QueryBuilder guide
// (shared/seeds/000_bb21b9aea27a1316.txt) as the guide writes them, with only
// what they leave out filled in: the `database` they query ("travel-sample" or
// "hotel", with documents: GuideFixture.swift), a `query` or `hotels` an example
// uses from another one, the `Hotel` type, a fake `myMLModel`, the photos. Each
// example's code is copied from the guide changing nothing but indentation and
// the guide's callout markers ("(1)"); its `print` lines are recorded
// (GuideExampleTestCase.print) and asserted on after it, with what it filled.
// Examples that go on from another (18 from 16, 21 from 19, 24 from 22, 27 from
// 25, 31-35 in turn) run in one test, in the guide's order.
//
// As written, the examples give these warnings: Examples 18 and 24 interpolate
// optionals in the strings they print (7 warnings), and Example 30's
// `ImageClassifierModel` is a non-final class, which cannot conform to the
// `Sendable` that DocLite's `PredictiveModel` refines (an error in Swift 6 mode,
// hence this target's Swift 5 mode; `final` would be the one change).
//
// Left out:
// - Examples 1, 4, 6, 17, 20, 23, 26 and the data models: not Swift (the SQL
//   outline, result and document formats).
// - The date functions, `Function.StringToMillis(Expression.Property("date_time"))`,
//   `Function.StringToUTC(...)`, `Function.MillisToString(...)`, `Function.MillisToUTC(...)`:
//   capitalised spellings that Couchbase Lite's Swift API does not have either (an error
//   of the guide); DocLite, like Couchbase Lite, has `Function.stringToMillis`,
//   `stringToUTC`, `millisToString`, `millisToUTC` and `Expression.property`.
// - "Integrate a Model with CoreMLPredictiveModel": Core ML is Apple only;
//   `CoreMLPredictiveModel` and `MLModel` do not exist here.

import Foundation
import XCTest
import DocLite

// Example 30. The guide's `myMLModel` is "a fake implementation" that returns `[:]`:
//     class myMLModel {
//         static func predictImage(data: Data) -> [String : AnyObject] { return [:] }
//     }
// It stands for "the ml model you have chosen", left out; this fake, with the same
// signature, "sees" in the image's bytes a label and a probability (GuideFixture's
// photos), under the key "probablity" that Example 34's query reads.
// `myMLModel` is a fake implementation
// this would be the implementation of the ml model you have chosen
class myMLModel {
    static func predictImage(data: Data) -> [String : AnyObject] {
        let words = String(decoding: data, as: UTF8.self).split(separator: " ")
        guard words.count == 2, let probability = Double(words[1]) else { return [:] }
        return ["label": String(words[0]) as NSString, "probablity": NSNumber(value: probability)]
    }
}

class ImageClassifierModel: PredictiveModel {
    func predict(input: DictionaryObject) -> DictionaryObject? {
        guard let blob = input.blob(forKey: "photo") else {
            return nil
        }

        let imageData = blob.content!
        // `myMLModel` is a fake implementation
        // this would be the implementation of the ml model you have chosen
        let modelOutput = myMLModel.predictImage(data: imageData)

        let output = MutableDictionaryObject(data: modelOutput)
        return output
    }
}

final class QueryBuilderGuideExamples: GuideExampleTestCase {
    /// Example 2. Creating a New Index
    func testExample2CreatingANewIndex() throws {
        try useDatabase("travel-sample")

        let config = ValueIndexConfiguration(["type", "name"])
        try database.createIndex(config, name: "TypeNameIndex")

        XCTAssertEqual(try database.defaultCollection().indexes(), ["TypeNameIndex"])
    }

    /// Example 3. Using SELECT to Retrieve All Properties
    func testExample3SelectAll() throws {
        try useDatabase("travel-sample")
        // The guide assigns a `query` declared elsewhere (in Couchbase Lite, a `Query`;
        // the builder's stages are a `BuilderQuery` in DocLite).
        let query: BuilderQuery

        query = QueryBuilder
            .select(SelectResult.all())
            .from(DataSource.database(database))

        let results = try query.execute().allResults()
        XCTAssertEqual(results.count, 21)
        XCTAssertEqual(Set(results.map { $0.keys }), [["travel-sample"]])
        XCTAssertEqual(results.compactMap { $0.dictionary(forKey: "travel-sample")?.string(forKey: "callsign") }.sorted(),
                       ["ALASKAN-AIR", "AMERICAN", "MILE-AIR"])
    }

    /// Example 5. Using SELECT to Retrieve Specific Properties (on the "hotel"
    /// database: every document must have the `name` the example unwraps).
    func testExample5SelectSpecificProperties() throws {
        try useDatabase("hotel")

        let query = QueryBuilder
            .select(
                SelectResult.expression(Meta.id),
                SelectResult.property("type"),
                SelectResult.property("name")
            )
            .from(DataSource.database(database))

        do {
            for result in try query.execute() {
                print("document id :: \(result.string(forKey: "id")!)")
                print("document name :: \(result.string(forKey: "name")!)")
            }
        } catch {
            print(error)
        }

        XCTAssertEqual(printed.sorted(), [
            "document id :: hotel123", "document id :: hotel456", "document id :: hotel789", "document id :: inn001",
            "document name :: Auberge", "document name :: Hotel Deluxe", "document name :: Hotel Ghia", "document name :: The Ship Inn",
        ])
        XCTAssertEqual(Array(printed.prefix(2)), ["document id :: hotel123", "document name :: Hotel Ghia"])
    }

    /// Example 7. Using Where
    func testExample7Where() throws {
        try useDatabase("travel-sample")

        let query = QueryBuilder
            .select(SelectResult.all())
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("hotel")))
            .limit(Expression.int(10))

        do {
            for result in try query.execute() {
                if let dict = result.dictionary(forKey: "travel-sample") {
                    print("document name :: \(dict.string(forKey: "name")!)")
                }
            }
        } catch {
            print(error)
        }

        XCTAssertEqual(printed.sorted(), ["document name :: Auberge", "document name :: Hotel Deluxe", "document name :: Hotel Ghia"])
    }

    /// CONTAINS Operator
    func testContainsOperator() throws {
        try useDatabase("travel-sample")

        let query = QueryBuilder
            .select(
                SelectResult.expression(Meta.id),
                SelectResult.property("name"),
                SelectResult.property("public_likes")
            )
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("hotel"))
                    .and(ArrayFunction.contains(Expression.property("public_likes"),
                                                value: Expression.string("Armani Langworth")))
            )

        do {
            for result in try query.execute() {
                print("public_likes :: \(result.array(forKey: "public_likes")!.toArray())")
            }
        }

        XCTAssertEqual(printed, [#"public_likes :: ["Armani Langworth", "Elfrieda Gutkowski", "Maureen Ruecker"]"#])
    }

    /// IN Operator
    func testInOperator() throws {
        try useDatabase("travel-sample")

        let values = [
            Expression.property("first"),
            Expression.property("last"),
            Expression.property("username")
        ]

        let query = QueryBuilder.select(SelectResult.all())
            .from(DataSource.database(database))
            .where(Expression.string("Armani").in(values))

        let firsts = try query.execute().allResults().compactMap { $0.dictionary(forKey: "travel-sample")?.string(forKey: "first") }
        XCTAssertEqual(firsts.sorted(), ["Armani", "Bob"])
    }

    /// Example 8. Like with case-insensitive matching
    func testExample8Like() throws {
        try useDatabase("travel-sample")

        let query = QueryBuilder
            .select(
                SelectResult.expression(Meta.id),
                SelectResult.property("country"),
                SelectResult.property("name")
            )
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("landmark"))
                    .and(Function.lower(Expression.property("name"))
                            .like(Expression.string("royal engineers museum")))
            )
            .limit(Expression.int(10))

        do {
            for result in try query.execute() {
                print("name property :: \(result.string(forKey: "name")!)")
            }
        }

        XCTAssertEqual(printed, ["name property :: Royal Engineers Museum"])
    }

    /// Example 9. Wildcard Matches
    func testExample9WildcardMatches() throws {
        try useDatabase("travel-sample")

        let query = QueryBuilder
            .select(
                SelectResult.expression(Meta.id),
                SelectResult.property("country"),
                SelectResult.property("name")
            )
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("landmark"))
                    .and(Function.lower(Expression.property("name"))
                            .like(Expression.string("eng%e%")))
            )
            .limit(Expression.int(10))

        XCTAssertEqual(try query.execute().allResults().compactMap { $0.string(forKey: "name") }.sorted(),
                       ["Engineer", "England Eagle", "engineer"])
    }

    /// Example 10. Wildcard Character Matching
    func testExample10WildcardCharacterMatching() throws {
        try useDatabase("travel-sample")

        let query = QueryBuilder
            .select(
                SelectResult.expression(Meta.id),
                SelectResult.property("country"),
                SelectResult.property("name")
            )
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("landmark"))
                    .and(Expression.property("name").like(Expression.string("eng____r")))
            )
            .limit(Expression.int(10))

        XCTAssertEqual(try query.execute().allResults().map { $0.toJSON() }, [#"{"country":"Canada","id":"landmark_5","name":"engineer"}"#])
    }

    /// Example 11. Using Regular Expressions
    func testExample11Regex() throws {
        try useDatabase("travel-sample")

        let query = QueryBuilder
            .select(
                SelectResult.expression(Meta.id),
                SelectResult.property("name")
            )
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("landmark"))
                    .and(Expression.property("name").regex(Expression.string("\\bEng.*e\\b")))
            )
            .limit(Expression.int(10))

        XCTAssertEqual(try query.execute().allResults().map { $0.toJSON() }, [#"{"id":"landmark_3","name":"England Eagle"}"#])
    }

    /// Example 12. Query to select Deleted Documents
    func testExample12DeletedDocuments() throws {
        try useDatabase("travel-sample")

        // Query documents that have been deleted
        let query = QueryBuilder
            .select(SelectResult.expression(Meta.id))
            .from(DataSource.database(database))
            .where(Meta.isDeleted)

        XCTAssertEqual(try query.execute().allResults().map { $0.string(forKey: "id") }, ["gone"])
    }

    /// Example 13. Using JOIN to Combine Document Details
    func testExample13Join() throws {
        try useDatabase("travel-sample")

        let query = QueryBuilder
            .select(
                SelectResult.expression(Expression.property("name").from("airline")),
                SelectResult.expression(Expression.property("callsign").from("airline")),
                SelectResult.expression(Expression.property("destinationairport").from("route")),
                SelectResult.expression(Expression.property("stops").from("route")),
                SelectResult.expression(Expression.property("airline").from("route"))
            )
            .from(
                DataSource.database(database!).as("airline")
            )
            .join(
                Join.join(DataSource.database(database!).as("route"))
                    .on(
                        Meta.id.from("airline")
                            .equalTo(Expression.property("airlineid").from("route"))
                    )
            )
            .where(
                Expression.property("type").from("route").equalTo(Expression.string("route"))
                    .and(Expression.property("type").from("airline")
                            .equalTo(Expression.string("airline")))
                    .and(Expression.property("sourceairport").from("route")
                            .equalTo(Expression.string("RIX")))
            )

        let results = try query.execute().allResults()
        XCTAssertEqual(results.first?.keys, ["name", "callsign", "destinationairport", "stops", "airline"])
        XCTAssertEqual(results.map { $0.toJSON() }.sorted(), [
            #"{"airline":"AA","callsign":"ALASKAN-AIR","destinationairport":"CPH","name":"Alaskan Airways","stops":1}"#,
            #"{"airline":"Q5","callsign":"MILE-AIR","destinationairport":"ARN","name":"40-Mile Air","stops":0}"#,
        ])
    }

    /// Example 14. Query using GroupBy
    func testExample14GroupBy() throws {
        try useDatabase("travel-sample")

        let query = QueryBuilder
            .select(
                SelectResult.expression(Function.count(Expression.all())),
                SelectResult.property("country"),
                SelectResult.property("tz"))
            .from(DataSource.database(database))
            .where(
                Expression.property("type").equalTo(Expression.string("airport"))
                    .and(Expression.property("geo.alt").greaterThanOrEqualTo(Expression.int(300)))
            ).groupBy(
                Expression.property("country"),
                Expression.property("tz")
            )

        do {
            for result in try query.execute() {
                print("""
                    There are \(result.int(forKey: "$1")) airports on
                                the \(result.string(forKey: "tz")!)timezone located
                                in \(result.string(forKey: "country")!) and above 300 ft
                """)
            }
        }

        XCTAssertEqual(printedWords.sorted(), [
            "There are 1 airports on the America/Anchoragetimezone located in United States and above 300 ft",
            "There are 2 airports on the Europe/Paristimezone located in France and above 300 ft",
        ])
    }

    /// Example 15. Query using OrderBy
    func testExample15OrderBy() throws {
        try useDatabase("travel-sample")

        let query = QueryBuilder
            .select(
                SelectResult.expression(Meta.id),
                SelectResult.property("title"))
            .from(DataSource.database(database))
            .where(Expression.property("type").equalTo(Expression.string("hotel")))
            .orderBy(Ordering.property("title").ascending())
            .limit(Expression.int(10))

        XCTAssertEqual(try query.execute().allResults().map { $0.string(forKey: "title") }, ["Aberdyfi", "Ardèche", "Avignon"])
    }

    /// Example 16. Query selecting All Properties, and Example 18. Using Document Properties (All)
    func testExamples16And18SelectAllAndUseTheProperties() throws {
        try prepareDatabase("hotel")
        var hotels: [String: DictionaryObject] = [:]

        // Example 16
        let database = try Database(name: "hotel")
        let query = QueryBuilder.select(SelectResult.all()).from(DataSource.database(database))

        // Example 18
        let results = try query.execute()
        for row in results {
            let docsProps = row.dictionary(at: 0)!

            let docid = docsProps.string(forKey: "id")
            let name = docsProps.string(forKey: "name")
            let type = docsProps.string(forKey: "type")
            let city = docsProps.string(forKey: "city")

            print("\(docid): \(name), \(type), \(city)")
            let hotel = row.dictionary(at: 0)!
            guard let hotelId = hotel.string(forKey: "id") else {
                continue
            }

            hotels[hotelId] = hotel
        }

        XCTAssertEqual(printed.sorted(), [
            #"Optional("hotel123"): Optional("Hotel Ghia"), Optional("hotel"), Optional("Avignon")"#,
            #"Optional("hotel456"): Optional("Hotel Deluxe"), Optional("hotel"), Optional("Aberdyfi")"#,
            #"Optional("hotel789"): Optional("Auberge"), Optional("hotel"), Optional("Lyon")"#,
            #"Optional("inn001"): Optional("The Ship Inn"), Optional("inn"), Optional("Annan")"#,
        ])
        XCTAssertEqual(hotels.keys.sorted(), ["hotel123", "hotel456", "hotel789", "inn001"])
        XCTAssertEqual(hotels["hotel456"]?.string(forKey: "city"), "Aberdyfi")
        XCTAssertEqual(try query.execute().columnNames, ["hotel"])
    }

    /// Example 19. Query selecting Specific Properties, and Example 21. Using Returned
    /// Document Properties (Specific Properties)
    func testExamples19And21SelectSpecificPropertiesAndUseThem() throws {
        try prepareDatabase("hotel")
        var hotels: [String: Hotel] = [:]

        // Example 19
        let database = try! Database(name: "hotel")

        let query = QueryBuilder
            .select(SelectResult.expression(Meta.id).as("metaId"),
                    SelectResult.expression(Expression.property("id")),
                    SelectResult.expression(Expression.property("name")),
                    SelectResult.expression(Expression.property("city")),
                    SelectResult.expression(Expression.property("type")))
            .from(DataSource.database(database))

        // Example 21
        for result in try! query.execute() {
            let docID = result.string(forKey: "metaId")!
            print("processing doc: \(docID)")

            let id = result.string(forKey: "id")!
            var hotel = Hotel(id: id)
            hotel.name = result.string(forKey: "name")
            hotel.city = result.string(forKey: "city")
            hotel.type = result.string(forKey: "type")
            hotels[id] = hotel
        } // end for

        XCTAssertEqual(printed.sorted(), ["processing doc: hotel123", "processing doc: hotel456", "processing doc: hotel789", "processing doc: inn001"])
        XCTAssertEqual(hotels.keys.sorted(), ["hotel123", "hotel456", "hotel789", "inn001"])
        XCTAssertEqual(hotels["hotel123"]?.name, "Hotel Ghia")
        XCTAssertEqual(hotels["hotel789"]?.city, "Lyon")
        XCTAssertEqual(hotels["inn001"]?.type, "inn")
    }

    /// Example 22. Query selecting only Doc Id, and Example 24. Using Returned Document
    /// Properties (Document Id)
    func testExamples22And24SelectIDsAndGetTheDocuments() throws {
        try prepareDatabase("hotel")

        // Example 22
        let database = try Database(name: "hotel")
        let query = QueryBuilder.select(SelectResult.expression(Meta.id).as("metaId"))
            .from(DataSource.database(database))

        // Example 24
        let results = try query.execute()
        for result in results {

            print(result.toDictionary())

            let docId = result.string(forKey: "metaId")!
            print("Document Id is -- \(docId)")

            // Now you can get the document using the ID
            let doc = database.document(withID: docId)!

            let hotelId = doc.string(forKey: "id")!

            let name = doc.string(forKey: "name")

            let city = doc.string(forKey: "city")

            let type = doc.string(forKey: "type")

            // ... process document properties as required
            print("Result properties are: \(hotelId), \(name), \(city), \(type)")


        }

        XCTAssertEqual(printed.sorted(), [
            "Document Id is -- hotel123", "Document Id is -- hotel456", "Document Id is -- hotel789", "Document Id is -- inn001",
            #"Result properties are: hotel123, Optional("Hotel Ghia"), Optional("Avignon"), Optional("hotel")"#,
            #"Result properties are: hotel456, Optional("Hotel Deluxe"), Optional("Aberdyfi"), Optional("hotel")"#,
            #"Result properties are: hotel789, Optional("Auberge"), Optional("Lyon"), Optional("hotel")"#,
            #"Result properties are: inn001, Optional("The Ship Inn"), Optional("Annan"), Optional("inn")"#,
            #"["metaId": "hotel123"]"#, #"["metaId": "hotel456"]"#, #"["metaId": "hotel789"]"#, #"["metaId": "inn001"]"#,
        ])
    }

    /// Example 25. Query selecting a Count-only, and Example 27. Using Returned Document
    /// Properties (Count)
    func testExamples25And27Count() throws {
        try prepareDatabase("hotel")

        // Example 25
        let database = try Database(name: "hotel")
        let query = QueryBuilder
            .select(SelectResult.expression(Function.count(Expression.all())).as("mycount"))
            .from (DataSource.database(database)).groupBy(Expression.property("type"))

        // Example 27
        for result in try query.execute() {
            let count = result.int(forKey: "mycount")
            print("There are ", count, " rows")
        }

        XCTAssertEqual(printed.sorted(), ["There are  1  rows", "There are  3  rows"])
    }

    /// Example 28. Query Pagination
    func testExample28Pagination() throws {
        try useDatabase("travel-sample")

        let offset = 0;
        let limit = 20;
        //
        let query = QueryBuilder
            .select(SelectResult.all())
            .from(DataSource.database(database))
            .limit(Expression.int(limit), offset: Expression.int(offset))

        let results = try query.execute().allResults()
        XCTAssertEqual(results.count, 20)   // of 21
        XCTAssertEqual(Set(results.map { $0.keys }), [["travel-sample"]])
    }

    /// Example 29. Using JSON Results
    func testExample29JSONResults() throws {
        try useDatabase("hotel")
        // The guide's `Hotel` (commented out in the example), without the `country`,
        // `description` and `text` that the query does not select: `as! String` goes
        // into a `String` (into GuideFixture's `String?` it would warn that the forced
        // downcast never produces nil).
        struct Hotel: Codable {
            var id: String
            var type: String
            var name: String
            var city: String
        }
        var hotels: [String: Hotel] = [:]
        // The guide leaves `query` out: Example 19's.
        let query = QueryBuilder
            .select(SelectResult.expression(Meta.id).as("metaId"),
                    SelectResult.expression(Expression.property("id")),
                    SelectResult.expression(Expression.property("name")),
                    SelectResult.expression(Expression.property("city")),
                    SelectResult.expression(Expression.property("type")))
            .from(DataSource.database(database))

        // In this example the Hotel class is defined using Codable
        //
        // class Hotel : Codable {
        //   var id : String = "undefined"
        //   var type : String = "hotel"
        //   var name : String = "undefined"
        //   var city : String = "undefined"
        //   var country : String = "undefined"
        //   var description : String? = ""
        //   var text : String? = ""
        //   ... other class content
        // }

        let results = try query.execute()
        for row in  results {

            // get the result into a JSON String
            let jsonString = row.toJSON()

            let thisJsonObj:Dictionary =
            try (JSONSerialization.jsonObject(
                with: jsonString.data(using: .utf8)!,
                options: .allowFragments)
                 as? [String: Any])!

            // Use Json Object to populate Native object
            // Use Codable class to unpack JSON data to native object
            var this_hotel: Hotel = try JSONDecoder().decode(Hotel.self, from: jsonString.data(using: .utf8)!)

            // ALTERNATIVELY unpack in steps
            this_hotel.id = thisJsonObj["id"] as! String
            this_hotel.name = thisJsonObj["name"] as! String
            this_hotel.type = thisJsonObj["type"] as! String
            this_hotel.city = thisJsonObj["city"] as! String
            hotels[this_hotel.id] = this_hotel

        } // end for

        XCTAssertEqual(hotels.keys.sorted(), ["hotel123", "hotel456", "hotel789", "inn001"])
        XCTAssertEqual(hotels["hotel456"]?.name, "Hotel Deluxe")
        XCTAssertEqual(hotels["hotel789"]?.city, "Lyon")
        XCTAssertEqual(hotels["inn001"]?.type, "inn")
    }

    /// Examples 31, 32, 34 and 35 (with Example 30's model, above): register the
    /// model, a value index on the label of its predictions, the query, unregister.
    /// Examples 32 and 34 each declare `input` and `prediction`, so each is in a `do` block.
    func testExamples30To35PredictiveQueryWithAValueIndex() throws {
        try useDatabase("travel-sample")
        try savePhotos()

        // Example 31
        let model = ImageClassifierModel()
        Database.prediction.registerModel(model, withName: "ImageClassifier")

        do { // Example 32
            let input = Expression.dictionary(["photo": Expression.property("photo")])
            let prediction = Function.prediction(model: "ImageClassifier", input: input)

            let index = IndexBuilder.valueIndex(items: ValueIndexItem.expression(prediction.property("label")))
            try database.createIndex(index, withName: "value-index-image-classifier")
        }

        do { // Example 34
            let input = Expression.dictionary(["photo": Expression.property("photo")])
            let prediction = Function.prediction(model: "ImageClassifier", input: input)

            let query = QueryBuilder
                .select(SelectResult.all())
                .from(DataSource.database(database))
                .where(
                    prediction.property("label").equalTo(Expression.string("car"))
                        .and(
                            prediction.property("probablity")
                                .greaterThanOrEqualTo(Expression.double(0.8))
                        )
                )

            // Run the query.
            do {
                let result = try query.execute()
                print("Number of rows :: \(result.allResults().count)")
            } catch {
                fatalError("Error running the query")
            }
        }

        // Example 35
        Database.prediction.unregisterModel(withName: "ImageClassifier")

        XCTAssertEqual(printed, ["Number of rows :: 1"])
        XCTAssertEqual(try database.defaultCollection().indexes(), ["value-index-image-classifier"])
    }

    /// Examples 31, 33, 34 and 35 (with Example 30's model): the same with a predictive index.
    /// Examples 33 and 34 each declare `input`, so each is in a `do` block.
    func testExamples30To35PredictiveQueryWithAPredictiveIndex() throws {
        try useDatabase("travel-sample")
        try savePhotos()

        // Example 31
        let model = ImageClassifierModel()
        Database.prediction.registerModel(model, withName: "ImageClassifier")

        do { // Example 33
            let input = Expression.dictionary(["photo": Expression.property("photo")])

            let index = IndexBuilder.predictiveIndex(model: "ImageClassifier", input: input)
            try database.createIndex(index, withName: "predictive-index-image-classifier")
        }

        do { // Example 34
            let input = Expression.dictionary(["photo": Expression.property("photo")])
            let prediction = Function.prediction(model: "ImageClassifier", input: input)

            let query = QueryBuilder
                .select(SelectResult.all())
                .from(DataSource.database(database))
                .where(
                    prediction.property("label").equalTo(Expression.string("car"))
                        .and(
                            prediction.property("probablity")
                                .greaterThanOrEqualTo(Expression.double(0.8))
                        )
                )

            // Run the query.
            do {
                let result = try query.execute()
                print("Number of rows :: \(result.allResults().count)")
            } catch {
                fatalError("Error running the query")
            }
        }

        // Example 35
        Database.prediction.unregisterModel(withName: "ImageClassifier")

        XCTAssertEqual(printed, ["Number of rows :: 1"])
        XCTAssertEqual(try database.defaultCollection().indexes(), ["predictive-index-image-classifier"])
    }
}
