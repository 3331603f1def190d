import Foundation
import Testing
@testable import VellumStore

@Suite struct QueryParserTests {
    func p(_ s: String, _ vars: [String: Value] = [:]) throws -> QueryPredicate { try QueryPredicate(format: s, variables: vars) }
    func cmp(_ l: QueryExpression, _ op: ComparisonOperator, _ r: QueryExpression, _ o: StringOptions = [], _ q: Quantifier = .direct) -> QueryPredicate {
        .comparison(Comparison(l, op, r, options: o, quantifier: q))
    }

    @Test func operators() throws {
        let k = QueryExpression.key("price"), ten = QueryExpression.constant(.integer(10))
        #expect(try p("price == 10") == cmp(k, .equal, ten))
        #expect(try p("price = 10") == cmp(k, .equal, ten))
        #expect(try p("price != 10") == cmp(k, .notEqual, ten))
        #expect(try p("price <> 10") == cmp(k, .notEqual, ten))
        #expect(try p("price < 10") == cmp(k, .less, ten))
        #expect(try p("price <= 10") == cmp(k, .lessOrEqual, ten))
        #expect(try p("price =< 10") == cmp(k, .lessOrEqual, ten))
        #expect(try p("price > 10") == cmp(k, .greater, ten))
        #expect(try p("price >= 10") == cmp(k, .greaterOrEqual, ten))
        #expect(try p("price => 10") == cmp(k, .greaterOrEqual, ten))
        #expect(try p("price BETWEEN {1, 5}") == cmp(k, .between, .list([.constant(.integer(1)), .constant(.integer(5))])))
        #expect(try p("price in {1, 2.5, -3}") == cmp(k, .in, .list([.constant(.integer(1)), .constant(.double(2.5)), .constant(.integer(-3))])))
        #expect(try p("price IN $list") == cmp(k, .in, .variable("list")))
    }

    @Test func stringOperatorsAndOptions() throws {
        let n = QueryExpression.key("name"), s = QueryExpression.constant(.string("te"))
        #expect(try p("name BEGINSWITH 'te'") == cmp(n, .beginsWith, s))
        #expect(try p("name endswith[c] 'te'") == cmp(n, .endsWith, s, .caseInsensitive))
        #expect(try p("name CONTAINS[d] \"te\"") == cmp(n, .contains, s, .diacriticInsensitive))
        #expect(try p("name LIKE[cd] 'te'") == cmp(n, .like, s, [.caseInsensitive, .diacriticInsensitive]))
        #expect(try p("name MATCHES 'te'") == cmp(n, .matches, s))
        #expect(try p("name ==[c] 'te'") == cmp(n, .equal, s, .caseInsensitive))
    }

    @Test func logicAndPrecedence() throws {
        let a = cmp(.key("a"), .equal, .constant(.integer(1)))
        let b = cmp(.key("b"), .equal, .constant(.integer(2)))
        let c = cmp(.key("c"), .equal, .constant(.integer(3)))
        #expect(try p("a == 1 OR b == 2 AND c == 3") == .or(a, .and(b, c)))
        #expect(try p("a == 1 || b == 2 && c == 3") == .or(a, .and(b, c)))
        #expect(try p("(a == 1 OR b == 2) AND c == 3") == .and(.or(a, b), c))
        #expect(try p("NOT a == 1 AND b == 2") == .and(.not(a), b))
        #expect(try p("!(a == 1) and not b == 2") == .and(.not(a), .not(b)))
        #expect(try p("TRUEPREDICATE") == .constant(true))
        #expect(try p("falsepredicate OR a == 1") == .or(.constant(false), a))
    }

