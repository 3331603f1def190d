import VellumTerminal

/// The single source of truth for key bindings: the reducer dispatches
/// through it, and the help overlay and docs/keys.md are generated from it.
public enum KeyAction: String, Sendable, CaseIterable {
    case moveDown, moveUp, top, bottom, pageDown, pageUp
    case columnLeft, columnRight, switchFocus, open, edit
    case filter, sortAscending, sortDescending, add, delete, undo, redo
    case help, command, back, cancel, quit, suspend
    case summary, search, searchNext, searchPrevious, duplicate
}

public struct KeyBinding: Sendable {
    public var keys: [Key]
    /// How the keys are written in help and docs.
    public var label: String
    public var action: KeyAction
    public var help: String
}

public enum KeyBindings {
    public static let browse: [KeyBinding] = [
        KeyBinding(keys: [.char("j"), .down], label: "j ↓", action: .moveDown, help: "next row / entity"),
        KeyBinding(keys: [.char("k"), .up], label: "k ↑", action: .moveUp, help: "previous row / entity"),
        KeyBinding(keys: [.char("g"), .home], label: "g Home", action: .top, help: "first row"),
        KeyBinding(keys: [.char("G"), .end], label: "G End", action: .bottom, help: "last row"),
        KeyBinding(keys: [.pageDown, .ctrl("f")], label: "PgDn ^F", action: .pageDown, help: "page down"),
        KeyBinding(keys: [.pageUp, .ctrl("b")], label: "PgUp ^B", action: .pageUp, help: "page up"),
        KeyBinding(keys: [.char("h"), .left], label: "h ←", action: .columnLeft, help: "previous column"),
        KeyBinding(keys: [.char("l"), .right], label: "l →", action: .columnRight, help: "next column"),
        KeyBinding(keys: [.tab, .backTab], label: "Tab", action: .switchFocus, help: "focus sidebar / table / detail pane"),
        KeyBinding(keys: [.enter], label: "Enter", action: .open, help: "open entity / edit cell / follow relationship"),
        KeyBinding(keys: [.char("e")], label: "e", action: .edit, help: "edit cell or field (to-one: picker)"),
        KeyBinding(keys: [.char("/")], label: "/", action: .filter, help: "filter with a predicate"),
        KeyBinding(keys: [.char("s")], label: "s", action: .sortAscending, help: "sort by column ascending"),
        KeyBinding(keys: [.char("S")], label: "S", action: .sortDescending, help: "sort by column descending"),
        KeyBinding(keys: [.char("F")], label: "F", action: .summary, help: "column summary: stats and frequencies (Enter filters)"),
        KeyBinding(keys: [.char("f")], label: "f", action: .search, help: "find text in string fields"),
        KeyBinding(keys: [.char("n")], label: "n", action: .searchNext, help: "next match of the find"),
        KeyBinding(keys: [.char("N")], label: "N", action: .searchPrevious, help: "previous match of the find"),
        KeyBinding(keys: [.char("a")], label: "a", action: .add, help: "add a record"),
        KeyBinding(keys: [.char("D")], label: "D", action: .duplicate, help: "duplicate the record"),
        KeyBinding(keys: [.char("d")], label: "d", action: .delete, help: "delete the record (asks y/n)"),
        KeyBinding(keys: [.char("u")], label: "u", action: .undo, help: "undo last edit/add/delete (saved; asks if another writer changed it)"),
        KeyBinding(keys: [.ctrl("r")], label: "^R", action: .redo, help: "redo"),
        KeyBinding(keys: [.char("?")], label: "?", action: .help, help: "toggle this help"),
        KeyBinding(keys: [.char(":")], label: ":", action: .command, help: "command line (see Commands)"),
        KeyBinding(keys: [.backspace], label: "Bksp", action: .back, help: "back to the previous list"),
        KeyBinding(keys: [.escape], label: "Esc", action: .cancel, help: "close an editor, prompt or overlay (never leaves a list)"),
        KeyBinding(keys: [.char("q"), .ctrl("c")], label: "q ^C", action: .quit, help: "quit"),
        KeyBinding(keys: [.ctrl("z")], label: "^Z", action: .suspend, help: "suspend to the shell"),
    ]

    /// Keys of the line editor (edit, filter and command modes).
    public static let editor: [(label: String, help: String)] = [
        ("← → Home End ^A ^E", "move the cursor"),
        ("^← ^→ M-b M-f", "move by word (Alt-← Alt-→ too)"),
        ("^U ^K ^W M-Bksp", "delete to start / end / word"),
        ("Tab (command)", "complete command, entity, key or theme"),
        ("Space (boolean)", "toggle true/false"),
        ("Enter", "confirm"),
        ("Esc", "cancel"),
    ]

