import CSQLite

/// A Swift object kept for one group of an aggregate in SQLite's aggregate
/// context (a retained reference, made on the group's first row and released by
/// the final call).
enum AggregateState {
    /// The group's object, made by `make` on first use; nil when SQLite has no memory for it.
    static func current<State: AnyObject>(_ context: OpaquePointer?, make: () -> State) -> State? {
        guard let slot = slot(context, create: true) else { return nil }
        if let existing = slot.pointee { return Unmanaged<State>.fromOpaque(existing).takeUnretainedValue() }
        let state = Unmanaged.passRetained(make())
        slot.pointee = UnsafeRawPointer(state.toOpaque())
        return state.takeUnretainedValue()
    }

    /// The group's object for the final call, released; nil when the group had no row.
    static func final<State: AnyObject>(_ context: OpaquePointer?, as type: State.Type) -> State? {
        guard let existing = slot(context, create: false)?.pointee else { return nil }
        return Unmanaged<State>.fromOpaque(existing).takeRetainedValue()
    }

    private static func slot(_ context: OpaquePointer?, create: Bool) -> UnsafeMutablePointer<UnsafeRawPointer?>? {
        sqlite3_aggregate_context(context, create ? Int32(MemoryLayout<UnsafeRawPointer?>.size) : 0)?
            .assumingMemoryBound(to: UnsafeRawPointer?.self)
    }
}
