import Testing
@testable import VellumApp
import VellumTerminal

/// The `?` help at sizes where it does and does not fit, and its scroll keys.
@Suite struct HelpOverlayTests {
    let small = TerminalSize(rows: 24, columns: 80)

    @Test func at80x24TheHelpScrollsAndSaysThereIsMore() {
        let overlay = HelpOverlay(size: small)
        let lines = overlay.lines
        #expect(overlay.columns == 1)
        #expect(overlay.box.height <= small.rows - 2 && overlay.box.width <= small.columns)
        #expect(overlay.visibleLines(column: 0, scroll: 0).first == "Keys")
        #expect(overlay.maxScroll == lines.count - overlay.visibleRows)
        #expect(overlay.footer(scroll: 0).hasPrefix("lines 1–\(overlay.visibleRows) of \(lines.count)  ↓ more"))
        // Scrolled to the end: the last command shows and only "↑ more" is left.
        #expect(overlay.visibleLines(column: 0, scroll: overlay.maxScroll).last == lines.last)
        #expect(lines.contains { $0.contains(":export csv|json PATH") })
        #expect(overlay.footer(scroll: overlay.maxScroll).contains("of \(lines.count)  ↑ more"))
        #expect(overlay.footer(scroll: 3).contains("↑↓ more"))
        #expect(overlay.clamped(1000) == overlay.maxScroll && overlay.clamped(-5) == 0)
    }

    @Test func largeTerminalsShowEverythingWithoutScrolling() {
        // Large enough for every line of the help (it grows with the commands).
        for size in [TerminalSize(rows: 140, columns: 80), TerminalSize(rows: 70, columns: 160)] {
            let overlay = HelpOverlay(size: size)
            #expect(overlay.maxScroll == 0)
            let shown = (0..<overlay.columns).flatMap { overlay.visibleLines(column: $0, scroll: 0) }
            #expect(shown == overlay.lines)
            #expect(overlay.lines.allSatisfy { DisplayWidth.of($0) <= overlay.columnWidth })
            #expect(overlay.footer(scroll: 0) == "Esc closes this help")
        }
        #expect(HelpOverlay(size: TerminalSize(rows: 70, columns: 160)).columns == 2)
    }

    @Test func theHelpListsItsOwnScrollKeys() {
        #expect(KeyBindings.helpLines().contains { $0.contains("scroll this help") })
    }

    @Test func moveKeysScrollAndCloseKeysClose() {
        var s = AppState()
        s.layout = Layout(size: small)
        let overlay = HelpOverlay(size: small)
        _ = Reducer.update(&s, key: .char("?"))
        #expect(s.mode == .help && s.helpScroll == 0)
        _ = Reducer.update(&s, key: .char("j")); _ = Reducer.update(&s, key: .down)
        #expect(s.helpScroll == 2)
        _ = Reducer.update(&s, key: .char("G"))
        #expect(s.helpScroll == overlay.maxScroll)
        _ = Reducer.update(&s, key: .char("j"))
        #expect(s.helpScroll == overlay.maxScroll)   // not past the end
        _ = Reducer.update(&s, key: .up)
        _ = Reducer.update(&s, key: .pageUp)
        #expect(s.helpScroll == overlay.maxScroll - 1 - overlay.pageSize)
        _ = Reducer.update(&s, key: .mouse(MouseEvent(.wheelDown, x: 1, y: 1)))
        #expect(s.helpScroll == overlay.maxScroll - overlay.pageSize + 2)
        _ = Reducer.update(&s, key: .char("g")); _ = Reducer.update(&s, key: .char("k"))
        #expect(s.helpScroll == 0 && s.mode == .help)
        _ = Reducer.update(&s, key: .pageDown)
        #expect(s.helpScroll == overlay.pageSize)
        _ = Reducer.update(&s, key: .escape)
        #expect(s.mode == .browse)
        // Reopened at the top; q and ? close it (q does not quit from the help).
        _ = Reducer.update(&s, key: .char("?"))
        #expect(s.mode == .help && s.helpScroll == 0)
        #expect(Reducer.update(&s, key: .char("q")) == [])
        #expect(s.mode == .browse)
        _ = Reducer.update(&s, key: .char("?")); _ = Reducer.update(&s, key: .char("?"))
        #expect(s.mode == .browse)
    }
}
