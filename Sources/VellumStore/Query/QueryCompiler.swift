import Foundation

/// Compiles predicates and sort descriptors into SQL over a `StoreLayout`, with
/// the same NSPredicate nil semantics as in-memory evaluation: every comparison
/// yields 0 or 1, never NULL, so NOT/AND/OR are two-valued.
public enum QueryCompiler {
    /// Validates `predicate` (after substituting `variables`) and the sort
    /// descriptors against `entity`, then compiles them. See `CompiledQuery`.
    public static func compile(entity: Entity, layout: any StoreLayout, predicate: QueryPredicate?,
                               sortDescriptors: [QuerySortDescriptor] = [],
                               variables: [String: Value] = [:]) throws(StoreError) -> CompiledQuery {
        do {
            return try compileWithSortTerms(entity: entity, layout: layout, predicate: predicate, sortDescriptors: sortDescriptors, variables: variables).query
        } catch { throw .query(error) }
    }

    /// `compile`, also returning each sort descriptor's SQL value expression and
    /// attribute type (for selecting sort keys alongside IDs).
    static func compileWithSortTerms(entity: Entity, layout: any StoreLayout, predicate: QueryPredicate?,
                                     sortDescriptors: [QuerySortDescriptor] = [], variables: [String: Value] = [:])
        throws(QueryError) -> (query: CompiledQuery, sortTerms: [(sql: String, type: AttributeType?)]) {
        let model = layout.model
        guard let root = model.entity(named: entity.rootName) else { throw QueryError("the model has no entity named '\(entity.rootName)'") }
        let c = SQLCompilation(layout: layout, model: model)
        let scope = SQLScope(alias: "t0", entity: entity)
        var conditions: [String] = []
        if entity.hierarchyNames.count != root.hierarchyNames.count {
            conditions.append("\(layout.entityExpression(table: layout.table(of: root.name) ?? root.name, alias: "t0")) IN (" + entity.hierarchyNames.map { c.bind(.string($0)) }.joined(separator: ", ") + ")")
        }
        if let predicate {
            let p = try predicate.substitutingAll(variables)
            try p.validate(entity: entity, model: model, elements: [:])
            conditions.append(try c.predicate(p, scope: scope))
        }
        var order: [String] = []
        var terms: [(sql: String, type: AttributeType?)] = []
        for d in sortDescriptors {
            try d.check(entity: entity, model: model)
            let o: SQLOperand
            if let collection = d.countedCollection {
                // A correlated COUNT, as the predicate `books.@count` compiles.
                o = try c.operand(.aggregate(.count, collection: collection, attribute: []), scope: scope)
                terms.append((o.sql, .integer64))
            } else {
                let r = try ResolvedKeyPath.resolve(d.keyPath, from: entity, model: model)
                o = try c.path(r, steps: r.steps[...], from: "t0", scope: scope)
                terms.append((o.sql, r.attributeDescription?.type))
            }
            let collated = o.kind == .string && d.comparison != .binary
            order.append(layout.dialect.orderTerm(o.sql, caseInsensitive: collated ? d.comparison == .caseInsensitive : nil, ascending: d.ascending))
        }
        order.append("\(layout.qualifiedKey("t0")) ASC")
        let whereClause = conditions.isEmpty ? layout.dialect.trueCondition : conditions.joined(separator: " AND ")
        // Values bound only for comparisons known to be false are not in the SQL; the
        // trailing ones go (SQLite refuses a value past the highest placeholder used).
        let used = c.bindings.indices.last { !c.unusedBindings.contains($0) }.map { $0 + 1 } ?? 0
        guard let table = layout.table(of: root.name) else { throw QueryError("no table mapping for \(root.name)") }
        let query = CompiledQuery(table: table, whereClause: whereClause,
                                  joins: scope.joins.joined(separator: " "), orderBy: order.joined(separator: ", "),
                                  bindings: Array(c.bindings.prefix(used)), layout: layout)
        return (query, terms)
    }
}

/// One table alias and the LEFT JOINs hanging off it (the main query or a subquery).
final class SQLScope {
    let alias: String
    let entity: Entity
    var joins: [String] = []
    var joinAliases: [String: String] = [:]
    /// The scopes of enclosing SUBQUERY variables' objects, by variable name.
    var elements: [String: SQLScope] = [:]
    init(alias: String, entity: Entity) {
        self.alias = alias
        self.entity = entity
    }
}

