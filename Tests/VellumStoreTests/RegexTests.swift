import Foundation
import Testing
@testable import VellumStore

/// MATCHES (and LIKE) run by `LinearRegex` in SQL and in memory: invalid patterns and
/// engine limits are errors, never "no match"; catastrophic patterns cost linear time.
@Suite struct RegexTests {
    /// Rows selected, or the error's text.
    enum Outcome: Equatable {
        case success([Int64])
        case failure(String)
    }

    /// One Item table on an in-memory connection with `values` as names (pk 1, 2, …).
    static func table(_ values: [String]) throws -> (Connection, NativeLayout, [TestObject]) {
        let layout = NativeLayout(model: QueryFixtures.model)
        let conn = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
        for sql in layout.schemaSQL() { try conn.execute(sql) }
        var objects: [TestObject] = []
        for (i, v) in values.enumerated() {
            let o = TestObject(entity: QueryFixtures.item, pk: Int64(i + 1))
            o.attributes["name"] = .string(v)
            try conn.run("INSERT INTO \"Item\" (\"_pk\", \"_entity\", \"name\") VALUES (?, 'Item', ?)", [.integer(o.pk), .string(v)])
            objects.append(o)
        }
        return (conn, layout, objects)
    }

    /// The rows SQL selects, or its error text.
    static func sql(_ format: String, _ conn: Connection, _ layout: NativeLayout, validate: Bool = true) -> Outcome {
        do {
            let p = try QueryPredicate(format: format)
            let q: CompiledQuery
            if validate {
                q = try QueryCompiler.compile(entity: QueryFixtures.item, layout: layout, predicate: p)
            } else {
                let c = SQLCompilation(layout: layout, model: QueryFixtures.model)
                let w = try c.predicate(p, scope: SQLScope(alias: "t0", entity: QueryFixtures.item))
                q = CompiledQuery(table: "Item", whereClause: w, joins: "", orderBy: "t0.\"_pk\"", bindings: c.bindings, layout: layout)
            }
            return .success(try conn.rows(q.selectSQL(), q.bindings).map { if case .integer(let i) = $0[0] { return i } else { return -1 } })
        } catch { return .failure("\(error)") }
    }

    static func memory(_ format: String, _ objects: [TestObject]) -> Outcome {
        do {
            let p = try QueryPredicate(format: format)
            return .success(try objects.filter { try p.evaluate($0) }.map(\.pk))
        } catch { return .failure("\(error)") }
    }

