import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17: relationship columns in the table — a to-one shows its target's display
/// name (a configurable display key), a to-many its count; both sort and filter, and
/// follow other writers.
@MainActor @Suite(.serialized) struct RelationshipColumnTests {
    let snapshots = SnapshotTests()

    func session(_ url: URL, layoutFile: ColumnLayoutFile? = nil, entity: String) async throws -> BrowserSession {
        let s = BrowserSession(container: try SessionTests.open(url), layoutFile: layoutFile)
        s.setLayout(Layout(size: TerminalSize(rows: 40, columns: 200)))
        try await snapshots.type(":goto \(entity)\r", into: s)
        return s
    }

    /// The cells of column `name` of the rows on screen, as the frame shows them.
    func cells(_ s: BrowserSession, _ name: String) throws -> [String] {
        let c = try #require(s.state.columnNames.firstIndex(of: name), "\(name) is not shown: \(s.state.columnNames)")
        return s.viewModel(layout: s.state.layout!, fileName: "f").table?.rows.map { $0.cells[c] } ?? []
    }

    /// The value of column `name` in the row of each record on screen, read from the file.
    func stored(_ url: URL, _ sql: String) throws -> [String] {
        try runSQLite(url.path, sql).out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    /// What the session last said: a refused command's reason (its line stays open), else the status.
    func said(_ s: BrowserSession) -> String { s.state.promptError ?? s.state.statusMessage ?? "" }

    func moveTo(_ column: String, in s: BrowserSession) async throws {
        let at = try #require(s.state.columnNames.firstIndex(of: column))
        try await snapshots.type("0" + String(repeating: "l", count: at), into: s)
        #expect(s.state.columnNames[s.state.cursorColumn] == column)
    }

    @Test func aToOneColumnShowsTheTargetsNameAndAToManyColumnItsCount() async throws {
        let url = try SessionTests.makeStore()
        let products = try await session(url, entity: "Product")
        #expect(products.state.columnNames.suffix(2) == ["provider", "images"])
        // The rows as the table orders them (by name), against the file.
        let names = try cells(products, "name")
        let providers = try stored(url, "SELECT COALESCE(v.name, '') FROM Product p LEFT JOIN Provider v ON v._pk = p.provider ORDER BY p.name, p._pk LIMIT \(names.count)")
        #expect(try cells(products, "provider") == providers)
        let images = try stored(url, "SELECT (SELECT count(*) FROM Image i WHERE i.product = p._pk) FROM Product p ORDER BY p.name, p._pk LIMIT \(names.count)")
        #expect(try cells(products, "images") == images)
        #expect(images.contains("1") && images.contains("0"), "the demo has products with and without images")

        let list = try await session(url, entity: "Provider")
        let counts = try stored(url, "SELECT (SELECT count(*) FROM Product p WHERE p.provider = v._pk) FROM Provider v ORDER BY v.name, v._pk")
        #expect(try cells(list, "products") == counts)
    }

    @Test func sortingARelationshipColumnSortsByTheTargetsNameOrTheCount() async throws {
        let url = try SessionTests.makeStore()
        let products = try await session(url, entity: "Product")
        try await moveTo("provider", in: products)
        try await snapshots.type("s", into: products)
        #expect(products.state.sort == VellumStore.QuerySortDescriptor("provider.name"))
        let shown = try cells(products, "provider")
        #expect(shown == shown.sorted() && Set(shown).count > 1, "\(shown)")
        #expect(snapshots.render(snapshots.model(products))[0].contains("provider ▲"))

        let providers = try await session(url, entity: "Provider")
        try await moveTo("products", in: providers)
        try await snapshots.type("S", into: providers)
        #expect(providers.state.sort == VellumStore.QuerySortDescriptor("products.@count", ascending: false))
        let counts = try cells(providers, "products").map { Int($0) ?? -1 }
        #expect(counts == counts.sorted(by: >) && counts.last! >= 0, "\(counts)")
        #expect(snapshots.render(snapshots.model(providers))[0].contains("products ▼"))
        // `:sort products` and `:group provider` mean the same keys by the column's name.
        try await snapshots.type(":sort -products,name\r", into: providers)
        #expect(providers.state.sortDescriptors.map(\.description) == ["-products.@count", "name"])
        try await snapshots.type(":group provider\r", into: products)
        #expect(products.state.groupKey == "provider.name")
    }

    @Test func aCountFiltersTheList() async throws {
        let url = try SessionTests.makeStore()
        let s = try await session(url, entity: "Provider")
        try await snapshots.type("/products.@count > 20\r", into: s)
        let expected = try stored(url, "SELECT count(*) FROM Provider v WHERE (SELECT count(*) FROM Product p WHERE p.provider = v._pk) > 20")
        #expect(["\(s.state.rowCount)"] == expected && s.state.rowCount > 0)
        #expect(try cells(s, "products").allSatisfy { (Int($0) ?? 0) > 20 })
    }

    @Test func theDisplayKeyIsChosenCheckedAndKeptOutsideTheStore() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-display-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try SessionTests.makeStore()
        let before = try runSQLite(url.path, ".dump").out
        let file = ColumnLayoutFile(url: dir.appendingPathComponent("layout.json"))
        do {
            let s = try await session(url, layoutFile: file, entity: "Product")
            try await moveTo("provider", in: s)
            let names = try cells(s, "provider")
            // A key the target does not have is refused, naming the ones it has; nothing changes.
            try await snapshots.type(":display nope\r", into: s)
            #expect(said(s) == "display: Provider has no attribute 'nope' (it has name, country)")
            #expect(try cells(s, "provider") == names)
            if s.state.mode != .browse { await s.handle(.escape) }
            try await snapshots.type(":display country\r", into: s)
            let countries = try stored(url, "SELECT COALESCE(v.country, '') FROM Product p LEFT JOIN Provider v ON v._pk = p.provider ORDER BY p.name, p._pk LIMIT \(names.count)")
            #expect(try cells(s, "provider") == countries)
            // The detail pane and a sort by the column follow it.
            #expect(s.viewModel(layout: s.state.layout!, fileName: "f").detail?.fields.first { $0.name == "provider" }?.value == countries[0])
            try await snapshots.type("s", into: s)
            #expect(s.state.sort == VellumStore.QuerySortDescriptor("provider.country"))
        }
        #expect(file.load()["Provider"]?.displayKey == "country")
        let again = try await session(url, layoutFile: file, entity: "Product")
        #expect(try cells(again, "provider").allSatisfy { ["", "Germany", "France", "Japan", "Peru", "Lithuania", "Morocco", "Canada", "Italy", "Norway", "Brazil"].contains($0) })
        // `:display` alone goes back to the name.
        try await moveTo("provider", in: again)
        try await snapshots.type(":display\r", into: again)
        #expect(try cells(again, "provider").contains("Kyoto Crafts") || cells(again, "provider").contains("Olive & Vine"))
        #expect(file.load()["Provider"]?.displayKey == nil)
        #expect(try runSQLite(url.path, ".dump").out == before, "the display key is not kept in the store")
    }

