import CSQLite

/// Registers the library's functions on one connection, all deterministic and
/// innocuous but the one that calls application code and the one that reads a vector
/// index's centroids (direct-only), with the database's shared keys as user data unless a function
/// brings its own (``FunctionLibrary/register(on:for:)`` makes one per connection).
struct FunctionRegistrar {
    let connection: SQLiteConnection
    let keys: SharedKeys

    /// Registers scalar `function` as `name` with `arity` (-1: any); its user
    /// data is the shared keys (``BodyFunctions/keys(_:)``). `readsSubtypes`: the
    /// function reads its arguments' subtypes (booleans, JSON null). `readsTables`: its
    /// result depends on tables it reads, so it is neither deterministic nor innocuous
    /// (direct-only: never run from a file's schema).
    func add(_ name: String, _ arity: Int32, readsSubtypes: Bool = true, readsTables: Bool = false,
             _ function: @escaping BodyFunctions.Function) {
        let flags = SQLITE_UTF8 | (readsTables ? SQLITE_DIRECTONLY : SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS) | (readsSubtypes ? SQLITE_SUBTYPE : 0)
        sqlite3_create_function_v2(connection.handle, name, arity, flags, Unmanaged.passRetained(keys).toOpaque(),
                                   function, nil, nil) {
            Unmanaged<SharedKeys>.fromOpaque($0!).release()
        }
    }

    /// Registers scalar `function` as `name` with `userData` (retained until the
    /// function is replaced or the connection closes) instead of the shared keys.
    /// `runsApplicationCode`: registered direct-only, not innocuous, so SQLite
    /// runs it from DocLite's own statements only, never from a file's schema.
    func add(_ name: String, _ arity: Int32, userData: AnyObject, runsApplicationCode: Bool = false,
             _ function: @escaping BodyFunctions.Function) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_SUBTYPE | (runsApplicationCode ? SQLITE_DIRECTONLY : SQLITE_INNOCUOUS)
        sqlite3_create_function_v2(connection.handle, name, arity, flags, Unmanaged.passRetained(userData).toOpaque(),
                                   function, nil, nil) {
            Unmanaged<AnyObject>.fromOpaque($0!).release()
        }
    }

    /// Registers aggregate `name` (`step` per row, `final` once); its user data
    /// is the shared keys.
    func addAggregate(_ name: String, _ arity: Int32, step: @escaping BodyFunctions.Function,
                      final: @escaping @convention(c) (OpaquePointer?) -> Void) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS | SQLITE_SUBTYPE
        sqlite3_create_function_v2(connection.handle, name, arity, flags, Unmanaged.passRetained(keys).toOpaque(),
                                   nil, step, final) {
            Unmanaged<SharedKeys>.fromOpaque($0!).release()
        }
    }

    /// The user data registered with ``add(_:_:userData:_:)``.
    @inline(__always)
    static func userData<T: AnyObject>(_ context: OpaquePointer?, as type: T.Type) -> Unmanaged<T> {
        Unmanaged<T>.fromOpaque(sqlite3_user_data(context))
    }
}
