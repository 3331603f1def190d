import Foundation

extension QueryPredicate {
    /// Evaluates the predicate against one object with NSPredicate semantics
    /// (see docs/predicates.md): a comparison with nil is false except `== nil`
    /// and `!=`; NOT, AND, OR are two-valued. Validate the predicate first
    /// (`validate(entity:model:)`): evaluation does not report type errors.
    /// Throws `QueryError` for a variable without a value or an unknown key.
    public func evaluate(_ object: some KeyValueSource, variables: [String: Value] = [:]) throws -> Bool {
        try evaluate(object, Bindings(variables: variables, elements: [:]))
    }

    func evaluate<S: KeyValueSource>(_ object: S, _ bindings: Bindings<S>) throws -> Bool {
        switch self {
        case .constant(let b): return b
        case .comparison(let c): return try c.evaluate(object, bindings)
        case .and(let a, let b): return try a.evaluate(object, bindings) && b.evaluate(object, bindings)
        case .or(let a, let b): return try a.evaluate(object, bindings) || b.evaluate(object, bindings)
        case .not(let p): return try !p.evaluate(object, bindings)
        }
    }
}

/// What names stand for during evaluation: `$variables` with values, and the
/// variables of enclosing SUBQUERYs with the related object being tested.
struct Bindings<S: KeyValueSource> {
    var variables: [String: Value]
    var elements: [String: S]

    /// The object a key path starts from and the rest of the path: `$t.name`
    /// starts from SUBQUERY variable `t`'s object, other paths from `object`.
    func base(_ path: ArraySlice<String>, _ object: S) throws -> (ArraySlice<String>, S) {
        guard let first = path.first, first.hasPrefix("$") else { return (path, object) }
        guard let element = elements[String(first.dropFirst())] else {
            throw QueryError("\(first) is not the variable of an enclosing SUBQUERY, in '\(path.joined(separator: "."))'")
        }
        return (path.dropFirst(), element)
    }
}

/// A key path's value(s) for one object.
private enum Operand {
    case value(Value)
    case list([Value])
}

/// A key path's value, and whether it names an object (SELF or a relationship:
/// the value is then the destination's primary key, and object-ID URIs on the
/// other side compare as their key).
private typealias PathValue = (value: Value, isReference: Bool)

extension Comparison {
    func evaluate<S: KeyValueSource>(_ object: S, _ bindings: Bindings<S>) throws -> Bool {
        let (right, rightIsReference) = try Self.operand(rhs, object, bindings)
        switch quantifier {
        case .direct:
            let (left, leftIsReference) = try Self.operand(lhs, object, bindings)
            return try test(left, right, references: leftIsReference || rightIsReference)
        case .any, .all, .none:
            guard case .keyPath(let path) = lhs else { throw QueryError("\(quantifier.rawValue) needs a key path, in '\(format)'") }
            let (start, from) = try bindings.base(path[...], object)
            let (values, isReference) = try Self.collect(start, from)
            let references = isReference || rightIsReference
            switch quantifier {
            case .any: for v in values where try test(.value(v), right, references: references) { return true }; return false
            case .none: for v in values where try test(.value(v), right, references: references) { return false }; return true
            default: for v in values { if try !test(.value(v), right, references: references) { return false } }; return true
            }
        }
    }

