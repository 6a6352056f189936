import Foundation
import XCTest
@testable import DocLite

/// Mutated SQL++ — truncated, tokens swapped, dropped, repeated or replaced,
/// random and invalid UTF-8 bytes, deep nesting — gives a query or an
/// invalid-query error with a message, never a crash, a hang or an SQLite
/// error. Seeded: a failure names its seed and input.
final class SQLPPFuzzTests: QueryTestCase {
    static let seeds = [
        "SELECT META().id, name AS n, COUNT(*) FROM _ AS h WHERE type = 'hotel' AND price BETWEEN 10 AND 20 GROUP BY city HAVING COUNT(*) > 1 ORDER BY n DESC LIMIT 5 OFFSET $skip",
        "SELECT DISTINCT a.x, b.* FROM s.c AS a LEFT OUTER JOIN c b ON a.k = META(b).id UNNEST a.tags AS t WHERE t IN ['x', \"y\"]",
        "SELECT CASE WHEN x IS NULL THEN 'none' WHEN x IS NOT MISSING THEN x || '!' ELSE -1.5e3 END FROM _",
        "SELECT ANY v IN tags SATISFIES v.n >= 3 END, EVERY w IN xs SATISFIES w LIKE 'a%' END FROM _ WHERE NOT x IS VALUED",
        "SELECT name FROM _ WHERE lower(name) = 'x' COLLATE (UNICODE:fr NOCASE NODIAC) ORDER BY name COLLATE NOCASE",
        "SELECT {'a': [1, {'b': TRUE}], 'c': NULL}, (x).y[2].z, `odd ``name```.`k` FROM _ WHERE MATCH(idx, 'word') ORDER BY RANK(idx)",
        "SELECT x FROM _ WHERE a NOT IN (1, 2) AND b NOT LIKE 'c' AND c NOT BETWEEN 1 AND 2 OR d != e OR f <> g OR h == i",
        "SELECT REGEXP_LIKE(s, '^a+$'), DATE_DIFF_STR('2020-01-01', '2021-01-01', 'day'), ROUND(-9223372036854775808 / 7, 2) FROM _",
    ]

    static let vocabulary = ["SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "(", ")", "[", "]", "{", "}", ",", ".", "*", "-",
                             "'x'", "\"y\"", "`z`", "$p", "1", "-2.5e3", "NULL", "MISSING", "ANY", "EVERY", "SATISFIES", "END",
                             "CASE", "WHEN", "THEN", "ELSE", "IN", "IS", "LIKE", "BETWEEN", "COLLATE", "UNICODE:", "NOCASE",
                             "JOIN", "ON", "UNNEST", "AS", "GROUP", "BY", "ORDER", "LIMIT", "META", "MATCH", "RANK", "lower",
                             "||", "=", "<=", "<<", "'", "`", "\u{0}", "é", "\u{301}"]

    func testMutatedSQLPPGivesAQueryOrAnError() throws {
        try load([("a", #"{"type": "hotel", "name": "A", "tags": ["x"], "price": 12}"#)])
        try defaultCollection.createIndex(withName: "idx", config: FullTextIndexConfiguration(["name"]))
        var random = SeededRandom(seed: 0x5_1B1_F022)
        var seeds = Self.seeds
        for case .dictionary(let members) in try SharedFolder.jsonLines("conformance/sqlpp/translations.jsonl") {
            if case .string(let text)? = members["sqlpp"] { seeds.append(text) }
        }
        let mutator = TextMutator(vocabulary: Self.vocabulary,
                                  nesting: [("(", ")"), ("NOT ", ""), ("-", ""), ("[", "]"), ("lower(", ")"), ("CASE WHEN 1 THEN ", " END")])
        var parsed = 0, compiled = 0
        let inputs = 100_000
        for iteration in 0..<inputs {
            let text = mutator.mutate(seeds.randomElement(using: &random)!, &random)
            do {
                let statement = try SQLPPParser.parse(text)
                parsed += 1
                _ = try Query(database: db, statement: statement)   // (a FROM-less statement reads the default collection)
                compiled += 1
            } catch let error as DocLiteError {
                XCTAssertTrue(error.domain == .docLite && !error.message.isEmpty && (error.is(.invalidQuery) || error.is(.missingIndex)),
                              "iteration \(iteration): \(error.domain) \(error.code) \(error.message) for \(text.debugDescription)")
                if error.message.hasPrefix("SQLite cannot run the query") {   // (QueryFailure: the compiler let bad SQL through)
                    XCTFail("iteration \(iteration): \(error.message) for \(text.debugDescription)")
                }
            }
        }
        // The mutations must reach the compiler, not only the parser's errors.
        XCTAssertGreaterThan(parsed, inputs / 20)
        XCTAssertGreaterThan(compiled, inputs / 100)
        print("SQL++ fuzz: \(inputs) inputs, \(parsed) parsed, \(compiled) compiled")
    }
}
