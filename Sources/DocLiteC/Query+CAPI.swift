import CDocLite
import DocLite

/// A result-set handle: the result set, its query, and the current row.
final class ResultSetRef {
    let query: Query
    let results: ResultSet
    var row: Result?

    init(query: Query, results: ResultSet) {
        self.query = query
        self.results = results
    }
}

/// The query behind a handle.
func query(_ handle: OpaquePointer?) throws -> Query {
    try HandleRegistry.shared.object(handle, as: Query.self, "query")
}

private func resultSet(_ handle: OpaquePointer?) throws -> ResultSetRef {
    try HandleRegistry.shared.object(handle, as: ResultSetRef.self, "result set")
}

@c @implementation
public func CBLDatabase_CreateQuery(_ db: OpaquePointer?, _ language: CBLQueryLanguage, _ queryString: UnsafePointer<CChar>?,
                                    _ outErrorPos: UnsafeMutablePointer<Int32>?, _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    outErrorPos?.pointee = -1
    return bridge(outError, failure: nil) {
        let database = try database(db)
        let text = try string(queryString, "query text")
        do {
            switch language {
            case CBLQueryLanguage(kCBLJSONLanguage): return HandleRegistry.shared.register(try database.createQuery(json: text))
            case CBLQueryLanguage(kCBLN1QLLanguage): return HandleRegistry.shared.register(try database.createQuery(text))
            default:
                throw DocLiteError(.invalidParameter, "unknown query language \(language) (kCBLJSONLanguage or kCBLN1QLLanguage)")
            }
        } catch let error as DocLiteError {
            if let position = error.position { outErrorPos?.pointee = Int32(clamping: position) }
            throw error
        }
    }
}

@c @implementation
public func CBLQuery_SetParameters(_ handle: OpaquePointer?, _ json: UnsafePointer<CChar>?,
                                   _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let query = try query(handle)
        query.parameters = try optionalString(json, "parameters JSON").map { try Parameters(json: $0) }
        return true
    }
}

@c @implementation
public func CBLQuery_Execute(_ handle: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> OpaquePointer? {
    bridge(outError, failure: nil) {
        let query = try query(handle)
        return HandleRegistry.shared.register(ResultSetRef(query: query, results: try query.execute()))
    }
}

@c @implementation
public func CBLQuery_Explain(_ handle: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    bridge(outError, failure: nil) { ownedString(try query(handle).explain()) }
}

@c @implementation
public func CBLQuery_CopySQLPP(_ handle: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    bridge(outError, failure: nil) { ownedString(try query(handle).sqlpp) }
}

@c @implementation
public func CBLQuery_ColumnCount(_ handle: OpaquePointer?) -> UInt32 {
    (try? query(handle).columnNames.count).map(UInt32.init) ?? 0
}

@c @implementation
public func CBLQuery_ColumnName(_ handle: OpaquePointer?, _ columnIndex: UInt32) -> UnsafePointer<CChar>? {
    guard let names = try? query(handle).columnNames, columnIndex < names.count else { return nil }
    return HandleRegistry.shared.borrowedString(handle, slot: "column \(columnIndex)", names[Int(columnIndex)])
}

@c @implementation
public func CBLResultSet_Next(_ handle: OpaquePointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let ref = try resultSet(handle)
        ref.row = ref.results.next()
        if ref.row == nil, let error = ref.results.error { throw error }
        return ref.row != nil
    }
}

// MARK: Reading the current row

/// Column `index` of the current row: nil when MISSING, out of range or before the first row.
private func value(_ handle: OpaquePointer?, _ index: UInt32) -> JSONValue? {
    guard let row = (try? resultSet(handle))?.row, index < row.values.count else { return nil }
    return row.values[Int(index)]
}