    /// Values of a key path that crosses a to-many relationship (flattened), and
    /// whether they are object references (the path ends at a relationship). A nil
    /// to-one before the to-many gives no values; after it, a nil value.
    private static func collect<S: KeyValueSource>(_ fullPath: ArraySlice<String>, _ object: S, crossed: Bool = false) throws -> ([Value], isReference: Bool) {
        let entity = object.sourceEntity
        let path = entity.joiningCompositeKeys(fullPath)
        guard let key = path.first else { return ([], false) }
        if path.count == 1 {
            if let r = entity.relationship(named: key) {
                if r.isToMany { return (try object.toManyValue(forKey: key).map { Self.selfValue($0) }, true) }
                return ([try object.toOneValue(forKey: key).map { Self.selfValue($0) } ?? .null], true)
            }
            guard entity.attribute(named: key) != nil else { throw QueryError("\(entity.name) has no property '\(key)'") }
            return ([try object.attributeValue(forKey: key)], false)
        }
        guard let r = entity.relationship(named: key) else { throw QueryError("\(entity.name) has no relationship '\(key)'") }
        if r.isToMany {
            var values: [Value] = []
            var isReference = false
            for destination in try object.toManyValue(forKey: key) {
                let (v, reference) = try collect(path.dropFirst(), destination, crossed: true)
                values += v
                isReference = isReference || reference
            }
            return (values, isReference)
        }
        guard let next = try object.toOneValue(forKey: key) else { return (crossed ? [.null] : [], false) }
        return try collect(path.dropFirst(), next, crossed: crossed)
    }

    static func selfValue<S: KeyValueSource>(_ object: S) -> Value {
        object.sourceObjectID.primaryKey.map(Value.integer) ?? .null
    }

    /// A single value along to-one relationships (nil when one is nil).
    static func value<S: KeyValueSource>(_ path: ArraySlice<String>, _ object: S) throws -> Value {
        try pathValue(path, object).value
    }

    /// A single value along to-one relationships, and whether it is an object
    /// reference. `isReference` is known only when the path reaches its last key
    /// (a nil to-one before it gives nil, which compares the same either way).
    private static func pathValue<S: KeyValueSource>(_ path: ArraySlice<String>, _ object: S) throws -> PathValue {
        if path.isEmpty { return (selfValue(object), true) }  // a SUBQUERY variable's object itself
        var current = object
        var rest = object.sourceEntity.joiningCompositeKeys(path)
        while rest.count > 1 {
            let key = rest.removeFirst()
            guard current.sourceEntity.relationship(named: key) != nil else {
                throw QueryError("\(current.sourceEntity.name) has no relationship '\(key)'")
            }
            guard let next = try current.toOneValue(forKey: key) else { return (.null, false) }
            current = next
            rest = current.sourceEntity.joiningCompositeKeys(rest)
        }
        guard let key = rest.first else { return (.null, false) }
        if let r = current.sourceEntity.relationship(named: key) {
            if r.isToMany { throw QueryError("'\(path.joined(separator: "."))' is a to-many relationship: use ANY, ALL, NONE or @count") }
            return (try current.toOneValue(forKey: key).map { selfValue($0) } ?? .null, true)
        }
        guard current.sourceEntity.attribute(named: key) != nil else { throw QueryError("\(current.sourceEntity.name) has no property '\(key)'") }
        return (try current.attributeValue(forKey: key), false)
    }

    /// The objects of a to-many key path (through to-ones first).
    static func objects<S: KeyValueSource>(_ path: [String], _ object: S) throws -> [S] {
        var current = object
        for key in path.dropLast() {
            guard let next = try current.toOneValue(forKey: key) else { return [] }
            current = next
        }
        guard let last = path.last else { return [] }
        return try current.toManyValue(forKey: last)
    }

