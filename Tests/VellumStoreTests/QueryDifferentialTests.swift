import Foundation
import Testing
@testable import VellumStore

/// Random predicates and sort descriptors: SQL (QueryCompiler over SQLite, and over
/// PostgreSQL through its dialect) and memory (evaluate + QuerySortDescriptor.compare)
/// must return the same rows in the same order.
@Suite struct QueryDifferentialTests {
    static let strings: [String] = [
        "", "a", "A", "abc", "Abc", "abd", "ab", "é", "e\u{301}", "É", "E\u{301}", "e", "E", "straße", "STRASSE", "Strasse",
        "İstanbul", "istanbul", "ISTANBUL", "ıi", "東京", "日本語テキスト", "a*b", "a?b", "file2", "file10", "File1",
        "tea", "Green Tea", "GREEN", "naïve", "naive", "NAÏVE", "x.y", "100%", "Ω", "zz", "z", "_",
        // Marks Foundation keeps or drops by the base before them (`MarkRule`); only marks
        // PostgreSQL's `\X` takes as one character with them, as Swift does.
        "Ⓐ\u{301}", "ⓐ\u{301}\u{301}", "한\u{301}\u{302}", "ａ\u{308}b", "\u{301}e", "\u{301}\u{302}", "東\u{301}\u{20D0}", "ẞ\u{301}\u{301}", "Ⱥ\u{301}\u{301}",
    ]
    static let integers: [Int64] = [0, 1, -1, 2, 3, 5, 42, -42, 1000, 9_007_199_254_740_993, Int64.max, Int64.min, 7]
    static let doubles: [Double] = [0, 0.5, -0.5, 1, 2.5, -3.25, 1e15, -1e15, 42, 0.1, 3, 7.75]
    static let decimals: [String] = ["0", "1.5", "-2.25", "12.5", "100", "0.1", "3", "99.99"]
    static let dates: [Double] = [0, 1_714_521_600, 1_714_566_600, 1_714_566_600.25, -86_400, 2_000_000_000]
    static let tagWeights: [Int64] = [0, 1, 2, 3, 5, -1]

    struct Fixture {
        let database: QueryDatabase
        let layout: any StoreLayout
        let items: [TestObject]
    }

