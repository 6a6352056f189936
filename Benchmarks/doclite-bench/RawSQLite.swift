import CSQLite

/// A value bound to a baseline statement (typed, so binding costs no dynamic casts).
enum SQLValue {
    case int(Int)
    case double(Double)
    case text(String)
    case null
}

/// Minimal SQLite access for the baselines (R and J) and for running SQL on
/// DocLite's tables in the forms its compiler will emit.
struct RawStatement {
    let handle: OpaquePointer

    init(_ db: OpaquePointer, _ sql: String) {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            fatalError("prepare failed: \(String(cString: sqlite3_errmsg(db)))\n\(sql)")
        }
        handle = stmt
    }

    func finalize() { sqlite3_finalize(handle) }

    func bind(_ values: [SQLValue]) {
        sqlite3_reset(handle)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value {
            case .int(let v): sqlite3_bind_int64(handle, index, Int64(v))
            case .double(let v): sqlite3_bind_double(handle, index, v)
            case .text(let v): v.withCString { _ = sqlite3_bind_text(handle, index, $0, -1, csqlite_transient()) }
            case .null: sqlite3_bind_null(handle, index)
            }
        }
    }

    /// Steps through every row, reading every column as an application would;
    /// returns the row count.
    func run() -> Int {
        var rows = 0
        let columns = sqlite3_column_count(handle)
        while true {
            let rc = sqlite3_step(handle)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { fatalError("step failed: \(rc)") }
            for c in 0..<columns {
                switch sqlite3_column_type(handle, c) {
                case SQLITE_INTEGER: _ = sqlite3_column_int64(handle, c)
                case SQLITE_FLOAT: _ = sqlite3_column_double(handle, c)
                case SQLITE_TEXT: _ = sqlite3_column_text(handle, c); _ = sqlite3_column_bytes(handle, c)
                case SQLITE_BLOB: _ = sqlite3_column_blob(handle, c); _ = sqlite3_column_bytes(handle, c)
                default: break
                }
            }
            rows += 1
        }
        sqlite3_reset(handle)
        return rows
    }
}

/// Opens a baseline database file with DocLite's settings (WAL, synchronous=NORMAL).
func openBaseline(_ path: String) -> OpaquePointer {
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK, let db else { fatalError("cannot open \(path)") }
    execute(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
    return db
}

func execute(_ db: OpaquePointer, _ sql: String) {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
        fatalError("SQL failed: \(message.map { String(cString: $0) } ?? "?")\n\(sql)")
    }
}

#if canImport(Glibc)
import Glibc
#endif
