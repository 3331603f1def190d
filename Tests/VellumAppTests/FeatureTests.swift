import Foundation
import Testing
@testable import VellumApp
@testable import VellumStore
import VellumTerminal

@Suite struct FeatureReducerTests {
    func state() -> AppState {
        var s = AppState()
        s.entityNames = ["Product", "Provider", "Task"]
        s.columnNames = ["name", "price", "done"]
        s.columnTypes = [.string, .double, .boolean]
        s.themeNames = ["default", "dracula", "light"]
        s.rowCount = 100
        s.pageSize = 10
        return s
    }

    func summary(_ buckets: [(Value, Int)], column: String = "name") -> SummaryOverlay {
        let s = ColumnSummary(attribute: column, count: buckets.map(\.1).reduce(0, +), nulls: 0, distinct: buckets.count,
                              min: nil, max: nil, mean: nil,
                              top: buckets.map { ColumnSummary.Bucket(value: $0.0, count: $0.1) })
        return SummaryOverlay(s, type: .string)
    }

    @Test func summaryKeyOpensAndEnterFilters() {
        var s = state()
        #expect(Reducer.update(&s, key: .char("F")) == [.openSummary])
        s.summary = summary([(.string("Lamp \"XL\""), 3), (.null, 1)])
        s.mode = .summary
        _ = Reducer.update(&s, key: .char("j"))
        _ = Reducer.update(&s, key: .char("j"))
        #expect(s.summary?.cursor == 1)
        _ = Reducer.update(&s, key: .char("k"))
        let effects = Reducer.update(&s, key: .enter)
        #expect(s.mode == .browse && s.summary == nil)
        let filter = "name == \"Lamp \\\"XL\\\"\""
        #expect(effects == [.applyFilter(filter)])
        #expect(Reducer.parseError(filter) == nil)
        // nil → column == nil
        s.summary = summary([(.null, 1)]); s.mode = .summary
        #expect(Reducer.update(&s, key: .enter) == [.applyFilter("name == nil")])
        // Esc closes without filtering.
        s.summary = summary([(.integer(1), 1)]); s.mode = .summary
        #expect(Reducer.update(&s, key: .escape) == [])
        #expect(s.mode == .browse && s.summary == nil)
    }

    @Test func summaryBarsAndStats() {
        #expect(SummaryOverlay.bar(10, of: 10, width: 4) == "████")
        #expect(SummaryOverlay.bar(5, of: 10, width: 4) == "██")
        #expect(SummaryOverlay.bar(1, of: 16, width: 2) == "▏")
        #expect(SummaryOverlay.bar(3, of: 16, width: 2) == "▍")
        #expect(SummaryOverlay.bar(0, of: 16, width: 2) == "")
        let o = summary([(.string("a"), 3), (.string("b"), 1)])
        #expect(o.percent(o.buckets[0]) == "75.0%")
        #expect(o.line(0, valueWidth: 4, barWidth: 4).hasSuffix("████"))
        var s = ColumnSummary(attribute: "price", count: 4, nulls: 1, distinct: 3, min: .double(1.5), max: .double(9), mean: 4.25, top: [])
        #expect(SummaryOverlay(s, type: .double).statsLines == ["count 4   nulls 1   distinct 3", "min 1.5   max 9.0", "mean 4.25"])
        s.mean = 0
        #expect(SummaryOverlay(s, type: .date).statsLines[2].hasSuffix("mean 1970-01-01T00:00:00Z"))
    }

    @Test func findKeysAndMatches() {
        var s = state()
        #expect(Reducer.update(&s, key: .char("n")) == [])
        #expect(s.statusIsError)
        _ = Reducer.update(&s, key: .char("f"))
        #expect(s.mode == .search)
        for c in "lamp" { _ = Reducer.update(&s, key: .char(c)) }
        #expect(Reducer.update(&s, key: .enter) == [.search("lamp", forward: true)])
        #expect(s.searchText == "lamp" && s.mode == .browse)
        #expect(Reducer.update(&s, key: .char("N")) == [.search("lamp", forward: false)])
        #expect(Reducer.nextMatch([3, 7, 9], after: 3, forward: true)! == (7, false))
        #expect(Reducer.nextMatch([3, 7, 9], after: 9, forward: true)! == (3, true))
        #expect(Reducer.nextMatch([3, 7, 9], after: 3, forward: false)! == (9, true))
        #expect(Reducer.nextMatch([3, 7, 9], after: 8, forward: false)! == (7, false))
        #expect(Reducer.nextMatch([], after: 0, forward: true) == nil)
        let p = Reducer.searchPredicate("a\"b", attributes: ["name", "sku"])
        #expect(p.description == "name CONTAINS[cd] \"a\\\"b\" OR sku CONTAINS[cd] \"a\\\"b\"")
    }

