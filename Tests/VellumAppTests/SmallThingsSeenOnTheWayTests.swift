import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17, "Small things seen on the way": each test is named after the bug and failed on the old code.
@Suite struct SmallThingsReducerTests {
    func state() -> AppState {
        var s = AppState()
        s.entityNames = ["Product"]
        s.columnNames = ["name", "title", "price"]
        s.columnTypes = [.string, .string, .double]
        s.rowCount = 10
        return s
    }

    @Test func findPrefilledWithThePreviousSearchIsReplacedByTyping() {
        var s = state()
        s.searchText = "fjord"
        _ = Reducer.update(&s, key: .char("f"))
        #expect(s.mode == .search && s.editor.text == "fjord")
        _ = Reducer.update(&s, key: .char("n")); _ = Reducer.update(&s, key: .char("o"))
        #expect(s.editor.text == "no")
        #expect(Reducer.update(&s, key: .enter) == [.search("no", forward: true)])
        // Moving the cursor first keeps the previous search for editing.
        _ = Reducer.update(&s, key: .char("f"))
        _ = Reducer.update(&s, key: .left); _ = Reducer.update(&s, key: .char("x"))
        #expect(s.editor.text == "nxo")
        _ = Reducer.update(&s, key: .escape)
        _ = Reducer.update(&s, key: .char("f"))
        _ = Reducer.update(&s, key: .backspace)
        #expect(s.editor.text == "n")
    }

    @Test func sortWithAnUnknownDirectionWordIsAnError() {
        var s = state()
        _ = Reducer.update(&s, key: .char(":"))
        for c in "sort title sideways" { _ = Reducer.update(&s, key: .char(c)) }
        #expect(Reducer.update(&s, key: .enter) == [])
        #expect(s.mode == .command)
        #expect(s.promptError?.contains("'sideways' is not a direction") == true, "\(String(describing: s.promptError))")
        #expect(Reducer.runCommand(&s, "sort title desc extra") == [])
        #expect(Reducer.runCommand(&s, "sort title DESC") == [.applySort(QuerySortDescriptor("title", ascending: false))])
        #expect(Reducer.runCommand(&s, "sort title descending") == [.applySort(QuerySortDescriptor("title", ascending: false))])
        #expect(Reducer.runCommand(&s, "sort title asc") == [.applySort(QuerySortDescriptor("title", ascending: true))])
        #expect(Reducer.runCommand(&s, "sort title") == [.applySort(QuerySortDescriptor("title", ascending: true))])
    }
}

/// The same bugs as drawn on a demo store session (see `SnapshotTests`).
@MainActor @Suite(.serialized) struct SmallThingsRenderTests {
    let snapshots = SnapshotTests()

    func screen(_ size: TerminalSize, keys: String, entity: String = "Product") async throws -> (lines: [String], session: BrowserSession) {
        let s = try await snapshots.session(size, entity: entity)
        try await snapshots.type(keys, into: s)
        return (snapshots.render(snapshots.model(s)), s)
    }

    /// The text of one help column, read off the screen, one entry per description start.
    func columnText(_ lines: [String], _ overlay: HelpOverlay, column: Int) -> [String] {
        (overlay.box.row + 1..<overlay.box.row + 1 + overlay.visibleRows).map { row in
            let chars = Array(lines[row]), start = overlay.box.col + overlay.columnOffset(column)
            return String(chars[min(chars.count, start)..<min(chars.count, start + overlay.columnWidth)])
        }
    }

    @Test func helpOverlayShowsEveryDescriptionWholeAndAligned() async throws {
        for size in SnapshotTests.sizes {
            let (lines, _) = try await screen(size, keys: "?")
            let overlay = HelpOverlay(size: size)
            // What the screen shows is the overlay's lines, whole (nothing cut at the column edge).
            for column in 0..<overlay.columns {
                let shown = columnText(lines, overlay, column: column).map { $0.replacingOccurrences(of: " +$", with: "", options: .regularExpression) }
                let expected = overlay.visibleLines(column: column, scroll: 0).map { $0.replacingOccurrences(of: " +$", with: "", options: .regularExpression) }
                #expect(Array(shown.prefix(expected.count)) == Array(expected), "\(size) column \(column)")
            }
            #expect(overlay.lines.allSatisfy { DisplayWidth.of($0) <= overlay.columnWidth }, "\(size)")
            let text = overlay.lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            for command in CommandTable.all where command.action != nil {
                #expect(text.contains(command.help), "\(size): \(command.help)")
            }
            for command in CommandTable.lineCommands { #expect(text.contains(command.help), "\(size): \(command.help)") }
            for prompt in KeyBindings.prompts() { #expect(text.contains(prompt.help), "\(size): \(prompt.help)") }
            // Every `:` command's description starts in the same column as the others (`:export` too).
            let usages = CommandTable.lineCommands.map(\.usage)
            let starts = overlay.lines.compactMap { line -> Int? in
                guard let usage = usages.first(where: { line.hasPrefix("  " + $0 + " ") }) else { return nil }
                return DisplayWidth.of(line.prefix(2 + usage.count)) + (line.dropFirst(2 + usage.count).prefix { $0 == " " }.count)
            }
            #expect(starts.count == usages.count && Set(starts).count == 1, "\(size): \(starts)")
        }
    }

    @Test func helpOverlayAt80x24LeavesNoTableFragmentsBesideIt() async throws {
        let size = TerminalSize(rows: 24, columns: 80)
        let (lines, _) = try await screen(size, keys: "?")
        let box = HelpOverlay(size: size).box
        for row in box.row..<(box.row + box.height) {
            let chars = Array(lines[row])
            let outside = String(chars.prefix(box.col)) + String(chars.dropFirst(box.col + box.width))
            #expect(outside.allSatisfy { $0 == " " }, "row \(row): '\(lines[row])'")
        }
    }

    @Test func partlyVisibleLastColumnShowsItsRightAlignedNumbers() async throws {
        var cutColumnsSeen = 0
        for entity in ["Product", "Task"] {
        for columns in stride(from: Layout.minimumSize.columns, through: 130, by: 1) {
            let size = TerminalSize(rows: 24, columns: columns)
            let (lines, session) = try await screen(size, keys: "", entity: entity)
            let model = snapshots.model(session), state = session.state
            let widths = ColumnSizing.widths(headers: state.columnNames, cells: model.table!.rows.map(\.cells))
            let table = state.layout!.table, edge = table.col + table.width
            let header = lines[table.row], firstRow = Array(lines[table.row + 1])
            for (c, name) in state.columnNames.enumerated() where state.columnTypes[c].isNumeric {
                guard let range = header.range(of: name) else { continue }
                let x = header.distance(from: header.startIndex, to: range.lowerBound)
                // Cut by the table edge, with room for at least two digits and an ellipsis.
                guard x + widths[c] > edge, x + 3 <= edge else { continue }
                cutColumnsSeen += 1
                let cell = String(firstRow[min(x, firstRow.count)..<min(edge, firstRow.count)])   // lines end at their last mark
                #expect(cell.contains { $0.isNumber }, "\(columns) columns: '\(name)' cut at the edge shows '\(cell)'")
            }
        }
        }
        #expect(cutColumnsSeen > 0)
    }
}
