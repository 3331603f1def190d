import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// The browser rendered into memory (no terminal) in every mode at 80×24 and
/// 120×40, compared with the stored screens in `Tests/Snapshots/` (see `Snapshot`).
@MainActor @Suite(.serialized) struct SnapshotTests {
    static let sizes = [TerminalSize(rows: 24, columns: 80), TerminalSize(rows: 40, columns: 120)]
    let theme = ThemeLoader(builtInDirectories: [], userDirectory: nil).loadWithFallback(named: "default", capability: .none).0

    /// A session on the demo store, sized, with `entity` open.
    func session(_ size: TerminalSize, entity: String = "Product") async throws -> BrowserSession {
        let session = BrowserSession(container: try SessionTests.open(try SessionTests.makeStore()))
        session.setLayout(Layout(size: size))
        try await type(":goto \(entity)\r", into: session)
        return session
    }

    func type(_ text: String, into session: BrowserSession) async throws {
        for c in text { await session.handle(c == "\r" ? .enter : c == "\t" ? .tab : .char(c)) }
    }

    func model(_ session: BrowserSession) -> ViewModel {
        ViewModel.build(state: session.state, layout: session.state.layout!, fileName: "shop.sqlite", entity: session.entity,
                        rows: session.rows, entityCounts: session.entityCounts, relatedCounts: session.relatedCounts, pendingWrites: 0)
    }

    func render(_ model: ViewModel) -> [String] {
        let buffer = CellBuffer(size: model.layout.size)
        Renderer.draw(model, theme: theme, on: buffer)
        return buffer.lines
    }

    func name(_ mode: String, _ size: TerminalSize) -> String { "\(mode)-\(size.columns)x\(size.rows)" }

    /// Each mode reached with the keys a user presses, then drawn.
    @Test(arguments: [
        ("browse", ""), ("detail", "\t"), ("edit", "e"), ("filter", "/price > 100"), ("command", ":so"),
        ("help", "?"), ("confirm-delete", "d"),
    ])
    func modeReachedByKeys(mode: String, keys: String) async throws {
        for size in Self.sizes {
            let s = try await session(size)
            try await type(keys, into: s)
            Snapshot.check(render(model(s)), named: name(mode, size))
        }
    }

    @Test func picker() async throws {
        for size in Self.sizes {
            let s = try await session(size)
            let provider = s.state.columnNames.count + (s.entity?.relationships.firstIndex { $0.name == "provider" } ?? 0)
            try await type("\t" + String(repeating: "j", count: provider) + "e", into: s)
            #expect(s.state.mode == .picker)
            Snapshot.check(render(model(s)), named: name("picker", size))
        }
    }

    /// The conflict prompt, from the state the session sets when a save meets another writer's change.
    @Test func conflictPrompt() async throws {
        for size in Self.sizes {
            let s = try await session(size)
            var m = model(s)
            m.state.mode = .conflict
            m.state.conflict = AppState.Conflict(key: "price", mine: "12.5", theirs: "13", deleted: false, author: "demo-writer")
            Snapshot.check(render(m), named: name("conflict", size))
        }
    }

    @Test func aMismatchShowsTheDifferingLines() {
        #expect(Snapshot.diff(expected: "a\nb\nc\n", actual: "a\nB\nc\n") == "line 2:\n  expected: b\n  actual:   B")
        #expect(Snapshot.diff(expected: "a\n", actual: "a\n") == "")
    }

    @Test func terminalTooSmall() {
        let buffer = CellBuffer(size: TerminalSize(rows: 10, columns: 50))
        Renderer.drawTooSmall(size: buffer.size, ignoredKeys: 3, on: buffer)
        Snapshot.check(buffer.lines, named: "too-small-50x10")
    }
}