    @Test func groupExportDuplicateCommands() {
        var s = state()
        #expect(Reducer.runCommand(&s, "group price") == [.applyGroup(previous: nil)])
        #expect(s.groupKey == "price")
        #expect(Reducer.runCommand(&s, "group") == [.applyGroup(previous: nil)])
        #expect(s.groupKey == nil)
        #expect(Reducer.runCommand(&s, "export csv /tmp/a b.csv") == [.export(format: "csv", path: "/tmp/a b.csv", replacing: false)])
        #expect(Reducer.runCommand(&s, "export JSON out.json") == [.export(format: "json", path: "out.json", replacing: false)])
        #expect(Reducer.runCommand(&s, "export xml x") == [])
        #expect(s.statusIsError)
        #expect(Reducer.update(&s, key: .char("D")) == [.duplicateRecord])
        s.rowCount = 0
        #expect(Reducer.update(&s, key: .char("D")) == [])
    }

    /// Issue 17: `z` folds the cursor's section to its header line (with its count), the
    /// cursor steps over folded sections, `Z` folds or unfolds them all.
    @Test func foldedSectionsAreOneLineAndTheCursorStepsOverThem() {
        var s = state()
        s.rowCount = 7
        s.pageSize = 20
        s.sectionHeaders = [0: "a", 3: "b", 5: "c"]
        s.cursorRow = 4
        _ = Reducer.update(&s, key: .char("z"))
        #expect(s.collapsedSections == ["b"] && s.cursorRow == 3)
        #expect(s.tableLines(height: 20) == [.header("a (3)"), .row(0), .row(1), .row(2), .folded("b (2)", row: 3),
                                            .header("c (2)"), .row(5), .row(6)])
        // Down from the fold goes past it; up from after it lands on it; up again leaves it.
        _ = Reducer.update(&s, key: .char("j"))
        #expect(s.cursorRow == 5)
        _ = Reducer.update(&s, key: .char("k"))
        #expect(s.cursorRow == 3)
        _ = Reducer.update(&s, key: .char("k"))
        #expect(s.cursorRow == 2)
        _ = Reducer.update(&s, key: .char("j"))
        #expect(s.cursorRow == 3)
        // The last section folded: down from it stays on it.
        _ = Reducer.update(&s, key: .char("Z"))
        #expect(s.collapsedSections == ["a", "b", "c"])
        #expect(s.tableLines(height: 20) == [.folded("a (3)", row: 0), .folded("b (2)", row: 3), .folded("c (2)", row: 5)])
        _ = Reducer.update(&s, key: .char("G"))
        #expect(s.cursorRow == 5)
        _ = Reducer.update(&s, key: .char("Z"))
        #expect(s.collapsedSections.isEmpty)
        // Without sections, z says how to get them.
        s.sectionHeaders = [:]
        _ = Reducer.update(&s, key: .char("z"))
        #expect(s.statusIsError && s.statusMessage == "no sections — :group KEY makes them")
    }

    @Test func tableLinesWithSectionHeaders() {
        var s = state()
        s.rowCount = 6
        s.sectionHeaders = [0: "a", 3: "b"]
        #expect(s.tableLines(height: 4) == [.header("a (3)"), .row(0), .row(1), .row(2)])
        s.cursorRow = 3
        let lines = s.tableLines(height: 4)
        #expect(lines.contains(.row(3)))
        s.sectionHeaders = [:]
        s.cursorRow = 0
        #expect(s.tableLines(height: 3) == [.row(0), .row(1), .row(2)])
    }

    func typeCommand(_ s: inout AppState, _ text: String) {
        _ = Reducer.update(&s, key: .char(":"))
        for c in text { _ = Reducer.update(&s, key: .char(c)) }
    }

    @Test func tabCompletion() {
        var s = state()
        typeCommand(&s, "go")
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "goto ")
        for c in "Pro" { _ = Reducer.update(&s, key: .char(c)) }
        #expect(CompletionMenu(line: s.editor.text, in: s)?.matches == ["Product", "Provider"])
        for c in "v" { _ = Reducer.update(&s, key: .char(c)) }
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "goto Provider ")
        s = state()
        typeCommand(&s, "goto pr")
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "goto Pro")          // what Product and Provider share, in their spelling
        s = state()
        typeCommand(&s, "sort p")
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "sort price ")
        s = state()
        typeCommand(&s, "theme dr")
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "theme dracula ")
        s = state()
        typeCommand(&s, "gr")
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "group ")
        #expect(CompletionMenu(line: s.editor.text, in: s)?.matches == ["name", "price", "done"])   // all columns offered
        _ = Reducer.update(&s, key: .tab)       // nothing shared: Tab walks the menu
        #expect(s.editor.text == "group name")
        s = state()
        typeCommand(&s, "filter na")
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "filter name ")
        #expect(s.mode == .command)
    }

    /// #17 "`:theme` (and every `:` command taking a name) shows the candidates in a
    /// completion menu": the menu follows what is typed; Tab walks it forward and
    /// Shift-Tab back, wrapping, with the candidate in the line; typing again ends
    /// the walk and filters the menu; Enter runs the line as it reads.
    @Test func theCompletionMenuListsCandidatesAndTabWalksIt() {
        var s = state()
        typeCommand(&s, "theme ")
        var menu = CompletionMenu(line: s.editor.text, in: s)
        #expect(menu?.isShown == true && menu?.matches == ["default", "dracula", "light"] && menu?.head == "theme ")
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "theme default" && s.completionCycle?.index == 0)
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "theme dracula")
        _ = Reducer.update(&s, key: .tab); _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "theme default", "wraps")
        _ = Reducer.update(&s, key: .backTab)
        #expect(s.editor.text == "theme light")
        // Typing ends the walk; the menu is the one for the new text.
        _ = Reducer.update(&s, key: .backspace); _ = Reducer.update(&s, key: .backspace); _ = Reducer.update(&s, key: .backspace)
        #expect(s.completionCycle == nil && s.editor.text == "theme li")
        menu = CompletionMenu(line: s.editor.text, in: s)
        #expect(menu?.matches == ["light"] && menu?.isShown == true)
        _ = Reducer.update(&s, key: .backspace); _ = Reducer.update(&s, key: .backspace)
        _ = Reducer.update(&s, key: .char("d"))
        _ = Reducer.update(&s, key: .backTab)            // both start with "d": Shift-Tab starts at the last
        #expect(s.editor.text == "theme dracula")
        #expect(Reducer.update(&s, key: .enter) == [.setTheme("dracula")] && s.mode == .browse && s.completionCycle == nil)
        // Nothing to choose: no menu. A typed name, a bare `:`, a second argument, a command without arguments.
        for line in ["theme dracula", "", "export csv /tmp/x", "messages ", "nosuch "] {
            #expect(CompletionMenu(line: line, in: s)?.isShown != true, "\(line)")
        }
        #expect(CompletionMenu(line: "s", in: s)?.matches.contains("sort") == true)
        // The window keeps the selection in view.
        let many = CompletionMenu(line: "goto ", in: { var t = s; t.entityNames = (0..<20).map { "E\($0)" }; return t }())!
        #expect(many.window(selected: nil, rows: 5) == 0..<5 && many.window(selected: 7, rows: 5) == 3..<8 && many.window(selected: 19, rows: 5) == 15..<20)
    }

    @Test func mouseClicksAndWheel() {
        var s = state()
        let layout = Layout(size: TerminalSize(rows: 30, columns: 120))
        s.layout = layout
        s.pageSize = layout.visibleRows
        // Click the third table row.
        _ = Reducer.update(&s, key: .mouse(MouseEvent(.click, x: layout.table.col + 2, y: layout.table.row + 3)))
        #expect(s.cursorRow == 2 && s.focus == .table)
        _ = Reducer.update(&s, key: .mouse(MouseEvent(.wheelDown, x: layout.table.col + 2, y: layout.table.row + 3)))
        #expect(s.cursorRow == 5)
        // Click an entity in the sidebar.
        let effects = Reducer.update(&s, key: .mouse(MouseEvent(.click, x: 2, y: layout.sidebar.row + 2)))
        #expect(effects == [.openEntity(1)])
        #expect(s.focus == .table)
        // Below the entities: nothing.
        #expect(Reducer.update(&s, key: .mouse(MouseEvent(.click, x: 2, y: layout.sidebar.row + 10))) == [])
    }

    @Test func wordMotions() {
        var e = LineEditor("price > 10 AND name_x")
        e.handle(.alt("b"))
        #expect(e.cursor == 15)
        e.handle(.alt("b")); e.handle(.alt("b"))
        #expect(e.cursor == 8)
        e.handle(.alt("f"))
        #expect(e.cursor == 10)
        e.handle(.home); e.handle(.alt("f"))
        #expect(e.cursor == 5)
    }

    @Test func ctrlArrowsMoveByWordLikeAltBAndF() {
        var e = LineEditor("price > 10 AND name_x")
        e.handle(.wordLeft)
        #expect(e.cursor == 15)
        e.handle(.wordLeft); e.handle(.wordLeft)
        #expect(e.cursor == 8)
        e.handle(.wordRight)
        #expect(e.cursor == 10)
        e.handle(.char("0"))
        #expect(e.text == "price > 100 AND name_x")
        e.handle(.home); e.handle(.wordLeft)
        #expect(e.cursor == 0)
        e.handle(.end); e.handle(.wordRight)
        #expect(e.cursor == e.characters.count)
    }

    @Test func altBackspaceDeletesTheWordBeforeTheCursor() {
        var e = LineEditor("name == foo")
        e.handle(.alt("\u{7F}"))
        #expect(e.text == "name == " && e.cursor == 8)
    }

    @Test func wordMotionsWorkInTheFilterAndCommandLines() {
        var s = AppState()
        _ = Reducer.update(&s, key: .char("/"))
        for c in "price > 10" { _ = Reducer.update(&s, key: .char(c)) }
        _ = Reducer.update(&s, key: .wordLeft)
        _ = Reducer.update(&s, key: .char("1"))
        #expect(s.editor.text == "price > 110")
        _ = Reducer.update(&s, key: .escape)
        _ = Reducer.update(&s, key: .char(":"))
        for c in "sort name" { _ = Reducer.update(&s, key: .char(c)) }
        _ = Reducer.update(&s, key: .wordLeft); _ = Reducer.update(&s, key: .wordLeft)
        _ = Reducer.update(&s, key: .wordRight)
        _ = Reducer.update(&s, key: .char("x"))
        #expect(s.editor.text == "sortx name")
    }
}

