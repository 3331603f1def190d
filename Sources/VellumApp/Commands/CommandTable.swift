import VellumStore
import VellumTerminal

/// Every command of the browser, in the order help and docs list them.
public enum CommandTable {
    public static let all: [Command] = [
        Command("move-down", .moveDown, keys: [.char("j"), .down], help: "next row / entity"),
        Command("move-up", .moveUp, keys: [.char("k"), .up], help: "previous row / entity"),
        Command("top", .top, keys: [.char("g"), .home], help: "first row"),
        Command("bottom", .bottom, keys: [.char("G"), .end], help: "last row; 123G: row 123 (:123 too)"),
        Command("jump-back", .jumpBack, keys: [.char("[")], help: "back to where the last jump started"),
        Command("jump-forward", .jumpForward, keys: [.char("]")], help: "forward again after jump-back"),
        Command("page-down", .pageDown, keys: [.pageDown, .ctrl("f")], help: "page down"),
        Command("page-up", .pageUp, keys: [.pageUp, .ctrl("b")], help: "page up"),
        Command("column-left", .columnLeft, keys: [.char("h"), .left], help: "previous column"),
        Command("column-right", .columnRight, keys: [.char("l"), .right], help: "next column"),
        Command("first-column", .firstColumn, keys: [.char("0")], help: "first column"),
        Command("last-column", .lastColumn, keys: [.char("$")], help: "last column"),
        Command("hide-column", .hideColumn, keys: [.char("-")], help: "hide the column (C brings it back)"),
        Command("columns", .columnList, keys: [.char("C")], help: "list the columns: show or hide each"),
        Command("narrow-column", .narrowColumn, keys: [.char("<")], help: "narrow the column"),
        Command("widen-column", .widenColumn, keys: [.char(">")], help: "widen the column"),
        Command("move-column-left", .moveColumnLeft, keys: [.char("H")], help: "move the column left"),
        Command("move-column-right", .moveColumnRight, keys: [.char("L")], help: "move the column right"),
        Command("toggle-mark", .toggleMark, keys: [.char("t")], help: "mark or unmark the row, then go to the next"),
        Command("mark-range", .markRange, keys: [.char("T")], help: "mark the rows from the last t to here"),
        Command("mark-all", .markAll, keys: [.char("*")], help: "mark every listed row (all the filter lets through)"),
        Command("invert-marks", .invertMarks, keys: [.char("~")], help: "invert the marks of the listed rows"),
        Command("unmark-all", .unmarkAll, keys: [.char("U")], help: "unmark every row"),
        Command("yank-cell", .yankCell, keys: [.char("y")], help: "copy the cell to the clipboard (OSC 52) and ^Y register"),
        Command("yank-rows", .yankRows, keys: [.char("Y")], help: "copy the marked rows (else the row) as TSV"),
        Command("switch-focus", .switchFocus, keys: [.tab, .backTab], help: "focus sidebar / table / detail pane"),
        Command("open", .open, keys: [.enter], help: "open entity / edit cell / follow relationship"),
        Command("edit", .edit, keys: [.char("e")], help: "edit cell or field (to-one: picker; to-many: choose members)"),
        Command("filter", .filter, keys: [.char("/")], help: "filter with a predicate (empty clears)",
                line: LineCommand(names: ["filter"], usage: ":filter PRED", completion: .columns, run: filter)),
        Command("sort-ascending", .sortAscending, keys: [.char("s")], help: "sort by column ascending"),
        Command("sort-descending", .sortDescending, keys: [.char("S")], help: "sort by column descending"),
        Command("sort-then", .sortThen, keys: [.char("+")], help: "then sort by column (again: descending, again: not)"),
        Command("summary", .summary, keys: [.char("F")], help: "column summary and histogram (Enter filters)"),
        Command("view", .view, keys: [.char("v")], help: "the whole value: wrapped text, JSON indented, binary as hex"),
        Command("fold", .foldSection, keys: [.char("z")], help: "fold or unfold the row's section (:group)"),
        Command("fold-all", .foldAllSections, keys: [.char("Z")], help: "fold every section, or unfold them all"),
        Command("narrow-detail", .narrowDetail, keys: [.char("{")], help: "make the detail pane smaller"),
        Command("widen-detail", .widenDetail, keys: [.char("}")], help: "make the detail pane larger"),
        Command("search", .search, keys: [.char("f")], help: "find text in string fields"),
        Command("search-next", .searchNext, keys: [.char("n")], help: "next match of the find"),
        Command("search-previous", .searchPrevious, keys: [.char("N")], help: "previous match of the find"),
        Command("add", .add, keys: [.char("a")], help: "add a record (a form when one needs values)"),
        Command("add-with-form", .addWithForm, keys: [.char("A")], help: "add a record through a form of its fields"),
        Command("duplicate", .duplicate, keys: [.char("D")], help: "duplicate the record"),
        Command("delete", .delete, keys: [.char("d")], help: "delete the record (asks y/n)"),
        Command("undo", .undo, keys: [.char("u")], help: "undo last edit/add/delete (saved; asks if another writer changed it)"),
        Command("redo", .redo, keys: [.ctrl("r")], help: "redo"),
        Command("help", .help, keys: [.char("?")], help: "toggle this help"),
        Command("command", .command, keys: [.char(":")], help: "command line (see Commands)"),
        Command("back", .back, keys: [.backspace], help: "back to the previous list"),
        Command("cancel", .cancel, keys: [.escape], help: "close an editor, prompt or overlay (never leaves a list)"),
        Command("quit", .quit, keys: [.char("q"), .ctrl("c")], help: "quit",
                line: LineCommand(names: ["q", "quit"], usage: ":q", completion: .none, run: { _, _ in [.quit] })),
        Command("suspend", .suspend, keys: [.ctrl("z")], help: "suspend to the shell"),
        Command("theme", nil, keys: [], help: "switch theme",
                line: LineCommand(names: ["theme"], usage: ":theme NAME", completion: .themes, run: theme)),
        Command("sort", nil, keys: [], help: "sort by key paths: name,-price (- descending; KEY desc too)",
                line: LineCommand(names: ["sort"], usage: ":sort KEY[,-KEY…]", completion: .columns, run: sort)),
        Command("goto", nil, keys: [], help: "open an entity",
                line: LineCommand(names: ["goto"], usage: ":goto ENTITY", completion: .entities, run: goto)),
        Command("group", nil, keys: [], help: "group rows into sections by KEY (none: ungroup); FN(K) adds sum/avg/min/max/count of K per section",
                line: LineCommand(names: ["group"], usage: ":group [KEY [FN(K)]]", completion: .columns, run: group)),
        Command("export", nil, keys: [], help: "write the current list to a file (never over a database; whole or not at all)",
                line: LineCommand(names: ["export"], usage: ":export csv|json PATH", completion: .choices(["csv", "json"]), run: export)),
        Command("set", nil, keys: [], help: "set the column of every marked row to VALUE (asks; one save, one undo)",
                line: LineCommand(names: ["set"], usage: ":set VALUE", completion: .none, run: Reducer.setMarked)),
        Command("yank", nil, keys: [], help: "copy the cell, else the rows (marked, else this one); FORMAT text, tsv or json",
                line: LineCommand(names: ["yank"], usage: ":yank [cell] [FORMAT]", completion: .choices(["cell", "rows"]),
                                  run: Reducer.yank)),
        Command("messages", nil, keys: [], help: "the last status messages and their times",
                line: LineCommand(names: ["messages"], usage: ":messages", completion: .none, run: Reducer.showMessages)),
        Command("id", nil, keys: [], help: "go to a record by its ID (vellum://… as query prints it, or p12 here)",
                line: LineCommand(names: ["id"], usage: ":id ID", completion: .none, run: { s, argument in
                    guard !argument.isEmpty else { s.setStatus("usage: :id ID (vellum://… or p12)", error: true); return [] }
                    return [.jumpToRecord(argument)]
                })),
        Command("display", nil, keys: [], help: "name records by KEY in to-one columns, fields and the picker (none: name/title)",
                line: LineCommand(names: ["display"], usage: ":display [KEY]", completion: .displayKeys, run: Reducer.display)),
        Command("mouse", nil, keys: [], help: "mouse capture on/off (off: the terminal selects text; on: hold Shift to)",
                line: LineCommand(names: ["mouse"], usage: ":mouse [on|off]", completion: .choices(["on", "off"]), run: Reducer.mouse)),
        Command("track", .track, keys: [.ctrl("t")], help: "track other writers' changes (asks; off removes it)",
                line: LineCommand(names: ["track"], usage: ":track [off]", completion: .choices(["off"]), run: track)),
    ] + modeKeys

