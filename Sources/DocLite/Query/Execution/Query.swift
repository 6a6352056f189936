/// A compiled query on one database: run it with `execute()`, see how SQLite
/// runs it with ``explain()``. Compiled once; compiled again by itself when
/// the database's indexes change, so that new indexes are used.
public final class Query: CustomStringConvertible, @unchecked Sendable {   // its variables are behind `lock`
    /// The database the query reads.
    public let database: Database
    let statement: SelectStatement
    private let lock = Lock()
    private var compiled: CompiledQuery
    /// The column titles and types of `compiled`, shared by every result.
    private var columns: ResultColumns
    private var compiledForIndexes: Int
    private var storedParameters: Parameters?
    /// The query's live query while it has listeners (it holds the query too).
    private var live: LiveQuery?
    /// The handler each run calls as it works (``setProgressHandler(steps:_:)``).
    private var progress: (steps: Int32, handler: QueryProgressHandler)?
    /// What ``interrupt()`` tells the runs in progress.
    private let interrupts = QueryInterrupts()

    init(database: Database, statement: SelectStatement) throws {
        self.database = database
        self.statement = statement
        (compiled, compiledForIndexes) = try database.lock.withLock {
            (try Self.compile(statement, in: database), database.indexGeneration)
        }
        columns = ResultColumns(compiled.columns, database: database)
    }

    /// A new query (parameters and listeners of its own) with `prototype`'s statement and
    /// compiled SQL: what a builder that makes many queries of one statement hands out.
    init(sharingCompilationOf prototype: Query) {
        database = prototype.database
        statement = prototype.statement
        (compiled, columns, compiledForIndexes) = prototype.lock.withLock {
            (prototype.compiled, prototype.columns, prototype.compiledForIndexes)
        }
    }

    private static func compile(_ statement: SelectStatement, in database: Database) throws -> CompiledQuery {
        _ = try database.openConnection()
        var compiler = QueryCompiler(database: database) { collection, sql in
            database.isIndexed(collection: collection, expression: sql)
        }
        return try compiler.compile(statement)
    }

    /// The parameter values used by the next `execute()`; setting stores a
    /// copy (and runs a live query again).
    public var parameters: Parameters? {
        get { lock.withLock { storedParameters.map { Parameters(parameters: $0) } } }
        set {
            let live = lock.withLock {
                storedParameters = newValue.map { Parameters(parameters: $0) }
                return self.live
            }
            live?.parametersChanged()
        }
    }

    /// The collections the query reads.
    var collectionIDs: Set<Int64> { lock.withLock { compiled.collectionIDs } }

    /// Throws ``DocLiteError/Code/notOpen``, naming it, when a collection the
    /// query reads was deleted (or its database closed).
    package func checkCollections() throws {
        for collection in lock.withLock({ compiled.collections }) { _ = try collection.openDatabase() }
    }

    /// The query's live query, made on first use and shared while it has listeners.
    func liveQuery() -> LiveQuery {
        lock.withLock {
            if let live { return live }
            let made = LiveQuery(query: self)
            live = made
            return made
        }
    }

    /// The live query's last listener was removed: let it go (unless it has been replaced).
    func liveQueryStopped(_ stopped: LiveQuery) {
        lock.withLock { if live === stopped, stopped.isStopped { live = nil } }
    }

    /// The query in LiteCore's JSON query language (its canonical text).
    public var json: String { JSONQueryWriter.json(statement).json }

    /// The query as SQL++ text, which ``Database/createQuery(_:)`` reads back
    /// to the same query: `SELECT name FROM _ WHERE (type = 'hotel')`. Every
    /// query has it, however it was made (the builder, JSON or SQL++).
    public var sqlpp: String { SQLPPWriter.text(statement) }

    /// The result column titles.
    public var columnNames: [String] { lock.withLock { compiled.columns.map(\.name) } }

    /// The query in LiteCore's JSON query language.
    public var description: String { json }

    /// Runs the query. Rows are read as the result set is iterated, from the
    /// database as it is now (see ``ResultSet``).
    public func execute() throws -> ResultSet {
        try execute(run: startRun())
    }

    /// Runs the query and reads every row before it returns (as Couchbase
    /// Lite's `execute()` does), so that cancelling the task stops all of the
    /// query's work: it then throws `CancellationError`.
    public func execute() async throws -> ResultSet {
        let run = startRun()
        return try await withTaskCancellationHandler {
            try Task.checkCancellation()
            do {
                let results = try execute(run: run)
                try results.readAll()
                return results
            } catch let error as DocLiteError where error.isInterruption && Task.isCancelled {
                throw CancellationError()
            }
        } onCancel: {
            run.interrupt()
        }
    }

    /// Stops every run of the query in progress, from any thread: SQLite's
    /// work on the row each is reading ends, and each result set ends with the
    /// SQLite domain's `SQLITE_INTERRUPT` (``DocLiteError/isInterruption``).
    /// Runs started later are not affected.
    public func interrupt() {
        interrupts.interruptRunning()
    }