@MainActor @Suite(.serialized) struct FeatureSessionTests {
    func session(entity: String) async throws -> BrowserSession {
        let session = BrowserSession(container: try SessionTests.open(try SessionTests.makeStore()))
        try await command(session, "goto \(entity)")
        return session
    }

    func command(_ session: BrowserSession, _ text: String) async throws {
        await session.handle(.char(":"))
        for c in text { await session.handle(.char(c)) }
        await session.handle(.enter)
    }

    func column(_ session: BrowserSession, _ name: String) async {
        while session.state.cursorColumn > 0 { await session.handle(.char("h")) }
        while session.state.columnNames[session.state.cursorColumn] != name { await session.handle(.char("l")) }
    }

    @Test func summaryOverlayFiltersOnAValue() async throws {
        let s = try await session(entity: "Provider")
        await column(s, "country")
        await s.handle(.char("F"))
        #expect(s.state.mode == .summary)
        let o = try #require(s.state.summary)
        #expect(o.count == 10 && o.distinct == 10 && o.buckets.count == 10)
        await s.handle(.char("j"))
        let value = o.buckets[1].value
        await s.handle(.enter)
        #expect(s.state.mode == .browse)
        #expect(s.state.rowCount == 1)
        #expect(s.state.filterText.contains(value.description))
        // Summaries follow the current filter.
        await s.handle(.char("F"))
        #expect(s.state.summary?.count == 1)
        await s.handle(.escape)
        #expect(s.state.mode == .browse)
    }