    /// The keys of the prompts and overlays, by mode: named and bindable like the
    /// list commands, and shown in each mode's hint line (`ModeHints`). The summary
    /// and the columns list move with the list commands (`move-down`, `top`…), as
    /// the `?` help scrolls with them.
    static let modeKeys: [Command] = [
        Command("line-confirm", .lineConfirm, in: .line, keys: [.enter], help: "apply the filter, run the command, find, or save"),
        Command("line-cancel", .lineCancel, in: .line, keys: [.escape], help: "close the line; nothing changes"),
        Command("complete", .lineComplete, in: .line, keys: [.tab], help: "complete command, entity, key or theme; again: next in the menu (: line)"),
        Command("complete-previous", .lineCompletePrevious, in: .line, keys: [.backTab], help: "previous in the completion menu (: line)"),
        Command("toggle-boolean", .lineToggle, in: .line, keys: [.char(" ")], help: "toggle true/false (editing a boolean)"),
        Command("paste", .linePaste, in: .line, keys: [.ctrl("y")], help: "paste the last yank (editing)"),
        Command("find-regex", .lineRegex, in: .line, keys: [.ctrl("r")], help: "find: text or regular expression (f line)"),
        Command("yes", .yes, in: .question, keys: [.char("y"), .char("Y")], help: "delete, set the marked rows, or replace the file"),
        Command("no", .no, in: .question, keys: [.char("n"), .escape], help: "no (any other key says no too)"),
        Command("keep-mine", .keepMine, in: .conflict, keys: [.char("m")], help: "keep mine (re-add if deleted; undo/redo over theirs)"),
        Command("take-theirs", .takeTheirs, in: .conflict, keys: [.char("t")], help: "take theirs, drop mine (or the undo/redo)"),
        Command("conflict-back", .conflictBack, in: .conflict, keys: [.escape], help: "back to the editor (undo/redo: decide later)"),
        Command("picker-up", .pickerUp, in: .picker, keys: [.up, .ctrl("p")], help: "previous record; typing searches"),
        Command("picker-down", .pickerDown, in: .picker, keys: [.down, .ctrl("n")], help: "next record"),
        Command("picker-page-up", .pickerPageUp, in: .picker, keys: [.pageUp], help: "ten records up"),
        Command("picker-page-down", .pickerPageDown, in: .picker, keys: [.pageDown], help: "ten records down"),
        Command("picker-choose", .pickerChoose, in: .picker, keys: [.enter], help: "set the highlighted record (a to-many: save the chosen)"),
        Command("picker-toggle", .pickerToggle, in: .picker, keys: [.tab], help: "a to-many: choose or unchoose the record"),
        Command("picker-cancel", .pickerCancel, in: .picker, keys: [.escape], help: "close the picker; nothing is set"),
        Command("summary-filter", .summaryFilter, in: .summary, keys: [.enter], help: "filter on the value or the bin's range"),
        Command("summary-close", .summaryClose, in: .summary, keys: [.escape, .char("q"), .char("F")], help: "close the summary"),
        Command("columns-toggle", .columnsToggle, in: .columns, keys: [.char(" "), .enter], help: "hide or show the column"),
        Command("columns-close", .columnsClose, in: .columns, keys: [.escape, .char("q"), .char("C")], help: "close the list"),
        Command("viewer-search", .pagerSearch, in: .pager, keys: [.char("/")], help: "search the value (any case)"),
        Command("viewer-next", .pagerNext, in: .pager, keys: [.char("n")], help: "next match"),
        Command("viewer-previous", .pagerPrevious, in: .pager, keys: [.char("N")], help: "previous match"),
        Command("viewer-close", .pagerClose, in: .pager, keys: [.escape, .char("q"), .char("v")], help: "close the viewer"),
        Command("form-next", .formNext, in: .form, keys: [.tab, .down], help: "next field (typing fills it; Space toggles a boolean)"),
        Command("form-previous", .formPrevious, in: .form, keys: [.backTab, .up], help: "previous field"),
        Command("form-confirm", .formConfirm, in: .form, keys: [.enter], help: "next field; a relationship: pick; the last field: save"),
        Command("form-save", .formSave, in: .form, keys: [.ctrl("s")], help: "save the record (when every field is valid)"),
        Command("form-cancel", .formCancel, in: .form, keys: [.escape], help: "close the form (asks first when values were typed)"),
    ]

