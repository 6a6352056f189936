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
        let keysPointer = Unmanaged.passRetained(registrar.keys).toOpaque()
        sqlite3_create_module_v2(registrar.connection.handle, "doc_each", module, keysPointer) {
            Unmanaged<SharedKeys>.fromOpaque($0!).release()
        }
    }

    /// Column numbers, as declared in `xConnect`.
    private static let keyColumn: Int32 = 0, valueColumn: Int32 = 1, inputColumn: Int32 = 2, elementColumn: Int32 = 3

    /// The rows of one scan: a copy of the container and its children's offsets.
    private final class Cursor {
        let keys: SharedKeys
        var container: [UInt8] = []
        var offsets: [Int] = []
        /// The members' keys, for a dict.
        var memberKeys: [[UInt8]] = []
        /// The input itself, when it is a scalar: the one row's value.
        var scalar: OpaquePointer?
        var index = 0

        init(keys: SharedKeys) { self.keys = keys }

        deinit { sqlite3_value_free(scalar) }

        /// The number of rows.
        var count: Int { scalar == nil ? offsets.count : 1 }

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
        let each = UnsafeMutableRawPointer(base!).assumingMemoryBound(to: csqlite_each_cursor.self)
        return Unmanaged<Cursor>.fromOpaque(each.pointee.state!).takeUnretainedValue()
    }

    /// The module: eponymous only (no CREATE VIRTUAL TABLE), read-only. Set
    /// up once and never written after, so sharing it across threads is safe.
    nonisolated(unsafe) private static let module: UnsafeMutablePointer<sqlite3_module> = {
        let module = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
        module.initialize(to: sqlite3_module())
        module.pointee.xConnect = { db, keys, _, _, table, _ in
            let rc = sqlite3_declare_vtab(db, "CREATE TABLE x(key, value, input HIDDEN, element)")
            guard rc == SQLITE_OK else { return rc }
            // It reads only its argument: usable from DocLite's array-index triggers with `trusted_schema` off.
            csqlite_vtab_innocuous(db)
            guard let raw = sqlite3_malloc(Int32(MemoryLayout<csqlite_each_table>.size)) else { return SQLITE_NOMEM }
            let each = raw.bindMemory(to: csqlite_each_table.self, capacity: 1)
            each.initialize(to: csqlite_each_table())
            each.pointee.keys = keys
            table!.pointee = UnsafeMutableRawPointer(each).assumingMemoryBound(to: sqlite3_vtab.self)
            return SQLITE_OK
        }
        module.pointee.xDisconnect = { table in
            sqlite3_free(table)
            return SQLITE_OK
        }
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
        module.pointee.xOpen = { table, cursor in
            guard let raw = sqlite3_malloc(Int32(MemoryLayout<csqlite_each_cursor>.size)) else { return SQLITE_NOMEM }
            let each = raw.bindMemory(to: csqlite_each_cursor.self, capacity: 1)
            each.initialize(to: csqlite_each_cursor())
            let keysPointer = UnsafeMutableRawPointer(table!).assumingMemoryBound(to: csqlite_each_table.self).pointee.keys!
            let keys = Unmanaged<SharedKeys>.fromOpaque(keysPointer).takeUnretainedValue()
            each.pointee.state = Unmanaged.passRetained(Cursor(keys: keys)).toOpaque()
            cursor!.pointee = UnsafeMutableRawPointer(each).assumingMemoryBound(to: sqlite3_vtab_cursor.self)
            return SQLITE_OK
        }
        module.pointee.xClose = { base in
            let each = UnsafeMutableRawPointer(base!).assumingMemoryBound(to: csqlite_each_cursor.self)
            Unmanaged<Cursor>.fromOpaque(each.pointee.state!).release()
            sqlite3_free(base)
            return SQLITE_OK
        }
        module.pointee.xFilter = { base, plan, _, argc, argv in
            let cursor = EachTable.cursor(base)
            cursor.load(plan == 1 && argc == 1 ? argv![0] : nil)
            return SQLITE_OK
        }
        module.pointee.xNext = { base in
            EachTable.cursor(base).index += 1
            return SQLITE_OK
        }
        module.pointee.xEof = { base in
            let cursor = EachTable.cursor(base)
            return cursor.index >= cursor.count ? 1 : 0
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
        module.pointee.xRowid = { base, rowid in
            rowid!.pointee = Int64(EachTable.cursor(base).index)
            return SQLITE_OK
        }
        return module
    }()
}