/// A compiled operand: SQL text, its kind, and whether it can be NULL.
struct SQLOperand {
    var sql: String
    var kind: OperandKind
    var nullable: Bool
    var constant: Value?
}

final class SQLCompilation {
    let layout: any StoreLayout
    let model: ManagedObjectModel
    let dialect: any SQLDialect
    /// `.<key column>`, quoted: appended to an alias.
    let keySuffix: String
    var bindings: [Value] = []
    /// Indices into `bindings` of values whose SQL was dropped (see `leaf(_:_:scope:boundFrom:)`).
    var unusedBindings = IndexSet()
    var aliasCounter = 0

    init(layout: any StoreLayout, model: ManagedObjectModel) {
        self.layout = layout
        self.model = model
        dialect = layout.dialect
        keySuffix = "." + layout.dialect.quote(layout.primaryKeyColumn)
    }

    func quoteIdentifier(_ name: String) -> String { dialect.quote(name) }

    func bind(_ v: Value) -> String {
        bindings.append(v)
        return dialect.placeholder(bindings.count)
    }

    func newAlias(_ prefix: String) -> String {
        aliasCounter += 1
        return "\(prefix)\(aliasCounter)"
    }

    func storage(_ step: RelationshipStep) throws(QueryError) -> RelationshipStorage {
        guard let m = layout.mapping(for: step.source.name) else { throw QueryError("no table mapping for \(step.source.name)") }
        return m.relationshipStorage[step.index]
    }

    func rootTable(of entityName: String) throws(QueryError) -> String {
        guard let table = layout.table(of: entityName) else { throw QueryError("the model has no entity named '\(entityName)'") }
        return table
    }

    /// The alias of a to-one destination, LEFT JOINed into `scope` once per (alias, relationship).
    func joinToOne(_ step: RelationshipStep, from alias: String, scope: SQLScope) throws(QueryError) -> String {
        let key = "\(alias).\(step.source.name).\(step.relationship.name)"
        if let a = scope.joinAliases[key] { return a }
        let a = newAlias("t")
        switch try storage(step) {
        case .foreignKey(let column):
            scope.joins.append("LEFT JOIN \(quoteIdentifier(try rootTable(of: step.relationship.destination))) AS \(a) ON \(a)\(keySuffix) = \(alias).\(quoteIdentifier(column))")
        case .inverseForeignKey(let table, let column, _):
            scope.joins.append("LEFT JOIN \(quoteIdentifier(table)) AS \(a) ON \(a).\(quoteIdentifier(column)) = \(alias)\(keySuffix)")
        case .joinTable:
            throw QueryError("to-one relationship '\(step.relationship.name)' of \(step.source.name) is stored in a join table")
        }
        scope.joinAliases[key] = a
        return a
    }

    /// FROM clause and correlation condition for a to-many relationship's destinations.
    func toManySource(_ step: RelationshipStep, from alias: String) throws(QueryError) -> (from: String, link: String, alias: String) {
        let a = newAlias("s")
        switch try storage(step) {
        case .inverseForeignKey(let table, let column, _):
            return ("\(quoteIdentifier(table)) AS \(a)", "\(a).\(quoteIdentifier(column)) = \(alias)\(keySuffix)", a)
        case .joinTable(let table, let source, let target, _):
            let j = newAlias("j")
            let dest = quoteIdentifier(try rootTable(of: step.relationship.destination))
            return ("\(quoteIdentifier(table)) AS \(j) JOIN \(dest) AS \(a) ON \(a)\(keySuffix) = \(j).\(quoteIdentifier(target))",
                    "\(j).\(quoteIdentifier(source)) = \(alias)\(keySuffix)", a)
        case .foreignKey:
            throw QueryError("to-many relationship '\(step.relationship.name)' of \(step.source.name) is stored as a foreign key")
        }
    }

    /// The value of a key path reached through to-one `steps` from `alias`.
    func path(_ r: ResolvedKeyPath, steps: ArraySlice<RelationshipStep>, from alias: String, scope: SQLScope) throws(QueryError) -> SQLOperand {
        var current = alias
        if let (entity, index) = r.attribute {
            for s in steps { current = try joinToOne(s, from: current, scope: scope) }
            guard let m = layout.mapping(for: entity.name) else { throw QueryError("no table mapping for \(entity.name)") }
            let a = entity.attributes[index]
            guard let column = m.attributeColumns[index] else {
                throw QueryError("'\(a.name)' of \(entity.name) is transient: it cannot be used in a fetch")
            }
            let sql = dialect.comparable(layout.comparableExpression(table: m.table, column: column, alias: current), type: a.type)
            return SQLOperand(sql: sql, kind: OperandKind(a.type), nullable: true)
        }
        // Ends at a to-one relationship: its key.
        guard let last = steps.last else { return SQLOperand(sql: "\(alias)\(keySuffix)", kind: .selfID, nullable: false) }
        for s in steps.dropLast() { current = try joinToOne(s, from: current, scope: scope) }
        if case .foreignKey(let column) = try storage(last) {
            return SQLOperand(sql: "\(current).\(quoteIdentifier(column))", kind: r.kind, nullable: true)
        }
        let a = try joinToOne(last, from: current, scope: scope)
        return SQLOperand(sql: "\(a)\(keySuffix)", kind: r.kind, nullable: true)
    }