    /// The hint bar in browse mode: commands shown together under one word, with
    /// their first keys, in the order shown. `drop` ranks what gives way on a narrow
    /// screen: the highest goes first. `hintBarPinned` follows them and never gives way.
    static let hintBar: [(names: [String], word: String, drop: Int)] = [
        (["move-down", "move-up"], "move", 0), (["column-left", "column-right"], "column", 7), (["switch-focus"], "focus", 11),
        (["open"], "open/edit", 1), (["filter"], "filter", 2), (["sort-ascending", "sort-descending"], "sort", 4),
        (["summary"], "summary", 10), (["search"], "find", 5), (["add"], "add", 8), (["delete"], "delete", 9),
        (["undo"], "undo", 6), (["command"], "cmd", 3),
    ]

    /// The end of the hint bar at any width: how to get help and how to leave.
    static let hintBarPinned: [(names: [String], word: String)] = [(["help"], "help"), (["quit"], "quit")]

    /// The detail pane's hint while it has the focus.
    static let detailHint: [(names: [String], word: String)] = [
        (["open"], "follow/edit"), (["edit"], "edit/pick"), (["switch-focus"], "leave"),
    ]

    public static func named(_ name: String) -> Command? { all.first { $0.name == name } }

    /// The command a `:` line names (`q` and `quit` both name quit).
    public static func typed(_ name: String) -> LineCommand? {
        all.lazy.compactMap(\.line).first { $0.names.contains(name) }
    }

