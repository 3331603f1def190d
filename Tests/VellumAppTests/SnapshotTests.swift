import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// The browser rendered into memory (no terminal) in every mode of `AppState.Mode`
/// (and the migration question before it opens) at 80×24 and 120×40, compared with the stored screens in `Tests/Snapshots/` (see `Snapshot`).
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
        // As the event loop builds each frame (the shown rows' counts first).
        session.viewModel(layout: session.state.layout!, fileName: "shop.sqlite")
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

    /// The modes the table above does not reach: each opened with the keys a user presses.
    @Test(arguments: [
        ("summary", "F"), ("summary-histogram", "lF"), ("summary-dates", "llllF"), ("search", "fKettle"), ("column-list", "C"), ("confirm-bulk-edit", "tt:set Boxed\r"),
        ("completion-menu", ":goto \t\t"), ("duplicate", ":goto Provider\rD"), ("pager", "v"),
        ("form", ":goto Provider\raNord\t"), ("form-product", ":goto Product\rA\t-3\t"),
        ("membership-picker", ":goto Provider\r$e\t"),
    ])
    func moreModesReachedByKeys(mode: String, keys: String) async throws {
        for size in Self.sizes {
            let s = try await session(size)
            try await type(keys, into: s)
            #expect(s.state.mode != .browse, "\(mode): \(s.state.statusMessage ?? "")")
            Snapshot.check(render(model(s)), named: name(mode, size))
        }
    }

    /// `:export` over a file that exists asks before replacing it.
    @Test func confirmReplace() async throws {
        let path = "/tmp/vellum-snapshot-replace.csv"
        if !FileManager.default.fileExists(atPath: path) { try "old\n".write(toFile: path, atomically: true, encoding: .utf8) }
        for size in Self.sizes {
            let s = try await session(size)
            try await type(":export csv \(path)\r", into: s)
            #expect(s.state.mode == .confirmReplace, "\(s.state.statusMessage ?? "")")
            Snapshot.check(render(model(s)), named: name("confirm-replace", size))
        }
    }

    /// `:track` on a copy of Chinook: the box names every table, index and trigger it would add
    /// and the table it leaves out; the bottom line asks. Answered no: the file is unchanged.
    @Test func confirmTracking() async throws {
        for size in Self.sizes {
            let dir = TempDir()
            let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
            let bytes = try Data(contentsOf: copy)
            let store = try PersistentStore.openAny(url: copy, model: nil, options: StoreOptions(createIfMissing: false))
            let s = BrowserSession(container: try PersistentContainer(store: store))
            s.setLayout(Layout(size: size))
            try await type(":goto Artist\r:track\r", into: s)
            #expect(s.state.mode == .confirmTracking, "\(s.state.statusMessage ?? "")")
            Snapshot.check(render(model(s)), named: name("confirm-tracking", size))
            await s.handle(.char("n"))
            #expect(s.state.mode == .browse)
            #expect(try Data(contentsOf: copy) == bytes, "nothing is installed without y")
            #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
        }
    }

    /// Every mode has a snapshot above: a new mode must be added to these tests.
    @Test func everyModeIsSnapshotted() {
        let covered: [AppState.Mode] = [.browse, .edit, .filter, .command, .help, .confirmDelete, .conflict, .picker,
                                        .summary, .search, .confirmReplace, .columnList, .confirmBulkEdit, .messages,
                                        .confirmTracking, .duplicate, .pager, .form]
        // An exhaustive switch: adding a mode to AppState.Mode fails to compile here.
        for mode in covered {
            switch mode {
            case .browse, .edit, .filter, .command, .help, .confirmDelete, .conflict, .picker,
                 .summary, .search, .confirmReplace, .columnList, .confirmBulkEdit, .messages, .confirmTracking, .duplicate, .pager, .form: break
            }
        }
        #expect(covered.count == 18)
    }

    /// `:messages`: the last status messages with their times, a long one wrapped whole.
    @Test func messages() async throws {
        // Noon today in the local zone, so the times drawn are the same in any zone.
        let noon = Calendar.current.date(bySettingHour: 12, minute: 0, second: 0, of: Date())!
        for size in Self.sizes {
            let s = try await session(size)
            _ = s.tick(now: noon)
            try await type(":sort title sideways\r", into: s)
            await s.handle(.escape)
            _ = s.tick(now: noon.addingTimeInterval(2))
            s.setStatus("exported 200 rows to /tmp/a/rather/long/path/that/does/not/fit/on/the/status/line/of/a/narrow/terminal/products.csv")
            _ = s.tick(now: noon.addingTimeInterval(9))
            try await type(":messages\r", into: s)
            #expect(s.state.mode == .messages)
            Snapshot.check(render(model(s)), named: name("messages", size))
        }
    }

    /// `vellum demo`'s first screen: the welcome takes the status line.
    @Test func welcome() async throws {
        for size in Self.sizes {
            let s = try await session(size)
            s.send(.welcome(live: DemoStore.welcomeLive))
            Snapshot.check(render(model(s)), named: name("welcome", size))
        }
    }

    /// `vellum STORE --model NEW`'s question, before the browser opens (`MigrationPrompt.draw`).
    @Test func migrationPrompt() throws {
        // A fixed place: the plan names the file, and the snapshot must not change with it.
        let dir = URL(fileURLWithPath: "/tmp/vellum-snapshot-migration")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("demo.sqlite")
        try DemoStore.create(at: url)
        // The demo model and a new entity.
        let note = try ModelBuilder().entity("Note") { $0.attribute("text", .string) }.build().entityDescriptions
        let plan = try StoreMigrator.plan(storeAt: url, to: try ManagedObjectModel(entities: try DemoStore.model().entityDescriptions + note))
        let text = MigrationPromptText(plan: plan, storeName: "demo.sqlite", modelName: "shop-v2.json")
        for size in Self.sizes {
            let buffer = CellBuffer(size: size)
            MigrationPrompt.draw(text, offset: 0, on: buffer)
            Snapshot.check(buffer.lines, named: name("migration-prompt", size))
        }
    }

    @Test func picker() async throws {
        for size in Self.sizes {
            let s = try await session(size)
            let attributes = s.state.columnNames.filter { s.state.relationshipColumn($0) == nil }.count
            let provider = attributes + (s.entity?.relationships.firstIndex { $0.name == "provider" } ?? 0)
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

    /// The editor once another writer changed its record: the notice, and a hint saying
    /// Enter asks first (the randomized-user test reads this screen as the editor).
    @Test func editorChangedUnderneath() async throws {
        for size in Self.sizes {
            let s = try await session(size)
            try await type("e", into: s)
            var m = model(s)
            m.state.editNotice = "another process set name to Kettle XL"
            Snapshot.check(render(m), named: name("edit-changed-underneath", size))
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
