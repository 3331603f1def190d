import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

@Suite struct LayoutTests {
    @Test func wideTerminalPutsDetailOnTheRight() {
        let l = Layout(size: TerminalSize(rows: 40, columns: 120))
        #expect(l.sidebar == Rect(row: 0, col: 0, width: 20, height: 38))
        #expect(l.table.col == 21)
        #expect(l.detail.col + l.detail.width == 120)
        #expect(l.table.col + l.table.width < l.detail.col)
        #expect(l.status == Rect(row: 38, col: 0, width: 120, height: 1))
        #expect(l.hints == Rect(row: 39, col: 0, width: 120, height: 1))
        #expect(l.visibleRows == 37)
    }

    @Test func narrowTerminalPutsDetailBelow() {
        let l = Layout(size: TerminalSize(rows: 24, columns: 80))
        #expect(l.detail.col == l.table.col)
        #expect(l.detail.row > l.table.row + l.table.height - 1)
        #expect(l.detail.row + l.detail.height == 22)
        #expect(!l.table.isEmpty && !l.detail.isEmpty)
    }

    @Test func tooSmall() {
        #expect(Layout.isTooSmall(TerminalSize(rows: 11, columns: 80)))
        #expect(Layout.isTooSmall(TerminalSize(rows: 24, columns: 59)))
        #expect(!Layout.isTooSmall(TerminalSize(rows: 12, columns: 60)))
    }

    @Test func columnSizingKeepsCursorVisible() {
        let w = ColumnSizing.widths(headers: ["id", "name"], cells: [["1", String(repeating: "x", count: 50)]])
        #expect(w == [4, ColumnSizing.maxWidth])
        #expect(ColumnSizing.firstVisible(widths: [10, 10, 10], cursor: 2, available: 21) == 1)
        #expect(ColumnSizing.firstVisible(widths: [10, 10, 10], cursor: 0, available: 5) == 0)
    }
}

@Suite struct LineEditorTests {
    @Test func editingKeys() {
        var e = LineEditor("hello world")
        e.handle(.ctrl("w"))
        #expect(e.text == "hello ")
        e.handle(.ctrl("a"))
        e.handle(.char(">"))
        #expect(e.text == ">hello " && e.cursor == 1)
        e.handle(.ctrl("k"))
        #expect(e.text == ">")
        e.handle(.ctrl("e"))
        e.handle(.char("x"))
        e.handle(.ctrl("u"))
        #expect(e.text == "" && e.cursor == 0)
    }

    @Test func unicodeAware() {
        var e = LineEditor("a👍🏽é")
        #expect(e.characters.count == 3)
        e.handle(.backspace)
        #expect(e.text == "a👍🏽")
        e.handle(.left)
        #expect(e.cursorColumn == 1)
        e.handle(.delete)
        #expect(e.text == "a")
        e.handle(.home); e.handle(.char("日")); e.handle(.end)
        #expect(e.text == "日a" && e.cursorColumn == 3)
    }
}

@Suite struct ValueParserTests {
    func attr(_ type: AttributeType, optional: Bool = true, min: Double? = nil, max: Double? = nil) -> AttributeDescription {
        AttributeDescription(name: "v", type: type, isOptional: optional, minValue: min, maxValue: max)
    }

    @Test func integersWithBounds() throws {
        #expect(try ValueParser.parse("42", for: attr(.integer16)).get() == .integer(42))
        #expect((try? ValueParser.parse("40000", for: attr(.integer16)).get()) == nil)
        #expect((try? ValueParser.parse("4x", for: attr(.integer32)).get()) == nil)
        #expect((try? ValueParser.parse("9", for: attr(.integer32, max: 5)).get()) == nil)
    }

