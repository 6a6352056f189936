/// Every SQL function, aggregate, table-valued function and collation that
/// compiled queries call, registered on each connection by ``register(on:for:)``,
/// the one entry point. The query compiler's ``FunctionCatalog`` maps each
/// query-language function onto the SQL name registered here.
///
/// Every N1QL function follows N1QL's rule unless its family says otherwise: a
/// MISSING argument gives MISSING, else a null argument gives null
/// (``RuntimeValue/propagateMissingOrNull(_:_:_:)``).
enum FunctionLibrary {
    /// Registers the whole library on a connection to `database`, whose shared
    /// keys decode stored bodies.
    static func register(on connection: SQLiteConnection, for database: Database) {
        let registrar = FunctionRegistrar(connection: connection, keys: database.sharedKeys)
        BodyFunctions.register(with: registrar)
        QueryFunctions.register(with: registrar)
        StatisticsAggregates.register(with: registrar)
        PredictionCall.register(with: registrar, database: database)
        EachTable.register(with: registrar)
        VectorSearchTable.register(with: registrar)
        Collations.register(with: registrar)
        DateFunctions.register(with: registrar)
        StringFunctions.register(with: registrar)
        RegexFunctions.register(with: registrar)
        MathFunctions.register(with: registrar)
        VectorFunctions.register(with: registrar)
        CentroidCache.register(with: registrar)
        ConditionalFunctions.register(with: registrar)
        TypeFunctions.register(with: registrar)
        ArrayFunctions.register(with: registrar)
        FullTextFunctions.register(with: registrar)
    }
}