    /// A continuous column's summary is a histogram: Enter on a bin filters by its range,
    /// and the list then holds exactly the bin's rows (the last bin includes its upper bound).
    @Test func summaryHistogramBinsFilterByTheirRange() async throws {
        for (entity, attribute) in [("Product", "price"), ("Product", "updated")] {
            let s = try await session(entity: entity)
            await column(s, attribute)
            await s.handle(.char("F"))
            let o = try #require(s.state.summary)
            #expect(o.showsHistogram, "\(attribute)")
            #expect(o.bins.map(\.count).reduce(0, +) == o.summary.valueCount)
            for i in [1, o.bins.count - 1] {
                if s.state.mode != .summary { await s.handle(.char("F")) }
                while (s.state.summary?.cursor ?? 0) < i { await s.handle(.char("j")) }
                let bin = o.bins[i]
                await s.handle(.enter)
                #expect(s.state.mode == .browse)
                #expect(s.state.rowCount == bin.count, "\(attribute) bin \(i): \(s.state.filterText) shows \(s.state.rowCount), the bin counted \(bin.count)")
                #expect(s.state.filterText.contains(i == o.bins.count - 1 ? "<=" : "<"), "\(s.state.filterText)")
                // Clear the filter for the next bin.
                await s.handle(.char("/")); await s.handle(.ctrl("u")); await s.handle(.enter)
            }
        }
    }

