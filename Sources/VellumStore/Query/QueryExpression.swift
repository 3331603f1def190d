import Foundation

/// An aggregate function applied to a to-many key path (`items.@count`, `items.@sum.price`).
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
    case count, sum, avg, min, max
}

/// `+`, `-`, `*`, `/` between numbers.
public enum ArithmeticOperator: String, Sendable, Hashable, CaseIterable {
    case add = "+", subtract = "-", multiply = "*", divide = "/"

    /// Binding strength: `*` and `/` before `+` and `-`.
    var precedence: Int { self == .add || self == .subtract ? 1 : 2 }
}

/// One side of a comparison.
public indirect enum QueryExpression: Sendable, Hashable {
    /// A key path of property names (`price`, `provider.name`, `tags.name`).
    case keyPath([String])
    /// A literal value.
    case constant(Value)
    /// `$name`, substituted from the variables dictionary at evaluation/compilation.
    case variable(String)
    /// `SELF`: the object itself (compares with primary keys or object-ID URIs).
    case evaluatedObject
    /// `collection.@fn` or `collection.@fn.attribute`; `collection` ends at a to-many relationship.
    case aggregate(AggregateFunction, collection: [String], attribute: [String])
    /// `{a, b, c}`: the right side of `IN` and `BETWEEN`.
    case list([QueryExpression])
    /// `SUBQUERY(collection, $v, predicate).@count`: how many objects of the to-many
    /// `collection` satisfy `predicate`, in which key paths starting with `$v`
    /// (`$v.name`) read the related object and other key paths the outer object.
    case subqueryCount(collection: [String], variable: String, predicate: QueryPredicate)
    /// `a + b`, `price * qty`, … on numbers (see docs/predicates.md for nil, overflow and division).
    case arithmetic(ArithmeticOperator, QueryExpression, QueryExpression)

    /// `QueryExpression.keyPath` from a dotted string.
    public static func key(_ dotted: String) -> QueryExpression {
        .keyPath(dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }
}

extension QueryExpression: CustomStringConvertible {
    public var description: String { PredicatePrinter.expression(self) }
}