    @Test func numbersBooleansDates() throws {
        #expect(try ValueParser.parse("3.5", for: attr(.double)).get() == .double(3.5))
        #expect(try ValueParser.parse("1.10", for: attr(.decimal)).get() == .decimal(Decimal(string: "1.10")!))
        #expect(try ValueParser.parse("TRUE", for: attr(.boolean)).get() == .bool(true))
        #expect(try ValueParser.parse("false", for: attr(.boolean)).get() == .bool(false))
        #expect((try? ValueParser.parse("maybe", for: attr(.boolean)).get()) == nil)
        let now = Date(timeIntervalSince1970: 1_700_000_123)
        #expect(try ValueParser.parse("now", for: attr(.date), now: now).get() == .date(now))
        #expect(try ValueParser.parse("today", for: attr(.date), now: now).get() == .date(Date(timeIntervalSince1970: 1_699_920_000)))
        #expect(try ValueParser.parse("2024-05-01", for: attr(.date)).get() == .date(Value.parseISO8601("2024-05-01")!))
        #expect((try? ValueParser.parse("yesterday-ish", for: attr(.date)).get()) == nil)
        let u = UUID()
        #expect(try ValueParser.parse(u.uuidString, for: attr(.uuid)).get() == .uuid(u))
        #expect((try? ValueParser.parse("nope", for: attr(.uuid)).get()) == nil)
    }

    @Test func emptyMeansNullWhenOptional() throws {
        #expect(try ValueParser.parse("", for: attr(.integer64)).get() == .null)
        #expect((try? ValueParser.parse("", for: attr(.integer64, optional: false)).get()) == nil)
        // Issue #11 item 13: a required string says it is required instead of saving "".
        #expect(ValueParser.parse("", for: attr(.string, optional: false)) == .failure(.init("v is required")))
    }
}

@Suite struct ReducerTests {
    func state() -> AppState {
        var s = AppState()
        s.entityNames = ["Product", "Task"]
        s.columnNames = ["name", "price", "done"]
        s.columnTypes = [.string, .double, .boolean]
        s.rowCount = 100
        s.pageSize = 10
        return s
    }

    @Test func movementAndScrolling() {
        var s = state()
        _ = Reducer.update(&s, key: .char("j"))
        _ = Reducer.update(&s, key: .down)
        #expect(s.cursorRow == 2)
        _ = Reducer.update(&s, key: .char("G"))
        #expect(s.cursorRow == 99 && s.scrollOffset == 90)
        _ = Reducer.update(&s, key: .char("g"))
        #expect(s.cursorRow == 0 && s.scrollOffset == 0)
        _ = Reducer.update(&s, key: .pageDown)
        #expect(s.cursorRow == 10)
        _ = Reducer.update(&s, key: .char("l")); _ = Reducer.update(&s, key: .right); _ = Reducer.update(&s, key: .right)
        #expect(s.cursorColumn == 2)
        _ = Reducer.update(&s, key: .char("k"))
        #expect(s.cursorRow == 9)
    }

    @Test func sidebarOpenAndBack() {
        var s = state()
        _ = Reducer.update(&s, key: .tab)
        #expect(s.focus == .detail)
        _ = Reducer.update(&s, key: .tab)
        #expect(s.focus == .sidebar)
        _ = Reducer.update(&s, key: .char("j"))
        #expect(Reducer.update(&s, key: .enter) == [.openEntity(1)])
        #expect(s.sidebarCursor == 1 && s.focus == .table)
        #expect(Reducer.update(&s, key: .backspace) == [])
        s.backStack.append(AppState.Place(entityIndex: 0, basePredicate: nil, title: nil, filterText: "", sort: nil, selected: nil))
        #expect(Reducer.update(&s, key: .backspace) == [.back])
    }

    /// Issue #11 item 10: Esc closes editors, prompts and overlays, and never leaves a list.
    @Test func escapeAfterAnEditNeverLeavesTheList() {
        var s = state()
        s.backStack.append(AppState.Place(entityIndex: 0, basePredicate: nil, title: nil, filterText: "", sort: nil, selected: nil))
        s.mode = .edit
        #expect(Reducer.update(&s, key: .escape) == [])
        #expect(s.mode == .browse)
        #expect(Reducer.update(&s, key: .escape) == [])
        #expect(Reducer.update(&s, key: .escape) == [])
        #expect(s.mode == .browse && s.statusMessage?.contains("Bksp") == true)
        #expect(KeyBindings.action(for: .escape) == .cancel && KeyBindings.action(for: .backspace) == .back)
    }