    @Test func literals() throws {
        func rhs(_ s: String) throws -> QueryExpression {
            guard case .comparison(let c) = try p("x == " + s) else { throw QueryError("not a comparison") }
            return c.rhs
        }
        #expect(try rhs("42") == .constant(.integer(42)))
        #expect(try rhs("-42") == .constant(.integer(-42)))
        #expect(try rhs("3.25") == .constant(.double(3.25)))
        #expect(try rhs("-1.5e3") == .constant(.double(-1500)))
        #expect(try rhs("2E-2") == .constant(.double(0.02)))
        #expect(try rhs("'it\\'s'") == .constant(.string("it's")))
        #expect(try rhs("\"a\\n\\t\\\\\\\"b\"") == .constant(.string("a\n\t\\\"b")))
        #expect(try rhs("'\\u00e9'") == .constant(.string("é")))
        #expect(try rhs("nil") == .constant(.null))
        #expect(try rhs("NULL") == .constant(.null))
        #expect(try rhs("TRUE") == .constant(.bool(true)))
        #expect(try rhs("yes") == .constant(.bool(true)))
        #expect(try rhs("False") == .constant(.bool(false)))
        #expect(try rhs("NO") == .constant(.bool(false)))
        #expect(try rhs("@2024-05-01") == .constant(.date(Date(timeIntervalSince1970: 1714521600))))
        #expect(try rhs("@2024-05-01T12:30:00Z") == .constant(.date(Date(timeIntervalSince1970: 1714566600))))
        #expect(try rhs("CAST('1.5', 'NSDecimalNumber')") == .constant(.decimal(Decimal(string: "1.5")!)))
        #expect(try rhs("$v") == .variable("v"))
        #expect(try rhs("SELF") == .evaluatedObject)
        #expect(try rhs("#in") == .keyPath(["in"]))
    }

    @Test func keyPathsQuantifiersAggregates() throws {
        #expect(try p("provider.name == 'x'") == cmp(.keyPath(["provider", "name"]), .equal, .constant(.string("x"))))
        #expect(try p("ANY tags.name == 'x'") == cmp(.key("tags.name"), .equal, .constant(.string("x")), [], .any))
        #expect(try p("SOME tags.name == 'x'") == cmp(.key("tags.name"), .equal, .constant(.string("x")), [], .any))
        #expect(try p("all tags.name == 'x'") == cmp(.key("tags.name"), .equal, .constant(.string("x")), [], .all))
        #expect(try p("NONE tags.name == 'x'") == cmp(.key("tags.name"), .equal, .constant(.string("x")), [], .none))
        #expect(try p("items.@count > 2") == cmp(.aggregate(.count, collection: ["items"], attribute: []), .greater, .constant(.integer(2))))
        #expect(try p("items.@sum.price < 9.5") == cmp(.aggregate(.sum, collection: ["items"], attribute: ["price"]), .less, .constant(.double(9.5))))
        #expect(try p("SELF IN {1, 2}") == cmp(.evaluatedObject, .in, .list([.constant(.integer(1)), .constant(.integer(2))])))
        // A value IN a key path is ANY … ==, and prints that way.
        #expect(try p("'x' IN[c] tags.name") == cmp(.key("tags.name"), .equal, .constant(.string("x")), [.caseInsensitive], .any))
        #expect(try p("4 IN tags") == cmp(.key("tags"), .equal, .constant(.integer(4)), [], .any))
        #expect(try VellumStore.QueryPredicate(format: "'x' IN tags.name").format == "ANY tags.name == \"x\"")
        #expect(parseError { try VellumStore.QueryPredicate(format: "{1, 2} IN tags") } != nil)
    }

