/// Couchbase Lite's `ArrayExpression`: ANY / EVERY / ANY AND EVERY over the
/// items of an array, with a variable bound to each item.
public final class ArrayExpression {
    private init() {}

    /// True if at least one item satisfies the condition: `["ANY", "x", array, condition]`.
    public static func any(_ variable: VariableExpressionProtocol) -> ArrayExpressionIn { ArrayExpressionIn(.any, variable) }
    /// True if every item satisfies the condition (also for an empty array): `["EVERY", …]`.
    public static func every(_ variable: VariableExpressionProtocol) -> ArrayExpressionIn { ArrayExpressionIn(.every, variable) }
    /// True if the array is not empty and every item satisfies the condition: `["ANY AND EVERY", …]`.
    public static func anyAndEvery(_ variable: VariableExpressionProtocol) -> ArrayExpressionIn { ArrayExpressionIn(.anyAndEvery, variable) }

    /// A variable bound by ``any(_:)`` / ``every(_:)``; `"x.name"` is a property of the item: `["?x.name"]`.
    public static func variable(_ name: String) -> VariableExpressionProtocol { VariableExpression(name: name) }
}

/// An array variable: Couchbase Lite's `VariableExpressionProtocol`.
public protocol VariableExpressionProtocol: ExpressionProtocol {}

/// `ArrayExpression.variable`.
struct VariableExpression: VariableExpressionProtocol, ExpressionNode {
    let name: String
    var node: QueryExpression {
        switch Expression.builderPath(name) {
        case .success(let path): .variable(path)
        case .failure(let error): .invalid(error)
        }
    }
}

/// `ArrayExpression.any(x)`: names the array with ``in(_:)``.
public struct ArrayExpressionIn {
    let quantifier: Quantifier
    let variable: VariableExpressionProtocol

    init(_ quantifier: Quantifier, _ variable: VariableExpressionProtocol) {
        self.quantifier = quantifier
        self.variable = variable
    }

    /// The array whose items the variable takes.
    public func `in`(_ expression: ExpressionProtocol) -> ArrayExpressionSatisfies {
        ArrayExpressionSatisfies(quantifier: quantifier, variable: variable, array: expression)
    }
}

/// `ArrayExpression.any(x).in(array)`: the condition is given with ``satisfies(_:)``.
public struct ArrayExpressionSatisfies {
    let quantifier: Quantifier
    let variable: VariableExpressionProtocol
    let array: ExpressionProtocol

    /// The condition on each item, written with the variable.
    public func satisfies(_ expression: ExpressionProtocol) -> ExpressionProtocol {
        let name = (variable as? VariableExpression)?.name ?? ""
        return BuilderExpression(node: .quantified(quantifier, variable: name, in: array.node, satisfies: expression.node))
    }
}
