// The Swift examples of the Couchbase Lite Swift "Result Sets" guide
// (shared/seeds/002_667e25fbdd615889.txt) as the guide writes them, with only
// what they leave out filled in: the `database` ("hotel", whose documents all
// have the string `id`, `name`, `city` and `type` the examples unwrap:
// GuideFixture.swift), the `query` each example reads, `collection`, `hotels`
// and the `Hotel` type. Each example's code is copied from the guide changing
// nothing but indentation and the guide's callout markers ("(1)"); its `print`
// lines are recorded (GuideExampleTestCase.print) and asserted on after it,
// with what it filled.
//
// Left out: Examples 1-3 and the JSON string formats, which are not Swift
// (result formats), and the `QueryBuilder.select(...)` fragments of the
// "Returned Results" bullets, which the examples' queries below use.

import Foundation
import XCTest
import DocLite

final class ResultSetsGuideExamples: GuideExampleTestCase {
    /// Example 4. Access All Properties
    func testExample4AccessAllProperties() throws {
        try useDatabase("hotel")
        var hotels: [String: DictionaryObject] = [:]
        // The guide leaves `query` out: "Using All".
        let query = QueryBuilder.select(SelectResult.all()).from(DataSource.database(database))

        let results = try query.execute()
        for row in results {
            let docsProps = row.dictionary(at: 0)!

            let docid = docsProps.string(forKey: "id")!
            let name = docsProps.string(forKey: "name")!
            let type = docsProps.string(forKey: "type")!
            let city = docsProps.string(forKey: "city")!

            print("\(docid): \(name), \(type), \(city)")
            let hotel = row.dictionary(at: 0)!
            guard let hotelId = hotel.string(forKey: "id") else {
                continue
            }

            hotels[hotelId] = hotel
        }

        XCTAssertEqual(printed.sorted(), [
            "hotel123: Hotel Ghia, hotel, Avignon", "hotel456: Hotel Deluxe, hotel, Aberdyfi",
            "hotel789: Auberge, hotel, Lyon", "inn001: The Ship Inn, inn, Annan",
        ])
        XCTAssertEqual(hotels.keys.sorted(), ["hotel123", "hotel456", "hotel789", "inn001"])
        XCTAssertEqual(hotels["hotel456"]?.string(forKey: "name"), "Hotel Deluxe")
    }

    /// Example 5. Access by ID
    func testExample5AccessByID() throws {
        try useDatabase("hotel")
        // The guide leaves out `collection` and `query` (the QueryBuilder guide's
        // Example 22, "Query selecting only Doc Id").
        let collection = try database.defaultCollection()
        let query = QueryBuilder.select(SelectResult.expression(Meta.id).as("metaId"))
            .from(DataSource.database(database))

        let results = try query.execute()
        for result in results {

            print(result.toDictionary())

            let docId = result.string(forKey: "metaId")!
            print("Document Id is -- \(docId)")

            // Now you can get the document using the ID
            if let doc = try collection.document(id: docId) {
                let hotelId = doc.string(forKey: "id")!
                let name = doc.string(forKey: "name")!
                let city = doc.string(forKey: "city")!
                let type = doc.string(forKey: "type")!

                // ... process document properties as required
                print("Result properties are: \(hotelId), \(name), \(city), \(type)")
            }
        }

        XCTAssertEqual(printed.sorted(), [
            "Document Id is -- hotel123", "Document Id is -- hotel456", "Document Id is -- hotel789", "Document Id is -- inn001",
            "Result properties are: hotel123, Hotel Ghia, Avignon, hotel",
            "Result properties are: hotel456, Hotel Deluxe, Aberdyfi, hotel",
            "Result properties are: hotel789, Auberge, Lyon, hotel",
            "Result properties are: inn001, The Ship Inn, Annan, inn",
            #"["metaId": "hotel123"]"#, #"["metaId": "hotel456"]"#, #"["metaId": "hotel789"]"#, #"["metaId": "inn001"]"#,
        ])
    }

    /// Access Document Properties - Selected Properties ([ex-acc-specific], unnumbered)
    func testAccessSelectedProperties() throws {
        try useDatabase("hotel")
        var hotels: [String: Hotel] = [:]
        // The guide leaves `query` out: the QueryBuilder guide's Example 19.
        let query = QueryBuilder
            .select(SelectResult.expression(Meta.id).as("metaId"),
                    SelectResult.expression(Expression.property("id")),
                    SelectResult.expression(Expression.property("name")),
                    SelectResult.expression(Expression.property("city")),
                    SelectResult.expression(Expression.property("type")))
            .from(DataSource.database(database))

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
        XCTAssertEqual(hotels["hotel456"]?.name, "Hotel Deluxe")
        XCTAssertEqual(hotels["hotel123"]?.city, "Avignon")
        XCTAssertEqual(hotels["inn001"]?.type, "inn")
    }

    /// Example 6. Using JSON Results
    func testExample6JSONResults() throws {
        try useDatabase("hotel")
        var hotels: [String: Hotel] = [:]
        // The guide leaves `query` out: the QueryBuilder guide's Example 19.
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
            this_hotel.name = thisJsonObj["name"] as? String
            this_hotel.type = thisJsonObj["type"] as? String
            this_hotel.city = thisJsonObj["city"] as? String
            hotels[this_hotel.id] = this_hotel

        } // end for

        XCTAssertEqual(hotels.keys.sorted(), ["hotel123", "hotel456", "hotel789", "inn001"])
        XCTAssertEqual(hotels["hotel123"]?.name, "Hotel Ghia")
        XCTAssertEqual(hotels["hotel789"]?.city, "Lyon")
        XCTAssertEqual(hotels["inn001"]?.type, "inn")
    }
}
