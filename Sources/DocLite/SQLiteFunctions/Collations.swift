import CICUCollation
import CSQLite
import Foundation

/// A collation of Couchbase Lite's `COLLATE` (`{"UNICODE", "CASE", "DIAC",
/// "LOCALE"}`), and the SQLite collation that implements it: `BINARY`,
/// `NOCASE` (ASCII case folding; `DIAC` is ignored, as in Couchbase Lite) or,
/// for Unicode, `LCUnicode_<C|_><D|_>_<locale>` (C: case-insensitive, D:
/// diacritic-insensitive), an ICU collator registered on demand. Public as the
/// namespace of the QueryBuilder's `Collation.ascii()` / `Collation.unicode()`.
public struct Collation: Hashable, Sendable {
    var unicode = false
    var caseSensitive = true
    var diacriticSensitive = true
    /// An ICU locale ID such as `se` or `en_US`; nil or empty is ICU's root order.
    var locale: String?

    /// Whether comparisons are plain byte comparisons.
    var isBinary: Bool { !unicode && caseSensitive }

    /// The SQLite collation name.
    var sqlName: String {
        if !unicode { return caseSensitive ? "BINARY" : "NOCASE" }
        return "LCUnicode_\(caseSensitive ? "_" : "C")\(diacriticSensitive ? "_" : "D")_\(locale ?? "")"
    }

    /// Whether `locale` can name an ICU locale (and so appear in a collation name).
    static func isValidLocale(_ locale: String) -> Bool {
        locale.utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0)
            || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

}

extension Collation {
    /// The collation a `LCUnicode_…`, `NOCASE` or `BINARY` name stands for.
    init?(sqlName name: String) {
        self.init()
        switch name.uppercased() {
        case "BINARY": return
        case "NOCASE": caseSensitive = false; return
        default: break
        }
        let prefix = "LCUnicode_"
        let bytes = Array(name.utf8)
        guard name.hasPrefix(prefix), bytes.count >= prefix.utf8.count + 3, bytes[prefix.utf8.count + 2] == UInt8(ascii: "_") else { return nil }
        let flags = bytes[prefix.utf8.count...]
        unicode = true
        caseSensitive = flags[flags.startIndex] != UInt8(ascii: "C")
        diacriticSensitive = flags[flags.startIndex + 1] != UInt8(ascii: "D")
        let locale = String(decoding: flags.dropFirst(3), as: UTF8.self)
        guard Self.isValidLocale(locale) else { return nil }
        self.locale = locale.isEmpty ? nil : locale
    }

}

/// How LIKE and `contains` compare text under a collation: both sides
/// case-folded unless case-sensitive, accents removed unless
/// diacritic-sensitive (ASCII folding only for `NOCASE`). Made once per
/// statement (SQLite auxiliary data), so that rows pay only for the folding.
final class CollationFolding {
    private let unicode: Bool
    private let caseSensitive: Bool
    private let options: String.CompareOptions
    private let locale: Locale?

    /// The folding of the collation named `sqlName`; nil for an unknown name.
    init?(sqlName: UnsafeRawBufferPointer) {
        guard let collation = Collation(sqlName: String(decoding: sqlName, as: UTF8.self)) else { return nil }
        unicode = collation.unicode
        caseSensitive = collation.caseSensitive
        var options: String.CompareOptions = []
        if !collation.caseSensitive { options.insert(.caseInsensitive) }
        if !collation.diacriticSensitive { options.insert(.diacriticInsensitive) }
        self.options = options
        locale = collation.locale.map(Locale.init(identifier:))
    }

    /// `text` (UTF-8) folded.
    func fold(_ text: UnsafeRawBufferPointer) -> [UInt8] {
        if !unicode {
            return caseSensitive ? Array(text) : text.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        }
        let string = String(decoding: text, as: UTF8.self)
        return Array((options.isEmpty ? string : string.folding(options: options, locale: locale)).utf8)
    }
}

/// Registers the Unicode collations on a connection as SQLite first asks for
/// each (`sqlite3_collation_needed`): one ICU collator per collation and
/// connection; and `doc_like_collated(value, pattern, collation)`, LIKE under a
/// non-binary collation (both sides folded by ``CollationFolding``; MISSING
/// and null propagate; other blobs never match).
enum Collations {
    static func register(with registrar: FunctionRegistrar) {
        registrar.add("doc_like_collated", 3, readsSubtypes: false) { context, _, argv in
            let value = argv![0], pattern = argv![1]
            for argument in [value, pattern] {
                switch sqlite3_value_type(argument) {
                case SQLITE_NULL: sqlite3_result_null(context); return
                case SQLITE_BLOB where sqlite3_value_bytes(argument) == 0: sqlite3_result_zeroblob(context, 0); return
                default: break
                }
            }
            guard sqlite3_value_type(value) != SQLITE_BLOB else { sqlite3_result_int(context, 0); return }
            let matched = BodyFunctions.withAuxiliary(context, argument: 1, argv, {
                guard let folding = CollationFolding(sqlName: BodyFunctions.rawText(argv![2])) else {
                    throw DocLiteError(.invalidQuery, "unknown collation")
                }
                let pattern = folding.fold(BodyFunctions.rawText(pattern)).withUnsafeBytes { LikePattern($0) }
                return BodyFunctions.Cached((folding, pattern))
            }) { cached in
                cached.value.0.fold(BodyFunctions.rawText(value)).withUnsafeBytes { cached.value.1.matches($0) }
            }
            if let matched { sqlite3_result_int(context, matched ? 1 : 0) }
        }
        sqlite3_collation_needed(registrar.connection.handle, nil) { _, db, _, name in
            guard let name, let collation = Collation(sqlName: String(cString: name)), collation.unicode,
                  let collator = UnicodeCollator(collation) else { return }
            let pointer = Unmanaged.passRetained(collator).toOpaque()
            sqlite3_create_collation_v2(db, name, SQLITE_UTF8, pointer, { context, aLength, a, bLength, b in
                Unmanaged<UnicodeCollator>.fromOpaque(context!).takeUnretainedValue().compare(a, aLength, b, bLength)
            }, { Unmanaged<UnicodeCollator>.fromOpaque($0!).release() })
        }
    }
}

/// An ICU collator for a Unicode ``Collation`` (strength as in Couchbase Lite:
/// see `doclite_collation.h`).
final class UnicodeCollator {
    private let handle: OpaquePointer

    init?(_ collation: Collation) {
        guard let handle = doclite_collator_open(collation.locale ?? "", collation.caseSensitive ? 1 : 0,
                                                 collation.diacriticSensitive ? 1 : 0) else { return nil }
        self.handle = handle
    }

    deinit { doclite_collator_close(handle) }

    /// The order of two UTF-8 strings.
    func compare(_ a: UnsafeRawPointer?, _ aLength: Int32, _ b: UnsafeRawPointer?, _ bLength: Int32) -> Int32 {
        doclite_collator_compare(handle, a, aLength, b, bLength)
    }
}
