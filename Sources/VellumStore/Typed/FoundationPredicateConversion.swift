import Foundation

/// Reads Foundation's `#Predicate` over generated types into the predicate AST the
/// string syntax parses to. Its expression tree is walked through the conformances
/// below (comparisons, `&&`, `||`, `!`, `contains`, `starts(with:)`, optional
/// chaining through to-one relationships, nil checks); any other expression is
/// refused with a `StoreError.query` naming it.
struct FoundationPredicateConversion {
    /// One converted node: a condition, a key path from the fetched entity, or a constant.
    enum Term {
        case condition(QueryPredicate)
        case keyPath([String])
        case constant(Value)
    }

    /// The key path each variable stands for: the predicate's input is `[]`, an
    /// optional chain's variable is the key path it unwraps.
    var variables: [PredicateExpressions.VariableID: [String]]

    static func predicate<Root>(of predicate: Foundation.Predicate<Root>) throws(StoreError) -> QueryPredicate {
        try FoundationPredicateConversion(variables: [predicate.variable.key: []]).condition(predicate.expression)
    }

    func term(_ expression: Any) throws(StoreError) -> Term {
        guard let convertible = expression as? any ConvertiblePredicateExpression else { throw Self.unsupported(expression) }
        return try convertible.term(in: self)
    }

    /// A node used as a condition; a Boolean key path alone means "is true".
    func condition(_ expression: Any) throws(StoreError) -> QueryPredicate {
        switch try term(expression) {
        case .condition(let p): return p
        case .keyPath(let names): return .comparison(Comparison(.keyPath(names), .equal, .constant(.bool(true))))
        case .constant(.bool(let b)): return .constant(b)
        case .constant: throw Self.unsupported(expression)
        }
    }

    /// A comparison of two nodes, at least one a key path.
    func comparison(_ lhs: Any, _ op: ComparisonOperator, _ rhs: Any, in expression: Any) throws(StoreError) -> Term {
        switch (try term(lhs), try term(rhs)) {
        case (.keyPath(let k), .constant(let v)): return .condition(.comparison(Comparison(.keyPath(k), op, .constant(v))))
        case (.constant(let v), .keyPath(let k)): return .condition(.comparison(Comparison(.constant(v), op, .keyPath(k))))
        case (.keyPath(let a), .keyPath(let b)): return .condition(.comparison(Comparison(.keyPath(a), op, .keyPath(b))))
        default: throw Self.unsupported(expression)
        }
    }

    /// The error naming an expression (its type, without generic arguments) and what is supported.
    static func unsupported(_ expression: Any) -> StoreError {
        let full = String(describing: type(of: expression))
        let name = full.firstIndex(of: "<").map { String(full[..<$0]) } ?? full
        return .query(QueryError("#Predicate: \(name) is not supported (comparisons, &&, ||, !, contains, starts(with:), "
                                 + "optional chaining through to-one relationships and nil checks are)"))
    }

    /// A constant as a `Value` (nil of any optional is null; a Character is a string).
    static func value(_ constant: Any, in expression: Any) throws(StoreError) -> Value {
        let mirror = Mirror(reflecting: constant)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return .null }
            return try value(wrapped, in: expression)
        }
        if let c = constant as? Character { return .string(String(c)) }
        guard let convertible = constant as? any ValueConvertible else {
            throw .query(QueryError("#Predicate: a constant of type \(type(of: constant)) is not an attribute value"))
        }
        return convertible.attributeValue
    }
}

/// A `#Predicate` expression this library reads.
protocol ConvertiblePredicateExpression {
    func term(in conversion: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term
}

extension PredicateExpressions.Variable: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        guard let names = c.variables[key] else { throw FoundationPredicateConversion.unsupported(self) }
        return .keyPath(names)
    }
}

extension PredicateExpressions.KeyPath: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        guard case .keyPath(let prefix) = try c.term(root) else { throw FoundationPredicateConversion.unsupported(self) }
        let path: AnyKeyPath = keyPath
        guard let entity = type(of: path).rootType as? any TypedEntity.Type, let names = entity.keyNames(of: path) else {
            throw .query(QueryError("#Predicate: \(path) is not a modelled property"))
        }
        return .keyPath(prefix + names)
    }
}

extension PredicateExpressions.OptionalFlatMap: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        guard case .keyPath(let prefix) = try c.term(wrapped) else { throw FoundationPredicateConversion.unsupported(self) }
        var inner = c
        inner.variables[variable.key] = prefix
        return try inner.term(transform)
    }
}

extension PredicateExpressions.Value: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        .constant(try FoundationPredicateConversion.value(value, in: self))
    }
}

extension PredicateExpressions.NilLiteral: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term { .constant(.null) }
}

extension PredicateExpressions.Conjunction: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        .condition(.and(try c.condition(lhs), try c.condition(rhs)))
    }
}

extension PredicateExpressions.Disjunction: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        .condition(.or(try c.condition(lhs), try c.condition(rhs)))
    }
}

extension PredicateExpressions.Negation: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        .condition(.not(try c.condition(wrapped)))
    }
}

extension PredicateExpressions.Equal: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        try c.comparison(lhs, .equal, rhs, in: self)
    }
}

extension PredicateExpressions.NotEqual: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        try c.comparison(lhs, .notEqual, rhs, in: self)
    }
}

extension PredicateExpressions.Comparison: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        let ours: ComparisonOperator
        switch op {
        case .lessThan: ours = .less
        case .lessThanOrEqual: ours = .lessOrEqual
        case .greaterThan: ours = .greater
        case .greaterThanOrEqual: ours = .greaterOrEqual
        @unknown default: throw FoundationPredicateConversion.unsupported(self)
        }
        return try c.comparison(lhs, ours, rhs, in: self)
    }
}

/// `title.contains("Sea")`.
extension PredicateExpressions.CollectionContainsCollection: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        guard Base.Output.self == String.self else { throw FoundationPredicateConversion.unsupported(self) }
        return try c.comparison(base, .contains, other, in: self)
    }
}

/// `title.contains("S")`: a one-character literal is a Character, an element of the string.
extension PredicateExpressions.SequenceContains: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        guard LHS.Output.self == String.self else { throw FoundationPredicateConversion.unsupported(self) }
        return try c.comparison(sequence, .contains, element, in: self)
    }
}

/// `title.starts(with: "The")`.
extension PredicateExpressions.SequenceStartsWith: ConvertiblePredicateExpression {
    func term(in c: FoundationPredicateConversion) throws(StoreError) -> FoundationPredicateConversion.Term {
        guard Base.Output.self == String.self else { throw FoundationPredicateConversion.unsupported(self) }
        return try c.comparison(base, .beginsWith, prefix, in: self)
    }
}
