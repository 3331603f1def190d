import Foundation

/// Something usable as the right side of a built comparison.
public protocol PredicateOperand {
    var predicateExpression: Expression { get }
}

extension Expression: PredicateOperand { public var predicateExpression: Expression { self } }
extension Value: PredicateOperand { public var predicateExpression: Expression { .constant(self) } }
extension Int: PredicateOperand { public var predicateExpression: Expression { .constant(.integer(Int64(self))) } }
extension Int64: PredicateOperand { public var predicateExpression: Expression { .constant(.integer(self)) } }
extension Double: PredicateOperand { public var predicateExpression: Expression { .constant(.double(self)) } }
extension Decimal: PredicateOperand { public var predicateExpression: Expression { .constant(.decimal(self)) } }
extension String: PredicateOperand { public var predicateExpression: Expression { .constant(.string(self)) } }
extension Bool: PredicateOperand { public var predicateExpression: Expression { .constant(.bool(self)) } }
extension Date: PredicateOperand { public var predicateExpression: Expression { .constant(.date(self)) } }
extension UUID: PredicateOperand { public var predicateExpression: Expression { .constant(.uuid(self)) } }

/// A variable operand: `Key("price") > Variable("max")`.
public struct Variable: PredicateOperand, Sendable, Hashable {
    public let name: String
    public init(_ name: String) { self.name = name }
    public var predicateExpression: Expression { .variable(name) }
}

/// The Swift way to build predicates:
///
///     Key("price") > 10 && Key("name").contains("tea", caseInsensitive: true)
///     Key("tags.name").any == "green"      Key("tags").count > 2
public struct Key: PredicateOperand, Sendable, Hashable {
    public let expression: Expression
    var quantifier: Quantifier = .direct

    /// A dotted key path (`"provider.name"`).
    public init(_ path: String) { expression = .key(path) }
    init(expression: Expression, quantifier: Quantifier = .direct) {
        self.expression = expression
        self.quantifier = quantifier
    }

    public var predicateExpression: Expression { expression }

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

    private func compare(_ op: ComparisonOperator, _ rhs: Expression, _ options: StringOptions = []) -> Predicate {
        .comparison(Comparison(expression, op, rhs, options: options, quantifier: quantifier))
    }
    private static func options(_ c: Bool, _ d: Bool) -> StringOptions {
        var o: StringOptions = []
        if c { o.insert(.caseInsensitive) }
        if d { o.insert(.diacriticInsensitive) }
        return o
    }

    public static func == (lhs: Key, rhs: some PredicateOperand) -> Predicate { lhs.compare(.equal, rhs.predicateExpression) }
    public static func != (lhs: Key, rhs: some PredicateOperand) -> Predicate { lhs.compare(.notEqual, rhs.predicateExpression) }
    public static func < (lhs: Key, rhs: some PredicateOperand) -> Predicate { lhs.compare(.less, rhs.predicateExpression) }
    public static func <= (lhs: Key, rhs: some PredicateOperand) -> Predicate { lhs.compare(.lessOrEqual, rhs.predicateExpression) }
    public static func > (lhs: Key, rhs: some PredicateOperand) -> Predicate { lhs.compare(.greater, rhs.predicateExpression) }
    public static func >= (lhs: Key, rhs: some PredicateOperand) -> Predicate { lhs.compare(.greaterOrEqual, rhs.predicateExpression) }

    public var isNil: Predicate { compare(.equal, .constant(.null)) }
    public var isNotNil: Predicate { compare(.notEqual, .constant(.null)) }

    public func `in`(_ values: [any PredicateOperand]) -> Predicate { compare(.in, .list(values.map(\.predicateExpression))) }
    public func between(_ low: some PredicateOperand, _ high: some PredicateOperand) -> Predicate {
        compare(.between, .list([low.predicateExpression, high.predicateExpression]))
    }
    public func contains(_ s: some PredicateOperand, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> Predicate {
        compare(.contains, s.predicateExpression, Self.options(caseInsensitive, diacriticInsensitive))
    }
    public func beginsWith(_ s: some PredicateOperand, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> Predicate {
        compare(.beginsWith, s.predicateExpression, Self.options(caseInsensitive, diacriticInsensitive))
    }
    public func endsWith(_ s: some PredicateOperand, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> Predicate {
        compare(.endsWith, s.predicateExpression, Self.options(caseInsensitive, diacriticInsensitive))
    }
    public func like(_ pattern: some PredicateOperand, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> Predicate {
        compare(.like, pattern.predicateExpression, Self.options(caseInsensitive, diacriticInsensitive))
    }
    public func matches(_ regex: some PredicateOperand, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> Predicate {
        compare(.matches, regex.predicateExpression, Self.options(caseInsensitive, diacriticInsensitive))
    }
}

extension Predicate {
    public static func && (lhs: Predicate, rhs: Predicate) -> Predicate { .and(lhs, rhs) }
    public static func || (lhs: Predicate, rhs: Predicate) -> Predicate { .or(lhs, rhs) }
    public static prefix func ! (p: Predicate) -> Predicate { .not(p) }
}
