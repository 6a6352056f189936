import CSQLite

/// What DocLite's table-valued functions (`doc_each`, `doc_vector_search`) share: an
/// eponymous, read-only virtual table whose table and cursor structs carry Swift state
/// (`csqlite_state_table`, `csqlite_state_cursor`). Each function is registered with a
/// ``CursorMaker`` (its table's declaration, and the state of its cursors, a
/// ``VirtualTableCursor``); ``module()`` gives a module with the shared connect,
/// disconnect, open, close, next, end and rowid, for the function to add its own plan,
/// filter and columns; ``cursor(_:as:)`` finds a cursor's state.
enum VirtualTable {
    /// How a function's table is declared and its cursors' state made.
    final class CursorMaker {
        /// `CREATE TABLE x(…)`, hidden columns for the arguments.
        let declaration: String
        /// It reads only its arguments, so that a file's schema may use it (`trusted_schema` off).
        let isInnocuous: Bool
        /// A cursor's state for the connection its table is on.
        let make: (OpaquePointer) -> VirtualTableCursor

        init(declaration: String, isInnocuous: Bool, _ make: @escaping (OpaquePointer) -> VirtualTableCursor) {
            (self.declaration, self.isInnocuous, self.make) = (declaration, isInnocuous, make)
        }
    }

    /// A connected table's state: its connection, and the maker of its cursors.
    private final class TableState {
        let db: OpaquePointer
        let maker: CursorMaker

        init(db: OpaquePointer, maker: CursorMaker) { (self.db, self.maker) = (db, maker) }
    }

    /// Registers `module` as `name` on `connection`, with `maker`.
    static func register(_ module: UnsafeMutablePointer<sqlite3_module>, as name: String, on connection: SQLiteConnection,
                         _ maker: CursorMaker) {
        sqlite3_create_module_v2(connection.handle, name, module, Unmanaged.passRetained(maker).toOpaque()) {
            Unmanaged<CursorMaker>.fromOpaque($0!).release()
        }
    }

    /// A module with the shared connect, disconnect, open and close set.
    static func module() -> UnsafeMutablePointer<sqlite3_module> {
        let module = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
        module.initialize(to: sqlite3_module())
        module.pointee.xConnect = { db, client, _, _, table, _ in
            let maker = Unmanaged<CursorMaker>.fromOpaque(client!).takeUnretainedValue()
            let rc = sqlite3_declare_vtab(db, maker.declaration)
            guard rc == SQLITE_OK else { return rc }
            if maker.isInnocuous { csqlite_vtab_innocuous(db) }
            let state = Unmanaged.passRetained(TableState(db: db!, maker: maker)).toOpaque()
            guard let connected = VirtualTable.allocate(csqlite_state_table(base: sqlite3_vtab(), state: state)) else {
                Unmanaged<TableState>.fromOpaque(state).release()
                return SQLITE_NOMEM
            }
            table!.pointee = UnsafeMutableRawPointer(connected).assumingMemoryBound(to: sqlite3_vtab.self)
            return SQLITE_OK
        }
        module.pointee.xDisconnect = { table in
            let state = UnsafeMutableRawPointer(table!).assumingMemoryBound(to: csqlite_state_table.self)
            Unmanaged<TableState>.fromOpaque(state.pointee.state!).release()
            sqlite3_free(table)
            return SQLITE_OK
        }
        module.pointee.xOpen = { table, cursor in
            let tableState = Unmanaged<TableState>.fromOpaque(
                UnsafeMutableRawPointer(table!).assumingMemoryBound(to: csqlite_state_table.self).pointee.state!).takeUnretainedValue()
            let state = Unmanaged.passRetained(tableState.maker.make(tableState.db)).toOpaque()
            guard let opened = VirtualTable.allocate(csqlite_state_cursor(base: sqlite3_vtab_cursor(), state: state)) else {
                Unmanaged<VirtualTableCursor>.fromOpaque(state).release()
                return SQLITE_NOMEM
            }
            cursor!.pointee = UnsafeMutableRawPointer(opened).assumingMemoryBound(to: sqlite3_vtab_cursor.self)
            return SQLITE_OK
        }
        module.pointee.xClose = { base in
            let state = UnsafeMutableRawPointer(base!).assumingMemoryBound(to: csqlite_state_cursor.self)
            Unmanaged<VirtualTableCursor>.fromOpaque(state.pointee.state!).release()
            sqlite3_free(base)
            return SQLITE_OK
        }
        module.pointee.xNext = { base in
            VirtualTable.cursor(base, as: VirtualTableCursor.self).index += 1
            return SQLITE_OK
        }
        module.pointee.xEof = { base in
            let cursor = VirtualTable.cursor(base, as: VirtualTableCursor.self)
            return cursor.index >= cursor.count ? 1 : 0
        }
        module.pointee.xRowid = { base, rowid in
            rowid!.pointee = Int64(VirtualTable.cursor(base, as: VirtualTableCursor.self).index)
            return SQLITE_OK
        }
        return module
    }

    /// `value` in memory from `sqlite3_malloc` (SQLite frees a table and a cursor with `sqlite3_free`).
    private static func allocate<Value>(_ value: Value) -> UnsafeMutablePointer<Value>? {
        guard let raw = sqlite3_malloc(Int32(MemoryLayout<Value>.size)) else { return nil }
        let pointer = raw.bindMemory(to: Value.self, capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }

    /// The state of cursor `base`, which its table's maker made as a `State`.
    @inline(__always)
    static func cursor<State: VirtualTableCursor>(_ base: UnsafeMutablePointer<sqlite3_vtab_cursor>?, as type: State.Type) -> State {
        let state = UnsafeMutableRawPointer(base!).assumingMemoryBound(to: csqlite_state_cursor.self)
        return unsafeDowncast(Unmanaged<VirtualTableCursor>.fromOpaque(state.pointee.state!).takeUnretainedValue(), to: State.self)
    }
}

/// A scan of a table-valued function: its rows, `count` of them, and the one it is on.
class VirtualTableCursor {
    /// The row the scan is on.
    var index = 0
    /// The number of rows.
    var count: Int { 0 }
}
