import Foundation
import Testing
@testable import VellumStore

/// `[c]`/`[d]` in PostgreSQL: the generated tables reproduce `TextFolding` on
/// tricky text, first in Swift (`FoldTable.apply`) and then in the server.
@Suite struct FoldTableTests {
    /// Scalars whose folding is not one letter to one: expansions, dotted and dotless i,
    /// final sigma, compatibility and canonical singletons, Hangul; and marks, which
    /// Foundation keeps or drops by the base before them (`MarkRule`): after Latin and
    /// Greek letters, symbols, ideographs, fullwidth and astral letters, Hangul, other
    /// marks; variation selectors, emoji modifiers, class-0 marks sorted before others.
    static let alphabet: [String] = [
        "a", "A", "z", "Z", "0", "9", " ", "'", "\\", "%", "_", "ß", "ẞ", "İ", "ı", "i", "I", "ﬁ", "ﬀ", "ǅ", "Ǆ", "ǆ",
        "\u{212B}", "Å", "å", "\u{2126}", "Ω", "ς", "Σ", "σ", "ΐ", "ΰ", "ǰ", "ŉ", "é", "É", "e\u{301}", "E\u{308}",
        "c\u{327}", "α\u{345}", "ñ", "Ñ", "ç", "ø", "Ø", "æ", "Æ", "œ", "ł", "Ł", "đ", "ħ", "þ", "ð", "Ⅻ", "ⅻ", "Ａ", "ａ",
        "한", "\u{1100}", "\u{1161}", "\u{11A8}", "東", "京", "😀", "ǈ", "ᾳ", "ᾼ", "ﬆ", "Ǳ", "o\u{323}\u{302}",
        "\u{1E9E}", "ṩ", "Ṩ", "s\u{323}", "I\u{307}", "Ǎ", "ǎ", "ő", "Ő", "ų", "Ⓐ", "ⓐ", "𝐀", "\u{10400}", "\u{10428}",
        "\u{301}", "\u{308}", "\u{345}", "\u{344}", "\u{483}", "\u{FE0F}", "\u{E0100}", "\u{1F3FD}", "\u{200C}", "\u{20D0}",
        "\u{93C}", "\u{941}", "\u{94D}", "फ", "\u{F73}", "\u{F72}", "\u{C48}", "\u{5B0}", "\u{1D16D}", "Ⱥ", "ﬓ", "☕",
    ]
    /// Texts that start with one combining mark (it stays, or folds as it does alone).
    static let leadingMarks = ["\u{301}a", "\u{308}", "\u{345}x", "\u{327}é", "\u{301}\u{302}", "\u{FE0F}\u{301}\u{301}"]

