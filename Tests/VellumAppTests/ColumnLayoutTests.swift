import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17, columns: hide/show (and the list to bring them back), resize, reorder,
/// first/last column, kept per entity in the user's state directory.
@Suite struct ColumnLayoutReducerTests {
    func state() -> AppState {
        var s = AppState()
        s.entityNames = ["Product"]
        _ = Reducer.reduce(&s, .listShown(ListShown(entityIndex: 0, columnNames: ["name", "price", "stock", "sku"],
                                                  columnTypes: [.string, .double, .integer32, .string],
                                                  detailFieldCount: 4, rowCount: 10)))
        return s
    }

    func saved(_ effects: [Effect]) -> ColumnLayout? {
        for case .saveColumnLayout("Product", let layout) in effects { return layout }
        return nil
    }

    @Test func hideThenBringBackFromTheColumnsList() {
        var s = state()
        _ = Reducer.update(&s, key: .char("l"))
        let hidden = saved(Reducer.update(&s, key: .char("-")))
        #expect(hidden?.hidden == ["price"])
        #expect(s.columnNames == ["name", "stock", "sku"] && s.columnTypes == [.string, .integer32, .string])
        #expect(s.columnNames[s.cursorColumn] == "stock")
        #expect(s.statusMessage?.contains("price hidden") == true)
        _ = Reducer.update(&s, key: .char("C"))
        #expect(s.mode == .columnList && s.columnListCursor == 2)   // on stock, in table order with price
        _ = Reducer.update(&s, key: .char("k"))
        let shown = saved(Reducer.update(&s, key: .char(" ")))
        #expect(shown?.hidden == [] && s.columnNames == ["name", "price", "stock", "sku"])
        #expect(s.columnNames[s.cursorColumn] == "stock")           // the cursor stays on its column
        _ = Reducer.update(&s, key: .escape)
        #expect(s.mode == .browse)
    }

    @Test func theLastShownColumnCannotBeHidden() {
        var s = state()
        for _ in 0..<3 { _ = Reducer.update(&s, key: .char("-")) }
        #expect(s.columnNames == ["sku"])
        #expect(Reducer.update(&s, key: .char("-")) == [])
        #expect(s.columnNames == ["sku"] && s.statusIsError)
    }

    @Test func moveResizeAndFirstLastColumn() {
        var s = state()
        let moved = saved(Reducer.update(&s, key: .char("L")))
        #expect(moved?.order == ["price", "name", "stock", "sku"] && s.columnNames == ["price", "name", "stock", "sku"])
        #expect(s.cursorColumn == 1)                                  // still on name
        _ = Reducer.update(&s, key: .char("H"))
        #expect(s.columnNames == ["name", "price", "stock", "sku"] && s.cursorColumn == 0)
        #expect(Reducer.update(&s, key: .char("H")) == [])            // already first: nothing to keep
        _ = Reducer.update(&s, key: .char(">")); _ = Reducer.update(&s, key: .char(">"))
        let narrowed = saved(Reducer.update(&s, key: .char("<")))
        #expect(narrowed?.widthChanges == ["name": 2])
        _ = Reducer.update(&s, key: .char("$"))
        #expect(s.cursorColumn == 3)
        _ = Reducer.update(&s, key: .char("0"))
        #expect(s.cursorColumn == 0)
    }

    @Test func aSavedLayoutIsAdoptedWhenTheListShows() {
        var s = AppState()
        s.entityNames = ["Product"]
        var layout = ColumnLayout()
        layout.hidden = ["sku"]
        layout.order = ["stock", "gone"]
        _ = Reducer.reduce(&s, .listShown(ListShown(entityIndex: 0, columnNames: ["name", "price", "stock", "sku"],
                                                  columnTypes: [.string, .double, .integer32, .string],
                                                  detailFieldCount: 4, rowCount: 10, columnLayout: layout)))
        #expect(s.columnNames == ["stock", "name", "price"] && s.columnTypes == [.integer32, .string, .double])
        #expect(s.allColumnNames == ["name", "price", "stock", "sku"])
    }
}