    static func makeFixture(seed: UInt64, backend: QueryBackend = .sqlite) throws -> Fixture {
        var rng = SeededGenerator(seed: seed)
        let model = QueryFixtures.model
        let (conn, layout) = try backend.open(model)
        for sql in layout.schemaSQL() { try conn.execute(sql) }
        let (key, entity) = (layout.qualifiedKey(), layout.qualifiedEntity())
        func insert(_ table: String, _ columns: [String], _ values: [Value]) throws {
            try conn.run("INSERT INTO \(quoteIdentifier(table)) (\(([key, entity] + columns.map(quoteIdentifier)).joined(separator: ", "))) VALUES (\(layout.dialect.placeholders(values.count + 1)))",
                         [values[0], .string(table)] + values.dropFirst())
        }
        let ownerE = model.entity(named: "Owner")!, itemE = model.entity(named: "Item")!, tagE = model.entity(named: "Tag")!
        func maybe(_ v: Value, _ rng: inout SeededGenerator) -> Value { Int.random(in: 0..<6, using: &rng) == 0 ? .null : v }

        var owners: [TestObject] = []
        for i in 1...6 {
            let o = TestObject(entity: ownerE, pk: Int64(i))
            o.attributes["name"] = maybe(.string(strings.randomElement(using: &rng)!), &rng)
            o.attributes["rank"] = maybe(.integer(integers.randomElement(using: &rng)!), &rng)
            try insert("Owner", ["name", "rank"], [.integer(o.pk), o.attributes["name"]!, o.attributes["rank"]!])
            owners.append(o)
        }
        var tags: [TestObject] = []
        for i in 1...8 {
            let t = TestObject(entity: tagE, pk: Int64(i))
            t.attributes["name"] = maybe(.string(strings.randomElement(using: &rng)!), &rng)
            t.attributes["weight"] = maybe(.integer(tagWeights.randomElement(using: &rng)!), &rng)
            try insert("Tag", ["name", "weight"], [.integer(t.pk), t.attributes["name"]!, t.attributes["weight"]!])
            tags.append(t)
        }
        guard case .joinTable(let jt, let src, let dst, _) = layout.mapping(for: "Item")!.relationshipStorage[itemE.relationshipIndexByName["tags"]!],
              case .foreignKey(let ownerColumn) = layout.mapping(for: "Item")!.relationshipStorage[itemE.relationshipIndexByName["owner"]!] else {
            throw QueryError("unexpected layout")
        }
        var items: [TestObject] = []
        for i in 1...40 {
            let it = TestObject(entity: itemE, pk: Int64(i))
            it.attributes["name"] = maybe(.string(strings.randomElement(using: &rng)!), &rng)
            it.attributes["note"] = maybe(.string(strings.randomElement(using: &rng)!), &rng)
            it.attributes["qty"] = maybe(.integer(integers.randomElement(using: &rng)!), &rng)
            it.attributes["price"] = maybe(.double(doubles.randomElement(using: &rng)!), &rng)
            it.attributes["cost"] = maybe(.decimal(Decimal(string: decimals.randomElement(using: &rng)!)!), &rng)
            it.attributes["when"] = maybe(.date(Date(timeIntervalSince1970: dates.randomElement(using: &rng)!)), &rng)
            it.attributes["flag"] = maybe(.bool(Bool.random(using: &rng)), &rng)
            var owner: Value = .null
            if Int.random(in: 0..<5, using: &rng) != 0 {
                let o = owners.randomElement(using: &rng)!
                it.toOne["owner"] = o
                o.toMany["items", default: []].append(it)
                owner = .integer(o.pk)
            }
            let attributes = ["name", "note", "qty", "price", "cost", "when", "flag"]
            try insert("Item", attributes + [ownerColumn], [.integer(it.pk)] + attributes.map { it.attributes[$0]! } + [owner])
            for t in tags.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng)) {
                it.toMany["tags", default: []].append(t)
                t.toMany["items", default: []].append(it)
                try conn.run("INSERT INTO \(quoteIdentifier(jt)) (\(quoteIdentifier(src)), \(quoteIdentifier(dst))) VALUES (\(layout.dialect.placeholders(2)))", [.integer(it.pk), .integer(t.pk)])
            }
            items.append(it)
        }
        return Fixture(database: conn, layout: layout, items: items)
    }

    // MARK: Random predicates

    enum Kind { case string, integer, double, decimal, date, bool }

    static func constant(_ k: Kind, _ rng: inout SeededGenerator) -> Value {
        if Int.random(in: 0..<12, using: &rng) == 0 { return .null }
        switch k {
        case .string: return .string(strings.randomElement(using: &rng)!)
        case .integer: return Bool.random(using: &rng) ? .integer(integers.randomElement(using: &rng)!) : .double(doubles.randomElement(using: &rng)!)
        case .double: return Bool.random(using: &rng) ? .double(doubles.randomElement(using: &rng)!) : .integer(integers.randomElement(using: &rng)!)
        case .decimal:
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return .decimal(Decimal(string: decimals.randomElement(using: &rng)!)!)
            case 1: return .double(doubles.randomElement(using: &rng)!)
            default: return .integer(integers.randomElement(using: &rng)!)
            }
        case .date: return .date(Date(timeIntervalSince1970: dates.randomElement(using: &rng)!))
        case .bool: return Bool.random(using: &rng) ? .bool(Bool.random(using: &rng)) : .integer(Int64.random(in: 0...1, using: &rng))
        }
    }

    static let scalarKeys: [(String, Kind)] = [
        ("name", .string), ("note", .string), ("qty", .integer), ("price", .double), ("cost", .decimal),
        ("when", .date), ("flag", .bool), ("owner.name", .string), ("owner.rank", .integer),
    ]

    static func options(_ rng: inout SeededGenerator) -> StringOptions {
        [[], [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]].randomElement(using: &rng)!
    }

    static func pattern(_ rng: inout SeededGenerator) -> String {
        var chars = Array(strings.randomElement(using: &rng)!)
        if !chars.isEmpty, Bool.random(using: &rng) { chars[Int.random(in: 0..<chars.count, using: &rng)] = "?" }
        if Bool.random(using: &rng) { chars.insert("*", at: Int.random(in: 0...chars.count, using: &rng)) }
        if Bool.random(using: &rng) { chars.append("*") }
        return String(chars)
    }

    /// MATCHES patterns; all of them mean the same on every engine (PostgreSQL's spelling: `PostgreSQLRegex`).
    static let regexes = ["a.*", ".*e.*", "[a-z]+", "(?i)tea", ".", "\\p{L}+", "[^a]", "", "(?i)[a-c]+x?", "(e|é)+\\X?",
                          "\\p{Lu}\\p{Ll}*", "[\\p{L}\\p{Nd}]+", "(?i)\\p{Ll}+ \\p{Alphabetic}+"]

    static func stringComparison(_ lhs: QueryExpression, quantifier: Quantifier, _ rng: inout SeededGenerator) -> Comparison {
        let o = options(&rng)
        let s = QueryExpression.constant(.string(strings.randomElement(using: &rng)!))
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: return Comparison(lhs, .beginsWith, s, options: o, quantifier: quantifier)
        case 1: return Comparison(lhs, .endsWith, s, options: o, quantifier: quantifier)
        case 2: return Comparison(lhs, .contains, s, options: o, quantifier: quantifier)
        case 3: return Comparison(lhs, .like, .constant(.string(pattern(&rng))), options: o, quantifier: quantifier)
        case 4: return Comparison(lhs, .matches, .constant(.string(regexes.randomElement(using: &rng)!)), options: o, quantifier: quantifier)
        case 5: return Comparison(lhs, .in, .list((0..<Int.random(in: 0...3, using: &rng)).map { _ in .constant(constant(.string, &rng)) }), options: o, quantifier: quantifier)
        default:
            let op: ComparisonOperator = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].randomElement(using: &rng)!
            return Comparison(lhs, op, .constant(constant(.string, &rng)), options: o, quantifier: quantifier)
        }
    }

    static func scalarComparison(_ key: String, _ kind: Kind, _ rng: inout SeededGenerator) -> Comparison {
        let lhs = QueryExpression.key(key)
        if kind == .string { return stringComparison(lhs, quantifier: .direct, &rng) }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return Comparison(lhs, .in, .list((0..<Int.random(in: 0...3, using: &rng)).map { _ in .constant(constant(kind, &rng)) }))
        case 1: return Comparison(lhs, .between, .list([.constant(constant(kind, &rng)), .constant(constant(kind, &rng))]))
        default:
            let op: ComparisonOperator = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].randomElement(using: &rng)!
            let c = QueryExpression.constant(constant(kind, &rng))
            return Bool.random(using: &rng) ? Comparison(lhs, op, c) : Comparison(c, op, lhs)
        }
    }

    static func comparison(_ rng: inout SeededGenerator) -> Comparison {
        let ops: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        switch Int.random(in: 0..<14, using: &rng) {
        case 0...5:
            let (k, kind) = scalarKeys.randomElement(using: &rng)!
            return scalarComparison(k, kind, &rng)
        case 6:
            let q: Quantifier = [.any, .all, .none].randomElement(using: &rng)!
            if Bool.random(using: &rng) { return stringComparison(.key("tags.name"), quantifier: q, &rng) }
            return Comparison(.key("tags.weight"), ops.randomElement(using: &rng)!, .constant(constant(.integer, &rng)), quantifier: q)
        case 7:
            let fn = AggregateFunction.allCases.randomElement(using: &rng)!
            let attr = fn == .count ? [] : (fn == .min || fn == .max) && Bool.random(using: &rng) ? ["name"] : ["weight"]
            let kind: Kind = attr == ["name"] ? .string : .integer
            return Comparison(.aggregate(fn, collection: ["tags"], attribute: attr), ops.randomElement(using: &rng)!,
                              .constant(kind == .string ? .string(strings.randomElement(using: &rng)!) : .integer(Int64.random(in: -1...6, using: &rng))))
        case 8:
            return objectComparison(&rng)
        case 9:
            let pairs: [(String, String)] = [("name", "note"), ("qty", "owner.rank"), ("price", "qty"), ("cost", "price"), ("name", "owner.name")]
            let (a, b) = pairs.randomElement(using: &rng)!
            return Comparison(.key(a), ops.randomElement(using: &rng)!, .key(b), options: a == "name" ? options(&rng) : [])
        case 10:
            if Bool.random(using: &rng) { return subqueryComparison(&rng) }
            return Comparison(.aggregate(.count, collection: ["owner", "items"], attribute: []), ops.randomElement(using: &rng)!, .constant(.integer(Int64.random(in: 0...8, using: &rng))))
        case 11:
            let q: Quantifier = [.any, .all, .none].randomElement(using: &rng)!
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return Comparison(.key("owner.items.qty"), ops.randomElement(using: &rng)!, .constant(constant(.integer, &rng)), quantifier: q)
            // Through two and three to-many relationships, with a to-one (maybe nil) between.
            case 1: return stringComparison(.key("tags.items.name"), quantifier: q, &rng)
            case 2: return Comparison(.key("owner.items.tags.weight"), ops.randomElement(using: &rng)!, .constant(constant(.integer, &rng)), quantifier: q)
            default: return Comparison(.key("tags.items.owner.items.qty"), ops.randomElement(using: &rng)!, .constant(constant(.integer, &rng)), quantifier: q)
            }
        case 12:
            if Bool.random(using: &rng) { return arithmeticComparison(&rng) }
            return Comparison(.evaluatedObject, .in, .list((0..<3).map { _ in .constant(.integer(Int64.random(in: 1...40, using: &rng))) }))
        default:
            return Comparison(.key("flag"), ops.randomElement(using: &rng)!, .constant(constant(.bool, &rng)))
        }
    }

    /// Arithmetic on integers (with overflow: Int64.max, Int64.min), doubles,
    /// decimals, booleans, nil, aggregates and to-one values, divisions by zero
    /// included, compared with a number or another expression.
    static func arithmeticComparison(_ rng: inout SeededGenerator) -> Comparison {
        func leaf(_ rng: inout SeededGenerator) -> QueryExpression {
            switch Int.random(in: 0..<9, using: &rng) {
            case 0: return .key("qty")
            case 1: return .key("price")
            case 2: return .key("cost")
            case 3: return .key("owner.rank")
            case 4: return .key("flag")
            case 5: return .aggregate(.count, collection: ["tags"], attribute: [])
            case 6: return .aggregate(.sum, collection: ["tags"], attribute: ["weight"])
            default: return .constant(constant(Bool.random(using: &rng) ? .integer : .decimal, &rng))
            }
        }
        func expression(_ depth: Int, _ rng: inout SeededGenerator) -> QueryExpression {
            if depth > 2 || Int.random(in: 0..<3, using: &rng) == 0 { return leaf(&rng) }
            return .arithmetic(ArithmeticOperator.allCases.randomElement(using: &rng)!, expression(depth + 1, &rng), expression(depth + 1, &rng))
        }
        let ops: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        let lhs = QueryExpression.arithmetic(ArithmeticOperator.allCases.randomElement(using: &rng)!, expression(1, &rng), expression(1, &rng))
        if Bool.random(using: &rng) { return Comparison(lhs, ops.randomElement(using: &rng)!, expression(1, &rng)) }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            return Comparison(lhs, .between, .list([.constant(constant(.integer, &rng)), .constant(constant(.double, &rng))]))
        }
        return Comparison(lhs, ops.randomElement(using: &rng)!, .constant(constant(.integer, &rng)))
    }

    /// `SUBQUERY(…).@count` compared with a small number; inside, `$v` paths of the
    /// related object, the object itself, and paths of the outer item.
    static func subqueryComparison(_ rng: inout SeededGenerator) -> Comparison {
        let ops: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        let overTags = Bool.random(using: &rng)
        let v = overTags ? "t" : "i"
        func inner(_ depth: Int, _ rng: inout SeededGenerator) -> QueryPredicate {
            switch Int.random(in: 0..<(depth > 1 ? 4 : 7), using: &rng) {
            case 0:
                if overTags { return .comparison(stringComparison(.key("$t.name"), quantifier: .direct, &rng)) }
                return .comparison(scalarComparison("$i.qty", .integer, &rng))
            case 1:
                if overTags { return .comparison(Comparison(.key("$t.weight"), ops.randomElement(using: &rng)!, .constant(constant(.integer, &rng)))) }
                return .comparison(stringComparison(.key("$i.name"), quantifier: .direct, &rng))
            case 2:
                // The related object against the outer one's values.
                if overTags { return .comparison(Comparison(.key("$t.weight"), ops.randomElement(using: &rng)!, .key("qty"))) }
                return .comparison(Comparison(.key("$i.qty"), ops.randomElement(using: &rng)!, .key("owner.rank")))
            case 3 where !overTags && depth == 0 && Bool.random(using: &rng):
                // Nested: the item's own tags.
                let nested = QueryExpression.subqueryCount(collection: ["$i", "tags"], variable: "t",
                                                      predicate: .comparison(Comparison(.key("$t.weight"), ops.randomElement(using: &rng)!, .key("$i.qty"))))
                return .comparison(Comparison(nested, ops.randomElement(using: &rng)!, .constant(.integer(Int64.random(in: 0...2, using: &rng)))))
            case 3:
                let range: ClosedRange<Int64> = overTags ? 0...9 : 0...41
                return .comparison(Comparison(.variable(v), .in, .list((0..<Int.random(in: 0...3, using: &rng)).map { _ in .constant(.integer(Int64.random(in: range, using: &rng))) })))
            case 4: return .and(inner(depth + 1, &rng), inner(depth + 1, &rng))
            case 5: return .or(inner(depth + 1, &rng), inner(depth + 1, &rng))
            default: return .not(inner(depth + 1, &rng))
            }
        }
        let count = QueryExpression.subqueryCount(collection: overTags ? ["tags"] : ["owner", "items"], variable: v, predicate: inner(0, &rng))
        let n = QueryExpression.constant(.integer(Int64.random(in: 0...3, using: &rng)))
        return Bool.random(using: &rng) ? Comparison(count, ops.randomElement(using: &rng)!, n) : Comparison(n, ops.randomElement(using: &rng)!, count)
    }

    /// A relationship compared with nil, primary keys (some of no object) or object-ID URIs.
    static func objectComparison(_ rng: inout SeededGenerator) -> Comparison {
        func reference(_ entity: String, _ range: ClosedRange<Int64>) -> QueryExpression {
            let pk = Int64.random(in: range, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: return .constant(.null)
            case 1: return .constant(.uri(URL(string: "vellum://store/\(entity)/p\(pk)")!))
            default: return .constant(.integer(pk))
            }
        }
        let op: ComparisonOperator = Bool.random(using: &rng) ? .equal : .notEqual
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return Comparison(.key("owner"), op, .constant(.null))
        case 1: return Comparison(.key("owner"), op, reference("Owner", 0...7))
        case 2: return Comparison(.key("owner"), .in, .list((0..<Int.random(in: 0...3, using: &rng)).map { _ in reference("Owner", 0...7) }))
        case 3:
            let q: Quantifier = [.any, .all, .none].randomElement(using: &rng)!
            return Comparison(.key("tags"), op, reference("Tag", 0...9), quantifier: q)
        case 4:
            let q: Quantifier = [.any, .all, .none].randomElement(using: &rng)!
            return Comparison(.key("tags"), .in, .list((0..<Int.random(in: 0...3, using: &rng)).map { _ in reference("Tag", 0...9) }), quantifier: q)
        default:
            let q: Quantifier = [.any, .all, .none].randomElement(using: &rng)!
            return Comparison(.key("owner.items"), op, reference("Item", 0...41), quantifier: q)
        }
    }

    static func predicate(_ rng: inout SeededGenerator, depth: Int = 0) -> QueryPredicate {
        let r = Int.random(in: 0..<(depth >= 3 ? 10 : 16), using: &rng)
        switch r {
        case 10, 11: return .and(predicate(&rng, depth: depth + 1), predicate(&rng, depth: depth + 1))
        case 12, 13: return .or(predicate(&rng, depth: depth + 1), predicate(&rng, depth: depth + 1))
        case 14, 15: return .not(predicate(&rng, depth: depth + 1))
        case 9: return .constant(Bool.random(using: &rng))
        default: return .comparison(comparison(&rng))
        }
    }

    static func sorts(_ rng: inout SeededGenerator) -> [QuerySortDescriptor] {
        let keys = ["name", "note", "qty", "price", "cost", "when", "flag", "owner.name", "owner.rank",
                    "tags.@count", "owner.items.@count"]
        return (0..<Int.random(in: 0...3, using: &rng)).map { _ in
            let key = keys.randomElement(using: &rng)!
            let comparison = QuerySortDescriptor.Comparison.allCases.randomElement(using: &rng)!
            // A count is a number: [c] and [l] are refused for it (sortingByACountRefusesWhatCannotBeCounted).
            return QuerySortDescriptor(key, ascending: Bool.random(using: &rng), comparison: key.hasSuffix("@count") ? .binary : comparison)
        }
    }

    /// Paths through several to-manys where a to-one between them is nil: memory
    /// gives that object one nil value, and so must SQL.
    @Test(arguments: ["ANY tags.items.owner.items == nil", "NONE tags.items.owner.items == nil",
                      "ALL tags.items.owner.items != nil", "ANY tags.items.owner.items.qty == nil",
                      "ANY tags.items.owner == nil", "NONE owner.items.tags.weight BETWEEN {1, 3}"], QueryBackend.allCases)
    func nilToOneBetweenToManys(_ format: String, _ backend: QueryBackend) throws {
        let fixture = try Self.makeFixture(seed: 20_261_130, backend: backend)
        #expect(fixture.items.contains { $0.toOne["owner"] == nil }, "the fixture needs items without an owner")
        let (sql, memory) = try Self.rows(format, fixture)
        #expect(sql == memory, "\(format)")
        #expect(!memory.isEmpty && memory.count < fixture.items.count, "\(format) selects all or nothing: not a useful case")
    }

    /// The rows a validated predicate selects in SQL and in memory.
    static func rows(_ format: String, _ fixture: Fixture) throws -> (sql: [Value], memory: [Value]) {
        let p = try QueryPredicate(format: format)
        try p.validate(entity: QueryFixtures.item, model: QueryFixtures.model)
        let q = try QueryCompiler.compile(entity: QueryFixtures.item, layout: fixture.layout, predicate: p)
        let sql = try fixture.database.rows(q.selectSQL(), q.bindings).map { $0[0] }
        return (sql, try fixture.items.filter { try p.evaluate($0) }.map { Value.integer($0.pk) })
    }

    @Test(arguments: QueryBackend.allCases)
    func sqlMatchesMemory(_ backend: QueryBackend) throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["VELLUM_QUERY_SEED"].flatMap { UInt64($0) } ?? 20_261_130)
        let fixture = try Self.makeFixture(seed: seed, backend: backend)
        var rng = SeededGenerator(seed: seed &+ 1)
        let entity = QueryFixtures.item
        var failures = 0
        var nonTrivial = 0
        for n in 0..<5000 {
            let p = Self.predicate(&rng)
            let sorts = Self.sorts(&rng)
            #expect(try QueryPredicate(format: p.format) == p, "seed \(seed) case \(n): round trip of \(p.format)")
            #expect(throws: Never.self, "seed \(seed) case \(n): \(p.format) is valid") { try p.validate(entity: entity, model: QueryFixtures.model) }
            let q = try QueryCompiler.compile(entity: entity, layout: fixture.layout, predicate: p, sortDescriptors: sorts)
            let sqlRows = try fixture.database.rows(q.selectSQL(), q.bindings).map { $0[0] }
            let memory = try QuerySortDescriptor.sort(try fixture.items.filter { try p.evaluate($0) }, by: sorts).map { Value.integer($0.pk) }
            if !sqlRows.isEmpty && sqlRows.count != fixture.items.count { nonTrivial += 1 }
            if sqlRows != memory {
                failures += 1
                Issue.record("""
                \(backend) seed \(seed) case \(n): \(p.format) sorted by \(sorts.map(\.description))
                SQL:    \(sqlRows)
                memory: \(memory)
                \(q.selectSQL()) \(q.bindings)
                """)
                if failures > 5 { return }
            }
        }
        #expect(nonTrivial > 500, "seed \(seed): too few selective predicates (\(nonTrivial))")
    }
}