    static func sqlValue(_ v: Value) -> Value {
        switch v {
        case .bool(let b): return .integer(b ? 1 : 0)
        case .decimal(let d): return .double(ValueOrdering.decimalDouble(d))
        default: return v
        }
    }

    func constant(_ v: Value) -> SQLOperand {
        if v.isNull { return SQLOperand(sql: "NULL", kind: .null, nullable: true, constant: v) }
        return SQLOperand(sql: bind(Self.sqlValue(v)), kind: OperandKind(v), nullable: false, constant: v)
    }

    func operand(_ e: QueryExpression, scope: SQLScope) throws(QueryError) -> SQLOperand {
        switch e {
        case .constant(let v): return constant(v)
        case .variable(let name):
            guard let element = scope.elements[name] else { throw QueryError("no value for variable $\(name)") }
            return SQLOperand(sql: "\(element.alias)\(keySuffix)", kind: .object(element.entity.name), nullable: false)
        case .evaluatedObject: return SQLOperand(sql: "t0\(keySuffix)", kind: .selfID, nullable: false)
        case .list: throw QueryError("a list {…} can only be the right side of IN or BETWEEN")
        case .keyPath(let fullPath):
            let (p, scope) = try base(fullPath, scope)
            let r = try ResolvedKeyPath.resolve(p, from: scope.entity, model: model)
            return try path(r, steps: r.steps[...], from: scope.alias, scope: scope)
        case .arithmetic(let op, let a, let b):
            let l = try operand(a, scope: scope), r = try operand(b, scope: scope)
            return SQLOperand(sql: dialect.arithmetic(op.rawValue, l.sql, r.sql), kind: .number, nullable: true)
        case .subqueryCount(let fullCollection, let variable, let inner):
            let (collection, start) = try base(fullCollection, scope)
            let r = try ResolvedKeyPath.resolve(collection, from: start.entity, model: model)
            var current = start.alias
            for s in r.steps.dropLast() { current = try joinToOne(s, from: current, scope: start) }
            let src = try toManySource(r.steps.last!, from: current)
            let element = SQLScope(alias: src.alias, entity: r.finalEntity)
            // Inside, `$variable` paths read the related row; other paths the outer one.
            let saved = scope.elements
            scope.elements[variable] = element
            defer { scope.elements = saved }
            element.elements = scope.elements
            let condition = try predicate(inner, scope: scope)
            let joins = element.joins.isEmpty ? "" : " " + element.joins.joined(separator: " ")
            return SQLOperand(sql: "(SELECT COUNT(*) FROM \(src.from)\(joins) WHERE \(src.link) AND \(condition))", kind: .number, nullable: false)
        case .aggregate(let fn, let fullCollection, let attribute):
            let (collection, scope) = try base(fullCollection, scope)
            let r = try ResolvedKeyPath.resolve(collection, from: scope.entity, model: model)
            var current = scope.alias
            for s in r.steps.dropLast() { current = try joinToOne(s, from: current, scope: scope) }
            let src = try toManySource(r.steps.last!, from: current)
            if fn == .count {
                return SQLOperand(sql: "(SELECT COUNT(*) FROM \(src.from) WHERE \(src.link))", kind: .number, nullable: false)
            }
            let sub = SQLScope(alias: src.alias, entity: r.finalEntity)
            let ar = try ResolvedKeyPath.resolve(attribute, from: r.finalEntity, model: model)
            let value = try path(ar, steps: ar.steps[...], from: src.alias, scope: sub)
            let function: String
            switch fn {
            case .sum: function = "TOTAL"
            case .avg: function = "AVG"
            case .min: function = "MIN"
            case .max: function = "MAX"
            case .count: function = "COUNT"
            }
            let joins = sub.joins.isEmpty ? "" : " " + sub.joins.joined(separator: " ")
            let call = fn == .sum ? dialect.total(value.sql) : "\(function)(\(value.sql))"
            return SQLOperand(sql: "(SELECT \(call) FROM \(src.from)\(joins) WHERE \(src.link))",
                              kind: fn == .sum || fn == .avg ? .number : value.kind, nullable: fn != .sum)
        }
    }