@Suite struct ColumnLayoutFileTests {
    @Test func layoutsAreKeptPerStoreAndEntityInTheStateDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-layout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_STATE_HOME": dir.path, "HOME": "/nonexistent"]
        let file = try #require(ColumnLayoutFile(environment: env, storePath: "/data/a/shop.sqlite"))
        #expect(file.url.path.hasPrefix(dir.appendingPathComponent("vellum/columns").path))
        #expect(file.url.lastPathComponent.hasPrefix("shop.sqlite-"))
        #expect(ColumnLayoutFile(environment: env, storePath: "/data/b/shop.sqlite")?.url != file.url)
        #expect(ColumnLayoutFile(environment: ["HOME": "/home/u"], storePath: "/s.sqlite")?.url.path.hasPrefix("/home/u/.local/state/vellum/columns/") == true)
        #expect(ColumnLayoutFile(environment: [:], storePath: "/s.sqlite") == nil)
        #expect(file.load() == [:])
        var product = ColumnLayout(); product.hidden = ["price"]
        var task = ColumnLayout(); task.widthChanges = ["title": -4]
        try file.save(product, for: "Product")
        try file.save(task, for: "Task")
        #expect(file.load() == ["Product": product, "Task": task])
        try file.save(ColumnLayout(), for: "Product")
        #expect(file.load() == ["Task": task])
        try Data("not json".utf8).write(to: file.url)
        #expect(file.load() == [:])
    }
}

/// The layout as drawn and as kept between sessions on the demo store.
@MainActor @Suite(.serialized) struct ColumnLayoutSessionTests {
    let snapshots = SnapshotTests()

    func header(_ s: BrowserSession) -> String {
        snapshots.render(snapshots.model(s))[s.state.layout!.table.row]
    }

    func column(_ name: String, in header: String) -> Int? {
        header.range(of: name).map { header.distance(from: header.startIndex, to: $0.lowerBound) }
    }

    @Test func resizeMovesTheNextColumnsAndHiddenColumnsLeaveTheHeader() async throws {
        let s = try await snapshots.session(TerminalSize(rows: 40, columns: 120))
        let before = try #require(column("stock", in: header(s)))
        try await snapshots.type("l>>>", into: s)   // price: 6 cells wider
        #expect(column("stock", in: header(s)) == before + 6)
        try await snapshots.type("<", into: s)
        #expect(column("stock", in: header(s)) == before + 4)
        try await snapshots.type("-", into: s)
        #expect(column("price", in: header(s)) == nil)
        #expect(snapshots.render(snapshots.model(s)).contains { $0.contains("1 hidden (C)") })
    }

    @Test func theLayoutIsKeptInTheStateFileNotTheStore() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-layout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SessionTests.makeStore()
        let file = ColumnLayoutFile(url: dir.appendingPathComponent("layout.json"))
        // What the store holds, read by sqlite3 (bytes of the main file also move when a
        // WAL checkpoint lands after the creating container closed, which is not a write).
        let contents = try runSQLite(store.path, ".dump").out
        do {
            let s = BrowserSession(container: try SessionTests.open(store), layoutFile: file)
            s.setLayout(Layout(size: TerminalSize(rows: 24, columns: 80)))
            try await snapshots.type(":goto Product\rlH-", into: s)   // price first, then hidden: name stays
            #expect(s.state.columnNames.first == "name" && !s.state.columnNames.contains("price"))
            try await snapshots.type("lL", into: s)
        }
        let layout = try #require(file.load()["Product"])
        #expect(layout.hidden == ["price"])
        let s = BrowserSession(container: try SessionTests.open(store), layoutFile: file)
        try await snapshots.type(":goto Product\r", into: s)
        #expect(s.state.columnNames == layout.shown(s.state.allColumnNames))
        #expect(!s.state.columnNames.contains("price") && s.state.columnNames.first == "name")
        #expect(try runSQLite(store.path, ".dump").out == contents)
    }
}