    @Test func arithmetic() throws {
        func k(_ s: String) -> QueryExpression { .key(s) }
        #expect(try p("price * qty > 100") == cmp(.arithmetic(.multiply, k("price"), k("qty")), .greater, .constant(.integer(100))))
        // * and / bind tighter than + and -; all are left-associative.
        #expect(try p("a + b * c == 1") == cmp(.arithmetic(.add, k("a"), .arithmetic(.multiply, k("b"), k("c"))), .equal, .constant(.integer(1))))
        #expect(try p("a - b - c == 1") == cmp(.arithmetic(.subtract, .arithmetic(.subtract, k("a"), k("b")), k("c")), .equal, .constant(.integer(1))))
        #expect(try p("(a + b) * c == 1") == cmp(.arithmetic(.multiply, .arithmetic(.add, k("a"), k("b")), k("c")), .equal, .constant(.integer(1))))
        // After an operand a sign is an operator; elsewhere it belongs to the number.
        #expect(try p("qty -1 > 0") == cmp(.arithmetic(.subtract, k("qty"), .constant(.integer(1))), .greater, .constant(.integer(0))))
        #expect(try p("qty > -1") == cmp(k("qty"), .greater, .constant(.integer(-1))))
        #expect(try p("qty - -1 > 0") == cmp(.arithmetic(.subtract, k("qty"), .constant(.integer(-1))), .greater, .constant(.integer(0))))
        #expect(try p("-qty < 0") == cmp(.arithmetic(.subtract, .constant(.integer(0)), k("qty")), .less, .constant(.integer(0))))
        #expect(try p("qty IN {-1, 2}") == cmp(k("qty"), .in, .list([.constant(.integer(-1)), .constant(.integer(2))])))
        // Parentheses still group predicates.
        #expect(try p("(qty > 1) AND (price / 2 < qty)") == .and(try p("qty > 1"), try p("price / 2 < qty")))
        #expect(try p("((qty + 1)) * 2 >= (price)") == cmp(.arithmetic(.multiply, .arithmetic(.add, k("qty"), .constant(.integer(1))), .constant(.integer(2))), .greaterOrEqual, k("price")))
        for text in ["(a + b) * c == a - (b - c)", "a / (b * c) != a / b * c", "qty - -1 > 0", "0 - qty < tags.@count * 2"] {
            let parsed = try p(text)
            #expect(parsed.format == text)
            #expect(try p(parsed.format) == parsed)
        }
        for bad in ["price * > 3", "(price + 1 > 3", "price + > 1", "qty * > {1, 2}"] {
            #expect(parseError { try VellumStore.QueryPredicate(format: bad) } != nil, "\(bad)")
        }
    }

    @Test func subqueries() throws {
        let text = "SUBQUERY(tags, $t, $t.name BEGINSWITH[c] \"a\" AND $t.weight > qty OR $t IN {1, 2}).@count > 0"
        let parsed = try p(text)
        guard case .comparison(let c) = parsed, case .subqueryCount(let collection, let variable, let inner) = c.lhs else {
            Issue.record("not a subquery comparison: \(parsed)"); return
        }
        #expect(collection == ["tags"] && variable == "t")
        #expect(inner == (try p("$t.name BEGINSWITH[c] 'a' AND $t.weight > qty OR $t IN {1, 2}")))
        #expect(parsed.format == text)
        #expect(try p(parsed.format) == parsed)
        // Outer variables are substituted inside; the subquery's own is not.
        let substituted = try p("SUBQUERY(tags, $t, $t.weight > $min).@count == $n", ["min": .integer(2), "n": .integer(1)])
        #expect(substituted.format == "SUBQUERY(tags, $t, $t.weight > 2).@count == 1")
        for bad in ["SUBQUERY(tags, $t, $t.weight > 2) > 0", "SUBQUERY(tags, t, t.weight > 2).@count > 0",
                    "SUBQUERY(tags, $t, $t.weight > 2).@sum > 0", "SUBQUERY(2, $t, TRUEPREDICATE).@count > 0",
                    "SUBQUERY(tags, $t, $t.weight > 2.@count > 0"] {
            #expect(parseError { try VellumStore.QueryPredicate(format: bad) } != nil, "\(bad)")
        }
    }

