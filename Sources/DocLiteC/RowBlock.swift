import DocLite

/// The forms a block of rows crosses to a binding in (CBLResultSet_NextRowsJSON,
/// CBLResultSet_NextRowsMarshal): a list of rows, each a list of the bitmask of its
/// MISSING columns (bit i: column i, as LiteCore's missingColumns) then its values,
/// MISSING as null. Written from the rows read in place: no tree of them is built.
protocol RowBlockFormat {
    /// Appends column `value` (nil: MISSING, written as null).
    static func append(_ value: ColumnValue?, to out: inout [UInt8])
    /// Appends a row: its header and mask, then `values` (its `columns` values as `append` wrote them).
    static func appendRow(missing: Int64, columns: Int, values: [UInt8], to out: inout [UInt8], isFirst: Bool)
    /// Starts the block in `out`.
    static func begin(_ out: inout [UInt8])
    /// Ends the block of `rows` rows in `out`, which `begin` started.
    static func end(rows: Int, _ out: inout [UInt8])
}

extension ResultSetRef {
    /// Reads up to `maxRows` rows into one block of `format`.
    func nextRows<Format: RowBlockFormat>(_ maxRows: UInt32, as format: Format.Type) throws -> [UInt8] {
        var block: [UInt8] = []
        Format.begin(&block)
        var values: [UInt8] = []
        var count = 0
        let columns = results.columnNames.count
        while count < Int(maxRows), try next() {
            var missing: Int64 = 0
            values.removeAll(keepingCapacity: true)
            for index in 0..<columns {
                let value = results.column(index)
                if value == nil, index < 63 { missing |= 1 << index }
                Format.append(value, to: &values)
            }
            Format.appendRow(missing: missing, columns: columns, values: values, to: &block, isFirst: count == 0)
            count += 1
        }
        Format.end(rows: count, &block)
        return block
    }
}

/// JSON text: `[[0,"Grand",120],[2,"Ibis",null]]`.
enum JSONRowBlock: RowBlockFormat {
    static func append(_ value: ColumnValue?, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        if let value { value.appendJSON(to: &out) } else { out.append(contentsOf: "null".utf8) }
    }

    static func appendRow(missing: Int64, columns: Int, values: [UInt8], to out: inout [UInt8], isFirst: Bool) {
        if !isFirst { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "["))
        out.append(contentsOf: String(missing).utf8)
        out.append(contentsOf: values)
        out.append(UInt8(ascii: "]"))
    }

    static func begin(_ out: inout [UInt8]) { out.append(UInt8(ascii: "[")) }

    static func end(rows: Int, _ out: inout [UInt8]) { out.append(UInt8(ascii: "]")) }
}

/// Python's marshal form (what `marshal.loads` reads: lists, str, int, float, bool,
/// None and dict, no references), which Python decodes without parsing text.
enum MarshalRowBlock: RowBlockFormat {
    static func append(_ value: ColumnValue?, to out: inout [UInt8]) {
        switch value {
        case nil: out.append(PythonMarshal.none)
        case .text(let text, let count)?:
            text.withMemoryRebound(to: UInt8.self, capacity: count) {
                PythonMarshal.appendString(UnsafeBufferPointer(start: $0, count: count), to: &out)
            }
        case .value(let value)?: PythonMarshal.append(value, to: &out)
        }
    }

    static func appendRow(missing: Int64, columns: Int, values: [UInt8], to out: inout [UInt8], isFirst: Bool) {
        PythonMarshal.appendListHeader(count: columns + 1, to: &out)
        PythonMarshal.appendInt(missing, to: &out)
        out.append(contentsOf: values)
    }

    /// The list's header, its count written by `end` once known.
    static func begin(_ out: inout [UInt8]) { PythonMarshal.appendListHeader(count: 0, to: &out) }

    static func end(rows: Int, _ out: inout [UInt8]) {
        var header: [UInt8] = []
        PythonMarshal.appendListHeader(count: rows, to: &header)
        out.replaceSubrange(0..<header.count, with: header)
    }
}
