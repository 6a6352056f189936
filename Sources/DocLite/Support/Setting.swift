/// The value types of the builders (collations, index builders, data sources,
/// joins) return changed copies: `collation.ignoreCase(true)`.
protocol Setting {}

extension Setting {
    /// A copy with `property` set to `value`.
    func setting<Value>(_ property: WritableKeyPath<Self, Value>, to value: Value) -> Self {
        var copy = self
        copy[keyPath: property] = value
        return copy
    }
}
