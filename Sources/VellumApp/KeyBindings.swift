import VellumTerminal

/// The single source of truth for key bindings in lists: the reducer dispatches
/// through it, and the help overlay and docs/keys.md are generated from it
/// (the prompts' and overlays' keys are `ModeAction`s).
public enum KeyAction: String, Sendable, CaseIterable {
    case moveDown, moveUp, top, bottom, pageDown, pageUp
    case columnLeft, columnRight, switchFocus, open, edit
    case filter, sortAscending, sortDescending, sortThen, view, narrowDetail, widenDetail, foldSection, foldAllSections, add, addWithForm, delete, undo, redo
    case help, command, back, cancel, quit, suspend
    case summary, search, searchNext, searchPrevious, duplicate
    case hideColumn, columnList, narrowColumn, widenColumn, moveColumnLeft, moveColumnRight, firstColumn, lastColumn
    case jumpBack, jumpForward
    case toggleMark, markRange, markAll, invertMarks, unmarkAll
    case yankCell, yankRows
    case track
}

public enum KeyBindings {
    /// Keys of the line editor (edit, filter, command and find) that are not commands:
    /// they edit the text, so they are fixed (the line's Enter, Esc, Tab… are `line` commands).
    public static let editor: [(label: String, help: String)] = [
        ("← → Home End ^A ^E", "move the cursor"),
        ("^← ^→ M-b M-f", "move by word (Alt-← Alt-→ too)"),
        ("^U ^K ^W M-Bksp", "delete to start / end / word"),
    ]

    /// The modes whose keys are commands, in the order help and docs list them (`line` has its own section).
    static let promptModes: [KeyMode] = [.question, .conflict, .picker, .summary, .columns, .pager, .form]

    /// Keys of the prompts and overlays: their commands with the bound keys (`m (conflict)`),
    /// then what is not a command (the cancel keys of slow work, the help's scrolling, the mouse).
    public static func prompts(_ keys: KeyMap = .defaults) -> [(label: String, help: String)] {
        let commands = promptModes.flatMap { mode in
            CommandTable.modeKeys.filter { $0.mode == mode && !keys.keys(for: $0.name).isEmpty }
                .map { ("\(keys.label(for: $0.name)) (\(mode.title))", $0.help) }
        }
        return commands + notCommands(keys)
    }

    /// The prompts' keys that are no command of their own.
    static func notCommands(_ keys: KeyMap) -> [(label: String, help: String)] {
        // The help, the summary and the columns list move with the keys that move in lists.
        let moves = ["move-down", "move-up", "top", "bottom"].compactMap { keys.firstLabel(for: $0) }.joined(separator: " ")
        return fixed + [("\(moves) (overlays)", "scroll this help, :messages; move in the summary, columns list")]
    }

    /// Keys that are no command: read while slow work runs, or not keys at all.
    static let fixed: [(label: String, help: String)] = [
        ("Esc ^C (… cancels)", "stop slow work: filter, sort, find, group, export…"),
        ("click / wheel (mouse)", "select row, open entity / scroll"),
        ("drag header edge (mouse)", "resize the column; click a title: choose it"),
    ]

    /// The `line` commands, for help and docs (`Enter`, `Esc`, `Tab`…).
    static func lineKeys(_ keys: KeyMap) -> [(label: String, help: String)] {
        CommandTable.modeKeys.filter { $0.mode == .line && !keys.keys(for: $0.name).isEmpty }.map { (keys.label(for: $0.name), $0.help) }
    }

    /// What keys promise not to do (docs/keys.md).
    public static let guarantees: [String] = [
        "Row actions (`e`, `d`, `D`, Enter, the picker) act on the record shown in the detail pane, by its ID: when a save (yours or another writer's) moves it, the selection moves with it.",
        "Esc closes an editor, prompt or overlay and nothing else; in a list it only says there is nothing to close. Bksp goes back to the previous list.",
        "A filter or sort is active (and shown in the status bar) only once it has validated and run; a filter or command that is refused keeps the `/` or `:` line open with the reason, like a syntax error.",
        "Picker: typing moves the highlight to the first match; Enter with a search that matches nothing sets nothing; `∅ (none)` clears only when chosen. The status says what was set.",
        "While \"Terminal too small\" is shown, keys are ignored (and counted on screen); only ^C quits.",
        "The hint bar always ends with the help and quit keys; on a narrow screen the other hints give way, the least used first.",
        "With the mouse on (the default), clicks and the wheel go to the browser and the terminal's own text selection works with Shift held (xterm, GNOME Terminal, Konsole, Alacritty, kitty; Fn or Option in some macOS terminals). `:mouse off`, or starting with `--no-mouse`, leaves the mouse to the terminal; `:mouse on` takes it back.",
        "A status message that says what happened stays until it is no longer true: the next move or command in the list takes it away, not the clock. An error stays until the next key, work under way (`saving…`) until it ends. `:messages` lists the last \(AppState.messageLimit) with their times.",
    ]

    /// The action of a key with the default bindings.
    public static func action(for key: Key) -> KeyAction? { KeyMap.defaults.action(for: key) }

    /// Help overlay lines, generated from the tables above; descriptions wider
    /// than `width` wrap under themselves.
    public static func helpLines(_ keys: KeyMap = .defaults, width: Int = .max) -> [String] {
        let bound = CommandTable.all.filter { $0.action != nil && !keys.keys(for: $0.name).isEmpty }
        return HelpText.lines([
            .init(title: "Keys", entries: bound.map { (keys.label(for: $0.name), $0.help) }),
            .init(title: "Line editor", entries: lineKeys(keys) + editor),
            .init(title: "Prompts, picker, summary, mouse", entries: prompts(keys)),
            .init(title: "Commands", entries: CommandTable.lineCommands.map { ($0.usage, $0.help) }),
        ], width: width)
    }

    /// Markdown for docs/keys.md (a test checks the file matches).
    public static func markdown() -> String {
        let keys = KeyMap.defaults
        var s = "# Vellum browser key bindings\n\nGenerated from `Sources/VellumApp/Commands/CommandTable.swift` and `KeyBindings.swift`.\n\n"
        s += "| Keys | Command | Action |\n|---|---|---|\n"
        for c in CommandTable.all where c.action != nil { s += "| `\(keys.label(for: c.name))` | `\(c.name)` | \(c.help) |\n" }
        s += "\n## Line editor (edit, filter, command, find)\n\n| Keys | Command | Action |\n|---|---|---|\n"
        for c in CommandTable.modeKeys where c.mode == .line { s += "| `\(keys.label(for: c.name))` | `\(c.name)` | \(c.help) |\n" }
        for e in editor { s += "| `\(e.label)` | | \(e.help) |\n" }
        s += "\n## Prompts, picker, summary and overlays\n\n| Keys | Command | Action |\n|---|---|---|\n"
        for mode in promptModes {
            for c in CommandTable.modeKeys where c.mode == mode { s += "| `\(keys.label(for: c.name)) (\(mode.title))` | `\(c.name)` | \(c.help) |\n" }
        }
        for p in notCommands(keys) { s += "| `\(p.label)` | | \(p.help) |\n" }
        s += "\n## Commands\n\n| Command | Action |\n|---|---|\n"
        // A `|` inside a table cell must be escaped, even in code.
        for c in CommandTable.lineCommands { s += "| `\(c.usage.replacingOccurrences(of: "|", with: "\\|"))` | \(c.help) |\n" }
        s += "\n## What keys never do\n\n"
        for g in guarantees { s += "* \(g)\n" }
        s += BindingsFileDoc.markdown
        return s
    }
}
