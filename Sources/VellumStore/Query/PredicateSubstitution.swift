import Foundation

extension QueryPredicate {
    /// Replaces `$variables` by constants; a name in `lists` becomes a `{…}` list
    /// (for `IN $var`). Throws when a variable has no value.
    public func substituting(_ variables: [String: Value], lists: [String: [Value]] = [:]) throws(StoreError) -> QueryPredicate {
        do { return try substitutingAll(variables, lists: lists) } catch { throw .query(error) }
    }

    func substitutingAll(_ variables: [String: Value], lists: [String: [Value]] = [:]) throws(QueryError) -> QueryPredicate {
        let p = substitutingKnown(variables, lists: lists)
        for c in p.comparisons {
            for e in [c.lhs, c.rhs] {
                if let name = e.firstVariable { throw QueryError("no value for variable $\(name)") }
            }
        }
        return p
    }

    /// Replaces the variables that have values, leaving the others.
    func substitutingKnown(_ variables: [String: Value], lists: [String: [Value]] = [:]) -> QueryPredicate {
        switch self {
        case .constant: return self
        case .comparison(var c):
            c.lhs = c.lhs.substituting(variables, lists: lists)
            c.rhs = c.rhs.substituting(variables, lists: lists)
            return .comparison(c)
        case .and(let a, let b): return .and(a.substitutingKnown(variables, lists: lists), b.substitutingKnown(variables, lists: lists))
        case .or(let a, let b): return .or(a.substitutingKnown(variables, lists: lists), b.substitutingKnown(variables, lists: lists))
        case .not(let p): return .not(p.substitutingKnown(variables, lists: lists))
        }
    }

    /// The names of the `$variables` used, sorted.
    public var variableNames: [String] {
        var names: Set<String> = []
        func walk(_ e: QueryExpression) {
            switch e {
            case .variable(let v): names.insert(v)
            case .list(let items): items.forEach(walk)
            case .subqueryCount(_, let own, let p): names.formUnion(p.variableNames.filter { $0 != own })
            case .arithmetic(_, let a, let b): walk(a); walk(b)
            default: break
            }
        }
        for c in comparisons { walk(c.lhs); walk(c.rhs) }
        return names.sorted()
    }
}

extension QueryExpression {
    func substituting(_ variables: [String: Value], lists: [String: [Value]]) -> QueryExpression {
        switch self {
        case .variable(let name):
            if let l = lists[name] { return .list(l.map { .constant($0) }) }
            if let v = variables[name] { return .constant(v) }
            return self
        case .list(let items): return .list(items.map { $0.substituting(variables, lists: lists) })
        case .arithmetic(let op, let a, let b):
            return .arithmetic(op, a.substituting(variables, lists: lists), b.substituting(variables, lists: lists))
        case .subqueryCount(let collection, let own, let p):
            // The subquery's own variable names its related objects, not a value.
            var v = variables, l = lists
            v[own] = nil; l[own] = nil
            return .subqueryCount(collection: collection, variable: own, predicate: p.substitutingKnown(v, lists: l))
        default: return self
        }
    }

    var firstVariable: String? {
        switch self {
        case .variable(let v): return v
        case .list(let items): return items.lazy.compactMap(\.firstVariable).first
        case .arithmetic(_, let a, let b): return a.firstVariable ?? b.firstVariable
        case .subqueryCount(_, let own, let p):
            return p.comparisons.lazy.flatMap { [$0.lhs, $0.rhs] }.compactMap(\.firstVariable).first { $0 != own }
        default: return nil
        }
    }
}
