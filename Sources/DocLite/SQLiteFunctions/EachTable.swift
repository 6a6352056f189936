import CSQLite

/// `doc_each(value)`: a table-valued function with one row per element of an
/// array, or per member of a dict, held in a runtime value (a container blob):
/// column `key` is the member's key (NULL for array elements), column `value`
/// the element as a runtime value (``RuntimeSubtype``), column `element` the
/// element in result form (a boolean encoded: UNNEST reads it through
/// `doc_element`, as it reads an array index's elements, so that a boolean
/// keeps its type where SQLite drops subtypes). A scalar (JSON null included)
/// is one row holding itself, as in LiteCore's `fl_each`; MISSING has no rows.
/// ANY / EVERY and UNNEST compile to it.
enum EachTable {
    /// Registers `doc_each`; dict keys are read with the registrar's keys.
    static func register(with registrar: FunctionRegistrar) {
        let keys = registrar.keys
        // It reads only its argument: usable from a file's schema with `trusted_schema` off.
        VirtualTable.register(module, as: "doc_each", on: registrar.connection, VirtualTable.CursorMaker(
            declaration: "CREATE TABLE x(key, value, input HIDDEN, element)", isInnocuous: true) { _ in Cursor(keys: keys) })
    }

    /// Column numbers, as declared.
    private static let keyColumn: Int32 = 0, valueColumn: Int32 = 1, inputColumn: Int32 = 2, elementColumn: Int32 = 3

    /// The rows of one scan: a copy of the container and its children's offsets.
    private final class Cursor: VirtualTableCursor {
        let keys: SharedKeys
        var container: [UInt8] = []
        var offsets: [Int] = []
        /// The members' keys, for a dict.
        var memberKeys: [[UInt8]] = []
        /// The input itself, when it is a scalar: the one row's value.
        var scalar: OpaquePointer?

        init(keys: SharedKeys) { self.keys = keys }

        deinit { sqlite3_value_free(scalar) }

        /// The number of rows.
        override var count: Int { scalar == nil ? offsets.count : 1 }

        func load(_ value: OpaquePointer?) {
            container = []
            offsets = []
            memberKeys = []
            sqlite3_value_free(scalar)
            scalar = nil
            index = 0
            guard let value, sqlite3_value_type(value) != SQLITE_NULL else { return }   // MISSING
            guard sqlite3_value_type(value) == SQLITE_BLOB, let blob = sqlite3_value_blob(value) else {
                scalar = sqlite3_value_dup(value)   // text or a number (a boolean keeps its subtype)
                return
            }
            container = Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_value_bytes(value))))
            container.withUnsafeBytes { bytes in
                let body = Body(bytes)
                switch body.type(at: 0) {
                case .array:
                    body.forEachElement(ofArrayAt: 0) { offsets.append($0) }
                case .dictionary:
                    body.forEachMember(ofDictAt: 0, keys: keys) { key, offset in
                        memberKeys.append(Array(key))
                        offsets.append(offset)
                    }
                default:
                    scalar = sqlite3_value_dup(value)   // JSON null (an empty blob), or an encoded scalar
                }
            }
        }
    }

    private static func cursor(_ base: UnsafeMutablePointer<sqlite3_vtab_cursor>?) -> Cursor {
        VirtualTable.cursor(base, as: Cursor.self)
    }

    /// The module, set up once and never written after, so sharing it across threads is safe.
    nonisolated(unsafe) private static let module: UnsafeMutablePointer<sqlite3_module> = {
        let module = VirtualTable.module()
        module.pointee.xBestIndex = { _, info in
            // The only plan: the container is given (`doc_each(x)` binds the hidden column).
            let info = info!
            for i in 0..<Int(info.pointee.nConstraint) {
                let constraint = info.pointee.aConstraint[i]
                guard constraint.iColumn == EachTable.inputColumn, constraint.op == UInt8(SQLITE_INDEX_CONSTRAINT_EQ) else { continue }
                guard constraint.usable != 0 else { return SQLITE_CONSTRAINT }
                info.pointee.aConstraintUsage[i].argvIndex = 1
                info.pointee.aConstraintUsage[i].omit = 1
                info.pointee.idxNum = 1
                info.pointee.estimatedCost = 10
                info.pointee.estimatedRows = 10
                return SQLITE_OK
            }
            info.pointee.idxNum = 0   // no container: no rows
            info.pointee.estimatedCost = 1e12
            return SQLITE_OK
        }
        module.pointee.xFilter = { base, plan, _, argc, argv in
            let cursor = EachTable.cursor(base)
            cursor.load(plan == 1 && argc == 1 ? argv![0] : nil)
            return SQLITE_OK
        }
        module.pointee.xColumn = { base, context, column in
            let cursor = EachTable.cursor(base)
            switch column {
            case EachTable.keyColumn where cursor.index < cursor.memberKeys.count:
                cursor.memberKeys[cursor.index].withUnsafeBytes { FunctionResult.setText(context, $0) }
            case EachTable.valueColumn:
                if let scalar = cursor.scalar {
                    sqlite3_result_value(context, scalar)
                } else {
                    cursor.container.withUnsafeBytes { RuntimeSubtype.setResult(context, Body($0), at: cursor.offsets[cursor.index]) }
                }
            case EachTable.elementColumn:
                if let scalar = cursor.scalar {
                    FunctionResult.setResultForm(context, scalar)
                } else {
                    cursor.container.withUnsafeBytes { RuntimeSubtype.setResultColumn(context, Body($0), at: cursor.offsets[cursor.index]) }
                }
            default:
                sqlite3_result_null(context)
            }
            return SQLITE_OK
        }
        return module
    }()
}