    static func randomTexts(count: Int, seed: UInt64) -> [String] {
        var rng = SeededRandom(seed: seed)
        return (0..<count).map { _ in (0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined() }
    }

    @Test func theTablesFoldAsTextFoldingDoes() {
        let texts = Self.alphabet + Self.leadingMarks + Self.randomTexts(count: 3000, seed: 20_261_201)
        for table in FoldTable.all {
            #expect(Self.mismatches(table, texts) == 0, "flags \(table.flags)")
        }
        #expect(FoldTable.all[0].asciiIsLowercasing && FoldTable.all[1].asciiIsUnchanged && FoldTable.all[2].asciiIsLowercasing)
    }

    static func hex(_ s: String) -> String { s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") }

    /// How many of `texts` `apply` folds otherwise than `TextFolding`; the first few are recorded.
    static func mismatches(_ table: FoldTable, _ texts: [String]) -> Int {
        var failures = 0
        for text in texts {
            let expected = TextFolding.fold(text, caseInsensitive: table.flags & 1 != 0, diacriticInsensitive: table.flags & 2 != 0)
            let got = table.apply(text)
            if !got.unicodeScalars.elementsEqual(expected.unicodeScalars) {
                failures += 1
                if failures <= 5 { Issue.record("flags \(table.flags): [\(hex(text))] → [\(hex(got))], TextFolding gives [\(hex(expected))]") }
            }
        }
        return failures
    }

    /// Bases of each kind `MarkRule` tells apart: stripping (Latin, a leading low mark),
    /// keeping the marks but a first low one (ideograph, symbol, fullwidth, astral,
    /// Hangul, a leading high mark, a base with a combining class), and under case
    /// folding keeping every mark (Ⓐ, Ａ, Ⱥ, ﬓ, which fills two places of a cluster).
    static let bases = ["q", "é", "ẞ", "\u{301}", "\u{3400}", "☕", "ⓐ", "ａ", "\u{10428}", "한", "\u{FE0F}", "\u{F73}", "\u{1D16D}",
                        "Ⓐ", "Ａ", "\u{10400}", "Ⱥ", "ﬓ"]

    /// Runs of marks long enough to fill a cluster (64 scalars), in mixes of low, high,
    /// class-0 and decomposing marks.
    static var longRuns: [String] {
        let mixes: [[Unicode.Scalar]] = [["\u{20D0}"], ["\u{301}", "\u{20D0}"], ["\u{20D0}", "\u{345}", "\u{F73}"], ["\u{301}", "\u{345}", "\u{FE0F}", "\u{1F3FB}", "\u{344}"]]
        return ["q", "\u{3400}", "Ⓐ", "ﬓ", "\u{10400}", "\u{301}"].flatMap { base in
            [20, 31, 32, 33, 61, 62, 63, 64, 65, 66, 100, 140].flatMap { n in
                mixes.map { mix in base + String(String.UnicodeScalarView((0..<n).map { mix[$0 % mix.count] })) }
            }
        }
    }

    /// Every scalar of the planes Foundation knows, and a sample past them: as a base
    /// with two low marks (all go, the first goes, or both stay), with a high, a class-0
    /// and a low mark (order, and a low mark in second place), and as a mark in second
    /// place.
    @Test(arguments: [2, 3]) func everyScalarWithMarksFoldsAsTextFoldingDoes(flags: Int) {
        let values = FoldTable.scalars.flatMap { $0 } + Array(stride(from: UInt32(0x20000), through: 0x10FFFF, by: 251))
        var texts: [String] = []
        texts.reserveCapacity(values.count * 3)
        let table = FoldTable.all[flags - 1]
        for value in values {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let x = String(scalar)
            texts.append(x + "\u{301}\u{301}")
            // Unassigned scalars fold as a base of their place (below U+0510 or not): one probe is enough.
            if scalar.properties.generalCategory != .unassigned { texts.append(x + "\u{20D0}\u{FE0F}\u{316}") }
            if table.marks?.marks.contains(value) == true { texts.append("\u{3400}\u{20D0}" + x + "\u{FE0F}") }
        }
        #expect(Self.mismatches(table, texts) == 0)
    }

    /// Every mark after each kind of base, alone, doubled, and before other marks; and
    /// runs of marks past a cluster's capacity.
    @Test(arguments: [2, 3]) func everyMarkAfterEveryKindOfBaseFoldsAsTextFoldingDoes(flags: Int) throws {
        let table = FoldTable.all[flags - 1], rule = try #require(table.marks)
        var texts = Self.longRuns
        for mark in rule.marks.sorted().compactMap(Unicode.Scalar.init).map({ String($0) }) {
            for base in Self.bases { texts += [base + mark, base + mark + mark, base + mark + "\u{20D0}\u{FE0F}\u{316}"] }
        }
        #expect(Self.mismatches(table, texts) == 0)
        // What the SQL assumes: a mark that folds as alone strips what follows; a base with a class folds to itself.
        #expect(rule.leads.allSatisfy { rule.stripping.contains($0.0.value) })
        #expect(rule.nonzero.subtracting(rule.marks).allSatisfy { FoldTable.alone(String(Unicode.Scalar($0)!), flags: flags) == String(Unicode.Scalar($0)!) })
    }

    /// BMP scalars a mark can compose with: Foundation composes a mark with a
    /// supplementary-plane scalar whose low 16 bits are one of these (a difference left).
    static let composingStarters: Set<UInt32> = {
        var out = Set<UInt32>()
        for value in UInt32(0x20)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let parts = Array(String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars)
            guard parts.count > 1 else { continue }
            out.insert(parts[0].value)
            if let first = String(String.UnicodeScalarView(parts.dropLast())).precomposedStringWithCanonicalMapping.unicodeScalars.first { out.insert(first.value) }
        }
        return out
    }()

    /// Texts for the server: of each kind above, but only with scalars PostgreSQL 15's
    /// NFC knows (Unicode 14), where newer ones Swift's composes or reorders it leaves
    /// alone, and no supplementary-plane scalar that Foundation would compose a mark with.
    static func serverTexts(_ rule: MarkRule) -> [String] {
        func known(_ value: UInt32) -> Bool {
            (value <= 0xFFFF || !composingStarters.contains(value & 0xFFFF))
                && Unicode.Scalar(value)?.properties.age.map { $0.major < 14 || ($0.major == 14 && $0.minor == 0) } ?? true
        }
        var rng = SeededRandom(seed: 18)
        var texts = Self.longRuns + randomTexts(count: 600, seed: 11)
        let marks = rule.marks.filter(known).sorted().compactMap(Unicode.Scalar.init).map { String($0) }
        // One base of each kind.
        for mark in marks {
            for base in ["q", "\u{301}", "\u{3400}", "한", "\u{FE0F}", "\u{1D16D}", "Ⓐ", "ﬓ"] { texts.append(base + mark + mark) }
        }
        for _ in 0..<3000 {
            let value = FoldTable.scalars.randomElement(using: &rng)!.randomElement(using: &rng)!
            guard known(value), let scalar = Unicode.Scalar(value) else { continue }
            texts += [String(scalar) + "\u{301}\u{301}", String(scalar) + "\u{20D0}\u{FE0F}\u{316}" + marks.randomElement(using: &rng)!]
        }
        return texts
    }

    /// The server against `TextFolding` (`vellum_fold`, mostly its regular-expression
    /// path) and against `MarkRule.arrange` (`vellum_fold_clusters`, the exact path),
    /// in one query each.
    @Test(arguments: [2, 3]) func theServerFoldsMarksAfterEveryKindOfBaseAsTextFoldingDoes(flags: Int) throws {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema())
        for statement in PostgreSQLFunctions.createSQL() { try db.execute(statement) }
        let rule = try #require(FoldTable.all[flags - 1].marks)
        let texts = Self.serverTexts(rule)
        let joined = texts.joined(separator: "\u{1}")
        for (function, expected) in [("vellum_fold", { TextFolding.fold($0, caseInsensitive: flags & 1 != 0, diacriticInsensitive: true) }),
                                     ("vellum_fold_clusters", rule.arrange)] as [(String, (String) -> String)] {
            let rows = try db.rows("SELECT \(function)(p, $2::int) FROM string_to_table($1, chr(1)) WITH ORDINALITY AS r(p, n) ORDER BY n",
                                   [.string(joined), .integer(Int64(flags))])
            try #require(rows.count == texts.count)
            var failures = 0
            for (text, row) in zip(texts, rows) {
                let want = expected(text), got = row[0].stringValue ?? "NULL"
                if !got.unicodeScalars.elementsEqual(want.unicodeScalars) {
                    failures += 1
                    if failures <= 5 { Issue.record("\(function) flags \(flags): [\(Self.hex(text))] → [\(Self.hex(got))], expected [\(Self.hex(want))]") }
                }
            }
            #expect(failures == 0, "\(function): \(failures) of \(texts.count)")
        }
    }

