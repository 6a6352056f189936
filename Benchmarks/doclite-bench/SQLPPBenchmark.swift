import DocLite

/// What SQL++ costs before a query runs: for Q0–Q4 and the beer join written
/// in SQL++, the median time to parse the text, to create the query from it
/// (parse, validate and compile to SQL), and to create it from its JSON form.
/// Each SQL++ text is checked first to compile to the same SQL as its JSON.
enum SQLPPBenchmark {
    static let queries: [(name: String, sqlpp: String, json: String)] = [
        ("Q0", "SELECT meta().id, name, city, rating FROM _ WHERE name = 'Hotel 54321'", QueryBenchmarks.q0),
        ("Q1", "SELECT name, price, rating FROM _ WHERE price >= 100 AND price < 200 ORDER BY price DESC, rating DESC LIMIT 10",
         QueryBenchmarks.q1),
        ("Q2", "SELECT city, count(*) AS n FROM _ GROUP BY city ORDER BY city",
         #"{"WHAT": [[".city"], ["AS", ["COUNT()", ["."]], "n"]], "GROUP_BY": [[".city"]], "ORDER_BY": [[".city"]]}"#),
        ("Q3", "SELECT name FROM _ WHERE description LIKE '%royal palace%'",
         #"{"WHAT": [[".name"]], "WHERE": ["LIKE", [".description"], "%royal palace%"]}"#),
        ("Q4", "SELECT name FROM _ WHERE REGEXP_LIKE(description, '\(QueryBenchmarks.q4Pattern)')", QueryBenchmarks.q4),
        ("beer join", "SELECT beer.name, brewery.name FROM _ AS beer JOIN _ AS brewery ON beer.brewery_id = META(brewery).id "
            + "WHERE beer.type = 'beer'", BeerSample.joinJSON),
    ]

    /// Prints the table; `repeats` creations per measurement, medians over `rounds`.
    static func run(on database: Database, rounds: Int, repeats: Int = 500) throws {
        print("\nSQL++ before the query runs (median µs per query over \(rounds) rounds of \(repeats)):\n")
        print("| query | parse SQL++ | createQuery(SQL++) = parse + compile | createQuery(JSON) | parse ÷ createQuery(SQL++) |")
        print("|---|---|---|---|---|")
        for (name, sqlpp, json) in queries {
            let fromSQLPP = try database.createQuery(sqlpp).explain(), fromJSON = try database.createQuery(json: json).explain()
            guard fromSQLPP.prefix(while: { $0 != "\n" }) == fromJSON.prefix(while: { $0 != "\n" }) else {
                throw BenchmarkError("\(name): the SQL++ and JSON forms compile differently")
            }
            var parse: [Double] = [], create: [Double] = [], createJSON: [Double] = []
            for _ in 0..<rounds {
                parse.append(try Measure.seconds { for _ in 0..<repeats { try Database.parseSQLPP(sqlpp) } })
                create.append(try Measure.seconds { for _ in 0..<repeats { _ = try database.createQuery(sqlpp) } })
                createJSON.append(try Measure.seconds { for _ in 0..<repeats { _ = try database.createQuery(json: json) } })
            }
            let µs = { (times: [Double]) in Measure.median(times) / Double(repeats) * 1e6 }
            print(String(format: "| %@ | %.1f | %.1f | %.1f | %.2f |", name, µs(parse), µs(create), µs(createJSON), µs(parse) / µs(create)))
        }
    }
}