    func predicate(_ p: QueryPredicate, scope: SQLScope) throws(QueryError) -> String {
        switch p {
        case .constant(let b): return b ? dialect.trueCondition : dialect.falseCondition
        case .and, .or:
            let terms = try Self.chain(p).map { q throws(QueryError) in try predicate(q, scope: scope) }
            if case .and = p { return Self.balanced(terms[...], "AND") }
            return Self.balanced(terms[...], "OR")
        case .not(let inner): return "(NOT \(try predicate(inner, scope: scope)))"
        case .comparison(let c): return try comparison(c, scope: scope)
        }
    }

    func comparison(_ original: Comparison, scope: SQLScope) throws(QueryError) -> String {
        var c = original
        // SELF and relationships compare as primary keys: object-ID URIs become keys.
        var references = try isReference(c.lhs, scope: scope)
        if !references { references = try isReference(c.rhs, scope: scope) }
        if references {
            func map(_ e: QueryExpression) -> QueryExpression {
                switch e {
                case .constant(let v): return .constant(KeyPathComparison.selfComparable(v))
                case .list(let items): return .list(items.map(map))
                default: return e
                }
            }
            c.lhs = map(c.lhs)
            c.rhs = map(c.rhs)
        }
        guard c.quantifier != .direct else {
            let mark = bindings.count
            let l = try operand(c.lhs, scope: scope)
            return try leaf(c, l, scope: scope, boundFrom: mark)
        }
        guard case .keyPath(let fullPath) = c.lhs else { throw QueryError("\(c.quantifier.rawValue) needs a key path") }
        let (p, start) = try base(fullPath, scope)
        let r = try ResolvedKeyPath.resolve(p, from: start.entity, model: model)
        guard let i = r.toManyIndex else { throw QueryError("\(c.quantifier.rawValue) needs a key path through a to-many relationship") }
        var current = start.alias
        for s in r.steps[..<i] { current = try joinToOne(s, from: current, scope: start) }
        // Over the path's values (flattened across its to-manys): ANY = some value
        // meets the comparison, NONE = none does, ALL = none fails it.
        let test: (SQLOperand) throws(QueryError) -> String = { l throws(QueryError) in
            let cond = try self.leaf(c, l, scope: scope, boundFrom: self.bindings.count)
            return c.quantifier == .all ? "NOT " + cond : cond
        }
        let exists = try existsValue(r, toMany: i, from: current, test)
        return c.quantifier == .any ? exists : "(NOT \(exists))"
    }

    /// `EXISTS` over the values of `r` reached through its to-many step `i` from
    /// `alias` (and any later to-manys, nested), for which `test` holds. As in
    /// memory, a nil to-one between two to-manys gives one nil value.
    private func existsValue(_ r: ResolvedKeyPath, toMany i: Int, from alias: String,
                             _ test: (SQLOperand) throws(QueryError) -> String) throws(QueryError) -> String {
        let src = try toManySource(r.steps[i], from: alias)
        let sub = SQLScope(alias: src.alias, entity: model.entity(named: r.steps[i].relationship.destination)!)
        let body: String
        if let next = r.steps[(i + 1)...].firstIndex(where: { $0.relationship.isToMany }) {
            var current = src.alias
            var nilChecks: [String] = []
            for s in r.steps[(i + 1)..<next] {
                current = try joinToOne(s, from: current, scope: sub)
                nilChecks.append("\(current)\(keySuffix) IS NULL")
            }
            let inner = try existsValue(r, toMany: next, from: current, test)
            if nilChecks.isEmpty {
                body = inner
            } else {
                let nilValue = try test(SQLOperand(sql: "NULL", kind: .null, nullable: true))
                body = "(CASE WHEN \(nilChecks.joined(separator: " OR ")) THEN \(nilValue) ELSE \(inner) END)"
            }
        } else {
            body = try test(try path(r, steps: r.steps[(i + 1)...], from: src.alias, scope: sub))
        }
        let joins = sub.joins.isEmpty ? "" : " " + sub.joins.joined(separator: " ")
        return "EXISTS (SELECT 1 FROM \(src.from)\(joins) WHERE \(src.link) AND \(body))"
    }

