import Foundation
import XCTest
@testable import DocLite

/// Mutated predicates, select items and sort descriptors — truncated, tokens
/// swapped, dropped, repeated or replaced, random and invalid UTF-8 bytes, deep
/// nesting — give a builder or an invalid-query error with a message, never a
/// crash, a hang or an SQLite error. Seeded: a failure names its seed and input.
final class PredicateFuzzTests: QueryTestCase {
    static let seeds = [
        "type == 'post' AND tags CONTAINS $TAG",
        "name BEGINSWITH[cd] $FIRST_NAME OR name ENDSWITH 'inn' && NOT (city IN {'Paris', \"Lyon\"})",
        "ANY scores >= 4 AND ALL tags LIKE[c] 'p*?' OR NONE prices.@max > 10",
        "rooms BETWEEN {1, 0x10} AND $KEYWORD IN title AND address.city MATCHES '[A-Z].*'",
        "a + b * c ** 2 - -1.5e3 / 4 >= average(price) AND uppercase(name) != nil",
        "TRUEPREDICATE OR FALSEPREDICATE OR #size == YES OR x <> NO OR y =< 0o17 OR z => 0b101",
        "tags.@count > 2 AND prices.@sum < 100.25 AND $R == 'it\\'s \\u00e9'",
    ]

    static let expressionSeeds = ["average(price)", "tags.@count", "a + b * 2 - -c / 4", "uppercase(name)", "address.city",
                                  "prices.@max ** 2", "{1, 'two', $V}", "count(title)", "#size"]

    static let vocabulary = ["AND", "OR", "NOT", "&&", "||", "!", "(", ")", "{", "}", "[c]", "[cd]", "[", "]", ",", ".", "*", "-",
                             "**", "'x'", "\"y\"", "$V", "$", "@count", "@", "#", "1", "-2.5e3", "0x", "NIL", "ANY", "ALL",
                             "NONE", "BETWEEN", "IN", "CONTAINS", "LIKE", "MATCHES", "BEGINSWITH", "ENDSWITH", "==", "<=",
                             "average(", "count(price)", "'", "\\", "\u{0}", "é", "\u{301}", "'(?<'", "'\\u12'"]

    func testMutatedPredicatesGiveABuilderOrAnError() throws {
        try load([("a", #"{"type": "post", "name": "A", "tags": ["x"], "scores": [4], "prices": [1, 2], "title": "t"}"#)])
        var random = SeededRandom(seed: 0x9_8ED1_CA7E)
        let mutator = TextMutator(vocabulary: Self.vocabulary,
                                  nesting: [("(", ")"), ("NOT ", ""), ("!", ""), ("-", ""), ("{", "}"), ("uppercase(", ")")])
        let context: [String: Any] = ["TAG": "x", "FIRST_NAME": "A", "KEYWORD": "t", "R": "r", "V": 1]
        var built = 0, ran = 0
        let inputs = 100_000
        for iteration in 0..<inputs {
            let seed = (iteration % 3 == 0 ? Self.seeds : Self.expressionSeeds).randomElement(using: &random)!
            let text = mutator.mutate(seed, &random)
            let (select, predicate, order) = switch iteration % 3 {
            case 0: (["name"], text, ["name"])
            case 1: ([text], "TRUEPREDICATE", [])
            default: (["name", "tags"], "type == 'post'", ["-" + text])
            }
            do {
                let builder = try PredicateQueryBuilder(database: db, select: select, where: predicate, orderBy: order)
                built += 1
                if iteration % 10 == 0 {
                    _ = try builder.runQuery(context: context).allRows()
                    ran += 1
                }
            } catch let error as DocLiteError {
                XCTAssertTrue(error.domain == .docLite && !error.message.isEmpty
                              && (error.is(.invalidQuery) || error.is(.invalidQueryParam)),
                              "iteration \(iteration): \(error.domain) \(error.code) \(error.message) for \(text.debugDescription)")
                if error.message.contains("SQLite cannot run the query") {
                    XCTFail("iteration \(iteration): \(error.message) for \(text.debugDescription)")
                }
            }
        }
        XCTAssertGreaterThan(built, inputs / 20, "the mutations must reach the compiler")
        XCTAssertGreaterThan(ran, inputs / 400)
        print("predicate fuzz: \(inputs) inputs, \(built) built, \(ran) run")
    }
}
