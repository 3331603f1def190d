import VellumTerminal

/// One named action of the browser (VisiData-style): what a key runs, what a
/// `:` line runs, or both. Keys bind to commands by `name` (see `KeyMap`), and
/// the `?` help, the hint bar, `:` completion and docs/keys.md are all read
/// from `CommandTable`, so none of them can drift from what the keys do.
public struct Command: Sendable {
    /// The name a bindings file uses (`bind x delete`).
    public let name: String
    public let help: String
    /// What the reducer does for a key bound to this command in lists; nil for
    /// `:`-only commands and the keys of prompts and overlays.
    public let action: KeyAction?
    /// Where the command's keys apply: lists (`browse`), or a prompt or overlay.
    public let mode: KeyMode
    /// What a key bound to this command does in its prompt or overlay (`mode` is not `browse`).
    public let modeAction: ModeAction?
    public let defaultKeys: [Key]
    /// The `:` form, when the command can be typed.
    public let line: LineCommand?

    init(_ name: String, _ action: KeyAction?, keys: [Key], help: String, line: LineCommand? = nil) {
        self.name = name
        self.action = action
        self.mode = .browse
        self.modeAction = nil
        self.defaultKeys = keys
        self.help = help
        self.line = line
    }

    /// A key of a prompt or overlay (`summary-close`, `keep-mine`).
    init(_ name: String, _ action: ModeAction, in mode: KeyMode, keys: [Key], help: String) {
        self.name = name
        self.action = nil
        self.mode = mode
        self.modeAction = action
        self.defaultKeys = keys
        self.help = help
        self.line = nil
    }

    /// Whether a key can be bound to it (`:`-only commands take an argument and cannot).
    public var isBindable: Bool { action != nil || modeAction != nil }
}

/// Where a key binding applies. The same key can run a command in lists and
/// another one in a prompt or overlay (Enter opens in lists, applies in `/`).
public enum KeyMode: String, Sendable, CaseIterable {
    /// Lists: the sidebar, the table and the detail pane.
    case browse
    /// The line prompts: edit, filter (`/`), command (`:`) and find (`f`).
    case line
    /// The y/n questions: delete, `:set` on marked rows, `:export` over a file.
    case question
    case conflict, picker, summary, columns, pager
    /// The new-record form (`a`, `A`): typed characters go to the current field.
    case form

    /// How help names the mode after a key (`m (conflict)`).
    var title: String {
        switch self {
        case .browse: return "lists"
        case .line: return "line"
        case .question: return "y/n question"
        case .conflict: return "conflict"
        case .picker: return "picker"
        case .summary: return "summary"
        case .columns: return "columns"
        case .pager: return "viewer"
        case .form: return "form"
        }
    }

    /// Typed characters are text here (the edited value, the picker's search), so a
    /// character key cannot be bound in this mode.
    var typesText: Bool { self == .line || self == .picker || self == .form }
}

/// What a key does in a prompt or overlay (the reducer's switch per mode).
public enum ModeAction: String, Sendable, CaseIterable {
    case lineConfirm, lineCancel, lineComplete, lineCompletePrevious, lineToggle, linePaste, lineRegex
    case yes, no
    case keepMine, takeTheirs, conflictBack
    case pickerUp, pickerDown, pickerPageUp, pickerPageDown, pickerChoose, pickerCancel, pickerToggle
    case summaryFilter, summaryClose
    case columnsToggle, columnsClose
    case pagerSearch, pagerNext, pagerPrevious, pagerClose
    case formNext, formPrevious, formConfirm, formSave, formCancel
}

/// A command typed after `:`: its names, usage, argument completion and handler.
public struct LineCommand: Sendable {
    /// Typed names, the first shown in help (`q`, `quit`).
    public let names: [String]
    /// How help writes it (`:theme NAME`).
    public let usage: String
    public let completion: ArgumentCompletion
    /// Runs the command with the text after its name (trimmed); refusals set an error status.
    public let run: @Sendable (inout AppState, String) -> [Effect]
}

/// What Tab offers for a command's first argument.
public enum ArgumentCompletion: Sendable {
    case none, entities, columns, themes
    /// `:display`: the attributes of the entity it would name (`Reducer.displayTarget`).
    case displayKeys
    case choices([String])

    func candidates(in s: AppState) -> [String] {
        switch self {
        case .none: return []
        case .entities: return s.entityNames
        case .columns: return s.allColumnNames.isEmpty ? s.columnNames : s.allColumnNames
        case .themes: return s.themeNames
        case .displayKeys: return Reducer.displayTarget(s)?.attributes ?? []
        case .choices(let items): return items
        }
    }
}
