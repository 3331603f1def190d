import Foundation

extension QueryPredicate {
    /// Type-checks the predicate against `entity`: unknown keys, to-many key paths
    /// without ANY/ALL/NONE or an aggregate, string operators on non-strings,
    /// comparisons between incompatible kinds. Variables are checked once substituted.
    public func validate(entity: Entity, model: ManagedObjectModel) throws(StoreError) {
        do { try validate(entity: entity, model: model, elements: [:]) } catch { throw .query(error) }
    }

    /// `elements`: the entities of enclosing SUBQUERY variables' objects.
    func validate(entity: Entity, model: ManagedObjectModel, elements: [String: Entity]) throws(QueryError) {
        switch self {
        case .constant: return
        case .comparison(let c): try c.validate(entity: entity, model: model, elements: elements)
        case .and(let a, let b), .or(let a, let b):
            try a.validate(entity: entity, model: model, elements: elements)
            try b.validate(entity: entity, model: model, elements: elements)
        case .not(let p): try p.validate(entity: entity, model: model, elements: elements)
        }
    }

    /// Validates against the entity named `entityName` of `model`.
    public func validate(entityNamed entityName: String, model: ManagedObjectModel) throws(StoreError) {
        guard let e = model.entity(named: entityName) else { throw .query(QueryError("the model has no entity named '\(entityName)'")) }
        try validate(entity: e, model: model)
    }
}

extension Comparison {
    func validate(entity: Entity, model: ManagedObjectModel, elements: [String: Entity] = [:]) throws(QueryError) {
        let lhsKind = try Self.kind(of: lhs, entity: entity, model: model, quantifier: quantifier, side: "left", elements: elements)
        if case .list = lhs { throw QueryError("a list {…} can only be the right side of IN or BETWEEN, in '\(self.format)'") }
        if op == .in || op == .between {
            let items: [QueryExpression]
            switch rhs {
            case .list(let l): items = l
            case .variable: items = []
            case .constant(.null): items = []
            default:
                throw QueryError("\(op.rawValue) needs a list {…} or a variable on the right, in '\(self.format)'")
            }
            if op == .between, case .list(let l) = rhs, l.count != 2 {
                throw QueryError("BETWEEN needs exactly two values {low, high}, in '\(self.format)'")
            }
            for item in items {
                let k = try Self.kind(of: item, entity: entity, model: model, quantifier: .direct, side: "right", elements: elements)
                try checkKinds(lhsKind, k)
            }
            if op == .between, case .object = lhsKind { throw mismatch(lhsKind, lhsKind) }
            return
        }
        if case .list = rhs { throw QueryError("a list {…} needs IN or BETWEEN, in '\(self.format)'") }
        let rhsKind = try Self.kind(of: rhs, entity: entity, model: model, quantifier: .direct, side: "right", elements: elements)
        if op.isStringOperator {
            for k in [lhsKind, rhsKind] where k != .string && k != .null && k != .unknown {
                throw QueryError("\(op.rawValue) needs strings, but \(k == lhsKind ? "the left side" : "the right side") is a \(k), in '\(self.format)'")
            }
            if op == .like, case .keyPath = rhs { throw QueryError("the LIKE pattern must be a constant or variable, in '\(self.format)'") }
            if op == .like, case .aggregate = rhs { throw QueryError("the LIKE pattern must be a constant or variable, in '\(self.format)'") }
            if op == .like || op == .matches, case .constant(.string(let pattern)) = rhs { try checkPattern(pattern) }
            return
        }
        try checkKinds(lhsKind, rhsKind)
        if (lhsKind.isObject || rhsKind.isObject) && !(op == .equal || op == .notEqual) {
            throw QueryError("a relationship can only be compared with ==, != or IN (with nil, primary keys or object-ID URIs), in '\(self.format)'")
        }
        if (lhsKind == .selfID || rhsKind == .selfID) && !(op == .equal || op == .notEqual) {
            throw QueryError("SELF can only be compared with ==, != or IN, in '\(self.format)'")
        }
    }

    /// A MATCHES or LIKE pattern must compile (as SQL and memory will run it); the
    /// error points at the pattern in the printed comparison.
    private func checkPattern(_ pattern: String) throws(QueryError) {
        let source: String
        if op == .like {
            source = Self.likeToRegex(TextFolding.fold(pattern, caseInsensitive: options.contains(.caseInsensitive),
                                                       diacriticInsensitive: options.contains(.diacriticInsensitive)))
        } else {
            source = options.isEmpty ? pattern : Self.foldPattern(pattern, options)
        }
        do { _ = try LinearRegex.cached(source) } catch {
            let printed = format
            var caret: QueryError.Caret?
            if let r = printed.range(of: PredicatePrinter.quote(pattern), options: .backwards) {
                var position = printed.distance(from: printed.startIndex, to: r.lowerBound)
                if op == .matches, options.isEmpty, let offset = error.offset {
                    let before = String(String.UnicodeScalarView(pattern.unicodeScalars.prefix(offset)))
                    position += PredicatePrinter.quote(before).count - 1
                }
                caret = QueryError.Caret(text: printed, position: position)
            }
            throw QueryError("\(error.description), in the pattern of \(op.rawValue):", caret: caret)
        }
    }

