/// How deep a query tree may nest, whatever front end built it.
///
/// The figure is SQLite's: the compiler writes one SQL level per tree level,
/// and the SQLite this builds on (Debian's 3.40, with the parser stack of 100
/// entries it is compiled with) parses no more than 17 nested calls passed as
/// a function's second argument, 15 nested `REGEXP_LIKE()`s or 8 nested
/// ANY/EVERY subqueries. So every query within the limit runs, and nothing
/// deeper is ever made: a builder part that would be deeper is an error
/// instead, which also keeps every recursion over a tree (compiling, writing,
/// comparing, releasing) shallow on any thread's stack.
enum QueryDepth {
    /// The deepest tree accepted (see ``QueryExpression/depth``).
    static let limit = 16

    /// The error for a tree deeper than the limit.
    static let error = DocLiteError(.invalidQuery, "the expression nests deeper than the \(limit) levels a query may nest "
                                    + "(SQLite parses no deeper; AND, OR, + and * take any number of operands instead of nesting)")
}

extension QueryExpression {
    /// The levels of the tree: 1 for a leaf, 1 more than the deepest operand
    /// otherwise; ANY / EVERY count 3, as their subquery costs SQLite's parser
    /// about as much as three levels of function calls.
    var depth: Int {
        let own = if case .quantified = self { 3 } else { 1 }
        return own + (children.lazy.map(\.depth).max() ?? 0)
    }

    /// This tree, or an ``invalid(_:)`` leaf when it is deeper than ``QueryDepth/limit``
    /// or an operand already is one (the first, depth first).
    func limitingDepth() -> QueryExpression {
        for child in children { if case .invalid = child { return child } }
        return depth > QueryDepth.limit ? .invalid(QueryDepth.error) : self
    }
}