    @Test func findMovesToMatchingRows() async throws {
        let s = try await session(entity: "Provider")
        await s.handle(.char("f"))
        for c in "FJORD" { await s.handle(.char(c)) }
        await s.handle(.enter)
        let row = s.state.cursorRow
        let name = try s.rows!.object(at: row).value(forKey: "name")
        #expect(name == .string("Fjord Outfitters"))
        await s.handle(.char("n"))
        #expect(s.state.cursorRow == row)
        #expect(s.state.statusMessage?.contains("wrapped") == true)
        // Diacritics and case ignored.
        await s.handle(.char("f"))
        await s.handle(.ctrl("u"))
        for c in "cafe sao" { await s.handle(.char(c)) }
        await s.handle(.enter)
        #expect(try s.rows!.object(at: s.state.cursorRow).value(forKey: "name") == .string("Café São Paulo"))
        await s.handle(.char("f")); await s.handle(.ctrl("u"))
        for c in "zzzz" { await s.handle(.char(c)) }
        await s.handle(.enter)
        #expect(s.state.statusIsError)
    }

    @Test func groupIntoSections() async throws {
        let s = try await session(entity: "Task")
        try await command(s, "group done")
        #expect(s.state.groupKey == "done")
        #expect(s.state.sectionHeaders.count == 2)
        #expect(s.state.sectionHeaders[0] == "false" || s.state.sectionHeaders[0] == "0")
        let source = try #require(s.rows as? ResultsRowSource)
        // Rows are ordered by the section key, and object(at:) and index(of:) agree across sections.
        var last: Bool?
        for i in 0..<s.state.rowCount {
            let o = try source.object(at: i)
            #expect(source.index(of: o.objectID) == i)
            let done = try o.value(forKey: "done") == .bool(true)
            if let last { #expect(!last || done) }
            last = done
        }
        try await command(s, "group nosuchkey")
        #expect(s.state.statusIsError && s.state.groupKey == "done")
        try await command(s, "group")
        #expect(s.state.groupKey == nil && s.state.sectionHeaders.isEmpty)
    }

    @Test func exportCSVAndJSON() async throws {
        let s = try await session(entity: "Provider")
        try await command(s, "filter country == \"Peru\" OR country == \"Brazil\"")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try await command(s, "export csv \(dir.path)/p.csv")
        #expect(s.state.statusMessage == "exported 2 rows to \(dir.path)/p.csv")
        let csv = try String(contentsOf: dir.appendingPathComponent("p.csv"), encoding: .utf8)
        #expect(csv == "name,country\r\nAndes Trading Co.,Peru\r\nCafé São Paulo,Brazil\r\n")
        try await command(s, "export json \(dir.path)/p.json")
        let json = try String(contentsOf: dir.appendingPathComponent("p.json"), encoding: .utf8)
        #expect(json == "[\n  {\"name\":\"Andes Trading Co.\",\"country\":\"Peru\"},\n  {\"name\":\"Café São Paulo\",\"country\":\"Brazil\"}\n]\n")
        try await command(s, "export csv /nonexistent-dir/x.csv")
        #expect(s.state.statusIsError && s.state.statusMessage?.hasPrefix("export failed") == true)
    }

    /// #17 "Export streams rows to the file (memory flat)": the whole list went into the
    /// view context first (every row registered there, and the text built in memory).
    /// Now a context of the export's own reads it a batch at a time; the view context
    /// holds what it held, and the bytes are those of the list, in its order, across batches.
    @Test func exportStreamsWithoutLoadingTheListIntoTheViewContext() async throws {
        let url = try SessionTests.makeStore()
        let container = try SessionTests.open(url)
        let extra = Self.exportRows
        try await container.enqueue { ctx in
            for i in 0..<extra { try ctx.insert("Task").setValue(.string(String(format: "bulk %05d", i)), forKey: "title") }
        }
        let s = BrowserSession(container: container)
        try await command(s, "goto Task")
        try await command(s, "sort title")
        let held = s.container.viewContext.registeredObjects.count
        let dir = TempDir()
        try await command(s, "export csv \(dir.path("t.csv"))")
        let count = s.state.rowCount
        #expect(count > EffectRunner.exportBatchSize * 2 && s.state.statusMessage == "exported \(count) rows to \(dir.path("t.csv"))", "\(s.state.statusMessage ?? "")")
        #expect(s.container.viewContext.registeredObjects.count <= held + 1, "the export loaded rows into the view context")
        let csv = try String(contentsOfFile: dir.path("t.csv"), encoding: .utf8)
        let lines = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count == count + 1)
        let titles = try (0..<count).map { try s.rows!.object(at: $0).value(forKey: "title") }
        let keys = s.entity!.attributes.filter { !$0.isTransient }.map(\.name)
        let column = try #require(keys.firstIndex(of: "title"))
        // Row by row the file says what the list shows, in the list's order.
        for i in [0, EffectRunner.exportBatchSize - 1, EffectRunner.exportBatchSize, count - 1] {
            #expect(ExportText.csvLine([ExportText.plain(titles[i])]).hasPrefix(lines[i + 1].components(separatedBy: ",")[column]), "row \(i)")
        }
    }