    /// Issue #11 item 17: while "Terminal too small" is shown no key reaches an editor or an action.
    @Test func keysWhileTerminalTooSmallReachNothing() {
        var s = state()
        s.mode = .edit
        s.editor = LineEditor("kept")
        s.terminalTooSmall = true
        for key: VellumTerminal.Key in [.char("z"), .enter, .escape, .backspace] { #expect(Reducer.update(&s, key: key) == []) }
        #expect(s.mode == .edit && s.editor.text == "kept" && s.ignoredKeys == 4)
        s.mode = .browse
        for key: VellumTerminal.Key in [.char("d"), .char("y"), .char("a"), .char("q")] { #expect(Reducer.update(&s, key: key) == []) }
        #expect(s.mode == .browse && s.ignoredKeys == 8)
        #expect(Reducer.update(&s, key: .resize) == [] && s.ignoredKeys == 8)
        #expect(Reducer.update(&s, key: .ctrl("c")) == [.quit])
    }

    @Test func editModeAndBooleanToggle() {
        var s = state()
        #expect(Reducer.update(&s, key: .enter) == [.beginEdit])
        s.mode = .edit
        s.cursorColumn = 2
        s.editor = LineEditor("true")
        _ = Reducer.update(&s, key: .char(" "))
        #expect(s.editor.text == "false")
        #expect(Reducer.update(&s, key: .enter) == [.commitEdit("false")])
        _ = Reducer.update(&s, key: .escape)
        #expect(s.mode == .browse)
    }

    @Test func filterShowsParseErrorAndApplies() {
        var s = state()
        _ = Reducer.update(&s, key: .char("/"))
        #expect(s.mode == .filter)
        for c in "price >" { _ = Reducer.update(&s, key: .char(c)) }
        #expect(s.filterError != nil)
        #expect(Reducer.update(&s, key: .enter) == [])
        #expect(s.mode == .filter)
        for c in " 5" { _ = Reducer.update(&s, key: .char(c)) }
        #expect(s.filterError == nil)
        // The prompt stays open and the filter inactive until the session has run it.
        #expect(Reducer.update(&s, key: .enter) == [.applyFilter("price > 5")])
        #expect(s.mode == .filter && s.filterText == "")
    }

    @Test func sortDeleteHelpQuit() {
        var s = state()
        s.cursorColumn = 1
        #expect(Reducer.update(&s, key: .char("S")) == [.applySort(VellumStore.QuerySortDescriptor("price", ascending: false))])
        _ = Reducer.update(&s, key: .char("d"))
        #expect(s.mode == .confirmDelete)
        #expect(Reducer.update(&s, key: .char("n")) == [])
        _ = Reducer.update(&s, key: .char("d"))
        #expect(Reducer.update(&s, key: .char("y")) == [.deleteRecord])
        _ = Reducer.update(&s, key: .char("?"))
        #expect(s.mode == .help)
        _ = Reducer.update(&s, key: .char("x"))
        #expect(s.mode == .browse)
        #expect(Reducer.update(&s, key: .char("q")) == [.quit])
    }

    @Test func commands() {
        var s = state()
        #expect(Reducer.runCommand(&s, "q") == [.quit])
        #expect(Reducer.runCommand(&s, "theme dark") == [.setTheme("dark")])
        #expect(Reducer.runCommand(&s, "sort name desc") == [.applySort(VellumStore.QuerySortDescriptor("name", ascending: false))])
        #expect(Reducer.runCommand(&s, "goto task") == [.openEntity(1)])
        #expect(Reducer.runCommand(&s, "filter name ==") == [])
        #expect(s.statusIsError)
        #expect(Reducer.runCommand(&s, "bogus") == [])
    }

    @Test func docsMatchKeyBindings() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/keys.md")
        // First run writes the file; afterwards any drift fails the test.
        if !FileManager.default.fileExists(atPath: url.path) {
            try KeyBindings.markdown().write(to: url, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text == KeyBindings.markdown())
    }
}
