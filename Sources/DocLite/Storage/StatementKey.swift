/// The statement cache's key: a query's SQL, compared as bytes (two
/// canonically equivalent literals are different queries), with its hash
/// computed once, so that checking a statement out and back in does not hash
/// the text each time.
struct StatementKey: Hashable, Sendable {
    let sql: String
    private let hash: Int

    init(_ sql: String) {
        self.sql = sql
        hash = ByteString(sql).hashValue
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    static func == (a: StatementKey, b: StatementKey) -> Bool { a.hash == b.hash && ByteString(a.sql) == ByteString(b.sql) }
}
