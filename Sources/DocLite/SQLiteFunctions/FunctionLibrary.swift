import CSQLite

/// The query language's function library (Couchbase Lite's N1QL functions),
/// registered on every connection as `doc_<name>` SQL functions; the query
/// compiler's ``FunctionCatalog`` maps each JSON function name onto them.
///
/// Every function follows N1QL's rule unless its family says otherwise: a
/// MISSING argument gives MISSING, else a null argument gives null
/// (``RuntimeValue/propagateMissingOrNull(_:_:_:)``).
enum FunctionLibrary {
    static func register(on connection: SQLiteConnection, keys: SharedKeys) {
        let registrar = FunctionRegistrar(connection: connection, keys: keys)
        StringFunctions.register(with: registrar)
        RegexFunctions.register(with: registrar)
        MathFunctions.register(with: registrar)
        ConditionalFunctions.register(with: registrar)
        TypeFunctions.register(with: registrar)
        ArrayFunctions.register(with: registrar)
        FullTextFunctions.register(with: registrar)
    }
}

/// Registers deterministic scalar functions on one connection. Every function
/// reads its arguments' subtypes (booleans, JSON null).
struct FunctionRegistrar {
    let connection: SQLiteConnection
    let keys: SharedKeys

    /// Registers `function` as `name` with `arity` (-1: any); its user data is
    /// the shared keys.
    func add(_ name: String, _ arity: Int32, _ function: @escaping BodyFunctions.Function) {
        BodyFunctions.register(name, arity, readsSubtypes: true, function, on: connection, keys: keys)
    }

    /// Registers `function` as `name` with `userData` (retained until the
    /// function is replaced or the connection closes) instead of the shared keys.
    func add(_ name: String, _ arity: Int32, userData: AnyObject, _ function: @escaping BodyFunctions.Function) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS | SQLITE_SUBTYPE
        sqlite3_create_function_v2(connection.handle, name, arity, flags, Unmanaged.passRetained(userData).toOpaque(),
                                   function, nil, nil) {
            Unmanaged<AnyObject>.fromOpaque($0!).release()
        }
    }

    /// The user data registered with ``add(_:_:userData:_:)``.
    @inline(__always)
    static func userData<T: AnyObject>(_ context: OpaquePointer?, as type: T.Type) -> Unmanaged<T> {
        Unmanaged<T>.fromOpaque(sqlite3_user_data(context))
    }
}
