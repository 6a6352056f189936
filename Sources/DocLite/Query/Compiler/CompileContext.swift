/// Where an expression is being compiled: its clause, its location in the JSON
/// form (which errors name), and what is in scope there. The compiler passes a
/// context down the tree, deriving one per operand; what it accumulates over
/// the whole query (sources, parameters, the grouped query's projection) stays
/// on ``QueryCompiler``.
struct CompileContext {
    let clause: QueryCompiler.Clause
    /// The expression's location in the JSON form: `WHERE[2][1]`, `WHAT[0].key`.
    private(set) var location: String
    /// Inside an aggregate's argument (aggregates cannot nest).
    var insideAggregate = false
    /// Result aliases may be read as properties (not inside an alias's own expression).
    var readsResultAliases = true
    /// A bare property here projects only its result form (``QueryCompiler/compileValue(_:_:)``).
    var resultFormOnly = false
    /// The ANY / EVERY variables in scope, innermost last, with their `doc_each` aliases.
    var variables: [(name: String, sqlAlias: String)] = []
    /// The innermost `COLLATE` in force, shared with everything inside it:
    /// the first comparison or LIKE takes it (Couchbase Lite applies it to
    /// that one only).
    var collation: CollationScope?

    init(_ clause: QueryCompiler.Clause, at location: String) {
        self.clause = clause
        self.location = location
    }

    /// The context of operand `index`, as the JSON form numbers it (`[index]`).
    func operand(_ index: Int) -> CompileContext { child(at: "\(location)[\(index)]") }

    /// The context of a dictionary literal's member `key` (`.key`).
    func member(_ key: String) -> CompileContext { child(at: "\(location).\(key)") }

    private func child(at location: String) -> CompileContext {
        var child = self
        child.location = location
        child.resultFormOnly = false
        return child
    }

    /// The same place, with `change` applied.
    func with(_ change: (inout CompileContext) -> Void) -> CompileContext {
        var copy = self
        change(&copy)
        return copy
    }
}

/// A `COLLATE` in force and whether a comparison inside it has taken it.
final class CollationScope {
    let value: Collation
    var isTaken = false

    init(_ value: Collation) { self.value = value }
}