    @Test func enterOnARelationshipCellFollowsItAndEOnAToOnePicks() async throws {
        let url = try SessionTests.makeStore()
        let s = try await session(url, entity: "Product")
        let product = try #require(try s.rows?.object(at: 0))
        let provider = try #require(try product.toOne("provider"))
        try await moveTo("provider", in: s)
        try await snapshots.type("\r", into: s)
        #expect(s.state.currentEntityName == "Provider")
        #expect(s.rows?.id(at: s.state.cursorRow) == provider.objectID)
        try await moveTo("products", in: s)
        try await snapshots.type("\r", into: s)
        #expect(s.state.currentEntityName == "Product" && s.state.navigationTitle?.hasPrefix("products of ") == true)
        #expect(s.state.rowCount == (try provider.toMany("products").count))
        try await moveTo("provider", in: s)
        try await snapshots.type("e", into: s)
        #expect(s.state.mode == .picker)
    }

    /// Back from a followed relationship, the cursor is on the column (and record) it left from.
    @Test func goingBackReturnsToTheColumnFollowed() async throws {
        let url = try SessionTests.makeStore()
        let s = try await session(url, entity: "Product")
        try await snapshots.type("jj", into: s)
        let product = try #require(s.rows?.id(at: s.state.cursorRow))
        try await moveTo("provider", in: s)
        try await snapshots.type("\r", into: s)
        #expect(s.state.currentEntityName == "Provider")
        await s.handle(.backspace)
        #expect(s.state.currentEntityName == "Product")
        #expect(s.state.columnNames[s.state.cursorColumn] == "provider")
        #expect(s.rows?.id(at: s.state.cursorRow) == product)
    }

    @Test func countsFollowAnotherWritersInsert() async throws {
        let url = try SessionTests.makeStore()
        let s = try await session(url, entity: "Provider")
        let first = try #require(try s.rows?.object(at: 0))
        let before = try #require(Int(try cells(s, "products")[0]))
        let id = first.objectID
        try await s.container.enqueue { ctx in
            let p = try ctx.insert("Product", values: ["name": .string("Added elsewhere")])
            try p.setToOne("provider", try ctx.existingObject(with: id))
        }
        #expect(await waitUntil { (try? cells(s, "products")[0]) == "\(before + 1)" })
    }

    /// Yanking rows, `:set` and the summary on a relationship column: the yank copies what
    /// the table shows (it failed on a relationship key); `:set` and `F` say why not.
    @Test func yankSetAndSummaryOnARelationshipColumn() async throws {
        let url = try SessionTests.makeStore()
        let s = try await session(url, entity: "Product")
        try await snapshots.type("Y", into: s)
        let row = try cells(s, "provider")[0]
        #expect(s.state.register.contains(row) && s.state.register.hasPrefix("name\t"), "\(s.state.register)")
        try await moveTo("provider", in: s)
        try await snapshots.type("y", into: s)
        #expect(s.state.register == row)
        try await snapshots.type("t:set x\r", into: s)
        #expect(said(s).hasPrefix("set: provider is a relationship"), "\(said(s))")
        if s.state.mode != .browse { await s.handle(.escape) }
        try await snapshots.type("F", into: s)
        #expect(said(s).hasPrefix("summary: provider is a relationship"), "\(said(s))")
    }
}