    /// Calls `handler` every `steps` of SQLite's virtual-machine steps while a
    /// run of the query works (from the thread reading its rows); when it
    /// returns false the run stops as ``interrupt()`` stops it. Applies to runs
    /// started later; nil removes it. Without one, a run checks for an
    /// interrupt every 1,000 steps.
    public func setProgressHandler(steps: Int = 1000, _ handler: QueryProgressHandler?) {
        let steps = Int32(clamping: max(steps, 1))
        lock.withLock { progress = handler.map { (steps, $0) } }
    }

    /// A new run, which ``interrupt()`` stops until its result set's last row.
    private func startRun() -> QueryRun {
        QueryRun(of: interrupts, progress: lock.withLock { progress })
    }

    private func execute(run: QueryRun) throws -> ResultSet {
        let values = try lock.withLock { try storedParameters?.snapshot() ?? [:] }
        return try database.lock.withLock {
            try database.syncBeforeQuery()   // sees other connections' keys, collections and indexes
            var (query, columns) = try current()
            if let unknown = values.keys.sorted().first(where: { !query.parameterNames.contains($0) }) {
                throw DocLiteError(.invalidQueryParam, "unknown query parameter '\(unknown)' (the query uses: \(query.parameterNames.sorted().joined(separator: ", ")))")
            }
            if query.columns.contains(where: { column in column.parameter.map { if case .bool? = values[$0] { true } else { false } } ?? false }) {
                columns = ResultColumns(query.columns.map { column in
                    guard let name = column.parameter, case .bool? = values[name] else { return column }
                    return ResultColumn(name: column.name, isBoolean: true)
                }, database: database)
            }
            let reader = try database.checkOutReader()
            let statement: Statement
            do {
                statement = try reader.statement(query.key)
            } catch {
                database.returnReader(reader)
                throw error
            }
            bind(values, to: statement)
            return try ResultSet(database: database, reader: reader, statement: statement, key: query.key, columns: columns,
                                 run: run)
        }
    }

    /// The SQL, SQLite's query plan (one `id|parent|notused|detail` line per
    /// step), the JSON query and the SQL++ text, separated by blank lines.
    public func explain() throws -> String {
        let (sql, steps) = try plan()
        let lines = steps.map { "\($0.id)|\($0.parent)|\($0.notUsed)| \($0.detail)" }.joined(separator: "\n")
        return "\(sql)\n\n\(lines)\n\n\(json)\n\n\(sqlpp)"
    }

    /// A step of SQLite's query plan (a row of `EXPLAIN QUERY PLAN`).
    struct PlanStep {
        let id: Int64, parent: Int64, notUsed: Int64
        /// `SCAN s0`, `SEARCH s0 USING INDEX ix… (<expr>=?)`, …
        let detail: String
    }

    /// The SQL the query runs and SQLite's plan for it.
    func plan() throws -> (sql: String, steps: [PlanStep]) {
        try database.lock.withLock {
            let sql = try current().0.sql
            let steps = try database.read { connection in
                let statement: Statement
                do {
                    statement = try Statement(connection: connection, sql: "EXPLAIN QUERY PLAN " + sql)
                } catch {
                    throw QueryFailure.error(error)
                }
                var steps: [PlanStep] = []
                while try statement.step() {
                    steps.append(PlanStep(id: statement.int64(0), parent: statement.int64(1), notUsed: statement.int64(2),
                                          detail: statement.string(3)))
                }
                return steps
            }
            return (sql, steps)
        }
    }

    /// The compiled query and its columns, compiled again if the indexes changed. Holds the database lock.
    private func current() throws -> (CompiledQuery, ResultColumns) {
        try checkCollections()
        return try lock.withLock {
            if compiledForIndexes != database.indexGeneration {
                compiled = try Self.compile(statement, in: database)
                columns = ResultColumns(compiled.columns, database: database)
                compiledForIndexes = database.indexGeneration
            }
            return (compiled, columns)
        }
    }

    /// Binds each `$_name` of the statement; unset names stay NULL (MISSING).
    private func bind(_ values: [String: JSONValue], to statement: Statement) {
        for index in stride(from: 1, through: statement.parameterCount, by: 1) {
            guard let name = statement.parameterName(index), let value = values[String(name.dropFirst(2))] else { continue }
            statement.bind(Int32(index), value, keys: database.sharedKeys)
        }
    }
}

extension Database {
    /// Compiles a query written in LiteCore's JSON query language
    /// (`{"WHAT": [[".name"]], "WHERE": ["=", [".type"], "hotel"]}`); throws
    /// ``DocLiteError/Code/invalidQuery`` with the location of the fault.
    public func createQuery(json: String) throws -> Query {
        try Query(database: self, statement: JSONQueryParser.parse(json: json))
    }
}

extension Query {
    /// Whether the JSON query language has the function `name` (without "()"; any case).
    package static func isKnownFunction(_ name: String) -> Bool {
        FunctionCatalog.entry(name.lowercased()) != nil
    }
}
