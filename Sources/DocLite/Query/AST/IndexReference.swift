/// The full-text index a `MATCH()` or `RANK()` names, written as one string:
/// `"index"`, or `"alias.index"` for the index of one data source, the alias's
/// `.`, `$` and `[` escaped with `\` (LiteCore's form).
struct IndexReference: Equatable {
    var alias: String?
    var index: String

    init(alias: String?, index: String) {
        self.alias = alias
        self.index = index
    }

    /// Reads the string form: the alias ends at the first unescaped `.`.
    init(_ text: String) {
        var alias: [UInt8] = [], rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: ".") {
                self.init(alias: String(decoding: alias, as: UTF8.self), index: String(decoding: rest, as: UTF8.self))
                return
            }
            alias.append(byte == UInt8(ascii: "\\") ? rest.popFirst() ?? byte : byte)
        }
        self.init(alias: nil, index: text)
    }

    /// The string form.
    var text: String {
        guard let alias else { return index }
        var escaped: [UInt8] = []
        for byte in alias.utf8 {
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "[") { escaped.append(UInt8(ascii: "\\")) }
            escaped.append(byte)
        }
        return String(decoding: escaped, as: UTF8.self) + "." + index
    }
}
