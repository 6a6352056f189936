import DocLiteConformance
import Foundation
import XCTest
@testable import DocLite

/// Couchbase Lite's own `sw/`, `om/`, `oj/` and `dt/` conformance cases, built
/// with the QueryBuilder as the Swift tests build them: the builder's JSON
/// equals the case's JSON, and the builder's query, run by the conformance
/// runner on the case's data, gives the case's expected results.
final class BuilderConformanceTests: XCTestCase {
    typealias Builder = (DataSourceAs) -> BuilderQuery

    /// The cases, by ID: each builds the query from the default collection's data source.
    func makeCases(database: Database) -> [String: Builder] {
        let p = Expression.property, int = Expression.int, id = SelectResult.expression(Meta.id)
        func whereID(_ condition: ExpressionProtocol) -> Builder {
            { QueryBuilder.select(id).from($0).where(condition) }
        }
        let number1 = p("number1"), number2 = p("number2")
        let main = { (s: DataSourceAs) in s.as("main") }
        let onTheOne = Join.join(DataSource.collection(try! database.defaultCollection()).as("secondary"))
            .on(p("number1").from("main").equalTo(p("theone").from("secondary")))
        let cases: [String: Builder] = [
            "sw/where/comparison_le": whereID(number1.lessThanOrEqualTo(int(3))),
            "sw/where/comparison_gt": whereID(number1.greaterThan(int(6))),
            "sw/where/comparison_ge": whereID(number1.greaterThanOrEqualTo(int(6))),
            "sw/where/comparison_eq": whereID(number1.equalTo(int(7))),
            "sw/where/comparison_ne": whereID(number1.notEqualTo(int(7))),
            "sw/where/arithmetic_div_gt": whereID(number1.divide(int(2)).greaterThan(int(3))),
            "sw/where/arithmetic_mod_eq": whereID(number1.modulo(int(2)).equalTo(int(0))),
            "sw/where/arithmetic_add_gt": whereID(number1.add(int(5)).greaterThan(int(10))),
            "sw/where/arithmetic_sub_gt": whereID(number1.subtract(int(5)).greaterThan(int(0))),
            "sw/where/arithmetic_div_props_gt": whereID(number2.divide(number1).greaterThan(int(3))),
            "sw/where/arithmetic_add_props_eq": whereID(number1.add(number2).equalTo(int(10))),
            "sw/where/and": whereID(number1.greaterThan(int(3)).and(number2.greaterThan(int(3)))),
            "sw/where/or": whereID(number1.lessThan(int(3)).or(number2.lessThan(int(3)))),
            "sw/where/between": whereID(number1.between(int(3), and: int(7))),
            "sw/missing_null/name_is_not_valued": whereID(p("name").isNotValued()),
            "sw/missing_null/address_is_not_valued": whereID(p("address").isNotValued()),
            "sw/missing_null/address_is_valued": whereID(p("address").isValued()),
            "sw/missing_null/work_is_not_valued": whereID(p("work").isNotValued()),
            "sw/missing_null/work_is_valued": whereID(p("work").isValued()),
            "sw/comparison/is_string": whereID(p("string").is(Expression.string("string"))),
            "sw/regex/regexp_like_prefix": {
                QueryBuilder.select(id).from($0).where(p("name.first").regex(Expression.string("^Mar.*")))
                    .orderBy(Ordering.property("name.first").ascending())
            },
            "sw/order_by/first_name_asc": {
                QueryBuilder.select(SelectResult.property("name.first")).from($0).orderBy(Ordering.property("name.first").ascending())
            },
            "sw/order_by/first_name_desc": {
                QueryBuilder.select(SelectResult.property("name.first")).from($0).orderBy(Ordering.property("name.first").descending())
            },
            "om/order_by/distinct_states_asc": {
                QueryBuilder.selectDistinct(SelectResult.property("contact.address.state")).from($0)
                    .orderBy(Ordering.expression(p("contact.address.state")))
            },
            "sw/distinct/same_number": { QueryBuilder.selectDistinct(SelectResult.property("number")).from($0) },
            "sw/join/inner": {
                QueryBuilder.select(SelectResult.expression(Meta.id.from("main"))).from(main($0)).join(onTheOne)
            },
            "sw/join/left_outer": {
                QueryBuilder.select(SelectResult.expression(p("number2").from("main")), SelectResult.expression(p("theone").from("secondary")))
                    .from(main($0))
                    .join(Join.leftJoin(DataSource.collection(try! database.defaultCollection()).as("secondary"))
                            .on(p("number1").from("main").equalTo(p("theone").from("secondary"))))
            },
            "sw/join/by_doc_id": {
                QueryBuilder.select(SelectResult.expression(Meta.id.from("main")).as("mainDocID"),
                                    SelectResult.expression(Meta.id.from("secondary")).as("secondaryDocID"),
                                    SelectResult.expression(p("theone").from("secondary")))
                    .from(main($0))
                    .join(Join.join(DataSource.collection(try! database.defaultCollection()).as("secondary"))
                            .on(Meta.id.from("main").equalTo(p("numberID").from("secondary"))))
            },
            "sw/group_by/female_by_state": {
                QueryBuilder.select(SelectResult.property("contact.address.state"), SelectResult.expression(Function.count(int(1))),
                                    SelectResult.expression(Function.max(p("contact.address.zip"))))
                    .from($0).where(p("gender").equalTo(Expression.string("female")))
                    .groupBy(p("contact.address.state")).orderBy(Ordering.property("contact.address.state"))
            },
            "sw/having/female_by_state_count_gt_1": {
                QueryBuilder.select(SelectResult.property("contact.address.state"), SelectResult.expression(Function.count(int(1))),
                                    SelectResult.expression(Function.max(p("contact.address.zip"))))
                    .from($0).where(p("gender").equalTo(Expression.string("female")))
                    .groupBy(p("contact.address.state")).having(Function.count(int(1)).greaterThan(int(1)))
                    .orderBy(Ordering.property("contact.address.state"))
            },
            "om/distinct/group_by_name": {
                QueryBuilder.selectDistinct(SelectResult.property("number"), SelectResult.property("name")).from($0).groupBy(p("name"))
            },
            "om/distinct/group_by_having_order_limit": {
                QueryBuilder.selectDistinct(SelectResult.property("number"), SelectResult.property("name")).from($0).groupBy(p("name"))
                    .having(Function.count(int(1)).lessThan(int(2))).orderBy(Ordering.property("name")).limit(int(2))
            },
            "sw/params/between_and_echo": {
                QueryBuilder.select([SelectResult.property("number1")]
                                    + ["string", "maxInt64", "minInt64", "maxDouble", "minDouble", "bool", "array", "dict"]
                                        .map { SelectResult.expression(Expression.parameter($0)) })
                    .from($0).where(number1.between(Expression.parameter("num1"), and: Expression.parameter("num2")))
                    .orderBy(Ordering.expression(number1))
            },
            "sw/meta/id_sequence_ordered": {
                QueryBuilder.select(id, SelectResult.expression(Meta.revisionID), SelectResult.expression(Meta.sequence),
                                    SelectResult.property("number1"))
                    .from($0).orderBy(Ordering.expression(Meta.sequence))
            },
            "sw/limit/limit_5": {
                QueryBuilder.select(SelectResult.property("number1")).from($0).orderBy(Ordering.property("number1")).limit(int(5))
            },
            "sw/limit/limit_offset_params": {
                QueryBuilder.select(SelectResult.property("number1")).from($0).orderBy(Ordering.property("number1"))
                    .limit(Expression.parameter("LIMIT_NUM"), offset: Expression.parameter("OFFSET_NUM"))
            },
            "sw/aggregate/projecting_keys": {
                QueryBuilder.select(SelectResult.expression(Function.avg(number1)), SelectResult.expression(Function.count(number1)),
                                    SelectResult.expression(Function.min(number1)).as("min"), SelectResult.expression(Function.max(number1)),
                                    SelectResult.expression(Function.sum(number1)).as("sum"))
                    .from($0)
            },
            "sw/array_fn/array_length": { QueryBuilder.select(SelectResult.expression(ArrayFunction.length(p("array")))).from($0) },
            "sw/math_fn/functions_1": {
                let n = p("number")
                return QueryBuilder.select([Function.abs(n), Function.acos(n), Function.asin(n), Function.atan(n),
                                            Function.atan2(y: int(90), x: n), Function.ceil(n), Function.cos(n), Function.degrees(n),
                                            Function.exp(n), Function.floor(n), Function.ln(n), Function.log(n)].map(SelectResult.expression))
                    .from($0)
            },
            "sw/math_fn/functions_2": {
                let n = p("number")
                return QueryBuilder.select([Function.power(base: n, exponent: int(2)), Function.radians(n), Function.round(n),
                                            Function.round(n, digits: int(1)), Function.sign(n), Function.sin(n), Function.sqrt(n),
                                            Function.tan(n), Function.trunc(n), Function.trunc(n, digits: int(1)), Function.e(),
                                            Function.pi()].map(SelectResult.expression))
                    .from($0)
            },
            "sw/string_fn/length": { QueryBuilder.select(SelectResult.expression(Function.length(p("greeting")))).from($0) },
            "sw/string_fn/case_and_trim": {
                let g = p("greeting")
                return QueryBuilder.select([Function.lower(g), Function.ltrim(g), Function.rtrim(g), Function.trim(g), Function.upper(g)]
                                            .map(SelectResult.expression)).from($0)
            },
            "sw/every/likes_taxes": whereID(ArrayExpression.every(ArrayExpression.variable("LIKE")).in(p("likes"))
                                                .satisfies(ArrayExpression.variable("LIKE").equalTo(Expression.string("taxes")))),
            "sw/select_all/alias_star_and_property": {
                QueryBuilder.select(SelectResult.all().from("testdb"), SelectResult.expression(p("number1").from("testdb"))).from($0.as("testdb"))
            },
            "sw/select_all/distinct_two_sources": {
                QueryBuilder.selectDistinct(SelectResult.all().from("main"), SelectResult.all().from("secondary")).from(main($0))
                    .join(Join.join(DataSource.collection(try! database.defaultCollection()).as("secondary"))
                            .on(p("number1").from("main").equalTo(p("theOne").from("secondary"))))
            },
            "sw/deleted/none_deleted": whereID(Meta.isDeleted),
            "sw/deleted/all_after_delete": { QueryBuilder.select(id).from($0) },
            "sw/expiration/lt_valid": whereID(Meta.expiration.lessThan(Expression.parameter("t"))),
            "sw/expiration/lt_invalid": whereID(Meta.expiration.lessThan(Expression.parameter("t"))),
            "sw/expiration/gt_invalid": whereID(Meta.expiration.greaterThan(Expression.parameter("t"))),
            "sw/fts/match_single_quoted": whereID(FullTextFunction.match(Expression.fullTextIndex("sentence"), query: "'woman'")),
            "sw/fts/match_order_by_rank": {
                QueryBuilder.select(id, SelectResult.property("sentence")).from($0)
                    .where(FullTextFunction.match(Expression.fullTextIndex("sentence"), query: "'Dummie woman'"))
                    .orderBy(Ordering.expression(FullTextFunction.rank(Expression.fullTextIndex("sentence"))).descending())
            },
            "om/any/variable_key_path": whereID(ArrayExpression.any(ArrayExpression.variable("path")).in(p("paths"))
                                                    .satisfies(ArrayExpression.variable("path.city").equalTo(Expression.string("San Francisco")))),
            "dt/str_to_millis": { QueryBuilder.select(SelectResult.expression(Function.stringToMillis(p("dateString")))).from($0) },
            "dt/str_to_utc": { QueryBuilder.select(SelectResult.expression(Function.stringToUTC(p("dateString")))).from($0) },
            "dt/millis_to_utc": { QueryBuilder.select(SelectResult.expression(Function.millisToUTC(p("dateString")))).from($0) },
            "dt/millis_to_str": { QueryBuilder.select(SelectResult.expression(Function.millisToString(p("dateString")))).from($0) },
            "oj/join/group_by_having": {
                QueryBuilder.select(SelectResult.expression(Meta.id.from("main")), SelectResult.expression(Function.count(int(1))).as("count"))
                    .from(main($0)).join(onTheOne).groupBy(p("theone").from("secondary"))
                    .having(Function.count(int(1)).lessThan(int(2)))
            },
            "oj/join/group_by_order_limit": {
                QueryBuilder.select(SelectResult.expression(Meta.id.from("main")), SelectResult.expression(p("number1").from("main")),
                                    SelectResult.expression(Function.count(int(1))).as("count"))
                    .from(main($0)).join(onTheOne).groupBy(p("theone").from("secondary"))
                    .orderBy(Ordering.expression(p("number1").from("main"))).limit(int(10))
            },
            "oj/join/order_by": {
                QueryBuilder.select(SelectResult.expression(Meta.id.from("main")), SelectResult.expression(p("number1").from("main")))
                    .from(main($0)).join(onTheOne).orderBy(Ordering.expression(p("number1").from("main")))
            },
            "oj/join/order_by_distinct": {
                QueryBuilder.selectDistinct(SelectResult.expression(Meta.id.from("main")), SelectResult.expression(p("number1").from("main")))
                    .from(main($0)).join(onTheOne).orderBy(Ordering.expression(p("number1").from("main")))
            },
        ]
        // Collations: `Collation.unicode()` without a locale takes the current
        // locale, which the corpus writes as LOCALE null (see `sameQuery`).
        let value = p("value"), unicode = Collation.unicode(), ascii = Collation.ascii()
        let collated: [String: (ExpressionProtocol) -> ExpressionProtocol] = [
            "sw/collation/unicode_sensitive_lt_01": { $0.collate(unicode).lessThan(Expression.string("A")) },
            "sw/collation/unicode_case_insensitive_lt_01": { $0.collate(unicode.ignoreCase(true)).lessThan(Expression.string("abc")) },
            "sw/collation/unicode_case_insensitive_lt_02": { $0.collate(unicode.ignoreCase(true)).lessThan(Expression.string("\u{e1}")) },
            "sw/collation/unicode_case_insensitive_eq_02": { $0.collate(unicode.ignoreCase(true)).equalTo(Expression.string("test \u{c1}")) },
            "sw/collation/unicode_sensitive_lt_05": { $0.collate(unicode).lessThan(Expression.string("apple")) },
            "sw/collation/unicode_sensitive_lt_07": { $0.collate(unicode).lessThan(Expression.string("test \u{c1}")) },
            "sw/collation/unicode_accent_insensitive_eq_01": { $0.collate(unicode.ignoreAccents(true)).equalTo(Expression.string("test a")) },
            "sw/collation/unicode_accent_insensitive_lt_01": { $0.collate(unicode.ignoreAccents(true)).lessThan(Expression.string("test A")) },
            "sw/collation/unicode_insensitive_eq_01": {
                $0.collate(unicode.ignoreCase(true).ignoreAccents(true)).equalTo(Expression.string("test \u{c1}"))
            },
            "sw/collation/ascii_binary_lt_02": { $0.collate(ascii).lessThan(Expression.string("abc")) },
            "sw/collation/ascii_case_insensitive_eq_01": { $0.collate(ascii.ignoreCase(true)).equalTo(Expression.string("A")) },
            "sw/collation/ascii_case_insensitive_lt_02": { $0.collate(ascii.ignoreCase(true)).lessThan(Expression.string("commonprefix2")) },
        ]
        var all = cases
        for (id, condition) in collated {
            all[id] = { QueryBuilder.select(SelectResult.all()).from($0).where(condition(value)) }
        }
        all["sw/collation/unicode_order"] = {
            QueryBuilder.select(SelectResult.property("string")).from($0)
                .orderBy(Ordering.expression(p("string").collate(unicode)))
        }
        return all
    }

