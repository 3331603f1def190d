import Foundation
import Testing
@testable import VellumStore

/// `PostgreSQLRegex` in Swift: the code-point sets it spells classes with, case folding,
/// counts, and what every engine refuses. Its answers on the server: `PostgreSQLRegexDifferenceTests`.
@Suite struct PostgreSQLRegexTranslationTests {
    /// The class a one-class pattern parses to.
    static func parsedClass(_ pattern: String) throws -> RegexClass {
        var parser = RegexParser(pattern)
        guard case .set(let c) = try parser.parse(flags: .init()) else { throw RegexError(.invalid, "\(pattern) is not one class") }
        return c
    }

    @Test(arguments: ["\\p{L}", "(?i)\\p{Lu}", "(?i)\\P{Lu}", "\\w", "\\W", ".", "(?s).", "\\p{Alphabetic}", "[a-z&&[^aeiou]]",
                      "(?i)[^k-s]", "\\p{Emoji}", "\\s", "[[:punct:]]", "[\\p{L}--[\\p{Ll}]]", "\\p{Cn}", "\\p{Any}", "[^\\x{10000}-\\x{10FFFF}]",
                      "\\p{Noncharacter_Code_Point}", "(?i)[ς]", "\\p{Alphabetic=No}", "\\p{gc=Nd}"])
    func aClassesCodePointsAreThoseItHolds(_ pattern: String) throws {
        let c = try Self.parsedClass(pattern)
        let set = c.scalarSet
        var wrong: [String] = []
        var v: UInt32 = 0
        while v <= RegexScalarSet.maxScalar {
            if let s = Unicode.Scalar(v), set.contains(v) != c.contains(s) { wrong.append("U+" + String(v, radix: 16)) }
            v += v < 0x3000 ? 1 : 61
        }
        #expect(wrong.isEmpty, "\(pattern): \(wrong.prefix(10))")
    }

    @Test func setAlgebraIsExact() {
        let a = RegexScalarSet([5...10, 20...30, 0x10FFF0...0x10FFFF]), b = RegexScalarSet([8...22, 29...29])
        #expect(a.union(b).ranges == [5...30, 0x10FFF0...0x10FFFF])
        #expect(a.intersection(b).ranges == [8...10, 20...22, 29...29])
        #expect(a.subtracting(b).ranges == [5...7, 23...28, 30...30, 0x10FFF0...0x10FFFF])
        #expect(a.inverted.ranges == [0...4, 11...19, 31...0x10FFEF])
        #expect(a.inverted.inverted == a && RegexScalarSet.empty.inverted == .all)
        #expect(RegexScalarSet([3...4, 5...6, 1...1]).ranges == [1...1, 3...6])
    }

    /// `(?i)` takes as one the scalars of one simple case folding, as ICU does: the classes
    /// come from a scan of the scalars that change under case mapping or folding, and no
    /// other scalar folds to anything but itself.
    @Test func caseFoldingClassesHoldEveryScalarThatFolds() {
        var wrong: [String] = []
        var v: UInt32 = 0
        while v <= RegexScalarSet.maxScalar {
            if let s = Unicode.Scalar(v) {
                let variants = RegexCase.variants(s)
                let unchanged = !s.properties.changesWhenCaseMapped && !s.properties.changesWhenCaseFolded && !s.isASCII
                if !variants.contains(s) || variants.contains(where: { RegexCase.fold($0) != RegexCase.fold(s) }) || unchanged && variants.count > 1 {
                    wrong.append("U+" + String(v, radix: 16))
                }
            }
            v += 1
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        for (a, b) in [("σ", "ς"), ("Σ", "ς"), ("ß", "ẞ"), ("s", "ſ"), ("k", "\u{212A}"), ("ω", "\u{2126}"), ("ǆ", "ǅ"), ("\u{390}", "\u{1FD3}")] {
            #expect(RegexCase.fold(a.unicodeScalars.first!) == RegexCase.fold(b.unicodeScalars.first!), "\(a) \(b)")
        }
        for (a, b) in [("i", "ı"), ("I", "ı"), ("i", "İ"), ("ß", "s")] {
            #expect(RegexCase.fold(a.unicodeScalars.first!) != RegexCase.fold(b.unicodeScalars.first!), "\(a) \(b)")
        }
    }

    /// PostgreSQL counts up to 255: more is a product, with the same meaning.
    @Test func largeCountsArePostgreSQLsProducts() throws {
        #expect(PostgreSQLRegex.repeated("x", min: 600, max: 1000) == "(?:x{255}){2}x{90}(?:x{0,255}){1}x{0,145}")
        #expect(PostgreSQLRegex.repeated("x", min: 300, max: nil) == "(?:x{255}){1}x{45}x*")
        #expect(PostgreSQLRegex.repeated("x", min: 2, max: 255) == "x{2,255}")
        let db = try PostgreSQLDialectTests.functions()
        for (pattern, count, expected) in [("a{600}", 600, true), ("a{600}", 599, false), ("a{600}", 601, false), ("a{2,700}", 700, true),
                                           ("a{2,700}", 701, false), ("(?:ab){256,}", 256, true), ("(?:ab){256,}", 255, false)] {
            let text = String(repeating: pattern.hasPrefix("(?:ab)") ? "ab" : "a", count: count)
            let are = try PostgreSQLRegex.translate(pattern)
            #expect(try db.scalar("SELECT $1 ~ $2", [.string(text), .string(are)]) == .bool(expected), "\(pattern) on \(count)")
            #expect(try LinearRegex(pattern).matchesWhole(text) == expected, "memory: \(pattern) on \(count)")
        }
    }

    @Test(arguments: ["\\p{Greek}", "\\p{Script=Latin}", "[\\p{sc=Grek}]", "\\p{InBasicLatin}", "\\p{Block=Greek}", "\\p{isLu}", "\\p{Extended_Pictographic}"])
    func scriptsAndBlocksAreRefusedByName(_ pattern: String) {
        #expect { _ = try PostgreSQLRegex.translate(pattern) } throws: { error in
            guard let e = error as? RegexError, e.kind == .unsupported else { return false }
            let name = pattern.drop { $0 != "{" }.dropFirst().prefix { $0 != "}" }
            return e.reason.contains("'\(name)'")
        }
    }

    /// ICU's names for the general categories and for every binary property Swift computes.
    @Test func propertyNamesAreICUs() throws {
        var names = ["L", "Lu", "IsL", "Is_Lu", "Letter", "Uppercase Letter", "uppercase_letter", " lu ", "LC", "Cased_Letter", "gc=Lu",
                     "General_Category=Nd", "gc=Letter", "Nd", "decimalnumber", "Any", "Assigned", "ASCII", "Alphabetic=No", "Alpha=N",
                     "Lowercase=True", "space", "digit", "word", "xdigit"]
        for p in RegexBinaryProperty.allCases { names += [p.rawValue] + p.aliases + ["Is" + p.rawValue] }
        for name in names { #expect(throws: Never.self, "\\p{\(name)}") { _ = try LinearRegex("\\p{\(name)}[\\P{\(name)}]") } }
    }
}
