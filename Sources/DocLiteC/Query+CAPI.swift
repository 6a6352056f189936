import CDocLite
import DocLite
#if canImport(Glibc)
import Glibc
#endif

/// A result-set handle: the result set, its query, and the C texts of the
/// current row's values handed out so far (freed when the row changes: the
/// header's "valid until the result set moves on"). The getters read the row
/// in place (``ResultSet/column(_:)``): a string column is SQLite's own text,
/// with no copy. Used by one thread at a time, as its header says.
final class ResultSetRef {
    let query: Query
    let results: ResultSet
    /// C copies of the current row's decoded strings and JSON texts, by column
    /// (`2 × index`, `+ 1` for JSON), made when first asked for.
    private var texts: [UnsafeMutablePointer<CChar>?] = []

    init(query: Query, results: ResultSet) {
        self.query = query
        self.results = results
    }

    deinit { freeTexts() }

    /// Moves to the next row; false at the end, throws the error that ended the rows.
    func next() throws -> Bool {
        freeTexts()
        guard results.moveToNextRow() else {
            if let error = results.error { throw error }
            return false
        }
        return true
    }

    /// The C string of column `index` (nil unless a string).
    func string(_ index: Int) -> UnsafePointer<CChar>? {
        switch results.column(index) {
        case .text(let text, _)?: return text
        case .value(.string(let text))?: return copy(text, slot: 2 * index)
        default: return nil
        }
    }

    /// The JSON text of column `index` (nil when MISSING).
    func json(_ index: Int) -> UnsafePointer<CChar>? {
        guard let column = results.column(index) else { return nil }
        var json: [UInt8] = []
        column.appendJSON(to: &json)
        return copy(String(decoding: json, as: UTF8.self), slot: 2 * index + 1)
    }

    /// The index of the column titled `key`, nil when there is none.
    func columnIndex(_ key: UnsafePointer<CChar>?) -> Int? {
        guard let key = key.flatMap(String.init(validatingCString:)) else { return nil }
        return results.columnNames.firstIndex { $0.utf8.elementsEqual(key.utf8) }
    }

    /// A C copy of `text` (up to a NUL in it, which C text cannot hold) kept in `slot` until the row changes.
    private func copy(_ text: String, slot: Int) -> UnsafePointer<CChar> {
        if texts.count <= slot { texts += Array(repeating: nil, count: 2 * results.columnNames.count - texts.count) }
        if let copy = texts[slot] { return UnsafePointer(copy) }
        let copy = strdup(text)!   // (strdup stops at a NUL)
        texts[slot] = copy
        return UnsafePointer(copy)
    }