    /// Keys of the conflict prompt and the picker.
    public static let prompts: [(label: String, help: String)] = [
        ("m (conflict)", "keep mine (re-add as last seen if deleted; undo/redo over theirs)"),
        ("t (conflict)", "take theirs, drop mine (or the undo/redo)"),
        ("Esc (conflict)", "back to the editor (undo/redo: decide later)"),
        ("Esc ^C (filtering…)", "stop a slow filter or sort; the list is unchanged"),
        ("↑ ↓ Enter (picker)", "choose; type to search"),
        ("j k Enter (summary)", "choose a value; Enter filters on it"),
        ("Esc (summary)", "close the summary"),
        ("j k g G PgDn (help)", "scroll this help (↑ ↓ PgUp too); Esc q ? close it"),
        ("click / wheel (mouse)", "select row, open entity / scroll"),
        ("y n Esc (replace file)", ":export over an existing file: y replaces it; n or Esc keeps it"),
    ]

    public static let commands: [(label: String, help: String)] = [
        (":q", "quit"),
        (":theme NAME", "switch theme"),
        (":sort KEY [desc]", "sort by a key path"),
        (":filter PRED", "apply a filter (empty clears)"),
        (":goto ENTITY", "open an entity"),
        (":group [KEY]", "group rows into sections by KEY (none: ungroup)"),
        (":export csv|json PATH", "write the current list to a file (never over a database; whole or not at all)"),
    ]

    /// What keys promise not to do (docs/keys.md).
    public static let guarantees: [String] = [
        "Row actions (`e`, `d`, `D`, Enter, the picker) act on the record shown in the detail pane, by its ID: when a save (yours or another writer's) moves it, the selection moves with it.",
        "Esc closes an editor, prompt or overlay and nothing else; in a list it only says there is nothing to close. Bksp goes back to the previous list.",
        "A filter or sort is active (and shown in the status bar) only once it has validated and run; a filter or command that is refused keeps the `/` or `:` line open with the reason, like a syntax error.",
        "Picker: typing moves the highlight to the first match; Enter with a search that matches nothing sets nothing; `∅ (none)` clears only when chosen. The status says what was set.",
        "While \"Terminal too small\" is shown, keys are ignored (and counted on screen); only ^C quits.",
    ]

    public static func action(for key: Key) -> KeyAction? {
        browse.first { $0.keys.contains(key) }?.action
    }

    /// The one-line hint bar for browse mode.
    public static let hint = "j/k move  h/l column  Tab focus  Enter open/edit  / filter  s/S sort  F summary  f find  a add  d delete  u undo  : cmd  ? help  q quit"

    /// Help overlay lines, generated from the tables above.
    public static func helpLines() -> [String] {
        var lines = ["Keys"]
        for b in browse { lines.append("  " + pad(b.label, 12) + b.help) }
        lines.append("Line editor")
        for e in editor { lines.append("  " + pad(e.label, 20) + e.help) }
        lines.append("Prompts, picker, summary, mouse")
        for p in prompts { lines.append("  " + pad(p.label, 20) + p.help) }
        lines.append("Commands")
        for c in commands { lines.append("  " + pad(c.label, 20) + c.help) }
        return lines
    }

    /// Markdown for docs/keys.md (a test checks the file matches).
    public static func markdown() -> String {
        var s = "# Vellum browser key bindings\n\nGenerated from `Sources/VellumApp/KeyBindings.swift`.\n\n| Keys | Action |\n|---|---|\n"
        for b in browse { s += "| `\(b.label)` | \(b.help) |\n" }
        s += "\n## Line editor (edit, filter, command)\n\n| Keys | Action |\n|---|---|\n"
        for e in editor { s += "| `\(e.label)` | \(e.help) |\n" }
        s += "\n## Prompts, picker, summary and mouse\n\n| Keys | Action |\n|---|---|\n"
        for p in prompts { s += "| `\(p.label)` | \(p.help) |\n" }
        s += "\n## Commands\n\n| Command | Action |\n|---|---|\n"
        for c in commands { s += "| `\(c.label)` | \(c.help) |\n" }
        s += "\n## What keys never do\n\n"
        for g in guarantees { s += "* \(g)\n" }
        return s
    }

    private static func pad(_ s: String, _ w: Int) -> String { DisplayWidth.pad(s, toWidth: w) + " " }
}
