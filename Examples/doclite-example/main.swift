// A tour of DocLite's storage API: create a database, save, read, update,
// delete and purge documents, and print what happens.
import DocLite
import Foundation

let directory = NSTemporaryDirectory() + "doclite-example"
try? FileManager.default.removeItem(atPath: directory)
let db = try Database(name: "travel", config: DatabaseConfiguration(directory: directory))
print("Opened database '\(db.name)' at \(db.path!)")

let hotels = try db.createCollection(name: "hotels", scope: "inventory")
let token = hotels.addChangeListener { change in
    print("  listener: \(change.documentIDs.count) change(s) in \(change.collection.fullName): \(change.documentIDs.joined(separator: ", "))")
}

// Save documents in one batch: all or nothing.
try db.inBatch {
    for (id, json) in [
        ("hotel-1", #"{"name": "Grand Hotel", "city": "Paris", "rating": 4.5, "rooms": 120, "tags": ["spa", "bar"]}"#),
        ("hotel-2", #"{"name": "Budget Inn", "city": "London", "rating": 3.0, "rooms": 40, "tags": []}"#),
        ("hotel-3", #"{"name": "Royal Palace", "city": "Vienna", "rating": 5.0, "rooms": 300, "address": {"zip": "1010"}}"#),
    ] {
        try hotels.save(document: MutableDocument(id: id, json: json))
    }
}
print("Saved \(hotels.count) hotels")

// Read one back.
let grand = try hotels.document(id: "hotel-1")!
print("Read \(grand.id) rev \(grand.revisionID!) seq \(grand.sequence): \(grand.toJSON())")
print("  name: \(grand.string(forKey: "name")!), rooms: \(grand.int(forKey: "rooms")), tags: \(grand.array(forKey: "tags")!.toArray())")

// Update it.
let update = grand.toMutable()
update.setInt(125, forKey: "rooms").setDate(Date(timeIntervalSince1970: 1_700_000_000), forKey: "renovated")
try hotels.save(document: update)
print("Updated \(update.id) to rev \(update.revisionID!) seq \(update.sequence): \(update.toJSON())")

// A conflicting save loses under failOnConflict.
let stale = grand.toMutable()
stale.setInt(0, forKey: "rooms")
let saved = try hotels.save(document: stale, concurrencyControl: .failOnConflict)
print("Saving a stale copy with failOnConflict: \(saved ? "saved" : "conflict, not saved")")

// Delete leaves a tombstone; purge leaves nothing.
try hotels.delete(document: try hotels.document(id: "hotel-2")!)
print("Deleted hotel-2: document(id:) now returns \(String(describing: try hotels.document(id: "hotel-2")))")
try hotels.purge(id: "hotel-3")
print("Purged hotel-3; \(hotels.count) hotel(s) left")

// Invalid input is an error, not a crash.
do {
    try hotels.save(document: MutableDocument(id: "bad", json: #"{"name": "unterminated"#))
} catch {
    print("Rejected bad JSON: \(error)")
}

token.remove()
try db.close()
print("Closed.")
