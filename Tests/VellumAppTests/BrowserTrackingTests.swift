import Foundation
import Testing
@testable import VellumApp
import VellumStore

/// `:track` and `:track off` in the browser, on a copy of Chinook: the question names
/// exactly what `vellum track FILE` would add, nothing is installed without `y`, and
/// after `y` the browser asks the loop to open the file again (tracked, on the same entity).
@MainActor @Suite(.serialized) struct BrowserTrackingTests {
    static func schema(_ path: String) throws -> [String] {
        try sqliteRows(path, "SELECT type || '|' || name || '|' || coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
    }

    static func session(_ copy: URL, readOnly: Bool = false) throws -> BrowserSession {
        let store = try PersistentStore.openAny(url: copy, model: nil, options: StoreOptions(createIfMissing: false, readOnly: readOnly))
        return BrowserSession(container: try PersistentContainer(store: store))
    }

    static func type(_ text: String, into s: BrowserSession) async -> [TerminalRequest] {
        var requests: [TerminalRequest] = []
        for c in text { requests += await s.handle(c == "\r" ? .enter : .char(c)) }
        return requests
    }

    @Test func trackAsksNamingWhatItAddsAndInstallsOnlyOnYes() async throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let before = try Self.schema(copy.path)
        let namesBefore = Set(try sqliteRows(copy.path, "SELECT name FROM sqlite_master"))
        let s = try Self.session(copy)
        _ = await Self.type(":goto Album\r:track\r", into: s)
        let question = try #require(s.state.pendingTracking)
        #expect(s.state.mode == .confirmTracking)
        let plan = try HistoryTracking.plan(path: copy.path)
        #expect(question.change == .track(plan))
        #expect(question.count == 36)
        #expect(question.lines == [
            "tables: _vellum_transactions, _vellum_changes",
            "index: _vellum_changes_txn",
            "triggers _vellum_history_T_insert, _vellum_history_T_update, _vellum_history_T_delete for T = each of: "
                + "Album, Artist, Customer, Employee, Genre, Invoice, InvoiceLine, MediaType, Playlist, PlaylistTrack, Track",
        ])
        #expect(ModeHints.bottomLine(s.state) == "Add these 36 names to chinook.sqlite? y = yes, any other key = no")

        // Any key but y: nothing is installed.
        _ = await Self.type("x", into: s)
        #expect(s.state.mode == .browse && s.state.pendingTracking == nil)
        #expect(s.state.statusMessage == "chinook.sqlite left unchanged (nothing was added)")
        #expect(try Self.schema(copy.path) == before)

        // y installs exactly the plan and asks the loop to reopen on the same entity.
        let requests = await Self.type(":track\ry", into: s)
        #expect(requests.contains { if case .reopen(let status, let entity) = $0 {
            return entity == "Album" && status.hasPrefix("tracking 11 tables of chinook.sqlite") } else { return false } }, "\(requests)")
        let added = Set(try sqliteRows(copy.path, "SELECT name FROM sqlite_master")).subtracting(namesBefore)
        #expect(added == Set(plan.addedNames))
        #expect(try HistoryTracking.trackedTables(path: copy.path) == plan.tables.map(\.table))

        // Opened again, the store has history: another program's insert arrives object by object.
        let tracked = try Self.session(copy)
        #expect(tracked.container.store.hasHistory)

        // :track off names everything it removes, and only y removes it.
        _ = await Self.type(":track off\r", into: tracked)
        let untrack = try #require(tracked.state.pendingTracking)
        #expect(untrack.count == 36)
        #expect(untrack.lines.first == "tables and index: _vellum_changes_txn, _vellum_changes, _vellum_transactions")
        #expect(ModeHints.bottomLine(tracked.state) == "Remove these 36 names from chinook.sqlite? y = yes, any other key = no")
        _ = await Self.type("n", into: tracked)
        #expect(try HistoryTracking.trackedTables(path: copy.path).count == 11)
        let removed = await Self.type(":track off\ry", into: tracked)
        #expect(removed.contains { if case .reopen(let status, _) = $0 { return status.hasPrefix("untracked chinook.sqlite: removed 36 names") } else { return false } })
        #expect(try Self.schema(copy.path) == before)
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
    }

    @Test func trackIsRefusedReadOnlyAndOnAVellumStoreSayingWhy() async throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let before = try Self.schema(copy.path)
        let readOnly = try Self.session(copy, readOnly: true)
        _ = await Self.type(":track\r", into: readOnly)
        #expect(readOnly.state.mode == .browse && readOnly.state.statusIsError)
        #expect(readOnly.state.statusMessage?.hasPrefix("read-only") == true, "\(readOnly.state.statusMessage ?? "")")
        #expect(try Self.schema(copy.path) == before)

        let native = BrowserSession(container: try SessionTests.open(try SessionTests.makeStore()))
        _ = await Self.type(":track\r", into: native)
        #expect(native.state.mode == .browse)
        #expect(native.state.statusMessage?.contains("a Vellum store records its own history") == true, "\(native.state.statusMessage ?? "")")
        _ = await Self.type(":track off\r", into: readOnly)
        #expect(readOnly.state.statusMessage?.hasPrefix("read-only") == true)
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
    }
}