/// The column titled `key` of the current row.
private func value(_ handle: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> JSONValue? {
    guard let key = key.flatMap(String.init(validatingCString:)), let ref = try? resultSet(handle), let row = ref.row,
          let index = row.keys.firstIndex(where: { $0.utf8.elementsEqual(key.utf8) }) else { return nil }
    return row.values[index]
}

private func type(of value: JSONValue?) -> CBLValueType {
    let type: Int = switch value {
    case nil: kCBLValueMissing
    case .null: kCBLValueNull
    case .bool: kCBLValueBoolean
    case .int: kCBLValueInteger
    case .unsigned(let number): number <= UInt64(Int64.max) ? kCBLValueInteger : kCBLValueDouble
    case .double: kCBLValueDouble
    case .string: kCBLValueString
    case .array: kCBLValueArray
    case .dictionary: kCBLValueDict
    }
    return CBLValueType(type)
}

private func bool(_ value: JSONValue?) -> Bool {
    switch value {
    case .bool(let flag): flag
    case .int(let number): number != 0
    case .unsigned(let number): number != 0
    case .double(let number): number != 0
    default: false
    }
}

private func int(_ value: JSONValue?) -> Int64 {
    switch value {
    case .bool(let flag): flag ? 1 : 0
    case .int(let number): number
    case .unsigned(let number): Int64(clamping: number)
    case .double(let number): number.isFinite ? Int64(exactly: number.rounded(.towardZero)) ?? (number < 0 ? .min : .max) : 0
    default: 0
    }
}

private func double(_ value: JSONValue?) -> Double {
    switch value {
    case .bool(let flag): flag ? 1 : 0
    case .int(let number): Double(number)
    case .unsigned(let number): Double(number)
    case .double(let number): number
    default: 0
    }
}

/// A borrowed C string for a value of the current row: freed when the same column is read from a later row.
private func borrowed(_ handle: OpaquePointer?, _ slot: String, _ text: String?) -> UnsafePointer<CChar>? {
    text.flatMap { HandleRegistry.shared.borrowedString(handle, slot: slot, $0) }
}

private func string(_ value: JSONValue?) -> String? {
    if case .string(let text) = value { return text }
    return nil
}

@c @implementation
public func CBLResultSet_TypeAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> CBLValueType { type(of: value(rs, index)) }

@c @implementation
public func CBLResultSet_TypeForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CBLValueType { type(of: value(rs, key)) }

@c @implementation
public func CBLResultSet_BoolAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> Bool { bool(value(rs, index)) }

@c @implementation
public func CBLResultSet_BoolForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> Bool { bool(value(rs, key)) }

@c @implementation
public func CBLResultSet_IntAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> Int64 { int(value(rs, index)) }

@c @implementation
public func CBLResultSet_IntForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> Int64 { int(value(rs, key)) }

@c @implementation
public func CBLResultSet_DoubleAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> Double { double(value(rs, index)) }

@c @implementation
public func CBLResultSet_DoubleForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> Double { double(value(rs, key)) }

@c @implementation
public func CBLResultSet_StringAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> UnsafePointer<CChar>? {
    borrowed(rs, "string at \(index)", string(value(rs, index)))
}

@c @implementation
public func CBLResultSet_StringForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    guard let key = key.flatMap(String.init(validatingCString:)) else { return nil }
    return borrowed(rs, "string for \(key)", string(value(rs, key)))
}

@c @implementation
public func CBLResultSet_JSONAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> UnsafePointer<CChar>? {
    borrowed(rs, "json at \(index)", value(rs, index)?.json)
}

@c @implementation
public func CBLResultSet_JSONForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    guard let key = key.flatMap(String.init(validatingCString:)) else { return nil }
    return borrowed(rs, "json for \(key)", value(rs, key)?.json)
}

@c @implementation
public func CBLResultSet_CreateRowDictJSON(_ rs: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let row = (try? resultSet(rs))?.row else { return nil }
    return ownedString(row.toJSON())
}

@c @implementation
public func CBLResultSet_CreateRowArrayJSON(_ rs: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let row = (try? resultSet(rs))?.row else { return nil }
    return ownedString(row.toJSONArray())
}

@c @implementation
public func CBLResultSet_NextRowsJSON(_ rs: OpaquePointer?, _ maxRows: UInt32,
                                      _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    bridge(outError, failure: nil) {
        let ref = try resultSet(rs)
        var text: [UInt8] = [UInt8(ascii: "[")]   // written directly: no tree of the rows is built
        var count = 0
        while count < Int(maxRows), let row = ref.results.next() {
            var missing: Int64 = 0
            for (index, value) in row.values.prefix(63).enumerated() where value == nil { missing |= 1 << index }
            if count > 0 { text.append(UInt8(ascii: ",")) }
            text.append(UInt8(ascii: "["))
            text.append(contentsOf: String(missing).utf8)
            for value in row.values {
                text.append(UInt8(ascii: ","))
                (value ?? .null).appendJSON(to: &text)
            }
            text.append(UInt8(ascii: "]"))
            ref.row = row
            count += 1
        }
        if let error = ref.results.error { throw error }
        text.append(UInt8(ascii: "]"))
        return ownedString(String(decoding: text, as: UTF8.self))
    }
}