    /// True for SELF, SUBQUERY variables and key paths that end at a relationship.
    private func isReference(_ e: QueryExpression, scope: SQLScope) throws(QueryError) -> Bool {
        switch e {
        case .evaluatedObject: return true
        case .variable(let name): return scope.elements[name] != nil
        case .keyPath(let fullPath):
            let (p, start) = try base(fullPath, scope)
            return try ResolvedKeyPath.resolve(p, from: start.entity, model: model).attribute == nil
        default: return false
        }
    }

    /// The scope a key path starts from and the rest of it: `$t.name` starts from
    /// SUBQUERY variable `t`'s row, other paths from `scope`.
    private func base(_ path: [String], _ scope: SQLScope) throws(QueryError) -> ([String], SQLScope) {
        guard let first = path.first, first.hasPrefix("$") else { return (path, scope) }
        guard let element = scope.elements[String(first.dropFirst())] else {
            throw QueryError("\(first) is not the variable of an enclosing SUBQUERY, in '\(path.joined(separator: "."))'")
        }
        return (Array(path.dropFirst()), element)
    }

    /// `leaf`, noting when it is known false: its SQL is then the dialect's false, which
    /// uses none of the values bound since `mark` (for `l` and the right side).
    func leaf(_ c: Comparison, _ l: SQLOperand, scope: SQLScope, boundFrom mark: Int) throws(QueryError) -> String {
        let sql = try leaf(c, l, scope: scope)
        if sql == dialect.falseCondition { unusedBindings.insert(integersIn: mark..<bindings.count) }
        return sql
    }

    /// A constant pattern matched against `text`, as the dialect spells it.
    func regexpMatch(_ pattern: String, _ text: String) throws(QueryError) -> String {
        do { return try dialect.regexpMatch(constantPattern: pattern, text: text, bind: bind) } catch {
            throw error.queryError ?? QueryError(error.description)
        }
    }

    /// A comparison of `l` with the right side of `c`, yielding 0 or 1.
    func leaf(_ c: Comparison, _ l: SQLOperand, scope: SQLScope) throws(QueryError) -> String {
        let flags = (c.options.contains(.caseInsensitive) ? 1 : 0) | (c.options.contains(.diacriticInsensitive) ? 2 : 0)
        func fold(_ o: SQLOperand, _ other: SQLOperand) -> String {
            guard flags != 0, o.kind == .string || (o.kind != .null && other.kind == .string) else { return o.sql }
            return dialect.fold(o.sql, flags: flags)
        }
        let never = dialect.falseCondition
        func equal(_ a: SQLOperand, _ b: SQLOperand) -> String {
            "(" + dialect.isSame(fold(a, b), fold(b, a)) + ")"
        }
        func ordered(_ a: SQLOperand, _ b: SQLOperand, _ op: String) -> String {
            if a.kind == .null || b.kind == .null { return never }
            let x = fold(a, b), y = fold(b, a)
            if !a.nullable && !b.nullable { return "(\(x) \(op) \(y))" }
            if !b.nullable { return "(\(x) IS NOT NULL AND \(x) \(op) \(y))" }
            if !a.nullable { return "(\(y) IS NOT NULL AND \(x) \(op) \(y))" }
            return "COALESCE(\(x) \(op) \(y), \(never))"
        }
        switch c.op {
        case .in, .between:
            let items: [SQLOperand]
            switch c.rhs {
            case .list(let list):
                if c.op == .in, list.count > Self.longList, let sql = jsonMembership(l, list, flags: flags, fold: fold) { return sql }
                items = try list.map { e throws(QueryError) in try operand(e, scope: scope) }
            case .constant(.null): return never
            default: items = [try operand(c.rhs, scope: scope)]
            }
            if c.op == .in {
                if items.isEmpty { return never }
                return Self.balanced(items.map { equal(l, $0) }[...], "OR")
            }
            guard items.count == 2 else { throw QueryError("BETWEEN needs exactly two values") }
            let low = ordered(l, items[0], ">="), high = ordered(l, items[1], "<=")
            // One side known false: the whole is (and then uses none of its values, see `leaf(…boundFrom:)`).
            if low == "0" || high == "0" { return "0" }
            return "(\(low) AND \(high))"
        default: break
        }
        if c.op == .like {
            guard l.kind != .null else { return never }
            guard case .constant(let v) = c.rhs else { throw QueryError("the LIKE pattern must be a constant or variable") }
            guard case .string(var pattern) = v else { return never }
            if flags != 0 { pattern = TextFolding.fold(pattern, caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0) }
            return try regexpMatch(KeyPathComparison.likeToRegex(pattern), fold(l, SQLOperand(sql: "", kind: .string, nullable: false)))
        }
        if c.op == .matches, case .constant(.string(let pattern)) = c.rhs {
            guard l.kind != .null else { return never }
            return try regexpMatch(flags != 0 ? KeyPathComparison.foldPattern(pattern, c.options) : pattern,
                                   fold(l, SQLOperand(sql: "", kind: .string, nullable: false)))
        }
        let r = try operand(c.rhs, scope: scope)
        switch c.op {
        case .equal: return equal(l, r)
        case .notEqual: return "(" + dialect.isDistinct(fold(l, r), fold(r, l)) + ")"
        case .less: return ordered(l, r, "<")
        case .lessOrEqual: return ordered(l, r, "<=")
        case .greater: return ordered(l, r, ">")
        case .greaterOrEqual: return ordered(l, r, ">=")
        case .beginsWith, .endsWith, .contains, .matches:
            if l.kind == .null || r.kind == .null { return never }
            let x = fold(l, r), y = fold(r, l)
            switch c.op {
            case .contains where x != l.sql && y != r.sql: return dialect.foldedContains(l.sql, r.sql, flags: flags)
            case .contains: return dialect.contains(x, y)
            case .beginsWith: return dialect.beginsWith(x, y)
            case .endsWith: return dialect.endsWith(x, y)
            default: return dialect.regexpMatch(pattern: y, text: x)
            }
        case .in, .between, .like: return never
        }
    }
}