    private func mismatch(_ a: OperandKind, _ b: OperandKind) -> QueryError {
        QueryError("cannot compare a \(a) with a \(b) in '\(self.format)'")
    }

    private func checkKinds(_ a: OperandKind, _ b: OperandKind) throws(QueryError) {
        guard a.isCompatible(with: b) else { throw mismatch(a, b) }
    }

    var format: String { PredicatePrinter.comparison(self) }

    /// The entity a key path starts from and the rest of it: `$t.name` starts
    /// from SUBQUERY variable `t`'s entity, other paths from `entity`.
    static func base(_ path: [String], _ entity: Entity, _ elements: [String: Entity]) throws(QueryError) -> ([String], Entity) {
        guard let first = path.first, first.hasPrefix("$") else { return (path, entity) }
        guard let element = elements[String(first.dropFirst())] else {
            throw QueryError("\(first) is not the variable of an enclosing SUBQUERY, in '\(path.joined(separator: "."))'")
        }
        return (Array(path.dropFirst()), element)
    }

    static func kind(of e: QueryExpression, entity: Entity, model: ManagedObjectModel,
                     quantifier: Quantifier, side: String, elements: [String: Entity] = [:]) throws(QueryError) -> OperandKind {
        switch e {
        case .constant(let v): return OperandKind(v)
        case .variable(let name): return elements[name].map { .object($0.name) } ?? .unknown
        case .evaluatedObject: return .selfID
        case .list: return .unknown
        case .arithmetic(let op, let a, let b):
            for operand in [a, b] {
                if case .list = operand { throw QueryError("a list {…} cannot be used with '\(op.rawValue)'") }
                let k = try kind(of: operand, entity: entity, model: model, quantifier: .direct, side: side, elements: elements)
                guard k == .number || k == .null || k == .unknown else {
                    throw QueryError("'\(op.rawValue)' needs numbers, but \(PredicatePrinter.expression(operand)) is a \(k)")
                }
            }
            return .number
        case .subqueryCount(let fullCollection, let variable, let predicate):
            let (collection, start) = try base(fullCollection, entity, elements)
            let r = try ResolvedKeyPath.resolve(collection, from: start, model: model)
            guard let last = r.steps.last, last.relationship.isToMany, r.toManyCount == 1, r.attribute == nil else {
                throw QueryError("SUBQUERY needs a key path ending at a to-many relationship, but '\(collection.joined(separator: "."))' does not")
            }
            var inner = elements
            inner[variable] = r.finalEntity
            try predicate.validate(entity: entity, model: model, elements: inner)
            return .number
        case .keyPath(let fullPath):
            let (path, entity) = try base(fullPath, entity, elements)
            let r = try ResolvedKeyPath.resolve(path, from: entity, model: model)
            if quantifier == .direct || side == "right" {
                if let i = r.toManyIndex {
                    let s = r.steps[i]
                    throw QueryError("'\(path.joined(separator: "."))' crosses the to-many relationship '\(s.relationship.name)' of \(s.source.name): use ANY, ALL, NONE or an aggregate such as \(path.prefix(i + 1).joined(separator: ".")).@count")
                }
            } else {
                guard r.toManyCount >= 1 else {
                    throw QueryError("\(quantifier.rawValue) needs a key path through a to-many relationship, but '\(path.joined(separator: "."))' has none")
                }
            }
            return r.kind
        case .aggregate(let fn, let fullCollection, let attribute):
            let (collection, entity) = try base(fullCollection, entity, elements)
            let r = try ResolvedKeyPath.resolve(collection, from: entity, model: model)
            guard let last = r.steps.last, last.relationship.isToMany, r.toManyCount == 1, r.attribute == nil else {
                throw QueryError("@\(fn.rawValue) needs a key path ending at a to-many relationship, but '\(collection.joined(separator: "."))' does not")
            }
            if fn == .count { return .number }
            // A composite's element (`@max.magnitude.richter`) is one attribute.
            let attribute = Array(r.finalEntity.joiningCompositeKeys(attribute[...]))
            guard attribute.count == 1, let a = r.finalEntity.attribute(named: attribute[0]) else {
                let name = attribute.joined(separator: ".")
                if attribute.count == 1 { throw QueryError("\(r.finalEntity.name) has no attribute '\(name)'") }
                throw QueryError("@\(fn.rawValue) needs a single attribute of \(r.finalEntity.name), not '\(name)'")
            }
            let k = OperandKind(a.type)
            if fn == .sum || fn == .avg, k != .number {
                throw QueryError("@\(fn.rawValue) needs a numeric attribute, but '\(a.name)' of \(r.finalEntity.name) is a \(k)")
            }
            return fn == .sum || fn == .avg ? .number : k
        }
    }
}
