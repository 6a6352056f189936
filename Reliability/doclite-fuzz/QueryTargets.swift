import DocLite
import Foundation

/// The query front ends on the fuzz dataset (``FuzzDatabase/openWithDataset(name:)``):
/// a query that compiles runs (up to ``QueryOracle/rowLimit`` rows are read;
/// it may end with an error, never a crash or hang), and its other forms — the
/// JSON and the SQL++ it writes of itself — compile and give the same rows
/// and the same ending.
enum QueryTargets {
    static let jsonQuery = FuzzTarget(name: "query", summary: "JSON queries: reader, validator, compiler and execution") {
        let database = try FuzzDatabase.openWithDataset(name: "query")
        return { input in
            guard let query = try? database.createQuery(json: input.text) else { return }
            QueryOracle.check(query, in: database)
        }
    }

    static let sqlpp = FuzzTarget(name: "sqlpp", summary: "SQL++ queries: lexer, parser, compiler and execution") {
        let database = try FuzzDatabase.openWithDataset(name: "sqlpp")
        return { input in
            guard let query = try? database.createQuery(input.text) else { return }
            QueryOracle.check(query, in: database)
        }
    }

    /// The 1.x predicate builder: the input is the WHERE predicate; its `$variables` are bound to values of each type in turn.
    static let predicate = FuzzTarget(name: "predicate", summary: "1.x predicates: lexer, parser, variables, compiler and execution") {
        let database = try FuzzDatabase.openWithDataset(name: "predicate")
        let values: [Any] = [3, "Paris", 2.5, true, ["red", "blue"]]
        return { input in
            guard let builder = try? PredicateQueryBuilder(database: database, select: ["n", "s"], where: input.text) else { return }
            _ = try? builder.explanation
            let context = Dictionary(uniqueKeysWithValues: builder.variableNames.enumerated().map { ($1, values[$0 % values.count]) })
            guard let query = try? builder.createQuery(context: context) else { return }
            QueryOracle.check(query, in: database)
        }
    }
}

/// What every query target checks of a query that compiled.
enum QueryOracle {
    /// More rows than this are not read (a join of the 12 documents four times over has 20,736).
    static let rowLimit = 2_000

    /// What a query gave: each row's values as a JSON array, and whether it ended with an error.
    struct Outcome: Equatable {
        var rows: [String] = []
        var failed = false
    }

    static func check(_ query: Query, in database: Database) {
        _ = try? query.explain()
        let outcome = run(query)
        // Functions of the clock or of chance give other rows each run.
        let text = query.json.lowercased()
        guard !["now", "clock", "random", "uuid"].contains(where: text.contains) else { return }
        // SQL++ text cannot hold a NUL character; the JSON form's strings can. (Searched as
        // bytes: as Characters, "\u0000" followed by a combining mark is not found.)
        let hasNUL = text.utf8.indices.contains { text.utf8[$0...].starts(with: #"\u0000"#.utf8) }
        let forms = [("JSON", query.json)] + (hasNUL ? [] : [("SQL++", query.sqlpp)])
        for (form, source) in forms {
            let again: Query
            do {
                again = try form == "JSON" ? database.createQuery(json: source) : database.createQuery(source)
            } catch {
                FuzzCheck.fail("the \(form) a query writes of itself does not compile (\(error)): \(source)\nfirst form: \(query.json)")
            }
            again.parameters = query.parameters
            let repeated = run(again)
            FuzzCheck.require(repeated == outcome, "the \(form) a query writes of itself gives other rows: \(source)\nfirst form: \(query.json)\nrows: \(outcome)\nthen: \(repeated)")
        }
    }

    /// Runs `query`, reading every value of up to ``rowLimit`` rows the ways an application would.
    static func run(_ query: Query) -> Outcome {
        var outcome = Outcome()
        do {
            let results = try query.execute()
            while outcome.rows.count < rowLimit, let row = results.next() {
                _ = row.toDictionary()
                outcome.rows.append(row.toJSONArray())
            }
            outcome.failed = results.error != nil
        } catch {
            outcome.failed = true
        }
        return outcome
    }
}