extension SQLCompilation {
    /// Lists longer than this are matched through one JSON parameter when they can be.
    static let longList = 32

    /// The terms of an AND (or OR) chain in order, however the tree leans (found
    /// without recursion, so a 10,000-term chain built in code is fine too).
    static func chain(_ p: QueryPredicate) -> [QueryPredicate] {
        var terms: [QueryPredicate] = []
        var stack = [p]
        while let q = stack.popLast() {
            switch (p, q) {
            case (.and, .and(let a, let b)), (.or, .or(let a, let b)): stack.append(b); stack.append(a)
            default: terms.append(q)
            }
        }
        return terms
    }

    /// `((a OP b) OP (c OP d))`: SQLite's parser stack and expression depth grow with
    /// log n, not n (a flat chain of 90 ANDs overflowed the parser stack, 1,000 ORs the depth limit).
    static func balanced(_ terms: ArraySlice<String>, _ op: String) -> String {
        if terms.count == 1 { return terms[terms.startIndex] }
        let mid = terms.startIndex + terms.count / 2
        return "(" + balanced(terms[..<mid], op) + " \(op) " + balanced(terms[mid...], op) + ")"
    }

    /// `x IN {…}` over many constants as one bound JSON array (`json_each`), when every
    /// value survives JSON exactly: all strings (folded here as SQL would fold them,
    /// no NUL) or all integers; nil in the list matches a nil `x`, as in memory.
    func jsonMembership(_ l: SQLOperand, _ items: [QueryExpression], flags: Int,
                        fold: (SQLOperand, SQLOperand) -> String) -> String? {
        var strings: [String] = [], integers: [Int64] = [], hasNull = false
        for item in items {
            guard case .constant(let v) = item else { return nil }
            switch Self.sqlValue(v) {
            case .null: hasNull = true
            case .string(let s) where !s.unicodeScalars.contains("\0"):
                strings.append(flags == 0 ? s : TextFolding.fold(s, caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0))
            case .integer(let i): integers.append(i)
            default: return nil
            }
        }
        let json: String
        let x: String
        if integers.isEmpty {
            // Without NUL, the predicate syntax quotes a string as valid JSON.
            json = "[" + strings.map(PredicatePrinter.quote).joined(separator: ",") + "]"
            x = fold(l, SQLOperand(sql: "", kind: .string, nullable: false))
        } else {
            guard strings.isEmpty, !(flags != 0 && l.kind == .string) else { return nil }
            json = "[" + integers.map { String($0) }.joined(separator: ",") + "]"
            x = l.sql
        }
        guard let members = dialect.jsonArrayMembers(bind(.string(json))) else {
            bindings.removeLast()
            return nil
        }
        let member = "COALESCE(\(x) IN (\(members)), \(dialect.falseCondition))"
        return hasNull ? "(\(member) OR \(x) IS NULL)" : member
    }
}
