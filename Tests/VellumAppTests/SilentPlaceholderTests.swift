import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// What cannot be read says why (issue 12: no placeholder without a reason): a row,
/// a value or a to-one that fails to load shows ⚠ and the reason, as a failed
/// to-many count does (`FailedCountReasonTests`), and an entity that cannot be
/// counted is not shown as 0 records.
@MainActor @Suite(.serialized) struct SilentPlaceholderTests {
    /// The real rows, but row `failing` cannot be loaded, and every object handed out
    /// is `substitute` when set (an object of another entity than the table's).
    final class BrokenRows: RowSource {
        let base: RowSource
        var failing: Int?
        var substitute: ManagedObject?
        struct Unreadable: Error, CustomStringConvertible { var description: String { "database disk image is malformed" } }
        init(_ base: RowSource) { self.base = base }
        var entityName: String { base.entityName }
        var count: Int { base.count }
        var rowIDs: [ObjectID] { base.rowIDs }
        func id(at index: Int) -> ObjectID? { base.id(at: index) }
        var effectiveSort: VellumStore.QuerySortDescriptor? { base.effectiveSort }
        func object(at index: Int) throws -> ManagedObject {
            if index == failing { throw Unreadable() }
            return try substitute ?? base.object(at: index)
        }
        func index(of id: ObjectID) -> Int? { base.index(of: id) }
        func refresh(after change: ObjectsDidChange) throws -> Bool { try base.refresh(after: change) }
        func reload() throws { try base.reload() }
    }

    func session(_ entity: String) async throws -> BrowserSession {
        let session = BrowserSession(container: try SessionTests.open(try SessionTests.makeStore()))
        session.setLayout(Layout(size: TerminalSize(rows: 40, columns: 120)))
        for c in ":goto \(entity)" { await session.handle(.char(c)) }
        await session.handle(.enter)
        #expect(session.state.currentEntityName == entity)
        return session
    }

    func model(_ session: BrowserSession, state: AppState? = nil, rows: RowSource?) -> ViewModel {
        ViewModel.build(state: state ?? session.state, layout: session.state.layout!, fileName: "demo.sqlite", entity: session.entity,
                        rows: rows, entityCounts: session.entityCounts, relatedCounts: session.relatedCounts, pendingWrites: 0)
    }

    /// The table's cells of a row that cannot be loaded, and a value that cannot be read,
    /// said only "⚠"; now they say why.
    @Test func aCellThatCannotBeReadShowsTheReason() async throws {
        let s = try await session("Product")
        let rows = BrokenRows(try #require(s.rows))
        rows.failing = 1
        var state = s.state
        state.columnNames.append("colour")      // a column the records do not have
        let table = try #require(model(s, state: state, rows: rows).table)
        let failed = try #require(table.rows.first { $0.index == 1 })
        #expect(failed.cells.allSatisfy { $0 == "⚠ database disk image is malformed" }, "\(failed.cells)")
        let fine = try #require(table.rows.first { $0.index == 0 })
        #expect(!fine.cells[0].hasPrefix("⚠"), "\(fine.cells)")
        #expect(fine.cells.last?.hasPrefix("⚠ ") == true && fine.cells.last?.contains("colour") == true, "\(fine.cells)")
    }

    /// The detail pane's field that cannot be read said "⚠", and a to-one that cannot be
    /// loaded said "∅", the same as no related record at all.
    @Test func aDetailFieldOrToOneThatCannotBeLoadedShowsTheReason() async throws {
        let s = try await session("Product")
        let rows = BrokenRows(try #require(s.rows))
        // A Provider where the pane expects a Product: it has no `price` and no `provider`.
        let providers: [ManagedObject] = try s.context.fetch("Provider", limit: 1)
        rows.substitute = providers.first
        #expect(rows.substitute != nil)
        let detail = try #require(model(s, rows: rows).detail)
        let price = try #require(detail.fields.first { $0.name == "price" })
        #expect(price.value.hasPrefix("⚠ ") && price.value.contains("price"), "\(price.value)")
        let provider = try #require(detail.fields.first { $0.name == "provider" })
        #expect(provider.value != "∅" && provider.value.hasPrefix("⚠ ") && provider.value.contains("provider"), "\(provider.value)")
        // A record that cannot be loaded at all is said too (the pane was left empty).
        rows.substitute = nil
        rows.failing = s.state.cursorRow
        let unreadable = try #require(model(s, rows: rows).detail)
        #expect(unreadable.fields.map(\.value) == ["⚠ database disk image is malformed"], "\(unreadable.fields)")
        // The real record reads as before.
        let real = try #require(model(s, rows: s.rows).detail)
        #expect(real.fields.allSatisfy { !$0.value.hasPrefix("⚠") }, "\(real.fields)")
    }

    /// An entity that could not be counted showed 0 records in the sidebar; now the
    /// failure reaches the loop as an input: the sidebar marks it ⚠, the status says why.
    @Test func anEntityThatCannotBeCountedIsNotShownAsZero() async throws {
        let s = try await session("Product")
        #expect(s.entityCounts == [67, 200, 10, 30])
        // Another program takes the Task table away.
        #expect(try runSQLite(s.container.store.path, "ALTER TABLE Task RENAME TO Task_away;").status == 0)
        s.runner.refreshCounts()
        let buffer = CellBuffer(size: TerminalSize(rows: 40, columns: 120))
        let theme = ThemeLoader(builtInDirectories: [], userDirectory: nil).loadWithFallback(named: "default", capability: .none).0
        Renderer.draw(model(s, rows: s.rows), theme: theme, on: buffer)
        let task = try #require(buffer.lines.first { $0.hasPrefix(" Task") })
        let sidebar = String(task.prefix(s.state.layout!.sidebar.width))
        #expect(sidebar.contains("⚠") && !sidebar.contains(" 0 "), "\(sidebar)")
        let status = s.state.statusMessage ?? ""
        #expect(s.state.statusIsError && status.contains("Task"), "\(status)")
        #expect(status.lowercased().contains("no such table"), "\(status)")
        // The others are still counted.
        #expect(buffer.lines.contains { $0.hasPrefix(" Product") && $0.prefix(s.state.layout!.sidebar.width).contains("200") })
    }
}