    /// The JSON with each COLLATE's LOCALE of the current locale written as null, as the corpus writes it.
    private func corpusForm(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items):
            if items.count == 3, items[0] == .string("COLLATE"), case .dictionary(var options) = items[1],
               options["LOCALE"] == .string(Locale.current.identifier) {
                options["LOCALE"] = .null
                return .array([items[0], .dictionary(options), corpusForm(items[2])])
            }
            return .array(items.map(corpusForm))
        case .dictionary(let members): return .dictionary(members.mapValues(corpusForm))
        default: return value
        }
    }

    func testConformanceCasesThroughTheBuilder() throws {
        let casesFile = URL(fileURLWithPath: try SharedFolder.path("conformance/cases.jsonl"))
        let directory = NSTemporaryDirectory() + "doclite-builder-conformance-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scratch = try Database(name: "scratch", config: DatabaseConfiguration(directory: directory))
        defer { try? scratch.close() }
        let cases = makeCases(database: scratch)
        let source = DataSource.collection(try scratch.defaultCollection())
        var rewritten: [String] = []
        var built = Set<String>()
        for line in try String(contentsOf: casesFile, encoding: .utf8).split(separator: "\n") {
            guard case .dictionary(var members) = try JSONValue(json: String(line)), case .string(let id)? = members["id"],
                  let builder = cases[id] else { continue }
            let query = builder(source)
            let json = try JSONValue(json: query.json)
            XCTAssertEqual(corpusForm(json), members["query"], "\(id): the builder's JSON differs from the case's")
            XCTAssertEqual(query.statement, try JSONQueryParser.parse(json), id)
            XCTAssertEqual(try JSONQueryParser.parse(corpusForm(json)), try JSONQueryParser.parse(members["query"] ?? .null), id)
            members["query"] = json
            rewritten.append(JSONValue.dictionary(members).json)
            built.insert(id)
        }
        XCTAssertEqual(built, Set(cases.keys), "cases not found in the corpus")
        XCTAssertGreaterThanOrEqual(built.count, 40)

        let file = NSTemporaryDirectory() + "doclite-builder-cases-" + UUID().uuidString + ".jsonl"
        try rewritten.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let report = try ConformanceRunner(casesFile: file, dataDirectory: try SharedFolder.path("conformance/data")).run()
        // The local-time date cases expect UTC (as the corpus runner's TZ=UTC).
        let tolerated = TimeZone.current.secondsFromGMT() == 0 ? [] : report.failed.map(\.id).filter { $0.hasPrefix("dt/") }
        for (id, message) in report.failed where !tolerated.contains(id) { XCTFail("\(id): \(message)") }
        XCTAssertEqual(report.passed + tolerated.count, built.count, report.summary)
        print("builder conformance: \(report.summary)")
    }
}
