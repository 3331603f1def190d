import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// The renderer draws a view model and nothing else; the view model reads the
/// store before drawing, and counts relationships without loading them.
@MainActor @Suite(.serialized) struct ViewModelTests {
    let theme = ThemeLoader(builtInDirectories: [], userDirectory: nil).loadWithFallback(named: "default", capability: .none).0

    /// A session at 120×40 on the demo store's providers.
    func providers() async throws -> (PersistentContainer, BrowserSession) {
        let container = try SessionTests.open(try SessionTests.makeStore())
        let session = BrowserSession(container: container)
        session.setLayout(Layout(size: TerminalSize(rows: 40, columns: 120)))
        for c in ":goto Provider" { await session.handle(.char(c)) }
        await session.handle(.enter)
        return (container, session)
    }

    /// Issue #12: the detail pane loaded every related object to print a count.
    @Test func relationshipCountsNeverLoadTheRelatedObjects() async throws {
        let (container, session) = try await providers()
        let model = ViewModel.build(state: session.state, layout: session.state.layout!, fileName: "f", entity: session.entity,
                                    rows: session.rows, entityCounts: session.entityCounts, relatedCounts: session.relatedCounts, pendingWrites: 0)
        let products = try #require(model.detail?.fields.first { $0.name == "products" })
        let provider = try #require(try session.rows?.object(at: 0).objectID.primaryKey)
        let stored = try container.viewContext.count(FetchRequest(entityName: "Product", predicate: try VellumStore.QueryPredicate(format: "provider == \(provider)")))
        #expect(stored > 0 && products.value == "[\(stored) Product]")
        #expect(!container.viewContext.registeredObjects.contains { $0.entity.name == "Product" },
                "counting loaded \(container.viewContext.registeredObjects.filter { $0.entity.name == "Product" }.count) products")
    }

    /// Issue #12: the view model ran a COUNT per to-many relationship every frame. It
    /// now shows the runner's counts (made when the record was selected) and asks
    /// nothing itself; a change event drops them and the next selection sync recounts.
    @Test func relationshipCountsAreKeptAndFollowChangeEvents() async throws {
        let (container, session) = try await providers()
        func shown(_ counts: RelatedCounts) throws -> String {
            let model = ViewModel.build(state: session.state, layout: session.state.layout!, fileName: "f", entity: session.entity,
                                        rows: session.rows, entityCounts: session.entityCounts, relatedCounts: counts, pendingWrites: 0)
            return try #require(model.detail?.fields.first { $0.name == "products" }).value
        }
        #expect(try shown(RelatedCounts()) == "[… Product]")     // nothing counted by the view model
        let provider = try #require(session.rows).rowIDs[0]
        let before = try #require(session.relatedCounts.count(of: provider, "products"))
        #expect(try shown(session.relatedCounts) == "[\(before) Product]")
        // Another writer gives the provider a product: the count follows the change event.
        try await container.enqueue { ctx in
            let p = try ctx.insert("Product", values: ["name": .string("Later")])
            try p.setToOne("provider", try ctx.existingObject(with: provider))
        }
        #expect(await waitUntil { session.relatedCounts.count(of: provider, "products") == before + 1 })
        #expect(try shown(session.relatedCounts) == "[\(before + 1) Product]")
    }

    /// Everything on screen comes from the view model: one built by hand, with no
    /// store, row source or context anywhere, draws completely.
    @Test func theRendererDrawsFromTheViewModelAlone() {
        var state = AppState()
        state.entityNames = ["Book"]
        state.columnNames = ["title", "pages"]
        state.columnTypes = [.string, .integer64]
        state.rowCount = 2
        let layout = Layout(size: TerminalSize(rows: 24, columns: 80))
        var table = TableView(entityName: "Book", rowCount: 2, effectiveSort: VellumStore.QuerySortDescriptor("title"), lines: [.row(0), .row(1)],
                              rows: [.init(index: 0, cells: ["Dune", "412"], flashing: false), .init(index: 1, cells: ["Emma", "474"], flashing: true)])
        table.columns = ColumnPlacement.place(state, in: layout.table, headers: state.columnNames, cells: table.rows.map(\.cells))
        let detail = DetailView(title: "Book p1", fields: [.init(name: "title", value: "Dune", isRelationship: false),
                                                          .init(name: "author", value: "[3 Author]", isRelationship: true)])
        let model = ViewModel(state: state, layout: layout, fileName: "books.sqlite", entityCounts: [2], pendingWrites: 1,
                              table: table, detail: detail)
        let buffer = CellBuffer(size: layout.size)
        Renderer.draw(model, theme: theme, on: buffer)
        let screen = buffer.lines.joined(separator: "\n")
        for text in ["Book", "title ▲", "Dune", "474", "Book p1", "[3 Author]", "books.sqlite │ Book │ row 1/2", "writes: 1", "j/k move"] {
            #expect(screen.contains(text), "\(text) missing from\n\(screen)")
        }
    }

    @Test func aCellBufferLaysOutTextAsTheTerminalDoes() {
        let buffer = CellBuffer(size: TerminalSize(rows: 2, columns: 8))
        #expect(buffer.put(row: 0, col: 1, text: "日本語", style: .plain, maxWidth: 5) == 4)
        buffer.put(row: 1, col: 6, text: "abc", style: .plain, maxWidth: nil)
        #expect(buffer.lines == [" 日本", "      ab"])
    }
}
