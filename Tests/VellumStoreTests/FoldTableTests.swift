import Foundation
import Testing
@testable import VellumStore

/// `[c]`/`[d]` in PostgreSQL: the generated tables reproduce `TextFolding` on
/// tricky text, first in Swift (translate, replace, NFC) and then in the server.
@Suite struct FoldTableTests {
    /// Scalars whose folding is not one letter to one: expansions, dotted and dotless i,
    /// final sigma, compatibility and canonical singletons, Hangul; combining marks after
    /// Latin and Greek letters and alone at the start. Not here: marks after symbols,
    /// ideographs, other marks or astral letters, and variation selectors, where
    /// Foundation's stripping depends on what precedes (docs/postgresql.md).
    static let alphabet: [String] = [
        "a", "A", "z", "Z", "0", "9", " ", "'", "\\", "%", "_", "ß", "ẞ", "İ", "ı", "i", "I", "ﬁ", "ﬀ", "ǅ", "Ǆ", "ǆ",
        "\u{212B}", "Å", "å", "\u{2126}", "Ω", "ς", "Σ", "σ", "ΐ", "ΰ", "ǰ", "ŉ", "é", "É", "e\u{301}", "E\u{308}",
        "c\u{327}", "α\u{345}", "ñ", "Ñ", "ç", "ø", "Ø", "æ", "Æ", "œ", "ł", "Ł", "đ", "ħ", "þ", "ð", "Ⅻ", "ⅻ", "Ａ", "ａ",
        "한", "\u{1100}", "\u{1161}", "\u{11A8}", "東", "京", "😀", "ǈ", "ᾳ", "ᾼ", "ﬆ", "Ǳ", "o\u{323}\u{302}",
        "\u{1E9E}", "ṩ", "Ṩ", "s\u{323}", "I\u{307}", "Ǎ", "ǎ", "ő", "Ő", "ų", "Ⓐ", "ⓐ", "𝐀", "\u{10400}", "\u{10428}",
    ]
    /// Texts that start with one combining mark (it stays, or folds as it does alone).
    static let leadingMarks = ["\u{301}a", "\u{308}", "\u{345}x", "\u{327}é"]

    static func randomTexts(count: Int, seed: UInt64) -> [String] {
        var rng = SeededRandom(seed: seed)
        return (0..<count).map { _ in (0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined() }
    }

    @Test func theTablesFoldAsTextFoldingDoes() {
        let texts = Self.alphabet + Self.leadingMarks + Self.randomTexts(count: 3000, seed: 20_261_201)
        for table in FoldTable.all {
            var failures = 0
            for text in texts {
                let expected = TextFolding.fold(text, caseInsensitive: table.flags & 1 != 0, diacriticInsensitive: table.flags & 2 != 0)
                let got = table.apply(text)
                if !got.unicodeScalars.elementsEqual(expected.unicodeScalars) {
                    failures += 1
                    if failures <= 5 { Issue.record("flags \(table.flags): \(text.unicodeScalars.map { String($0.value, radix: 16) }) → \(got.unicodeScalars.map { String($0.value, radix: 16) }), TextFolding gives \(expected.unicodeScalars.map { String($0.value, radix: 16) })") }
                }
            }
            #expect(failures == 0, "flags \(table.flags)")
        }
        #expect(FoldTable.all[0].asciiIsLowercasing && FoldTable.all[1].asciiIsUnchanged && FoldTable.all[2].asciiIsLowercasing)
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
