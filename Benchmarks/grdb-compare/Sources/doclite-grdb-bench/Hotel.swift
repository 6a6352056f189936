import Foundation
import GRDB

/// One line of the standard benchmark data (`../shared/bench/gen_hotels.py`).
struct Hotel: Codable, Sendable {
    struct Address: Codable, Sendable {
        var street: String
        var zip: String
    }

    var type: String
    var name: String
    var city: String
    var rating: Double
    var price: Int
    var tags: [String]
    var description: String
    var address: Address

    /// The tags as JSON text (the relational table's column).
    var tagsJSON: String { "[" + tags.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
}

/// A hotel of the data set with its ID (`doc-00000000`…) and its line of JSON text.
struct HotelLine: Sendable {
    let id: String
    let hotel: Hotel
    let json: String

    static func load(_ file: URL) throws -> [HotelLine] {
        let decoder = JSONDecoder()
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").enumerated().map { index, line in
            HotelLine(id: String(format: "doc-%08d", index), hotel: try decoder.decode(Hotel.self, from: Data(line.utf8)), json: String(line))
        }
    }
}

/// The hotel as a GRDB record in a relational table: a column per field, the
/// tags as JSON text, the address's fields flattened.
struct HotelRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "hotels"

    var id: String
    var type: String
    var name: String
    var city: String
    var rating: Double
    var price: Int
    var tags: String
    var description: String
    var street: String
    var zip: String

    init(_ line: HotelLine) {
        let hotel = line.hotel
        id = line.id
        type = hotel.type
        name = hotel.name
        city = hotel.city
        rating = hotel.rating
        price = hotel.price
        tags = hotel.tagsJSON
        description = hotel.description
        street = hotel.address.street
        zip = hotel.address.zip
    }
}
