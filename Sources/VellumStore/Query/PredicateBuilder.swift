import Foundation

/// Something usable as the right side of a built comparison.
public protocol PredicateOperand {
    var predicateExpression: QueryExpression { get }
}

extension QueryExpression: PredicateOperand { public var predicateExpression: QueryExpression { self } }
extension Value: PredicateOperand { public var predicateExpression: QueryExpression { .constant(self) } }
extension Int: PredicateOperand { public var predicateExpression: QueryExpression { .constant(.integer(Int64(self))) } }
extension Int64: PredicateOperand { public var predicateExpression: QueryExpression { .constant(.integer(self)) } }
extension Double: PredicateOperand { public var predicateExpression: QueryExpression { .constant(.double(self)) } }
extension Decimal: PredicateOperand { public var predicateExpression: QueryExpression { .constant(.decimal(self)) } }
extension String: PredicateOperand { public var predicateExpression: QueryExpression { .constant(.string(self)) } }
extension Bool: PredicateOperand { public var predicateExpression: QueryExpression { .constant(.bool(self)) } }
extension Date: PredicateOperand { public var predicateExpression: QueryExpression { .constant(.date(self)) } }
extension UUID: PredicateOperand { public var predicateExpression: QueryExpression { .constant(.uuid(self)) } }

/// A variable operand: `Key("price") > Variable("max")`.
public struct Variable: PredicateOperand, Sendable, Hashable {
    public let name: String
    public init(_ name: String) { self.name = name }
    public var predicateExpression: QueryExpression { .variable(name) }
}

/// The Swift way to build predicates:
///
///     Key("price") > 10 && Key("name").contains("tea", caseInsensitive: true)
///     Key("tags.name").any == "green"      Key("tags").count > 2
public struct Key: PredicateOperand, Sendable, Hashable {
    public let expression: QueryExpression
    var quantifier: Quantifier = .direct

    /// A dotted key path (`"provider.name"`).
    public init(_ path: String) { expression = .key(path) }
    init(expression: QueryExpression, quantifier: Quantifier = .direct) {
        self.expression = expression
        self.quantifier = quantifier
    }

    public var predicateExpression: QueryExpression { expression }

    /// `SELF`.
    public static let evaluatedObject = Key(expression: .evaluatedObject)

    public var any: Key { Key(expression: expression, quantifier: .any) }
    public var all: Key { Key(expression: expression, quantifier: .all) }
    public var none: Key { Key(expression: expression, quantifier: .none) }

    private var path: [String] { if case .keyPath(let p) = expression { return p } else { return [] } }
    /// `path.@count`.
    public var count: Key { Key(expression: .aggregate(.count, collection: path, attribute: [])) }
    public func sum(_ attribute: String) -> Key { aggregate(.sum, attribute) }
    public func avg(_ attribute: String) -> Key { aggregate(.avg, attribute) }
    public func min(_ attribute: String) -> Key { aggregate(.min, attribute) }
    public func max(_ attribute: String) -> Key { aggregate(.max, attribute) }
    private func aggregate(_ fn: AggregateFunction, _ attribute: String) -> Key {
        Key(expression: .aggregate(fn, collection: path, attribute: attribute.split(separator: ".").map(String.init)))
    }

    private func compare(_ op: ComparisonOperator, _ rhs: QueryExpression, _ options: StringOptions = []) -> QueryPredicate {
        .comparison(Comparison(expression, op, rhs, options: options, quantifier: quantifier))
    }
    private static func options(_ c: Bool, _ d: Bool) -> StringOptions {
        var o: StringOptions = []
        if c { o.insert(.caseInsensitive) }
        if d { o.insert(.diacriticInsensitive) }
        return o
    }

    public static func == (lhs: Key, rhs: some PredicateOperand) -> QueryPredicate { lhs.compare(.equal, rhs.predicateExpression) }
    public static func != (lhs: Key, rhs: some PredicateOperand) -> QueryPredicate { lhs.compare(.notEqual, rhs.predicateExpression) }
    public static func < (lhs: Key, rhs: some PredicateOperand) -> QueryPredicate { lhs.compare(.less, rhs.predicateExpression) }
    public static func <= (lhs: Key, rhs: some PredicateOperand) -> QueryPredicate { lhs.compare(.lessOrEqual, rhs.predicateExpression) }
    public static func > (lhs: Key, rhs: some PredicateOperand) -> QueryPredicate { lhs.compare(.greater, rhs.predicateExpression) }
    public static func >= (lhs: Key, rhs: some PredicateOperand) -> QueryPredicate { lhs.compare(.greaterOrEqual, rhs.predicateExpression) }

    public var isNil: QueryPredicate { compare(.equal, .constant(.null)) }
    public var isNotNil: QueryPredicate { compare(.notEqual, .constant(.null)) }

    public func `in`(_ values: [any PredicateOperand]) -> QueryPredicate { compare(.in, .list(values.map(\.predicateExpression))) }
    public func between(_ low: some PredicateOperand, _ high: some PredicateOperand) -> QueryPredicate {
        compare(.between, .list([low.predicateExpression, high.predicateExpression]))
    }
    public func contains(_ s: some PredicateOperand, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> QueryPredicate {
        compare(.contains, s.predicateExpression, Self.options(caseInsensitive, diacriticInsensitive))
    }
    public func beginsWith(_ s: some PredicateOperand, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> QueryPredicate {
        compare(.beginsWith, s.predicateExpression, Self.options(caseInsensitive, diacriticInsensitive))
    }
    public func endsWith(_ s: some PredicateOperand, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> QueryPredicate {
        compare(.endsWith, s.predicateExpression, Self.options(caseInsensitive, diacriticInsensitive))
    }
    public func like(_ pattern: some PredicateOperand, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> QueryPredicate {
        compare(.like, pattern.predicateExpression, Self.options(caseInsensitive, diacriticInsensitive))
    }
    public func matches(_ regex: some PredicateOperand, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> QueryPredicate {
        compare(.matches, regex.predicateExpression, Self.options(caseInsensitive, diacriticInsensitive))
    }
}

extension QueryPredicate {
    public static func && (lhs: QueryPredicate, rhs: QueryPredicate) -> QueryPredicate { .and(lhs, rhs) }
    public static func || (lhs: QueryPredicate, rhs: QueryPredicate) -> QueryPredicate { .or(lhs, rhs) }
    public static prefix func ! (p: QueryPredicate) -> QueryPredicate { .not(p) }
}