/// Issue 17, "resize (keys and mouse)": a header's right edge dragged with the mouse. The
/// terminal reports the press and the release; the column takes the width the edge was
/// moved to, kept in the entity's layout file, and a press on a title chooses the column.
@MainActor @Suite struct MouseColumnResizeTests {
    let snapshots = SnapshotTests()

    func press(_ kind: MouseEvent.Kind, x: Int, _ s: BrowserSession) async {
        await s.handle(.mouse(MouseEvent(kind, x: x, y: s.state.layout!.table.row)))
    }

    @Test func draggingAHeaderEdgeResizesTheColumnAndTheLayoutKeepsIt() async throws {
        let dir = TempDir()
        let file = ColumnLayoutFile(url: dir.url.appendingPathComponent("columns.json"))
        let url = try SessionTests.makeStore()
        let s = BrowserSession(container: try SessionTests.open(url), layoutFile: file)
        s.setLayout(Layout(size: TerminalSize(rows: 24, columns: 80)))
        try await snapshots.type(":goto Product\r", into: s)
        let before = snapshots.model(s).table!.columns.placed
        #expect(s.state.placedColumns == before, "the frame tells the state where it drew the columns")
        let name = try #require(before.first { $0.name == "name" }), next = try #require(before.first { $0.column == name.column + 1 })
        // Pressed on the gap after `name`, let go 5 cells to the right.
        await press(.click, x: name.x + name.width, s)
        await press(.release, x: name.x + name.width + 5, s)
        let after = snapshots.model(s).table!.columns.placed
        #expect(after.first { $0.name == "name" }?.width == name.width + 5)
        #expect(after.first { $0.name == next.name }?.x == next.x + 5, "the columns to its right move over")
        #expect(file.load()["Product"]?.widthChanges["name"] == name.width + 5 - name.naturalWidth)
        #expect(s.state.statusMessage?.contains("name is \(name.width + 5) wide") == true)
        let screen = snapshots.render(snapshots.model(s))[s.state.layout!.table.row]
        #expect(screen.contains(String(repeating: " ", count: 5) + next.name), "\(screen)")
        // Dragged far to the left: one cell at least, never a negative width.
        let widened = try #require(after.first { $0.name == "name" })
        await press(.click, x: widened.x + widened.width - 1, s)
        await press(.release, x: 0, s)
        #expect(snapshots.model(s).table!.columns.placed.first { $0.name == "name" }?.width == 1)
        // A second session opens with the layout as it was left.
        let again = BrowserSession(container: try SessionTests.open(url), layoutFile: file)
        again.setLayout(Layout(size: TerminalSize(rows: 24, columns: 80)))
        try await snapshots.type(":goto Product\r", into: again)
        #expect(snapshots.model(again).table!.columns.placed.first { $0.name == "name" }?.width == 1)
    }

    @Test func aPressOnATitleChoosesTheColumnAndALoneReleaseDoesNothing() async throws {
        let url = try SessionTests.makeStore()
        let s = BrowserSession(container: try SessionTests.open(url))
        s.setLayout(Layout(size: TerminalSize(rows: 40, columns: 120)))
        try await snapshots.type(":goto Product\r", into: s)
        let placed = snapshots.model(s).table!.columns.placed
        let third = try #require(placed.dropFirst(2).first)
        await press(.click, x: third.x + 1, s)
        #expect(s.state.cursorColumn == third.column && s.state.columnDrag == nil)
        await press(.release, x: third.x + 1, s)
        // Pressed on an edge and let go on the same cell: a click there, no resize.
        let second = placed[1]
        await press(.click, x: second.x + second.width - 1, s)
        await press(.release, x: second.x + second.width - 1, s)
        #expect(s.state.cursorColumn == second.column && s.state.currentColumnLayout.widthChanges.isEmpty)
        #expect(snapshots.model(s).table!.columns.placed == placed)
    }
}
