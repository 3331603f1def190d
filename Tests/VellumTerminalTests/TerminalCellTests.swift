import Testing
@testable import VellumTerminal

/// Issue #11, item 16: clusters become the cells ncurses and the terminal lay
/// out, control characters become visible markers, and every symbol has a
/// one-cell ASCII form for non-UTF-8 locales.
@Suite struct TerminalCellTests {
    private func scalars(_ character: Character) -> [[UInt32]] {
        TerminalCells.cells(of: character).map { $0.scalars.map(\.value) }
    }

    @Test func graphemeClustersBecomeWholeCellsWithoutJoiners() {
        #expect(scalars("e\u{301}") == [[0x65, 0x301]])                       // mark joins its base
        #expect(scalars("❤️") == [[0x2764, 0xFE0F]])                          // selector joins its base
        #expect(scalars("👍🏽") == [[0x1F44D], [0x1F3FD]])                     // two wide cells
        #expect(scalars("🇩🇪") == [[0x1F1E9], [0x1F1EA]])
        #expect(scalars("👨‍👩‍👧") == [[0x1F468], [0x1F469], [0x1F467]])        // joiners left out
        #expect(scalars("\u{301}") == [[0x20, 0x301]])                        // a lone mark gets a base
        #expect(scalars("\u{200B}").isEmpty)                                  // nothing to show
        // ncurses keeps five characters per cell: further marks are dropped, not spilled.
        #expect(scalars("a\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}") == [[0x61, 0x301, 0x302, 0x303, 0x304]])
    }

    @Test func widthsAreTheCLibrarysWcwidth() {
        #expect(TerminalCells.width(of: Unicode.Scalar(0x1F468)!) == 2)
        #expect(TerminalCells.width(of: Unicode.Scalar(0x2764)!) == 1)
        #expect(TerminalCells.width(of: Unicode.Scalar(0x1F1E9)!) == 1)
        #expect(TerminalCells.width(of: Unicode.Scalar(0x6F22)!) == 2)         // 漢
        #expect(TerminalCells.width(of: Unicode.Scalar(0x93F)!) == 1)          // Devanagari vowel sign i
        for character: Character in ["a", "é", "漢", "👍🏽", "👨‍👩‍👧", "🇩🇪", "\t", "\u{301}", "\u{200B}"] {
            #expect(DisplayWidth.of(character) == TerminalCells.cells(of: character).reduce(0) { $0 + $1.width }, "\(character)")
        }
    }

    @Test func tabAndControlCharactersAreVisibleMarkers() {
        #expect(scalars("\t") == [[0x21E5]])                                  // ⇥
        #expect(scalars("\n") == [[0x23CE]])                                  // ⏎
        #expect(scalars("\u{1B}") == [[0x241B]])                              // ␛
        #expect(scalars("\u{7F}") == [[0x2421]])                              // ␡
        #expect(scalars("\u{85}") == [[0xFFFD]])                              // C1 control
        #expect(scalars("\r\n") == [[0x240D], [0x23CE]])
        #expect(DisplayWidth.of("a\tb") == 3)
        #expect(DisplayWidth.clip("ab\tcd", toWidth: 3) == "ab\t")
    }

    @Test func everyGlyphHasAOneCellASCIIForm() {
        for (symbol, ascii) in GlyphTable.ascii {
            #expect(ascii.isASCII && ascii.value >= 0x20 && ascii.value < 0x7F, "\(symbol)")
            #expect(TerminalCells.width(of: symbol) == 1, "\(symbol) is not one cell")
        }
        for marker in [ControlMarkers.tab, ControlMarkers.newline, ControlMarkers.invalid] + ControlMarkers.pictures {
            #expect(GlyphTable.ascii[marker] != nil, "\(marker) has no ASCII form")
        }
        #expect(GlyphTable.asciiForm(of: "│") == "|")
        #expect(GlyphTable.asciiForm(of: "∅") == "-")
        #expect(GlyphTable.asciiForm(of: "…") == "~")
        #expect(GlyphTable.asciiForm(of: "é") == "?")
        #expect(GlyphTable.asciiForm(of: "x") == "x")
    }
}
