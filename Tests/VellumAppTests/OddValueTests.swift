import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// SQLite is dynamically typed: another program's database may hold text in an
/// INTEGER or REAL column. The browser shows such a value as stored, marked, and
/// a save of another column of that row leaves it byte for byte as it was.
@MainActor @Suite(.serialized) struct OddValueTests {
    static let schema = """
        CREATE TABLE reading (id INTEGER PRIMARY KEY, label TEXT, qty INTEGER, price REAL);
        INSERT INTO reading VALUES (1, 'fine', 3, 1.5);
        INSERT INTO reading VALUES (2, 'odd', 'n/a', 'cheap');
        """

    static func session(in dir: TempDir) throws -> (BrowserSession, path: String) {
        let path = dir.file("odd.sqlite").path
        _ = try runSQLite(path, schema)
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        let session = BrowserSession(container: try PersistentContainer(store: store))
        session.setLayout(Layout(size: TerminalSize(rows: 30, columns: 120)))
        return (session, path)
    }

    static func model(_ s: BrowserSession) -> ViewModel {
        ViewModel.build(state: s.state, layout: s.state.layout!, fileName: "odd.sqlite", entity: s.entity,
                        rows: s.rows, entityCounts: s.entityCounts, relatedCounts: s.relatedCounts, pendingWrites: 0)
    }

    @Test func aValueOfAnotherTypeIsShownAsStoredAndMarked() throws {
        let dir = TempDir()
        let (s, _) = try Self.session(in: dir)
        #expect(s.state.columnNames == ["id", "label", "qty", "price"])
        let rows = try #require(Self.model(s).table?.rows)
        #expect(rows.map(\.cells) == [["1", "fine", "3", "1.5"], ["2", "odd", "≠n/a", "≠cheap"]])
        // Row 0 (selected) fits: its detail field is unmarked.
        #expect(Self.model(s).detail?.fields.first { $0.name == "qty" }?.value == "3")
    }

    @Test func theDetailPaneNamesTheStoredKind() async throws {
        let dir = TempDir()
        let (s, _) = try Self.session(in: dir)
        await s.handle(.char("j"))
        let detail = Self.model(s).detail?.fields.first { $0.name == "qty" }?.value
        #expect(detail == "n/a  ≠ stored as string, column is integer64")
    }

    @Test func savingAnotherColumnLeavesTheOddValuesByteIdentical() async throws {
        let dir = TempDir()
        let (s, path) = try Self.session(in: dir)
        let stored = "SELECT typeof(qty), hex(qty), typeof(price), hex(price) FROM reading WHERE id = 2"
        let before = try sqliteOutput(path, stored)
        #expect(before == "text|6E2F61|text|6368656170")
        await s.handle(.char("j")); await s.handle(.char("l"))   // row 'odd', column label
        await s.handle(.char("e")); await s.handle(.ctrl("u"))
        for c in "odd, relabelled" { await s.handle(.char(c)) }
        await s.handle(.enter)
        #expect(await waitUntil(timeout: 30) { (try? sqliteOutput(path, "SELECT label FROM reading WHERE id = 2")) == "odd, relabelled" },
                "the label was not saved: \(s.state.statusMessage ?? "")")
        #expect(try sqliteOutput(path, stored) == before)
    }
}