    static let exportRows = 2_100

    /// #17 "Jump … to a record by ID, and back/forward through a jump list": `:id` takes
    /// the URI `vellum query` prints, or `p12` for a key of the open entity.
    @Test func idJumpsToARecordHereOrInItsEntityAndBack() async throws {
        let s = try await session(entity: "Product")
        let start = s.state.cursorRow
        try await command(s, "id p5")
        let here = try s.rows!.object(at: s.state.cursorRow)
        #expect(here.objectID.primaryKey == 5 && s.state.statusMessage == "Product p5" && !s.state.statusIsError)
        await s.handle(.char("["))
        #expect(s.state.cursorRow == start, "a jump walks back")
        // Another entity's record, by URI: its list opens on it; Bksp comes back.
        let provider = try #require(try s.context.fetch(FetchRequest(entityName: "Provider")).last)
        try await command(s, "id \(provider.objectID.uriString)")
        #expect(try s.state.currentEntityName == "Provider" && s.rows!.object(at: s.state.cursorRow).objectID == provider.objectID)
        await s.handle(.backspace)
        #expect(s.state.currentEntityName == "Product")
        // A record the filter leaves out: the entity unfiltered, on it.
        try await command(s, "filter price < 0")
        #expect(s.state.rowCount == 0)
        try await command(s, "id p7")
        #expect(try s.state.filterText.isEmpty && s.rows!.object(at: s.state.cursorRow).objectID.primaryKey == 7)
        #expect(s.state.statusMessage?.contains("the filter left it out") == true)
        // What is not there, or not an ID, says so.
        try await command(s, "id p99999")
        #expect(s.state.statusIsError && s.state.statusMessage == "no Product p99999 in this store")
        try await command(s, "id kettle")
        #expect(s.state.statusIsError && s.state.statusMessage?.hasPrefix("'kettle' is not a record ID here") == true)
        try await command(s, "id vellum://elsewhere/Product/p1")
        #expect(s.state.statusIsError)
    }

    @Test func duplicateCopiesValuesAndReportsUniqueness() async throws {
        let s = try await session(entity: "Task")
        let before = s.state.rowCount
        let original = try s.rows!.object(at: s.state.cursorRow)
        let title = try original.value(forKey: "title"), due = try original.value(forKey: "due")
        await s.handle(.char("D"))
        #expect(s.state.rowCount == before + 1)
        #expect(!s.state.statusIsError)
        let copy = try s.rows!.object(at: s.state.cursorRow)
        #expect(copy.objectID != original.objectID)
        #expect(try copy.value(forKey: "title") == title && copy.value(forKey: "due") == due)
        await s.handle(.char("u"))
        #expect(s.state.rowCount == before)
        // Provider names are unique: D asks for the copy's; the same one is refused with the reason.
        try await command(s, "goto Provider")
        await s.handle(.char("D"))
        #expect(s.state.mode == .duplicate)
        await s.handle(.enter)
        #expect(await waitUntil { s.state.promptError?.hasPrefix("not saved: ") == true })
        #expect(s.state.rowCount == 10)
    }
}
