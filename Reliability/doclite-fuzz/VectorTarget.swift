import DocLite
import Foundation

/// Vector indexes and `APPROX_VECTOR_DISTANCE()`. The input is a JSON object:
/// `vectors` (each saved as a document's `vector`, whatever its type), `target`, and
/// the index's `dimensions`, `centroids`, `metric`, `encoding` (`"none"`, `"SQ4"`…,
/// `[subquantizers, bits]`), `numProbes`, `minTrainingSize`, `lazy`. A configuration out
/// of range is an error; one that is made gives, for a target of its dimensions, rows
/// and distances the documents give without it, nearest first: all of them when every
/// bucket is searched (no `numProbes` below `centroids`, or the index untrained), else
/// some (a trained index searches the `numProbes` buckets nearest the target); with a
/// scalar-quantizer encoding, the same documents at approximate distances; for a
/// target of another length, an error or no rows.
enum VectorTarget {
    static let target = FuzzTarget(name: "vector", summary: "vector index configurations and APPROX_VECTOR_DISTANCE against exact search") {
        let database = try FuzzDatabase.open(name: "vector")
        return { input in
            guard let object = try? JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed]) as? [String: Any] else { return }
            try? database.deleteCollection(name: "v")
            guard let collection = try? database.createCollection(name: "v") else { FuzzCheck.fail("cannot create the collection") }
            let vectors = object["vectors"] as? [Any] ?? []
            try? database.inBatch {
                for (i, vector) in vectors.prefix(200).enumerated() {
                    try? collection.save(document: MutableDocument(id: "d\(i)").setValue(vector, forKey: "vector"))
                }
            }
            let metric = (object["metric"] as? String).flatMap(DistanceMetric.init(name:))
            let sql = "SELECT META().id, APPROX_VECTOR_DISTANCE(vector, $target\(metric.map { ", '\($0.sqlppName)'" } ?? "")) AS d "
                + "FROM v ORDER BY d, META().id LIMIT 10000"
            let exact = rows(sql, target: object["target"], in: database)
            guard let config = configuration(object, metric: metric),
                  (try? collection.createIndex(withName: "vi", config: config)) != nil else { return }
            let indexed = rows(sql, target: object["target"], in: database)
            guard !config.isLazy else { return }
            guard length(of: object["target"]) == Int(config.dimensions) else {
                // The index holds vectors of another length than the target's: an error, or (empty) no rows.
                FuzzCheck.require(indexed?.isEmpty ?? true, "a target of another length than the index's found \(indexed!): \(input.text)")
                return
            }
            guard let exact, let indexed else { return }   // (an error either way: the target's fault)
            let everyBucket = config.probes >= Int(config.centroids)
            if case .scalarQuantizer = config.encoding {   // (coded: distances approximate once trained)
                let (found, all) = (Set(indexed.map { $0[0] }), Set(exact.map { $0[0] }))
                FuzzCheck.require(everyBucket ? found == all : found.isSubset(of: all),
                                  "the coded vector index finds \(found.sorted { "\($0)" < "\($1)" }) where the documents give \(exact): \(input.text)")
            } else if everyBucket {
                FuzzCheck.require(exact == indexed, "the vector index gives \(indexed) where the documents give \(exact): \(input.text)")
            } else {
                FuzzCheck.require(Set(indexed).isSubset(of: Set(exact)), "the vector index gives \(indexed), not among \(exact): \(input.text)")
            }
            let distances = indexed.compactMap { $0.last as? Double }
            FuzzCheck.require(zip(distances, distances.dropFirst()).allSatisfy { $0 <= $1 }, "distances out of order: \(distances)")
        }
    }

    /// The vector index the input describes; nil when it describes none.
    private static func configuration(_ object: [String: Any], metric: DistanceMetric?) -> VectorIndexConfiguration? {
        guard let dimensions = object["dimensions"] as? Int, let centroids = object["centroids"] as? Int,
              let d = UInt32(exactly: dimensions), let c = UInt32(exactly: centroids) else { return nil }
        var config = VectorIndexConfiguration(expression: "vector", dimensions: d, centroids: c)
        if let metric { config.metric = metric }
        switch object["encoding"] {
        case let name as String where name == "none": config.encoding = .none
        case let name as String: ScalarQuantizerType(rawValue: UInt32(name.dropFirst(2)) ?? 0).map { config.encoding = .scalarQuantizer(type: $0) }
        case let pair as [Int] where pair.count == 2:
            if let subquantizers = UInt32(exactly: pair[0]), let bits = UInt32(exactly: pair[1]) {
                config.encoding = .productQuantizer(subquantizers: subquantizers, bits: bits)
            }
        default: break
        }
        config.numProbes = (object["numProbes"] as? Int).flatMap { UInt32(exactly: $0) }
        config.minTrainingSize = (object["minTrainingSize"] as? Int).flatMap { UInt32(exactly: $0) }
        config.isLazy = object["lazy"] as? Bool ?? false
        return config
    }

    /// The number of items of a vector value: an array's, or Base64 float32s'; nil for anything else.
    private static func length(of target: Any?) -> Int? {
        switch target {
        case let items as [Any]: items.count
        case let text as String: Data(base64Encoded: text).map { $0.count / 4 }
        default: nil
        }
    }

    /// The rows of `sql` with `target` bound; nil when the query fails.
    private static func rows(_ sql: String, target: Any?, in database: Database) -> [[AnyHashable]]? {
        guard let query = try? database.createQuery(sql) else { return nil }
        let parameters = Parameters()
        parameters.setValue(target is NSNull ? nil : target, forName: "target")
        query.parameters = parameters
        guard let results = try? query.execute() else { return nil }
        let rows = results.allResults().map { row in [row.string(at: 0) ?? "", row.value(at: 1) as? Double ?? -1] as [AnyHashable] }
        return results.error == nil ? rows : nil
    }
}

extension DistanceMetric {
    /// The metric's name in SQL++ (`APPROX_VECTOR_DISTANCE(v, t, 'cosine')`).
    var sqlppName: String {
        switch self {
        case .euclideanSquared: "euclidean_squared"
        case .cosine: "cosine"
        case .euclidean: "euclidean"
        case .dot: "dot"
        }
    }
}