    /// Every name `:` accepts, for completion.
    static var typedNames: [String] { all.compactMap(\.line).flatMap(\.names).sorted() }

    /// The `:` commands as help and the command prompt list them.
    static var lineCommands: [(usage: String, help: String)] {
        all.compactMap { c in c.line.map { ($0.usage, c.help) } }
    }

    // MARK: Handlers of the `:` commands

    private static func filter(_ s: inout AppState, _ argument: String) -> [Effect] {
        if let error = Reducer.parseError(argument) {
            s.setStatus("filter: \(error.description)", error: true)
            return []
        }
        return [.applyFilter(argument)]
    }

    private static func theme(_ s: inout AppState, _ argument: String) -> [Effect] {
        guard !argument.isEmpty else { s.setStatus("usage: :theme NAME", error: true); return [] }
        return [.setTheme(argument)]
    }

    private static func sort(_ s: inout AppState, _ argument: String) -> [Effect] {
        switch SortArgument.parse(argument).flatMap({ sorts in SortArgument.throughRelationshipColumns(sorts, s) }) {
        case .failure(let error):
            s.setStatus("sort: \(error.reason)", error: true)
            return []
        case .success(let sorts) where sorts.count > 1: return [.applySorts(sorts)]
        case .success(let sorts): return [.applySort(sorts.first)]
        }
    }

    private static func goto(_ s: inout AppState, _ argument: String) -> [Effect] {
        guard let index = s.entityNames.firstIndex(where: { $0.lowercased() == argument.lowercased() }) else {
            s.setStatus("no entity named '\(argument)'", error: true)
            return []
        }
        return Reducer.open(&s, index)
    }

    /// `:track` installs Vellum's history in the file, `:track off` removes it; both ask first.
    private static func track(_ s: inout AppState, _ argument: String) -> [Effect] {
        switch argument.lowercased() {
        case "": return [.planTracking(untrack: false)]
        case "off": return [.planTracking(untrack: true)]
        default:
            s.setStatus("usage: :track [off]", error: true)
            return []
        }
    }

    private static func group(_ s: inout AppState, _ argument: String) -> [Effect] {
        // A relationship column groups by what it sorts by (`provider.name`, `images.@count`).
        let words = argument.split(separator: " ", maxSplits: 1).map(String.init)
        var aggregate: SectionAggregate?
        if words.count == 2 {
            switch SectionAggregate.parse(words[1]) {
            case .success(let a): aggregate = a
            case .failure(let usage):
                s.setStatus(usage.reason, error: true)
                return []
            }
        }
        let previous = s.sectionAggregate
        s.groupKey = words.first.map { key in s.sortKeyPath(ofColumn: key)?.joined(separator: ".") ?? key }
        s.sectionAggregate = s.groupKey == nil ? nil : aggregate
        s.sectionFigures = [:]
        s.collapsedSections = []
        s.cursorRow = 0; s.scrollOffset = 0
        return [.applyGroup(previous: previous)]
    }

    private static func export(_ s: inout AppState, _ argument: String) -> [Effect] {
        let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, ["csv", "json"].contains(parts[0].lowercased()) else {
            s.setStatus("usage: :export csv|json PATH", error: true)
            return []
        }
        return [.export(format: parts[0].lowercased(), path: parts[1].trimmingCharacters(in: .whitespaces), replacing: false)]
    }
}
