import Foundation

/// A collation for ``ExpressionProtocol/collate(_:)``: Couchbase Lite's `CollationProtocol`.
public protocol CollationProtocol: Sendable {}

extension Collation {
    /// ASCII collation: byte order, optionally ignoring ASCII case.
    public static func ascii() -> ASCIICollation { ASCIICollation() }
    /// Unicode collation (ICU): optionally ignoring case and accents, in a locale.
    public static func unicode() -> UnicodeCollation { UnicodeCollation() }
}

/// `Collation.ascii()`: `{"UNICODE": false, "LOCALE": null, "CASE": …, "DIAC": true}`.
public struct ASCIICollation: CollationProtocol, Setting {
    var ignoresCase = false

    /// Whether upper- and lower-case ASCII letters compare equal (`"CASE": false`).
    public func ignoreCase(_ ignoreCase: Bool) -> ASCIICollation { setting(\.ignoresCase, to: ignoreCase) }
}

/// `Collation.unicode()`: `{"UNICODE": true, "LOCALE": …, "CASE": …, "DIAC": …}`.
public struct UnicodeCollation: CollationProtocol, Setting {
    var ignoresCase = false
    var ignoresAccents = false
    var localeID: String?

    /// Whether letters differing only in case compare equal (`"CASE": false`).
    public func ignoreCase(_ ignoreCase: Bool) -> UnicodeCollation { setting(\.ignoresCase, to: ignoreCase) }

    /// Whether letters differing only in accents compare equal (`"DIAC": false`).
    public func ignoreAccents(_ ignoreAccents: Bool) -> UnicodeCollation { setting(\.ignoresAccents, to: ignoreAccents) }

    /// The ICU locale (`"en_US"`, `"se"`); nil is the current locale.
    public func locale(_ locale: String?) -> UnicodeCollation { setting(\.localeID, to: locale) }
}

extension CollationProtocol {
    /// The `COLLATE` options.
    var queryCollation: QueryCollation {
        switch self {
        case let ascii as ASCIICollation:
            return QueryCollation(unicode: false, caseSensitive: !ascii.ignoresCase, diacriticSensitive: true, locale: .some(nil))
        case let unicode as UnicodeCollation:
            return QueryCollation(unicode: true, caseSensitive: !unicode.ignoresCase, diacriticSensitive: !unicode.ignoresAccents,
                                  locale: .some(unicode.localeID ?? Locale.current.identifier))
        default:
            return QueryCollation()
        }
    }
}

extension ExpressionProtocol {
    /// This expression compared (`=`, `<`, ORDER BY, LIKE, …) under `collation`:
    /// `["COLLATE", {"UNICODE": …, "LOCALE": …, "CASE": …, "DIAC": …}, e]`.
    public func collate(_ collation: CollationProtocol) -> ExpressionProtocol {
        BuilderExpression(node: .collate(collation.queryCollation, node))
    }
}
