import CSQLite

extension Statement {
    var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The name of parameter `index` (1-based), with its prefix (`$_name`).
    func parameterName(_ index: Int) -> String? {
        sqlite3_bind_parameter_name(handle, Int32(index)).map { String(cString: $0) }
    }

    /// Binds a query parameter as Couchbase Lite does: null stays unbound
    /// (MISSING), booleans are 0/1, containers are encoded blobs.
    func bind(_ index: Int32, _ value: JSONValue, keys: SharedKeys) {
        switch value {
        case .null: break
        case .bool(let flag): bind(index, Int64(flag ? 1 : 0))
        case .int(let number): bind(index, number)
        case .unsigned(let number):
            if number <= UInt64(Int64.max) { bind(index, Int64(number)) } else { sqlite3_bind_double(handle, index, Double(number)) }
        case .double(let number): sqlite3_bind_double(handle, index, number)
        case .string(let text): bind(index, text)
        case .array, .dictionary:
            var encoder = BodyEncoder(sharedKeys: keys, assignsNewKeys: false)
            value.encode(into: &encoder)
            bind(index, encoder.output)
        }
    }
}
