import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17: "Find (`f`) matches case-insensitively or by regular expression, jumps to
/// and highlights the matching cell, and runs in SQL."
@MainActor @Suite struct FindTests {
    static let sizes = [TerminalSize(rows: 24, columns: 80), TerminalSize(rows: 40, columns: 120)]
    let theme = ThemeLoader(builtInDirectories: [], userDirectory: nil).loadWithFallback(named: "default", capability: .none).0

    func session(_ size: TerminalSize) throws -> BrowserSession {
        let session = BrowserSession(container: try SessionTests.open(try SessionTests.makeStore()), opening: "Product")
        session.setLayout(Layout(size: size))
        return session
    }

    func draw(_ s: BrowserSession) -> (model: ViewModel, buffer: CellBuffer) {
        let model = ViewModel.build(state: s.state, layout: s.state.layout!, fileName: "shop.sqlite", entity: s.entity,
                                    rows: s.rows, entityCounts: s.entityCounts, relatedCounts: s.relatedCounts, pendingWrites: 0)
        let buffer = CellBuffer(size: model.layout.size)
        Renderer.draw(model, theme: theme, on: buffer)
        return (model, buffer)
    }

    func type(_ text: String, into s: BrowserSession) async {
        for c in text { await s.handle(c == "\r" ? .enter : .char(c)) }
    }

    @Test func aPatternFindsTextOrARegularExpressionAnywhereInAValue() {
        let plain = FindPattern("CAFE")
        #expect(plain.range(in: "Le Café bleu") == 3..<7, "case- and diacritic-insensitive")
        #expect(plain.range(in: "tea") == nil)
        #expect(plain.predicate(attributes: ["name", "sku"]).description == #"name CONTAINS[cd] "CAFE" OR sku CONTAINS[cd] "CAFE""#)
        let regex = FindPattern("k[aeiou]ttle$", regex: true)
        #expect(regex.problem == nil)
        #expect(regex.range(in: "Classic Tea KETTLE") == 0..<18, "a regular expression marks the whole value")
        #expect(regex.range(in: "Kettle stand") == nil)
        #expect(FindPattern("line two", regex: true).range(in: "line one\nline two") != nil, "across lines")
        #expect(regex.predicate(attributes: ["name"]).description == #"name MATCHES[c] "(?s).*(?:k[aeiou]ttle$).*""#)
        #expect(FindPattern("(unclosed", regex: true).problem?.contains("regular expression") == true)
        #expect(FindPattern("(unclosed").problem == nil, "plain text is never refused")
    }

    @Test func theFindPromptSwitchesToARegularExpressionAndRefusesOneThatCannotRun() {
        var s = AppState()
        s.entityNames = ["Product"]
        s.columnNames = ["name"]
        s.rowCount = 3
        _ = Reducer.update(&s, key: .char("f"))
        #expect(ModeHints.bottomLine(s)?.contains("^R regex") == true, "\(ModeHints.bottomLine(s) ?? "")")
        _ = Reducer.update(&s, key: .ctrl("r"))
        #expect(s.searchIsRegex && ModeHints.bottomLine(s)?.contains("^R plain text") == true)
        for c in "(tea" { _ = Reducer.update(&s, key: .char(c)) }
        #expect(Reducer.update(&s, key: .enter) == [])
        #expect(s.mode == .search && s.promptError?.contains("regular expression") == true, "the line stays open with the reason")
        _ = Reducer.update(&s, key: .char(")"))
        #expect(s.promptError == nil)
        #expect(Reducer.update(&s, key: .enter) == [.search("(tea)", forward: true, regex: true)])
        #expect(Reducer.update(&s, key: .char("n")) == [.search("(tea)", forward: true, regex: true)])
        _ = Reducer.update(&s, key: .char("f")); _ = Reducer.update(&s, key: .ctrl("r"))
        for c in "mug" { _ = Reducer.update(&s, key: .char(c)) }
        #expect(Reducer.update(&s, key: .enter) == [.search("mug", forward: true, regex: false)])
    }

    /// In a session on the demo store: the cursor lands on the row and on the cell that
    /// matched (the name, though the cursor was on another column), and the matched text
    /// is drawn in the highlight role; a regular expression finds what plain text cannot.
    @Test func findJumpsToTheMatchingCellAndMarksIt() async throws {
        for size in Self.sizes {
            let s = try session(size)
            await s.handle(.char("l")); await s.handle(.char("l"))          // on `stock`
            await type("fwool blanket\r", into: s)
            let (model, buffer) = draw(s)
            let row = try #require(model.table?.rows.first { $0.index == s.state.cursorRow })
            #expect(s.state.columnNames[s.state.cursorColumn] == "name", "\(s.state.statusMessage ?? "")")
            let name = row.cells[s.state.cursorColumn]
            #expect(name.lowercased().contains("wool blanket"))
            let found = try #require(row.found)
            #expect(found.column == s.state.cursorColumn && Array(name)[found.characters].map(String.init).joined().lowercased() == "wool blanket")
            // On screen: the matched characters carry the highlight role's colours.
            let position = try #require(model.table?.lines.firstIndex { if case .row(let i) = $0 { i == s.state.cursorRow } else { false } })
            let line = model.layout.table.row + 1 + position
            let col = try #require(buffer.lines[line].range(of: "Wool Blanket").map { buffer.lines[line].distance(from: buffer.lines[line].startIndex, to: $0.lowerBound) })
            let marked = theme[.highlight].adding(.bold)
            #expect(buffer.style(row: line, col: col) == marked && buffer.style(row: line, col: col + 11) == marked)
            #expect(buffer.style(row: line, col: col - 2) != marked && buffer.style(row: line, col: col + 12) != marked, "only the match is marked")
            // Moving off the cell takes the mark away.
            await s.handle(.char("l"))
            #expect(draw(s).model.table?.rows.first { $0.index == s.state.cursorRow }?.found?.column != s.state.cursorColumn)
            // A regular expression: names of two words ending in "mug" (case-insensitively).
            await s.handle(.char("f")); await s.handle(.ctrl("r"))
            await type("^\\w+ ceramic MUG$\r", into: s)
            let status = s.state.statusMessage ?? ""
            #expect(status.hasPrefix("^\\w+ ceramic MUG$: match ") && status.contains(" of "), "\(status)")
            let cell = try #require(draw(s).model.table?.rows.first { $0.index == s.state.cursorRow })
            #expect(cell.cells[s.state.cursorColumn].hasSuffix("Ceramic Mug") && cell.found != nil)
        }
    }
}
