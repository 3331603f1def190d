import VellumTerminal

/// One named action of the browser (VisiData-style): what a key runs, what a
/// `:` line runs, or both. Keys bind to commands by `name` (see `KeyMap`), and
/// the `?` help, the hint bar, `:` completion and docs/keys.md are all read
/// from `CommandTable`, so none of them can drift from what the keys do.
public struct Command: Sendable {
    /// The name a bindings file uses (`bind x delete`).
    public let name: String
    public let help: String
    /// What the reducer does for a key bound to this command; nil for `:`-only commands.
    public let action: KeyAction?
    public let defaultKeys: [Key]
    /// The `:` form, when the command can be typed.
    public let line: LineCommand?

    init(_ name: String, _ action: KeyAction?, keys: [Key], help: String, line: LineCommand? = nil) {
        self.name = name
        self.action = action
        self.defaultKeys = keys
        self.help = help
        self.line = line
    }
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
    case choices([String])

    func candidates(in s: AppState) -> [String] {
        switch self {
        case .none: return []
        case .entities: return s.entityNames
        case .columns: return s.allColumnNames.isEmpty ? s.columnNames : s.allColumnNames
        case .themes: return s.themeNames
        case .choices(let items): return items
        }
    }
}
