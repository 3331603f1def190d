import VellumTerminal

/// The single source of truth for key bindings: the reducer dispatches
/// through it, and the help overlay and docs/keys.md are generated from it.
public enum KeyAction: String, Sendable, CaseIterable {
    case moveDown, moveUp, top, bottom, pageDown, pageUp
    case columnLeft, columnRight, switchFocus, open, edit
    case filter, sortAscending, sortDescending, add, delete, undo, redo
    case help, command, back, cancel, quit, suspend
    case summary, search, searchNext, searchPrevious, duplicate
    case hideColumn, columnList, narrowColumn, widenColumn, moveColumnLeft, moveColumnRight, firstColumn, lastColumn
    case jumpBack, jumpForward
}

public enum KeyBindings {
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
        ("j k Space (columns)", "choose a column; Space hides or shows it; Esc closes the list"),
    ]

    /// What keys promise not to do (docs/keys.md).
    public static let guarantees: [String] = [
        "Row actions (`e`, `d`, `D`, Enter, the picker) act on the record shown in the detail pane, by its ID: when a save (yours or another writer's) moves it, the selection moves with it.",
        "Esc closes an editor, prompt or overlay and nothing else; in a list it only says there is nothing to close. Bksp goes back to the previous list.",
        "A filter or sort is active (and shown in the status bar) only once it has validated and run; a filter or command that is refused keeps the `/` or `:` line open with the reason, like a syntax error.",
        "Picker: typing moves the highlight to the first match; Enter with a search that matches nothing sets nothing; `∅ (none)` clears only when chosen. The status says what was set.",
        "While \"Terminal too small\" is shown, keys are ignored (and counted on screen); only ^C quits.",
    ]

    /// The action of a key with the default bindings.
    public static func action(for key: Key) -> KeyAction? { KeyMap.defaults.action(for: key) }

    /// Help overlay lines, generated from the tables above; descriptions wider
    /// than `width` wrap under themselves.
    public static func helpLines(_ keys: KeyMap = .defaults, width: Int = .max) -> [String] {
        let bound = CommandTable.all.filter { $0.action != nil && !keys.keys(for: $0.name).isEmpty }
        return HelpText.lines([
            .init(title: "Keys", entries: bound.map { (keys.label(for: $0.name), $0.help) }),
            .init(title: "Line editor", entries: editor),
            .init(title: "Prompts, picker, summary, mouse", entries: prompts),
            .init(title: "Commands", entries: CommandTable.lineCommands.map { ($0.usage, $0.help) }),
        ], width: width)
    }

    /// Markdown for docs/keys.md (a test checks the file matches).
    public static func markdown() -> String {
        let keys = KeyMap.defaults
        var s = "# Vellum browser key bindings\n\nGenerated from `Sources/VellumApp/Commands/CommandTable.swift` and `KeyBindings.swift`.\n\n"
        s += "| Keys | Command | Action |\n|---|---|---|\n"
        for c in CommandTable.all where c.action != nil { s += "| `\(keys.label(for: c.name))` | `\(c.name)` | \(c.help) |\n" }
        s += "\n## Line editor (edit, filter, command)\n\n| Keys | Action |\n|---|---|\n"
        for e in editor { s += "| `\(e.label)` | \(e.help) |\n" }
        s += "\n## Prompts, picker, summary and mouse\n\n| Keys | Action |\n|---|---|\n"
        for p in prompts { s += "| `\(p.label)` | \(p.help) |\n" }
        s += "\n## Commands\n\n| Command | Action |\n|---|---|\n"
        // A `|` inside a table cell must be escaped, even in code.
        for c in CommandTable.lineCommands { s += "| `\(c.usage.replacingOccurrences(of: "|", with: "\\|"))` | \(c.help) |\n" }
        s += "\n## What keys never do\n\n"
        for g in guarantees { s += "* \(g)\n" }
        s += BindingsFileDoc.markdown
        return s
    }
}
