import Foundation
import Testing
@testable import VellumStore

/// MATCHES and LIKE on PostgreSQL against memory (`LinearRegex`, ICU syntax), over
/// seeded random text of a varied alphabet: line breaks, accented, Greek, Cyrillic,
/// CJK, astral, combining and cased-oddity scalars. One test per difference
/// docs/postgresql.md used to list (`\p{…}` an error, `.` matching a line break,
/// `(?i)` ASCII only), and one for the rest of the syntax the server could misread.
@Suite struct PostgreSQLRegexDifferenceTests {
    static let alphabet: [String] = [
        "a", "b", "x", "A", "B", "X", "k", "s", "K", "S", "0", "1", "9", " ", "_", "-", ".", "!", "*", "?",
        "\n", "\r", "\r\n", "\t", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}",
        "é", "É", "e\u{301}", "ß", "ẞ", "ñ", "Ö", "ø", "ǅ", "ǆ", "Ǆ", "İ", "ı", "ſ", "\u{212A}", "\u{2126}", "ﬀ",
        "σ", "ς", "Σ", "α", "Α", "ΐ", "ω", "Ω", "я", "Я", "ж", "Ж", "ё", "Ё",
        "東", "京", "語", "テ", "\u{10400}", "\u{10428}", "😀", "👍🏽", "🇦", "🇧", "\u{1D518}", "\u{1E900}", "\u{1E922}",
        "\u{301}", "\u{200D}", "\u{94D}", "क", "ष", "\u{1100}", "\u{1161}", "\u{11A8}", "각", "\u{600}", "\u{93E}",
        "٣", "５", "Ａ", "ａ", "€", "©", "∑", "\u{A0}", "\u{3000}", "\u{FFFD}", "\u{E000}",
    ]

    /// `count` texts of 0 to 8 pieces of the alphabet (some runs of one piece, so `+` patterns match).
    static func texts(seed: UInt64, count: Int) -> [String] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            if Int.random(in: 0..<4, using: &rng) == 0 {
                return String(repeating: alphabet.randomElement(using: &rng)!, count: Int.random(in: 1...4, using: &rng))
            }
            return (0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
        }
    }

    struct Fixture {
        let database: PGConnection
        let layout: any StoreLayout
        let items: [TestObject]
    }

    /// Items named by `texts`, their notes holding `notes` in turn (patterns read from a key path).
    static func fixture(_ texts: [String], notes: [String] = []) throws -> Fixture {
        let (conn, layout) = try QueryBackend.postgresql.open(QueryFixtures.model)
        let db = try #require(conn as? PGConnection)
        for sql in layout.schemaSQL() { try db.execute(sql) }
        var items: [TestObject] = []
        var rows: [Value] = []
        for (i, text) in texts.enumerated() {
            let o = TestObject(entity: QueryFixtures.item, pk: Int64(i + 1))
            o.attributes["name"] = .string(text)
            o.attributes["note"] = notes.isEmpty ? .null : .string(notes[i % notes.count])
            items.append(o)
            rows += [.integer(o.pk), .string(text), o.attributes["note"]!]
        }
        for chunk in stride(from: 0, to: rows.count, by: 3 * 500) {
            let part = Array(rows[chunk..<min(rows.count, chunk + 3 * 500)])
            let values = (0..<(part.count / 3)).map { "($\($0 * 3 + 1), 'Item', $\($0 * 3 + 2), $\($0 * 3 + 3))" }.joined(separator: ", ")
            try db.query("INSERT INTO \"Item\" (\(layout.dialect.quote(layout.primaryKeyColumn)), \(layout.dialect.quote(layout.entityColumn)), \"name\", \"note\") VALUES \(values)", part)
        }
        return Fixture(database: db, layout: layout, items: items)
    }

    /// Selected keys, or the error's text.
    enum Outcome: Equatable {
        case rows([Int64])
        case failure(String)
    }

    static func server(_ p: QueryPredicate, _ f: Fixture) -> Outcome {
        do {
            let q = try QueryCompiler.compile(entity: QueryFixtures.item, layout: f.layout, predicate: p)
            return .rows(try f.database.rows(q.selectSQL(), q.bindings).compactMap { $0[0].integerValue })
        } catch { return .failure("\(error)") }
    }

    static func memory(_ p: QueryPredicate, _ f: Fixture) -> Outcome {
        do { return .rows(try f.items.filter { try p.evaluate($0) }.map(\.pk)) } catch { return .failure("\(error)") }
    }

    static func matching(_ pattern: String, _ op: ComparisonOperator = .matches, options: StringOptions = []) -> QueryPredicate {
        .comparison(Comparison(.key("name"), op, .constant(.string(pattern)), options: options))
    }

    /// Each predicate's disagreement, described: the server's error, or the texts only one side selected.
    static func disagreements(_ predicates: [QueryPredicate], _ f: Fixture) -> [String] {
        predicates.compactMap { p in
            let (s, m) = (server(p, f), memory(p, f))
            if s == m { return nil }
            // Both refuse the pattern (the compiler's message also points into the predicate).
            if case .failure = s, case .failure = m { return nil }
            guard case .rows(let sr) = s, case .rows(let mr) = m else { return "\(p.format): server \(s), memory \(m)" }
            let onlyServer = Set(sr).subtracting(mr).sorted().prefix(5).map { f.items[Int($0) - 1].attributes["name"]!.stringValue!.debugDescription }
            let onlyMemory = Set(mr).subtracting(sr).sorted().prefix(5).map { f.items[Int($0) - 1].attributes["name"]!.stringValue!.debugDescription }
            return "\(p.format): only the server selects \(onlyServer), only memory \(onlyMemory)"
        }
    }

    static func check(_ predicates: [QueryPredicate], seed: UInt64, count: Int = 600) throws {
        let f = try fixture(texts(seed: seed, count: count))
        let problems = disagreements(predicates, f)
        #expect(problems.isEmpty, "seed \(seed):\n\(problems.joined(separator: "\n"))")
        // The texts must make the patterns selective, or agreement proves little.
        let selective = predicates.filter { if case .rows(let r) = memory($0, f) { return !r.isEmpty && r.count < f.items.count } else { return false } }
        #expect(selective.count * 4 >= predicates.count * 3, "seed \(seed): too few selective patterns (\(selective.count) of \(predicates.count))")
    }

    @Test func aUnicodePropertyClassMatchesOnTheServerAsInMemory() throws {
        let patterns = [
            "\\p{L}+", "\\p{Lu}\\p{Ll}*", "[\\p{L}0-9]+", "[^\\p{Lu}]+", "\\P{L}+", "\\p{IsL}+", "\\p{Letter}+x?", "\\p{Is_Lu}.*",
            "\\p{Uppercase_Letter}+", "\\p{gc=Ll}+", "\\p{Alphabetic}+", "\\p{White_Space}+", "\\p{WSpace}.*", "\\p{Nd}+|\\p{No}+",
            "\\p{Emoji}+", "\\p{Lu}{2,}", "\\p{Cased}+", "\\p{Mn}.*", ".*\\p{M}", "[\\p{P}\\p{S}]+", "\\p{Z}+", "\\p{Cc}+", "\\p{LC}+",
            "\\p{Alphabetic=No}+", "(?i)\\p{Lu}+", "(?i)\\P{Lu}+", "(?i)[^\\p{Ll}]+", "(?i)[\\P{Lu}x]+", "[\\p{L}&&[^\\p{Lu}]]+",
            "[\\p{L}--[\\p{Ll}]]+", "\\p{Hex_Digit}+", "\\p{Dash}|\\p{Math}", "\\p{XID_Start}\\p{XID_Continue}*", "\\p{Lo}+",
            "\\p{Default_Ignorable_Code_Point}.*", "\\p{Emoji_Presentation}.*", "\\p{Any}*\\p{Ideographic}", "\\p{Co}+",
        ]
        // Scripts and blocks: Swift has no data, so every engine refuses them by name.
        try Self.check(patterns.map { Self.matching($0) }, seed: 20_261_201)
        let f = try Self.fixture(["Ω"])
        for pattern in ["\\p{Greek}", "[\\p{Script=Latin}a]", "\\p{InBasicLatin}"] {
            guard case .failure(let s) = Self.server(Self.matching(pattern), f), case .failure(let m) = Self.memory(Self.matching(pattern), f) else {
                Issue.record("\(pattern) was answered"); continue
            }
            #expect(s.contains("is not supported") && m.contains("is not supported"), "\(pattern): \(s) / \(m)")
        }
    }

    @Test func aDotDoesNotMatchALineBreakOnTheServer() throws {
        let patterns = [
            ".", ".*", ".+", "a.b", "..", "(?s).*", "(?s)..", ".{2,3}", "x.*", ".*\\n.*", "(?s:.)*x", "(?s).(?-s).", "[^a]*",
            ".*$", "(?m)^.*$", "(?m).*$\\n?.*", ".\\Z", ".*\\r", "(?s)\\p{L}.", "(?i).*[é]", ".\\r\\n.",
        ]
        try Self.check(patterns.map { Self.matching($0) }, seed: 20_261_202)
    }

    @Test func caseInsensitiveMatchingFoldsNonASCIIOnTheServer() throws {
        let patterns = [
            "(?i)é+", "(?i)ÉÉ?", "(?i)σ+", "(?i)[α-ω]+", "(?i)[а-я]+", "(?i)ß+", "(?i)k+", "(?i)s+.*", "(?i)ǆ+", "(?i)[^é]+",
            "(?i:Α)x?", "(?i)ω+", "(?i)\\x{10400}+", "(?i)[ѐ-џ]+", "(?i)ı|i", "(?i)[a-z]+", "(?i)\\x{1E922}.*", "(?i)ё.*",
            "(?i)[ǅ]+", "(?i)\\u2126", "(?i)[k]+", "(?i)\\QÉ\\E.*", "(?i)ΐ", "a(?i)é", "(?i)Ж(?-i)ж",
        ]
        var predicates = patterns.map { Self.matching($0) }
        for literal in ["É", "σ+", "я.*", "Ǆ", "\u{10400}+"] { predicates.append(Self.matching(literal, options: [.caseInsensitive])) }
        for like in ["É*", "*Σ", "Я?*", "?ǅ*"] { predicates.append(Self.matching(like, .like, options: [.caseInsensitive])) }
        try Self.check(predicates, seed: 20_261_203)
    }

    @Test func anchorsBoundariesAndEscapesMatchOnTheServerAsInMemory() throws {
        let patterns = [
            "\\bx\\b.*", ".*\\B.", "\\w+", "\\W+", "\\d+", "\\D\\d*", "\\s+", "\\S+", "\\h.*", "\\v+", "\\V+", "a$", "x*$",
            "(?m)^a$.*", "(?m).*^b.*", "\\A.\\z", ".*\\Z", "[\\u0000-\\u007F]+", "\\x{1F600}+", "\\Qa.b\\E|.\\.", "a{2,300}",
            "(?:x|\\b)+.*", "[[:alpha:]]+", "[[:punct:]]+", "(a|b|)+", "\\t|\\e|\\cA|\\x{FFFD}",
        ]
        try Self.check(patterns.map { Self.matching($0) }, seed: 20_261_204)
    }

    /// `\X` (and LIKE's `?`) takes one grapheme cluster as Swift's `Character` does: marks,
    /// `\r\n`, Hangul syllables, flags, emoji ZWJ sequences, Indic conjuncts, prepended marks.
    @Test func graphemeClustersMatchOnTheServerAsInMemory() throws {
        let patterns = ["\\X", "\\X\\X", "\\X.", ".\\X", "\\X+", "(?:\\X)*x", "\\X{3}", "a\\X*", "\\X\\p{M}", "(?:\\X\\X)*"]
        var predicates = patterns.map { Self.matching($0) }
        for like in ["?", "??", "*?", "a?*", "?b*", "???*"] { predicates.append(Self.matching(like, .like)) }
        try Self.check(predicates, seed: 20_261_205)
        // Only what the grapheme rules turn on: every pair of these meets some rule.
        let clusters = ["a", "\r", "\n", "\u{1}", "\u{301}", "\u{93E}", "\u{200D}", "\u{600}", "\u{1100}", "\u{1161}", "\u{11A8}", "가", "각",
                        "🇦", "🇧", "😀", "\u{1F3FD}", "\u{2764}", "क", "\u{94D}", "ष", "\u{93C}", "\u{FE0F}", "\u{E0061}", "\u{AD}"]
        let f = try Self.fixture((0..<600).map { i in
            var rng = SeededGenerator(seed: 20_261_206 &+ UInt64(i))
            return (0..<Int.random(in: 1...7, using: &rng)).map { _ in clusters.randomElement(using: &rng)! }.joined()
        })
        let problems = Self.disagreements(predicates, f)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// A pattern read from a key path is translated by the server (`vellum_matches`): the
    /// same answers as memory for what it reads, an error for the rest, never a silent answer.
    @Test func aPatternReadFromAKeyPathMatchesOnTheServerAsInMemory() throws {
        let patterns = [
            ".", ".*", "a.b", "(?s).*", "(?s:.)x?", "x.*$", "(?m)^.*$", "(?m).*$\\n?.*", "\\d+", "\\D\\d*", "\\w+", "\\W+", "\\s+",
            "\\S+", "\\h.*", "\\v+", "\\bx\\b.*", ".*\\B.", "[a-z]+", "[^a-z]+", "[\\w.]+", "[^\\s]+", "[\\x{1F600}-\\x{1F64F}]+",
            "\\x{1F600}+", "\\Qa.b\\E|.\\.", "\\Q*\\E+", "a{2,300}", "(a|b|)+", "(?:x|\\b)+.*", "\\t|\\e|\\cA|\\x{FFFD}", "\\Ax.*\\z",
            ".*\\Z", "[\\u0000-\\u007F]+", "é+", "[é-ë]", "(?#comment)a*", "(?<n>a)b*", "x{0}y?", "[]a]+", "[^]a]*", "[a-]+",
            "\\u00E9", "\\0101|\\$", "a*?b+?", "(?-i)a|(?s)", "^*a|\\x00", "k{1}|s{300,}", "[\\d\\s]+|[^\\W\\d]+", "[\\x00-a]+",
        ]
        try Self.checkKeyPath(patterns, seed: 20_261_208)
    }

    /// What only Unicode tables answer, read from a key path: `(?i)` (ICU's simple case
    /// folding, classes closed before they are negated), `\p{…}`/`\P{…}` in every spelling
    /// memory reads, POSIX and nested classes, `&&`, `--` and `\X`, from the same Swift sets.
    @Test func aCaseInsensitiveOrPropertyPatternReadFromAKeyPathMatchesAsInMemory() throws {
        let caseless = [
            "(?i)é+", "(?i)σ+", "(?i)[α-ω]+", "(?i)ß+", "(?i)k+", "(?i)s+.*", "(?i)[^é]+", "(?i:Α)x?", "(?i)[a-z]+", "(?i)\\x{10400}+",
            "(?i)ı|i", "a(?i)é", "(?i)Ж(?-i)ж", "(?i)\\QÉ\\E.*", "(?i)[k]+", "(?i)ǆ+", "(?i)\\w+", "(?i)\\W.*", "(?i)[^\\W\\d]+",
            "(?i)[ѐ-џ]+", "(?i)\\u2126|x", "(?i)ΐ|a", "((?i)s)+|b", "(?i)[\\x{0}-\\x{6A}]+",
        ]
        let properties = [
            "\\p{L}+", "\\p{Lu}\\p{Ll}*", "[\\p{L}0-9]+", "[^\\p{Lu}]+", "\\P{L}+", "\\p{IsL}+", "\\p{Letter}+x?", "\\p{Is_Lu}.*",
            "\\p{gc=Ll}+", "\\p{General_Category = Lu}+", "\\p{Alphabetic}+", "\\p{WSpace}.*", "\\p{Nd}+|\\p{No}+", "\\p{Emoji}+",
            "\\p{LC}+", "\\p{Alphabetic=No}+", "\\P{alphabetic = false}+", "\\pL+", "\\PL*", "\\p{^Lu}+", "(?i)\\p{Lu}+", "(?i)\\P{Lu}+",
            "(?i)[^\\p{Ll}]+", "(?i)[\\P{Lu}x]+", "(?i)\\p{Lowercase=No}+", "(?i)\\P{Lowercase=No}+", "(?i)\\p{^Ll}+",
            "\\p{Uppercase_Letter}+", "\\p{Mn}.*", "[\\p{P}\\p{S}]+", "\\p{Cased}+", "\\p{XID_Start}\\p{XID_Continue}*",
            "\\p{Hex_Digit}+", "\\p{Any}*\\p{Ideographic}", "\\p{Co}+", "\\p{Cs}|x", "\\p{ASCII}+", "[\\P{Any}a]+",
        ]
        let classes = [
            "[[:alpha:]]+", "[[:punct:]]+", "[[:^alpha:]]+", "(?i)[[:upper:]]+", "(?i)[[:^lower:]]+", "[[:digit:][:space:]]+", "[[:Lu:]x]+",
            "[a[bx]]+", "[^a[bx]]+", "[a[^bx]]*", "[\\p{L}&&[^\\p{Lu}]]+", "[\\p{L}--[\\p{Ll}]]+", "(?i)[\\p{L}&&[^\\p{Lu}]]+",
            "(?i)[\\p{Lu}&&[a]]", "(?i)[\\w--[k]]+", "[\\w&&[\\D]--[_]]+", "[[a-z]&&[^aeiou]]+", "[a-z&&[^x]]*", "[^[\\p{L}]&&[^\\s]]+",
            "\\€|[\\€\\p{Sc}]x?", "(?<ñame>a)|b+",
        ]
        let clusters = ["\\X", "\\X\\X", "\\X+", "a\\X*", "\\X\\p{M}", "(?:\\X\\X)*", "(?i)\\X{2}|k"]
        try Self.checkKeyPath(caseless + properties + classes + clusters, seed: 20_261_209)
    }

    /// Each pattern in the notes of 150 items whose names are texts of `seed`, then
    /// `name MATCHES note` on the server against memory, pattern by pattern.
    static func checkKeyPath(_ patterns: [String], seed: UInt64) throws {
        let texts = Self.texts(seed: seed, count: 150)
        // Item k * 150 + j + 1: text j under pattern k.
        let f = try Self.fixture(patterns.flatMap { _ in texts }, notes: patterns.flatMap { p in texts.map { _ in p } })
        let p = QueryPredicate.comparison(Comparison(.key("name"), .matches, .key("note")))
        // Timed (not asserted): the first run on the connection also plans and reads the functions' data.
        var server = Self.Outcome.rows([])
        for run in ["first", "second"] {
            let start = ContinuousClock.now
            server = Self.server(p, f)
            print("key-path MATCHES over \(patterns.count * texts.count) rows on the server, \(run) run: \(ContinuousClock.now - start)")
        }
        guard case .rows(let server) = server, case .rows(let memory) = Self.memory(p, f) else {
            // Which patterns the server refuses.
            for pattern in patterns {
                let one = try Self.fixture(["a"], notes: [pattern])
                if case .failure(let error) = Self.server(p, one), case .rows = Self.memory(p, one) { Issue.record("\(pattern): \(error)") }
            }
            Issue.record("server \(server), memory \(Self.memory(p, f))"); return
        }
        var selective = 0
        for (k, pattern) in patterns.enumerated() {
            let range = Int64(k * texts.count + 1)...Int64((k + 1) * texts.count)
            let s = server.filter(range.contains), m = memory.filter(range.contains)
            let differing = Set(s).symmetricDifference(m).sorted().prefix(5).map { f.items[Int($0) - 1].attributes["name"]!.stringValue!.debugDescription }
            #expect(s == m, "\(pattern): only one side selects \(differing)")
            if !m.isEmpty && m.count < texts.count { selective += 1 }
        }
        #expect(selective * 4 >= patterns.count * 3, "too few selective patterns (\(selective) of \(patterns.count))")
    }

    /// Spellings at the edges of what memory reads (property names loosely written, `Is`,
    /// `=No`, `^`, the Kelvin sign; POSIX names; set operations, nested negations and
    /// `(?i)` over them; escapes of non-ASCII characters; group names): `vellum_matches`
    /// answers each as memory does, text by text, or both refuse it.
    @Test func aKeyPathPatternIsAnsweredOrRefusedAsInMemorySpellingBySpelling() throws {
        let db = try PostgreSQLDialectTests.functions()
        let texts = Self.alphabet + Self.texts(seed: 20_261_210, count: 300) + ["ab", "Lu", "Ab", "aB", "kK", "ſs"]
        let patterns = [
            "\\p{ L }+", "\\p{is_lu}", "\\p{Is Lu}+", "\\p{IsAny}*", "\\p{^Is_L}+", "\\p{lU}+", "\\p{gc = Lu}+", "\\p{General-Category=Lu}+",
            "\\p{Alphabetic=YES}+", "\\p{Alpha=T}+", "\\p{Any=yes}", "\\p{Mar\u{212A}}+", "\\p{LC=No}", "\\p{Is=Lu}", "\\p{=}", "\\p{}", "\\pL+",
            "\\p", "\\p}", "\\P{^L}+", "\\p{^Alphabetic=No}+", "(?i)\\p{^Alphabetic=No}+", "(?i)\\P{^Alphabetic=No}+", "(?i)\\P{Alphabetic=No}+",
            "[[:^alpha:]]+", "[[:Alphabetic=No:]]+", "(?i)[[:^Lowercase=No:]]+", "[[:gc=Lu:]]+", "[[:  :]]", "[[::]]", "[[:^:]]",
            "[[^a]&&[^b]]+", "[^[^a]]+", "[a&&[b]&&[c]]", "[a--[a]]x?", "[[a]--[b]x]+", "[]&&[a]]*", "[^]]+", "[a-c--[b]]+", "[\\w&&[^\\d]&&[^_]]+",
            "(?i)[\\p{Lu}--[A]]+", "(?i)[^[^k]]+", "(?i)[[:^upper:]&&[\\p{L}]]+", "(?i)[[^A]&&[a-z]]+", "(?i)[^a-c[x-z]]+", "(?i)[\\P{L}[k]]+",
            "[\\p{L}&&\\p{Lu}]", "[a&&]", "[a--b]", "[&&[a]]+", "[--[a]]+", "[a-]+", "[-a]+", "[\\-]", "[\\p{L}-z]", "[a-\\p{L}]", "[a-\\d]",
            "\\X{2}", "[\\X]", "(?i)Σ+|ς", "(?i)[ß]+", "(?i)ẞ", "(?i)[^ß]+", "(?i)[\\x{DF}-\\x{E0}]+", "(?i)[\\u0130-\\u0131]+",
            "(?i)[\\u0100-\\u017F]+", "(?i)[\\x{0}-\\x{10FFFF}]", "(?i)[^\\x{0}-\\x{10FFFF}]", "(?i)\\w\\W", "(?i)[\\W]+", "(?i)[^\\W]+", "(?i)\\D+",
            "(?i)\\Qk\\E+", "(?i:k)(?-i:k)", "(?i)(?-i)k", "((?i)k)k", "(?i)((?-i)k)k", "\\€+", "\\£|\\p{Sc}", "\\٣", "\\é", "\\Ω", "(?<ñ>a)", "(?<٣>a)",
            "(?<>a)", "(?<a", "\\N{X}", "\\P{Extended_Pictographic}", "(?i)\\p{Cased}+", "(?i)\\P{Cased}+", "(?i)[\\p{Lu}&&[\\p{Ll}]]",
            "(?i)[[:lower:]--[k]]+", "[\\s\\S]+", "[^\\s\\S]", "[\\P{Any}]", "[^\\P{Any}]+", "\\p{Cs}", "[\\p{Cs}]", "[^\\p{Cs}]+", "\\P{Cs}+",
            "(?i)\\p{Cs}", "\\p{Co}", "\\p{Cn}+", "\\P{Cn}+", "\\p{Noncharacter_Code_Point}",
        ]
        // Escaped scalar by scalar: `replacingOccurrences` skips a quote a combining mark follows.
        func element(_ t: String) -> String {
            var out = String.UnicodeScalarView(["\""])
            for c in t.unicodeScalars {
                if c == "\\" || c == "\"" { out.append("\\") }
                out.append(c)
            }
            out.append("\"")
            return String(out)
        }
        let array = "{" + texts.map(element).joined(separator: ",") + "}"
        for pattern in patterns {
            let memory = Result { () throws(RegexError) -> [Bool] in
                let r = try LinearRegex.cached(pattern)
                return try texts.map { t throws(RegexError) in try r.matchesWhole(t) }
            }
            let server = Result {
                try db.rows("SELECT vellum_matches($1, t) FROM unnest($2::text[]) WITH ORDINALITY AS x(t, k) ORDER BY k", [.string(pattern), .string(array)])
                    .map { $0[0] == .bool(true) || $0[0].integerValue == 1 }
            }
            switch (memory, server) {
            case (.success(let m), .success(let s)):
                let differing = texts.indices.filter { m[$0] != s[$0] }.prefix(5).map { "\(texts[$0].debugDescription) (memory \(m[$0]))" }
                #expect(differing.isEmpty, "\(pattern): \(differing)")
            case (.failure, .failure): break
            case (.failure(let e), .success): Issue.record("\(pattern): memory refuses it (\(e)), the server answers")
            case (.success, .failure(let e)): Issue.record("\(pattern): the server refuses it (\(e)), memory answers")
            }
        }
    }

    /// What the server's translation cannot read is an error naming it; an invalid pattern is one too.
    @Test(arguments: ["\\p{Greek}", "[\\p{Script=Latin}a]", "\\p{InBasicLatin}", "\\p{Extended_Pictographic}", "\\p{Alphabetic=Maybe}",
                      "\\p{gc=Alphabetic}", "\\p{isLu}", "\\p{L", "\\p", "[[:Greek:]]", "[[:alpha:]", "[a&&b]", "[a--]", "\\é", "[a-z", "(ab",
                      "ab)", "*a", "a{3,1}", "\\", "[z-a]", "a{2}{3}", "a**", "(?=a)", "\\1", "a*+", "\\x{110000}", "\\q", "a{10001}",
                      "(?<a-b>x)", "(?x)a", "\\N{DIGIT ONE}", "[\\p{Greek}&&[a]]", "(?i)\\p{Greek}"])
    func aKeyPathPatternTheServerCannotReadIsAnError(_ pattern: String) throws {
        let db = try PostgreSQLDialectTests.functions()
        #expect { try db.scalar("SELECT " + PostgreSQLDialect().regexpMatch(pattern: "$1", text: "'a'"), [.string(pattern)]) } throws: { error in
            guard case StoreError.postgresql(let f) = error else { return false }
            return f.sqlState == "2201B"
        }
    }

    /// A store created before Vellum translated regular expressions: constant patterns need
    /// nothing of its schema; a key-path pattern fails until a writer opens it, then works,
    /// with what only the current version reads.
    @Test func aStoreCreatedBeforeTheTranslationGetsItsFunctionsWhenOpened() throws {
        let url = try PostgreSQLShop.newStoreURL()
        do {
            let c = try ManagedObjectContext(store: try PostgreSQLShop.open(url))
            // What only version 4 reads: (?i) over a property.
            _ = try c.insert("Provider", values: ["name": .string("Ärger"), "country": .string("(?i)\\p{Lu}RGER")])
            _ = try c.insert("Provider", values: ["name": .string("a b"), "country": .string("\\w+")])
            _ = try c.save()
        }
        // As the previous version of the functions left it.
        try PGConnection(url: url.absoluteString).execute(
            "DROP FUNCTION vellum_matches(text, text); UPDATE \"_vellum_metadata\" SET value = '2' WHERE key = 'functions'")
        let byKeyPath = try QueryPredicate(format: "name MATCHES country")
        let constant = try QueryPredicate(format: "name MATCHES '\\\\p{Lu}\\\\p{Ll}+'")
        let reader = try ManagedObjectContext(store: try PersistentStore(postgreSQL: PostgreSQLURL(url.absoluteString), model: try Fixtures.shopModel(),
                                                                         options: StoreOptions(readOnly: true)))
        #expect(try reader.fetch("Provider", where: constant).map { try $0.value(forKey: "name") } == [.string("Ärger")])
        #expect(throws: StoreError.self) { try reader.fetch("Provider", where: byKeyPath) }
        let writer = try ManagedObjectContext(store: try PostgreSQLShop.open(url))
        #expect(try writer.fetch("Provider", where: byKeyPath).map { try $0.value(forKey: "name") } == [.string("Ärger")])
    }
}