    /// `vellum_nfc` against Foundation's NFC, on text heavy with what they treat apart:
    /// conjoining jamo (archaic ones too), LV and LVT syllables, marks of every class and
    /// the vowel signs that decompose into marks.
    @Test func theServerNormalizesAsFoundationDoes() throws {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema())
        for statement in PostgreSQLFunctions.createSQL() { try db.execute(statement) }
        let pool: [UInt32] = Array(0x10FE...0x1115) + Array(0x115F...0x1178) + Array(0x11A5...0x11C5) + [0xAC00, 0xAC01, 0xAC1C, 0xD788, 0xD7A3, 0xB285]
            + [0x61, 0x65, 0x69, 0x3400, 0x301, 0x307, 0x316, 0x345, 0x344, 0x340, 0x93C, 0x5B0, 0xF71, 0xF72, 0xF74, 0xF80, 0xF73, 0xF75, 0xF81, 0xFE0F, 0xE9, 0x1E09]
        var rng = SeededRandom(seed: 30)
        let texts = (0..<5000).map { _ in String(String.UnicodeScalarView((0..<Int.random(in: 1...7, using: &rng)).map { _ in Unicode.Scalar(pool.randomElement(using: &rng)!)! })) }
        let rows = try db.rows("SELECT vellum_nfc(p) FROM string_to_table($1, chr(1)) WITH ORDINALITY AS r(p, n) ORDER BY n", [.string(texts.joined(separator: "\u{1}"))])
        var failures = 0
        for (text, row) in zip(texts, rows) {
            let want = text.precomposedStringWithCanonicalMapping, got = row[0].stringValue ?? "NULL"
            if !got.unicodeScalars.elementsEqual(want.unicodeScalars) {
                failures += 1
                if failures <= 5 { Issue.record("[\(Self.hex(text))] → [\(Self.hex(got))], Foundation gives [\(Self.hex(want))]") }
            }
        }
        #expect(rows.count == texts.count && failures == 0)
    }

    /// A store created before version 2 of the functions gets them when opened for writing.
    @Test func anOlderStoresFoldFunctionIsReplacedWhenOpened() throws {
        let url = try PostgreSQLShop.newStoreURL()
        _ = try PostgreSQLShop.open(url)
        let db = try PGConnection(url: url.absoluteString)
        try db.execute("CREATE OR REPLACE FUNCTION vellum_fold(t text, flags integer) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT t $$")
        try db.execute("DELETE FROM _vellum_metadata WHERE key = 'functions'")
        _ = try PostgreSQLShop.open(url)
        let text = "Ⓐ\u{301}\u{301}"
        #expect(try db.scalar("SELECT vellum_fold($1, 2)", [.string(text)])?.stringValue.map { Array($0.unicodeScalars) }
            == Array(TextFolding.fold(text, caseInsensitive: false, diacriticInsensitive: true).unicodeScalars))
        #expect(try PostgreSQLShop.psql(url, "SELECT value FROM _vellum_metadata WHERE key = 'functions'") == [String(PostgreSQLFunctions.version)])
    }

    @Test func theServerFoldsAsTextFoldingDoes() throws {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema())
        for statement in PostgreSQLFunctions.createSQL() { try db.execute(statement) }
        let texts = Self.alphabet + Self.leadingMarks + Self.randomTexts(count: 400, seed: 7) + QueryDifferentialTests.strings
        var failures = 0
        for flags in 0...3 {
            for text in texts {
                let expected = TextFolding.fold(text, caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0)
                let got = try db.scalar("SELECT vellum_fold($1, $2::int)", [.string(text), .integer(Int64(flags))])
                guard case .string(let s)? = got, s.unicodeScalars.elementsEqual(expected.unicodeScalars) else {
                    failures += 1
                    if failures <= 5 { Issue.record("flags \(flags): \(text.debugDescription) → \(String(describing: got)), TextFolding gives \(expected.debugDescription)") }
                    continue
                }
            }
        }
        #expect(failures == 0)
        #expect(try db.scalar("SELECT vellum_fold(NULL, 3)") == .null)
    }

    /// Foundation folds a base and the marks after it together: after a letter below
    /// U+0510 every mark goes, after a symbol, Hangul, a fullwidth or astral letter or a
    /// leading mark the first mark below U+0510 goes and the rest stay (sorted by class).
    /// The server stripped every mark after any base.
    @Test func aMarkAfterASymbolOrHangulFoldsOnTheServerAsInMemory() throws {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema())
        for statement in PostgreSQLFunctions.createSQL() { try db.execute(statement) }
        let texts = [
            "Ⓐ\u{301}\u{301}", "ⓐ\u{308}x", "한\u{301}\u{302}", "Ａ\u{301}", "ａ\u{301}\u{302}", "\u{10400}\u{301}\u{301}",
            "😀\u{301}\u{20D0}", "\u{301}\u{302}a", "\u{FE0F}\u{301}\u{301}", "a\u{FE0F}", "☕\u{FE0F}", "👍\u{1F3FD}",
            "ẞ\u{301}\u{301}", "फ\u{93C}\u{941}", "\u{3400}\u{20D0}\u{FE0F}\u{301}", "Ⱥ\u{301}\u{301}", "\u{345}\u{301}",
        ]
        for flags in [2, 3] {
            for text in texts {
                let expected = TextFolding.fold(text, caseInsensitive: flags & 1 != 0, diacriticInsensitive: true)
                let got = try db.scalar("SELECT vellum_fold($1, $2::int)", [.string(text), .integer(Int64(flags))])?.stringValue
                #expect(got.map { Array($0.unicodeScalars) } == Array(expected.unicodeScalars), "flags \(flags): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
    }

    /// `vellum_sort_key` then bytes orders as `TextFolding.compareCollated(localized: true)`.
    @Test func theServerSortsLocalizedAsMemoryDoes() throws {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema())
        for statement in PostgreSQLFunctions.createSQL() { try db.execute(statement) }
        try db.execute("CREATE TABLE s (v text COLLATE \"C\")")
        let texts = QueryDifferentialTests.strings + ["file002", "file2", "file02b", "x10y9", "x9y10", "007", "7", "", "a0", "a00"]
        for t in texts { try db.query("INSERT INTO s VALUES ($1)", [.string(t)]) }
        for caseInsensitive in [true, false] {
            let order = PostgreSQLDialect().orderTerm("v", caseInsensitive: caseInsensitive, ascending: true)
            let server = try db.rows("SELECT v FROM s ORDER BY \(order)").compactMap { $0[0].stringValue }
            let memory = texts.sorted { TextFolding.compareCollated($0, $1, localized: !caseInsensitive) < 0 }
            #expect(server.map { Array($0.unicodeScalars) } == memory.map { Array($0.unicodeScalars) }, "caseInsensitive \(caseInsensitive)")
        }
    }
}
