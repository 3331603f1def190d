import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17: the detail pane widens with the screen, `{`/`}` resize it, and a long value
/// ends with "…" (the viewer shows it whole).
@MainActor @Suite(.serialized) struct DetailPaneSizeTests {
    let snapshots = SnapshotTests()

    @Test func thePaneGrowsWithTheScreenAndTheKeysMoveItsEdgeWithinBounds() {
        let sizes = [120, 160, 240].map { Layout(size: TerminalSize(rows: 40, columns: $0)).detail.width }
        #expect(sizes == sizes.sorted() && Set(sizes).count == 3, "\(sizes)")
        let size = TerminalSize(rows: 40, columns: 160)
        let widths = Layout.detailStepRange.map { Layout(size: size, detailSteps: $0).detail.width }
        #expect(widths == widths.sorted() && widths.first! >= 16)
        for steps in Layout.detailStepRange {
            let l = Layout(size: size, detailSteps: steps)
            #expect(l.table.width >= 40 - 1 && l.table.col + l.table.width < l.detail.col, "the table keeps room: \(l)")
        }
        // Below 100 columns the pane is under the table: the steps move its top edge.
        let narrow = [-1, 0, 1].map { Layout(size: TerminalSize(rows: 24, columns: 80), detailSteps: $0).detail.height }
        #expect(narrow == [6, 7, 8])
    }

    @Test func theKeysResizeThePaneAndALongValueEndsWithAnEllipsis() async throws {
        let s = try await snapshots.session(TerminalSize(rows: 40, columns: 120), entity: "Image")
        let before = try #require(s.state.layout?.detail.width)
        try await snapshots.type("}}", into: s)
        #expect(s.state.layout?.detail.width == before + 8 && s.state.detailSteps == 2)
        try await snapshots.type("{{{", into: s)
        #expect(s.state.layout?.detail.width == before - 4)
        // The URL is longer than the pane: its line ends in "…" at the pane's edge.
        let url = try #require(try s.rows?.object(at: 0).value(forKey: "url").description)
        let line = try #require(snapshots.render(snapshots.model(s)).first { $0.contains(" url ") && $0.contains("https://") })
        let field = try #require(line.range(of: " url ", options: .backwards).map { String(line[$0.lowerBound...]) })
        #expect(field.hasSuffix("…") && !field.contains(url) && url.hasPrefix(String(field.dropFirst(" url ".count)).trimmingCharacters(in: .whitespaces).dropLast()), "\(field)")
    }

    @Test func thePaneSizeIsKeptForTheNextRunInTheStateDirectoryNeverInTheStore() async throws {
        let dir = TempDir()
        let file = BrowserSettingsFile(url: dir.url.appendingPathComponent("vellum/browser.json"))
        let url = try SessionTests.makeStore()
        // The store's contents, not its main file's bytes: the demo store's last connection
        // may still be closing (and checkpointing its WAL into the file) while the test runs.
        let storeContents = try sqliteText(url, ".dump")
        let first = BrowserSession(container: try SessionTests.open(url), settingsFile: file)
        first.setLayout(Layout(size: TerminalSize(rows: 40, columns: 120)))
        let before = try #require(first.state.layout?.detail.width)
        try await snapshots.type("}}", into: first)
        #expect(file.load() == BrowserSettings(detailSteps: 2))
        // The next session opens with the pane as it was left.
        let second = BrowserSession(container: try SessionTests.open(url), settingsFile: file)
        // As the event loop lays out each frame: with the steps in the state.
        second.setLayout(Layout(size: TerminalSize(rows: 40, columns: 120), detailSteps: second.state.detailSteps))
        #expect(second.state.detailSteps == 2 && second.state.layout?.detail.width == before + 8)
        #expect(try sqliteText(url, ".dump") == storeContents, "nothing is written to the store")
        // A damaged file is read as no settings, and the browser still opens.
        try Data("{ not json".utf8).write(to: file.url)
        let third = BrowserSession(container: try SessionTests.open(url), settingsFile: file)
        #expect(third.state.detailSteps == 0)
    }
}