    private func freeTexts() {
        for (slot, text) in texts.enumerated() where text != nil {
            free(text)
            texts[slot] = nil
        }
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
public func CBLQuery_Interrupt(_ handle: OpaquePointer?) {
    (try? query(handle))?.interrupt()
}

@c @implementation
public func CBLResultSet_Interrupt(_ handle: OpaquePointer?) {
    (try? resultSet(handle))?.results.interrupt()
}

/// A C progress callback and its context, called from the thread running the query.
private struct ProgressCallback: @unchecked Sendable {   // a C function and its context: couchbase-lite-C's contract lets any thread call them
    let callback: CBLQueryProgressCallback
    let context: UnsafeMutableRawPointer?

    func call() -> Bool { callback(context) }
}

@c @implementation
public func CBLQuery_SetProgressHandler(_ handle: OpaquePointer?, _ steps: UInt32, _ callback: CBLQueryProgressCallback?,
                                       _ context: UnsafeMutableRawPointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> Bool {
    bridge(outError, failure: false) {
        let query = try query(handle)
        var handler: QueryProgressHandler?
        if let callback {
            let progress = ProgressCallback(callback: callback, context: context)
            handler = { progress.call() }
        }
        query.setProgressHandler(steps: Int(steps), handler)
        return true
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
    bridge(outError, failure: false) { try resultSet(handle).next() }
}

// MARK: Reading the current row

/// Column `index` of the current row: nil when MISSING, out of range or before the first row.
private func column(_ handle: OpaquePointer?, _ index: UInt32) -> ColumnValue? {
    (try? resultSet(handle))?.results.column(Int(index))
}

/// The column titled `key` of the current row.
private func column(_ handle: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> ColumnValue? {
    guard let ref = try? resultSet(handle), let index = ref.columnIndex(key) else { return nil }
    return ref.results.column(index)
}

/// A column's type; a string read in place is not made into a value to be told one.
private func type(of column: ColumnValue?) -> CBLValueType {
    let type: Int = switch column {
    case nil: kCBLValueMissing
    case .text?: kCBLValueString
    case .value(let value)?: valueType(of: value)
    }
    return CBLValueType(type)
}

private func valueType(of value: JSONValue) -> Int {
    switch value {
    case .null: kCBLValueNull
    case .bool: kCBLValueBoolean
    case .int: kCBLValueInteger
    case .unsigned(let number): number <= UInt64(Int64.max) ? kCBLValueInteger : kCBLValueDouble
    case .double: kCBLValueDouble
    case .string: kCBLValueString
    case .array: kCBLValueArray
    case .dictionary: kCBLValueDict
    }
}

/// The scalar getters read numbers and booleans; any other column (a string included) is 0.
private func bool(_ column: ColumnValue?) -> Bool {
    guard case .value(let value)? = column else { return false }
    return switch value {
    case .bool(let flag): flag
    case .int(let number): number != 0
    case .unsigned(let number): number != 0
    case .double(let number): number != 0
    default: false
    }
}

private func int(_ column: ColumnValue?) -> Int64 {
    guard case .value(let value)? = column else { return 0 }
    return switch value {
    case .bool(let flag): flag ? 1 : 0
    case .int(let number): number
    case .unsigned(let number): Int64(clamping: number)
    case .double(let number): number.isFinite ? Int64(exactly: number.rounded(.towardZero)) ?? (number < 0 ? .min : .max) : 0
    default: 0
    }
}

private func double(_ column: ColumnValue?) -> Double {
    guard case .value(let value)? = column else { return 0 }
    return switch value {
    case .bool(let flag): flag ? 1 : 0
    case .int(let number): Double(number)
    case .unsigned(let number): Double(number)
    case .double(let number): number
    default: 0
    }
}

/// The borrowed C text of column `index` (or the column titled `key`) of the
/// current row, as a string or as JSON.
private func text(_ handle: OpaquePointer?, _ index: UInt32, json: Bool) -> UnsafePointer<CChar>? {
    guard let ref = try? resultSet(handle) else { return nil }
    return json ? ref.json(Int(index)) : ref.string(Int(index))
}

private func text(_ handle: OpaquePointer?, _ key: UnsafePointer<CChar>?, json: Bool) -> UnsafePointer<CChar>? {
    guard let ref = try? resultSet(handle), let index = ref.columnIndex(key) else { return nil }
    return json ? ref.json(index) : ref.string(index)
}

@c @implementation
public func CBLResultSet_TypeAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> CBLValueType { type(of: column(rs, index)) }

@c @implementation
public func CBLResultSet_TypeForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CBLValueType { type(of: column(rs, key)) }

@c @implementation
public func CBLResultSet_BoolAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> Bool { bool(column(rs, index)) }

@c @implementation
public func CBLResultSet_BoolForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> Bool { bool(column(rs, key)) }

@c @implementation
public func CBLResultSet_IntAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> Int64 { int(column(rs, index)) }

@c @implementation
public func CBLResultSet_IntForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> Int64 { int(column(rs, key)) }

@c @implementation
public func CBLResultSet_DoubleAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> Double { double(column(rs, index)) }

@c @implementation
public func CBLResultSet_DoubleForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> Double { double(column(rs, key)) }

@c @implementation
public func CBLResultSet_StringAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> UnsafePointer<CChar>? {
    text(rs, index, json: false)
}

@c @implementation
public func CBLResultSet_StringForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    text(rs, key, json: false)
}

@c @implementation
public func CBLResultSet_JSONAtIndex(_ rs: OpaquePointer?, _ index: UInt32) -> UnsafePointer<CChar>? {
    text(rs, index, json: true)
}

@c @implementation
public func CBLResultSet_JSONForKey(_ rs: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    text(rs, key, json: true)
}

@c @implementation
public func CBLResultSet_CreateRowDictJSON(_ rs: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let row = (try? resultSet(rs))?.results.currentRow() else { return nil }
    return ownedString(row.toJSON())
}

@c @implementation
public func CBLResultSet_CreateRowArrayJSON(_ rs: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let row = (try? resultSet(rs))?.results.currentRow() else { return nil }
    return ownedString(row.toJSONArray())
}

@c @implementation
public func CBLResultSet_NextRowsJSON(_ rs: OpaquePointer?, _ maxRows: UInt32,
                                      _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    bridge(outError, failure: nil) {
        ownedString(String(decoding: try resultSet(rs).nextRows(maxRows, as: JSONRowBlock.self), as: UTF8.self))
    }
}

@c @implementation
public func CBLResultSet_NextRowsMarshal(_ rs: OpaquePointer?, _ maxRows: UInt32, _ outLength: UnsafeMutablePointer<Int>?,
                                         _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutableRawPointer? {
    bridge(outError, failure: nil) {
        let block = try resultSet(rs).nextRows(maxRows, as: MarshalRowBlock.self)
        guard let copy = malloc(block.count) else { throw DocLiteError(.memoryError, "out of memory for \(block.count) bytes") }
        block.withUnsafeBytes { UnsafeMutableRawBufferPointer(start: copy, count: block.count).copyMemory(from: $0) }
        outLength?.pointee = block.count
        return copy
    }
}
