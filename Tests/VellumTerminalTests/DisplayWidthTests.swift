import Testing
@testable import VellumTerminal

@Suite struct DisplayWidthTests {
    @Test func asciiAndControl() {
        #expect(DisplayWidth.of("hello") == 5)
        #expect(DisplayWidth.of("") == 0)
        // Control characters are drawn as one-cell markers (⇥, ␇, ␍⏎).
        #expect(DisplayWidth.of("a\tb") == 3)
        #expect(DisplayWidth.of(Character("\u{7}")) == 1)
        #expect(DisplayWidth.of(Character("\r\n")) == 2)
    }

    @Test func cjkAndFullwidth() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ｈｅｌｌｏ") == 10)   // fullwidth Latin
        #expect(DisplayWidth.of("カタカナ") == 8)
        #expect(DisplayWidth.of("abc中文") == 7)
        #expect(DisplayWidth.of(Character("\u{3000}")) == 2) // ideographic space
        #expect(DisplayWidth.of(Character("\u{20000}")) == 2) // CJK Ext B
        #expect(DisplayWidth.of(Character("ｱ")) == 1)  // halfwidth katakana
    }

    @Test func hangulJamoSequenceIsOneWideCluster() {
        let jamo = "\u{1100}\u{1161}\u{11A8}" // decomposed 각
        #expect(jamo.count == 1)
        #expect(DisplayWidth.of(jamo) == 2)
    }

    /// Emoji clusters take the columns ncurses and wcwidth-based terminals
    /// give their scalars: a cluster that is several cells is drawn as those.
    @Test func emoji() {
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of("👍🏽") == 4)                  // skin tone modifier: two wide cells
        #expect(DisplayWidth.of("👨‍👩‍👧‍👦") == 8)                 // ZWJ family: four people side by side
        #expect(DisplayWidth.of("🏳️‍🌈") == 3)                 // 🏳 (narrow) + VS16, then 🌈
        #expect(DisplayWidth.of("🇯🇵🇫🇷") == 4)                // regional indicators are one cell each
        #expect(DisplayWidth.of("❤️") == 1)                   // VS16 joins a narrow cell
        #expect(DisplayWidth.of("❤") == 1)
        #expect(DisplayWidth.of("1️⃣") == 1)                   // keycap: marks on the digit
        #expect(DisplayWidth.of("a😀b") == 4)
    }

    @Test func combiningMarksAndZeroWidth() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("Z\u{351}\u{36B}\u{343}\u{36A}") == 1)
        #expect(DisplayWidth.of(Unicode.Scalar(0x301)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0x200D)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0xFE0F)!) == 0)
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
        #expect("ñandú".displayWidth == 5)
    }

    @Test func truncateNeverSplitsAndPadsExactly() {
        #expect(DisplayWidth.truncate("hello", toWidth: 10) == "hello")
        #expect(DisplayWidth.truncate("hello world", toWidth: 8) == "hello w…")
        #expect(DisplayWidth.truncate("日本語テキスト", toWidth: 6) == "日本 …")  // gap padded
        #expect(DisplayWidth.of(DisplayWidth.truncate("日本語テキスト", toWidth: 6)) == 6)
        #expect(DisplayWidth.truncate("日本語テキスト", toWidth: 7) == "日本語…")
        #expect(DisplayWidth.truncate("👍🏽👍🏽", toWidth: 5) == "👍🏽…")
        #expect(DisplayWidth.truncate("👨‍👩‍👧‍👦👨‍👩‍👧‍👦", toWidth: 9) == "👨‍👩‍👧‍👦…")
        #expect(DisplayWidth.truncate("👨‍👩‍👧‍👦👨‍👩‍👧‍👦", toWidth: 7) == "      …")   // never part of a cluster
        #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", toWidth: 2) == "e\u{301}…")
        #expect(DisplayWidth.truncate("abc", toWidth: 0) == "")
        #expect(DisplayWidth.truncate("abc", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("日本", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("abcdef", toWidth: 4, ellipsis: "...") == "a...")
    }

    @Test func truncatedWidthIsAlwaysExact() {
        let samples = ["日本語テキスト", "a😀b😀c😀", "🇯🇵🇫🇷🇩🇪", "e\u{301}x日y", "plain ascii text"]
        for sample in samples {
            for width in 1...12 where DisplayWidth.of(sample) > width {
                #expect(DisplayWidth.of(DisplayWidth.truncate(sample, toWidth: width)) == width, "\(sample) @\(width)")
            }
        }
    }

    @Test func padAndFit() {
        #expect(DisplayWidth.pad("日本", toWidth: 6) == "日本  ")
        #expect(DisplayWidth.pad("日本", toWidth: 6, alignment: .right) == "  日本")
        #expect(DisplayWidth.pad("ab", toWidth: 5, alignment: .center) == " ab  ")
        #expect(DisplayWidth.pad("toolong", toWidth: 3) == "toolong")
        #expect(DisplayWidth.fit("日本語テキスト", toWidth: 6) == "日本 …")
        #expect(DisplayWidth.fit("ab", toWidth: 4, alignment: .right) == "  ab")
        #expect(DisplayWidth.clip("日本語", toWidth: 5) == "日本")
    }
}
