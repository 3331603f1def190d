import Foundation

/// A comparison operator of the predicate language.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case between = "BETWEEN"
    case `in` = "IN"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case matches = "MATCHES"

    /// The operators that only apply to strings.
    public var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches: return true
        default: return false
        }
    }
}

/// `[c]`, `[d]`, `[cd]` string comparison options.
public struct StringOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let caseInsensitive = StringOptions(rawValue: 1)
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
}

/// How a comparison whose left key path crosses a to-many relationship is applied.
public enum Quantifier: String, Sendable, Hashable, CaseIterable {
    /// No quantifier: the key path must not cross a to-many.
    case direct = ""
    /// `ANY` (also spelled `SOME`): at least one related object satisfies it.
    case any = "ANY"
    /// `ALL`: every related object satisfies it (true when there are none).
    case all = "ALL"
    /// `NONE`: no related object satisfies it.
    case none = "NONE"
}

/// `lhs op[options] rhs`, optionally quantified.
public struct Comparison: Sendable, Hashable {
    public var lhs: QueryExpression
    public var op: ComparisonOperator
    public var rhs: QueryExpression
    public var options: StringOptions
    public var quantifier: Quantifier

    public init(_ lhs: QueryExpression, _ op: ComparisonOperator, _ rhs: QueryExpression,
                options: StringOptions = [], quantifier: Quantifier = .direct) {
        self.lhs = lhs
        self.op = op
        self.rhs = rhs
        self.options = options
        self.quantifier = quantifier
    }
}

/// A predicate: the filter of a fetch, evaluated in SQL (`QueryCompiler`) or in
/// memory (`evaluate`) with the same NSPredicate semantics. Parse one with
/// `QueryPredicate(format:)`, build one with `Key`, print one with `format`.
public indirect enum QueryPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` / `FALSEPREDICATE`.
    case constant(Bool)
    case comparison(Comparison)
    case and(QueryPredicate, QueryPredicate)
    case or(QueryPredicate, QueryPredicate)
    case not(QueryPredicate)

    public static let `true` = QueryPredicate.constant(true)
    public static let `false` = QueryPredicate.constant(false)

    /// Every comparison in the tree, depth first.
    public var comparisons: [Comparison] {
        switch self {
        case .constant: return []
        case .comparison(let c): return [c]
        case .and(let a, let b), .or(let a, let b): return a.comparisons + b.comparisons
        case .not(let p): return p.comparisons
        }
    }
}

extension QueryPredicate: CustomStringConvertible {
    /// The predicate in format syntax; parsing it yields an equal predicate.
    public var description: String { format }
    public var format: String { PredicatePrinter.predicate(self) }
}