    @Test func variables() throws {
        #expect(try p("price > $min", ["min": .integer(3)]) == cmp(.key("price"), .greater, .constant(.integer(3))))
        let unbound = try p("price > $min")
        #expect(unbound.variableNames == ["min"])
        #expect { try unbound.substituting([:]) } throws: { ($0 as? StoreError)?.queryError != nil }
        #expect(try p("price IN $l").substituting([:], lists: ["l": [.integer(1)]]) == cmp(.key("price"), .in, .list([.constant(.integer(1))])))
        let o = TestObject(entity: QueryFixtures.item, pk: 1)
        o.attributes["qty"] = .integer(5)
        #expect(try p("qty > $m").evaluate(o, variables: ["m": .integer(4)]))
        #expect(try !p("qty > $m").evaluate(o, variables: ["m": .integer(5)]))
    }

    @Test func builder() throws {
        let built = Key("price") > 10 && Key("name").contains("tea", caseInsensitive: true)
        #expect(built == (try p("price > 10 AND name CONTAINS[c] 'tea'")))
        #expect((!Key("a").isNil || Key("b").in([1, 2])) == (try p("NOT a == nil OR b IN {1, 2}")))
        #expect(Key("a").between(1, 5) == (try p("a BETWEEN {1, 5}")))
        #expect((Key("tags.name").any == "x") == (try p("ANY tags.name == 'x'")))
        #expect((Key("tags").count > 2) == (try p("tags.@count > 2")))
        #expect((Key("tags").sum("weight") >= 1.5) == (try p("tags.@sum.weight >= 1.5")))
    }

    @Test(arguments: [
        ("price > ", 8, "a value"),
        ("price >> 3", 7, "a value"),
        ("(a == 1", 7, "')'"),
        ("a == 'abc", 5, "closing"),
        ("a BETWEEN {1}", 12, "two values"),
        ("a == 1 b", 7, "AND, OR or end of input"),
        ("a ==[x] 1", 5, "string options"),
        ("a == @2024-13-45", 5, "a date"),
        ("tags.@foo > 1", 5, "aggregate"),
        ("é == 'x' AND", 12, "a predicate"),
        ("a == '\\q'", 6, "an escape"),
        ("a ~ 1", 2, "a key, value"),
    ])
    func parseErrors(input: String, position: Int, expected: String) {
        do {
            _ = try QueryPredicate(format: input)
            Issue.record("parsed: \(input)")
        } catch {
            guard let error = error.parseError else { Issue.record("\(input): not a syntax error: \(error)"); return }
            #expect(error.position == position, "\(input): \(error)")
            #expect(error.expected.contains(expected), "\(input): \(error)")
            let caret = error.caretDiagnostic(input: input)
            #expect(caret.split(separator: "\n").last!.prefix(position + 1) == String(repeating: " ", count: position) + "^")
        }
    }

    @Test func printsAndReparses() throws {
        let inputs = [
            "a == 1 AND (b == 2 OR c == 3)", "NOT (a == 1 AND b == 2)", "(a == 1 AND b == 2) AND c == 3",
            "a == 1 AND (b == 2 AND c == 3)", "name LIKE[cd] \"*x?\"", "ANY tags.name IN {'a', \"b\\n\", nil}",
            "when > @2024-05-01T12:30:00Z", "cost < CAST('12.50', 'NSDecimalNumber')", "#and == 1",
            "items.@avg.price BETWEEN {1.5, 1e20}", "SELF != 3", "price > $p", "x == -0.0", "TRUEPREDICATE",
            "when == CAST(1714566600.25, 'NSDate')", "u == CAST('E621E1F8-C36C-495A-93FC-0C247A3E6E5F', 'NSUUID')",
        ]
        for s in inputs {
            let a = try p(s)
            let b = try p(a.format)
            #expect(a == b, "\(s) → \(a.format)")
        }
    }