    @Test func invalidRegexIsAnErrorNotNoMatch() throws {
        let (conn, layout, objects) = try Self.table(["apple", "kiwi"])
        let p = try QueryPredicate(format: "NOT (name MATCHES '[a-z')")
        // Validation: an error naming the cause, with a caret under the pattern's '['.
        let error = try #require(try #require(throws: StoreError.self) { try p.validate(entity: QueryFixtures.item, model: QueryFixtures.model) }.queryError)
        #expect(error.message.contains("invalid regular expression"), "\(error)")
        let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 3, "\(error.description)")
        let caret = try #require(lines.last?.firstIndex(of: "^"))
        let column = lines[2].distance(from: lines[2].startIndex, to: caret)
        #expect(Array(lines[1])[column] == "[", "\(error.description)")
        // SQL (even unvalidated) and memory fail too: NOT(no match) would select every row.
        guard case .failure(let s) = Self.sql("NOT (name MATCHES '[a-z')", conn, layout, validate: false) else {
            Issue.record("SQL answered an invalid pattern"); return
        }
        #expect(s.contains("invalid regular expression"), "\(s)")
        guard case .failure(let m) = Self.memory("NOT (name MATCHES '[a-z')", objects) else {
            Issue.record("memory answered an invalid pattern"); return
        }
        #expect(m.contains("invalid regular expression"), "\(m)")
        // A pattern from a key path is checked when it is used.
        guard case .failure = Self.sql("'x' MATCHES name", try Self.table(["(unclosed"]).0, layout) else {
            Issue.record("a key-path pattern that does not compile matched nothing silently"); return
        }
    }

    @Test func longValueMatchIsAnswered() throws {
        let long = String(repeating: "x", count: 1_000_000) + "a"
        let mixed = String(repeating: "xy", count: 500_000) + "a"
        let (conn, layout, objects) = try Self.table([long, mixed, long + "b"])
        for (format, expected) in [("name MATCHES 'x*a'", [Int64(1)]), ("name MATCHES '(x|y)*a'", [1, 2]),
                                   ("NOT (name MATCHES '(x|y)*a')", [3]), ("name LIKE '*a'", [1, 2])] {
            #expect(Self.sql(format, conn, layout) == .success(expected), "\(format)")
            #expect(Self.memory(format, objects) == .success(expected), "\(format)")
        }
    }

    @Test func catastrophicPatternIsBoundedAndRight() throws {
        // 0.58 s of CPU per row with ICU's backtracking (some 10 minutes for these rows); linear here.
        let values = (0..<1000).map { i in String(repeating: "x", count: 26) + (i % 2 == 0 ? "y" : "x") }
        let (conn, layout, objects) = try Self.table(values)
        let expected = (0..<1000).filter { $0 % 2 == 1 }.map { Int64($0 + 1) }
        let clock = ContinuousClock()
        for format in ["name MATCHES '(x+x+)+$'", "name MATCHES '(x+x+)+'", "name MATCHES '(x|xx)+'", "name MATCHES '(.*)*x'"] {
            var sql = Outcome.failure(""), memory = Outcome.failure("")
            let sqlTime = clock.measure { sql = Self.sql(format, conn, layout) }
            let memoryTime = clock.measure { memory = Self.memory(format, objects) }
            #expect(sql == .success(expected), "\(format): \(String(describing: sql).prefix(300))")
            #expect(memory == .success(expected), "\(format): \(String(describing: memory).prefix(300))")
            #expect(sqlTime < .seconds(10) && memoryTime < .seconds(10), "\(format): SQL \(sqlTime), memory \(memoryTime)")
        }
    }

    @Test func overBudgetMatchIsAnError() throws {
        // {2000} expands to a large program; over a long value the step budget runs out: an error, not false.
        let regex = try LinearRegex("(x?){2000}(x|y)*a")
        let text = String(repeating: "x", count: 5_000)
        #expect(throws: RegexError.self) { _ = try regex.matchesWhole(text, budget: 1_000_000) }
        #expect(try regex.matchesWhole(String(repeating: "x", count: 300) + "a", budget: 100_000_000))
        // The same limit on the Pike VM (a pattern with an assertion).
        #expect(throws: RegexError.self) { _ = try LinearRegex("(x?){2000}(x|y)*a$").matchesWhole(text, budget: 1_000_000) }
    }

    @Test(arguments: ["a(?=b)", "(?<=a)b", "(a)\\1", "a*+", "(?>a)", "\\k<x>"])
    func unsupportedConstructsAreRefusedByName(_ pattern: String) {
        #expect { _ = try LinearRegex(pattern) } throws: { ($0 as? RegexError)?.kind == .unsupported }
    }

    @Test(arguments: ["[a-z", "(ab", "ab)", "*a", "a{3,1}", "\\", "[z-a]", "a{2}{3}", "\\p{Nope}x"])
    func invalidPatternsAreRefused(_ pattern: String) {
        #expect(throws: RegexError.self) { _ = try LinearRegex(pattern) }
    }

    /// The engine against ICU (NSRegularExpression, whole-string) on patterns both run.
    @Test func agreesWithICU() throws {
        let patterns = ["a.*", ".*e.*", "[a-z]+", "(?i)tea", ".", "\\p{L}+", "", "a|ab", "(a|ab)(c|bcd)", "x*", "[^a-c]+",
                        "\\d{2,3}", "\\w+\\s\\w+", "(?i)[a-c]+", "colou?r", "[[:alpha:]]+", "\\bfoo\\b.*", "^abc$", "a{2}",
                        "[a-z&&[^aeiou]]+", "\\Qa.b\\E", "(?s).+", ".+", "[\\p{Lu}][\\p{Ll}]*", "\\x41\\u0042",
                        "(?:ab)+", "a?b?c?", "(x+x+)+$", "^a.*", "a\\z", "\\Aab", "(^a|b)+", "a$|b", "x*$", "(a|^x)x*\\Z", "[.]", "\\.", "é", "e\\u0301", "(?m)^b$", "x\\n?", "a$", "\\X\\X", "\\S+"]
        let texts = ["", "a", "ab", "abc", "abcd", "Tea", "TEA", "tea", "green tea", "12", "123", "1234", "hello world",
                     "colour", "color", "foo bar", "AB", "bcd", "xyz", "a.b", "axb", "é", "e\u{301}", "Straße", "STRASSE",
                     "line\n", "a\nb", "x\n", "a\n", "xxxx", "xx\n", "ba", "bab", "axx", "Abc", "ÉCOLE", "東京", "xx", "\t"]
        try Self.expectWholeMatchesAgreeWithICU(patterns, on: texts)
    }

    /// Each pattern matches each whole text exactly when ICU's (`NSRegularExpression`) does.
    static func expectWholeMatchesAgreeWithICU(_ patterns: [String], on texts: [String]) throws {
        for p in patterns {
            let icu = try NSRegularExpression(pattern: "^(?:" + p + ")\\z")
            let mine = try LinearRegex(p)
            for t in texts {
                let expected = icu.firstMatch(in: t, range: NSRange(t.startIndex..., in: t)) != nil
                #expect(try mine.matchesWhole(t) == expected, "\(p) on \(t.debugDescription)")
            }
        }
    }

    /// `\p{…}` by ICU's names (`IsL`, long names, `gc=`, binary properties, `=No`) and
    /// `(?i)` with negated classes (closed over case, then negated: `(?i)\P{Lu}` refuses 'a').
    @Test func propertyNamesAndCaseInsensitiveClassesAgreeWithICU() throws {
        let patterns = ["(?i)\\P{Lu}+", "(?i)[\\P{Lu}x]+", "(?i)\\p{Lu}+", "(?i)[^\\p{Ll}]+", "(?i)\\W+", "(?i)\\D+", "(?i)[^a-z]+",
                        "\\p{IsL}+", "\\p{Is_Lu}+", "\\p{Letter}+", "\\p{Uppercase Letter}+", "\\p{gc=Ll}+", "\\p{General_Category=Nd}+",
                        "\\p{Alphabetic=No}+", "\\p{Alpha}+", "\\p{WSpace}+", "\\p{LC}+", "\\p{Dash}+", "\\p{Math}+", "\\p{Hex}+",
                        "\\p{Assigned}+", "\\p{Cased}+", "\\p{Lowercase=Yes}+", "[\\p{L}\\p{Nd}]+", "[^\\p{Lu}\\s]+", "\\p{Diacritic}+"]
        let alphabet = ["a", "A", "k", "K", "s", "S", "i", "I", "0", " ", "-", ".", "\n", "é", "É", "ß", "ẞ", "İ", "ı", "ſ", "\u{212A}",
                        "\u{2126}", "σ", "ς", "Σ", "ω", "Ω", "ǅ", "ǆ", "я", "Я", "東", "\u{10400}", "\u{10428}", "😀", "\u{301}", "٣", "Ａ"]
        var rng = SeededGenerator(seed: 20_261_207)
        let texts = (0..<400).map { _ in (0..<Int.random(in: 0...4, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined() }
        try Self.expectWholeMatchesAgreeWithICU(patterns, on: texts)
    }
}
