/// A document's meta property, as a query names it: `["._id"]` (the shortcut,
/// after the source alias if any) or `["_.", ["META()"], "id"]`. Names are
/// matched ignoring case, as LiteCore does (`._ID`, `META().Id`).
enum MetaProperty: String, CaseIterable {
    case id, sequence, deleted, expiration, revisionID, rowid

    /// The property named `name` (`id`, `revisionid`…), ignoring case.
    init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }

    /// The property whose shortcut key is `key` (`_id`, `_SEQUENCE`…), ignoring case.
    init?(shortcut key: String) {
        guard key.hasUTF8Prefix("_") else { return nil }
        self.init(name: key.droppingUTF8(first: 1))
    }

    /// The shortcut key: `_id`, `_sequence`, …
    var shortcut: String { "_" + rawValue }
}
