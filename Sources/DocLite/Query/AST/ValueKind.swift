/// What an expression's value is, as far as its compiled SQL tells it.
enum ValueKind {
    /// 0 or 1 meaning false or true (comparisons, logic).
    case boolean
    /// A value whose SQL storage class says what it is (numbers, text, MISSING, null and container blobs).
    case scalar
    /// A runtime value that may be a boolean integer marked by subtype (document properties, CASE, …).
    case any
}