    @Test func sortStrings() throws {
        let list = try QuerySortDescriptor.parseList("name, -price,owner.name[c],title[l]")
        #expect(list == [QuerySortDescriptor("name"), QuerySortDescriptor("price", ascending: false),
                         QuerySortDescriptor("owner.name", comparison: .caseInsensitive),
                         QuerySortDescriptor("title", comparison: .localizedStandard)])
        #expect(list.map(\.description).joined(separator: ",") == "name,-price,owner.name[c],title[l]")
        #expect(parseError { try QuerySortDescriptor.parseList("name,,price") } != nil)
        #expect(parseError { try QuerySortDescriptor.parseList("name[x]") } != nil)
        #expect(parseError { try QuerySortDescriptor.parseList("na me") } != nil)
    }

    /// `:sort books.@count` in the browser: a to-many relationship's count is a sort key.
    @Test func sortStringsTakeACountAtTheEnd() throws {
        let list = try QuerySortDescriptor.parseList("-tags.@count,owner.items.@count")
        #expect(list == [QuerySortDescriptor(keyPath: ["tags", "@count"], ascending: false), QuerySortDescriptor(keyPath: ["owner", "items", "@count"])])
        #expect(list.map(\.description).joined(separator: ",") == "-tags.@count,owner.items.@count")
        #expect(parseError { try QuerySortDescriptor.parseList("@count") } != nil)
        #expect(parseError { try QuerySortDescriptor.parseList("tags.@count.name") } != nil)
        #expect(parseError { try QuerySortDescriptor.parseList("tags.@sum") } != nil)
    }

    /// Random and mutated inputs yield a predicate or a ParseError, never a crash or hang.
    @Test func fuzz() {
        let seed = UInt64(0xF00D)
        var rng = SeededGenerator(seed: seed)
        let pieces = ["a", "tags", ".", "name", "@count", "@sum", "==", "=", "!=", "<", ">=", "=>", "(", ")", "{", "}", ",",
                      "AND", "or", "NOT", "!", "&&", "||", "ANY", "ALL", "NONE", "IN", "BETWEEN", "CONTAINS", "LIKE", "[cd]", "[",
                      "]", "'x'", "\"y\\n\"", "'", "\"", "\\", "\\u12", "3", "-4.5", "1e", "1e9", "nil", "TRUE", "$v", "$", "#",
                      "@2024-05-01", "@", "SELF", "CAST", "é", "e\u{301}", "東", " ", "  ", "TRUEPREDICATE", "-", "+", ".5"]
        let seeds = ["a == 1 AND (b < 'x' OR NOT c BEGINSWITH[c] \"q\")", "ANY tags.name IN {'a', 'b'}",
                     "items.@sum.price BETWEEN {1, 2}", "when > @2024-05-01T12:30:00Z OR SELF == $x"]
        var parsed = 0
        for i in 0..<100_000 {
            var s: String
            if i % 2 == 0 {
                s = ""
                for _ in 0..<Int.random(in: 1...12, using: &rng) { s += pieces.randomElement(using: &rng)! + (Bool.random(using: &rng) ? " " : "") }
            } else {
                var chars = Array(seeds.randomElement(using: &rng)!)
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let k = Int.random(in: 0..<chars.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: chars.remove(at: k)
                    case 1: chars.insert(Array(pieces.randomElement(using: &rng)!).first ?? " ", at: k)
                    default: chars.swapAt(k, Int.random(in: 0..<chars.count, using: &rng))
                    }
                    if chars.isEmpty { chars = ["a"] }
                }
                s = String(chars)
            }
            do {
                let p = try QueryPredicate(format: s)
                parsed += 1
                if i % 10 == 0 {
                    let again = try? QueryPredicate(format: p.format)
                    #expect(again == p, "seed \(seed) input \(s) printed \(p.format)")
                }
            } catch {
                #expect(error.parseError.map { $0.position >= 0 && $0.position <= s.count } == true, "seed \(seed) input \(s)")
            }
        }
        #expect(parsed > 1000)
    }

    @Test func deepNestingIsAnError() {
        let s = String(repeating: "(", count: 5000) + "a == 1" + String(repeating: ")", count: 5000)
        #expect(parseError { try QueryPredicate(format: s) } != nil)
    }
}