    /// An operand's value(s), and whether it names objects (SELF or a relationship).
    private static func operand<S: KeyValueSource>(_ e: QueryExpression, _ object: S, _ bindings: Bindings<S>) throws -> (Operand, isReference: Bool) {
        switch e {
        case .constant(let v): return (.value(v), false)
        case .variable(let name):
            if let element = bindings.elements[name] { return (.value(selfValue(element)), true) }
            guard let v = bindings.variables[name] else { throw QueryError("no value for variable $\(name)") }
            return (.value(v), false)
        case .evaluatedObject: return (.value(selfValue(object)), true)
        case .keyPath(let path):
            let (start, from) = try bindings.base(path[...], object)
            let (v, isReference) = try pathValue(start, from)
            return (.value(v), isReference)
        case .list(let items):
            return (.list(try items.map { item throws -> Value in
                guard case .value(let v) = try operand(item, object, bindings).0 else { throw QueryError("nested lists are not supported") }
                return v
            }), false)
        case .aggregate(let fn, let collection, let attribute):
            let (start, from) = try bindings.base(collection[...], object)
            let objs = try objects(Array(start), from)
            if fn == .count { return (.value(.integer(Int64(objs.count))), false) }
            let values = try objs.map { try value(attribute[...], $0) }.filter { !$0.isNull }
            return (.value(aggregate(fn, values)), false)
        case .arithmetic(let op, let a, let b):
            guard case .value(let x) = try operand(a, object, bindings).0, case .value(let y) = try operand(b, object, bindings).0 else {
                throw QueryError("a list {…} cannot be used with '\(op.rawValue)'")
            }
            return (.value(ValueArithmetic.apply(op, x, y)), false)
        case .subqueryCount(let collection, let variable, let predicate):
            var inner = bindings
            var count: Int64 = 0
            let (start, from) = try bindings.base(collection[...], object)
            for element in try objects(Array(start), from) {
                inner.elements[variable] = element
                if try predicate.evaluate(object, inner) { count += 1 }
            }
            return (.value(.integer(count)), false)
        }
    }

    /// `@sum` is a double (SQLite's TOTAL, 0 when empty); `@avg`, `@min`, `@max` are nil when empty.
    static func aggregate(_ fn: AggregateFunction, _ values: [Value]) -> Value {
        switch fn {
        case .count: return .integer(Int64(values.count))
        case .sum:
            return .double(values.reduce(0.0) { $0 + (ValueOrdering.number($1)?.double ?? 0) })
        case .avg:
            guard !values.isEmpty else { return .null }
            let nums = values.compactMap(ValueOrdering.number)
            if nums.allSatisfy({ if case .int = $0 { return true } else { return false } }) {
                var sum: Int64 = 0
                var overflow = false
                for case .int(let i) in nums {
                    let (s, o) = sum.addingReportingOverflow(i)
                    if o { overflow = true; break }
                    sum = s
                }
                if !overflow { return .double(Double(sum) / Double(nums.count)) }
            }
            return .double(nums.reduce(0.0) { $0 + $1.double } / Double(nums.count))
        case .min: return values.min { ValueOrdering.compare($0, $1) < 0 } ?? .null
        case .max: return values.max { ValueOrdering.compare($0, $1) < 0 } ?? .null
        }
    }

    /// SELF and relationships compare with integer primary keys; an object-ID URI stands for its key.
    static func selfComparable(_ v: Value) -> Value {
        if case .uri(let u) = v, case .permanent(let pk)? = ObjectID.parse(u.absoluteString)?.key { return .integer(pk) }
        return v
    }

    /// `references`: one side names objects, so object-ID URIs compare as primary keys.
    private func test(_ left: Operand, _ right: Operand, references: Bool) throws -> Bool {
        guard case .value(var l) = left else { throw QueryError("a list can only be the right side of IN or BETWEEN") }
        let fold = !options.isEmpty
        if references { l = Self.selfComparable(l) }
        func prep(_ v: Value) -> Value {
            var v = references ? Self.selfComparable(v) : v
            if fold, case .string(let s) = v {
                v = .string(TextFolding.fold(s, caseInsensitive: options.contains(.caseInsensitive), diacriticInsensitive: options.contains(.diacriticInsensitive)))
            }
            return v
        }
        l = prep(l)
        switch op {
        case .in, .between:
            let items: [Value]
            switch right {
            case .list(let vs): items = vs.map(prep)
            case .value(.null): return false
            case .value(let v): items = [prep(v)]
            }
            if op == .in { return items.contains { Self.equal(l, $0) } }
            guard items.count == 2 else { throw QueryError("BETWEEN needs two values") }
            return Self.ordered(l, items[0], >=) && Self.ordered(l, items[1], <=)
        default: break
        }
        guard case .value(let rv) = right else { throw QueryError("\(op.rawValue) cannot take a list") }
        var r = prep(rv)
        if op == .matches, fold, case .constant = rhs, case .string(let p) = rv { r = .string(Self.foldPattern(p, options)) }
        switch op {
        case .equal: return Self.equal(l, r)
        case .notEqual: return !Self.equal(l, r)
        case .less: return Self.ordered(l, r, <)
        case .lessOrEqual: return Self.ordered(l, r, <=)
        case .greater: return Self.ordered(l, r, >)
        case .greaterOrEqual: return Self.ordered(l, r, >=)
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard case .string(let s) = l, case .string(let p) = r else { return false }
            return try Self.stringTest(op, s, p)
        case .in, .between: return false
        }
    }

