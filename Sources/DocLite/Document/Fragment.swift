import Foundation

/// A value reached by subscripting a query result, a document, a dictionary or
/// an array, as Couchbase Lite's `Fragment`: `result["address"]["city"].string`,
/// `document["tags"][0].string`. An absent value reads as nil, 0 or false, and
/// subscripting it gives another absent fragment.
public struct Fragment {
    /// The value (typed as ``DictionaryProtocol/value(forKey:)``); nil when absent.
    public let value: Any?

    /// Whether there is a value here (JSON null counts where the container keeps it).
    public var exists: Bool { value != nil }
    /// The string, or nil.
    public var string: String? { value as? String }
    /// The number or boolean as `NSNumber`, or nil.
    public var number: NSNumber? { AnyNumber.number(value) }
    /// The number as `Int` (a double truncated, `true` as 1), else 0.
    public var int: Int { Int(truncatingIfNeeded: AnyNumber.int64(value)) }
    /// The number as `Int64`, else 0.
    public var int64: Int64 { AnyNumber.int64(value) }
    /// The number as `Double`, else 0.
    public var double: Double { AnyNumber.double(value) }
    /// The number as `Float`, else 0.
    public var float: Float { Float(AnyNumber.double(value)) }
    /// True for `true`, a non-zero number or any other non-null value.
    public var boolean: Bool { AnyNumber.boolean(value) }
    /// The ISO-8601 string as a `Date`, or nil.
    public var date: Date? { string.flatMap(ISO8601.date(from:)) }
    /// The array, or nil.
    public var array: ArrayObject? { value as? ArrayObject }
    /// The dictionary, or nil.
    public var dictionary: DictionaryObject? { value as? DictionaryObject }

    /// The member `key` of this dictionary.
    public subscript(key: String) -> Fragment { Fragment(value: dictionary?.value(forKey: key)) }
    /// The element `index` of this array.
    public subscript(index: Int) -> Fragment { Fragment(value: array?.value(at: index)) }
}

extension DictionaryProtocol {
    /// The property `key` as a ``Fragment``.
    public subscript(key: String) -> Fragment { Fragment(value: value(forKey: key)) }
}

extension ArrayProtocol {
    /// The value at `index` as a ``Fragment`` (absent when out of range).
    public subscript(index: Int) -> Fragment { Fragment(value: value(at: index)) }
}