    static func equal(_ a: Value, _ b: Value) -> Bool {
        if a.isNull || b.isNull { return a.isNull && b.isNull }
        guard ValueOrdering.rank(a) == ValueOrdering.rank(b) else { return false }
        return ValueOrdering.compare(a, b) == 0
    }

    static func ordered(_ a: Value, _ b: Value, _ test: (Int, Int) -> Bool) -> Bool {
        if a.isNull || b.isNull { return false }
        guard ValueOrdering.rank(a) == ValueOrdering.rank(b) else { return false }
        return test(ValueOrdering.compare(a, b), 0)
    }

    /// String operators on UTF-8 bytes (the strings are already folded when [c]/[d]).
    static func stringTest(_ op: ComparisonOperator, _ s: String, _ p: String) throws(QueryError) -> Bool {
        switch op {
        case .beginsWith: return s.utf8.starts(with: p.utf8)
        case .endsWith: return s.utf8.reversed().starts(with: p.utf8.reversed())
        case .contains:
            let h = Array(s.utf8), n = Array(p.utf8)
            if n.isEmpty { return true }
            if n.count > h.count { return false }
            outer: for i in 0...(h.count - n.count) {
                for j in 0..<n.count where h[i + j] != n[j] { continue outer }
                return true
            }
            return false
        case .like: return try matchesPattern(s, likeToRegex(p))
        case .matches: return try matchesPattern(s, p)
        default: return false
        }
    }

    /// The same engine and errors as SQL's `vellum_regexp`: an invalid pattern or an
    /// over-budget match is an error, never a silent false.
    static func matchesPattern(_ s: String, _ pattern: String) throws(QueryError) -> Bool {
        do { return try LinearRegex.cached(pattern).matchesWhole(s) } catch { throw QueryError(error.description) }
    }

    /// A constant MATCHES pattern folded for [c]/[d] as the text is, except its escapes
    /// (`\\D`, `\\p{Lu}`, `\\X` keep their meaning; folding them would change it).
    static func foldPattern(_ pattern: String, _ options: StringOptions) -> String {
        let scalars = Array(pattern.unicodeScalars)
        var out = "", run = ""
        func flush() {
            out += TextFolding.fold(run, caseInsensitive: options.contains(.caseInsensitive),
                                    diacriticInsensitive: options.contains(.diacriticInsensitive))
            run = ""
        }
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "\\", i + 1 < scalars.count else { run.unicodeScalars.append(scalars[i]); i += 1; continue }
            flush()
            let letter = scalars[i + 1]
            out.unicodeScalars.append(contentsOf: scalars[i...(i + 1)])
            i += 2
            if "pPxN".unicodeScalars.contains(letter), i < scalars.count, scalars[i] == "{" {
                while i < scalars.count, scalars[i] != "}" { out.unicodeScalars.append(scalars[i]); i += 1 }
            }
        }
        flush()
        return out
    }

    /// LIKE `*` (any run) and `?` (one Character) as a regular expression.
    static func likeToRegex(_ pattern: String) -> String {
        var out = "(?s)"
        for c in pattern.unicodeScalars {
            switch c {
            case "*": out += ".*"
            case "?": out += "\\X"
            default:
                if c.isASCII && !(c.properties.isAlphabetic || (c.value >= 48 && c.value <= 57)) {
                    out += "\\"
                }
                out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
