import Foundation
import VellumApp

/// `vellum browse FILE [--theme NAME]`, also `vellum FILE`: the terminal browser.
struct BrowseCommand: AsyncCommand {
    static let name = "browse"
    static let summary = "Browse and edit a store in the terminal (also: vellum FILE)"
    static let help = """
        Usage: vellum FILE [--theme NAME] [--read-only] [--model NEW] [--no-mouse]
               vellum browse FILE [--theme NAME] [--read-only] [--model NEW] [--no-mouse]

        Opens the store at FILE in an interactive terminal browser: entities,
        records, a detail pane, filtering, sorting, editing with undo, and live
        updates from other writers. Press ? inside for the keys.

        Options:
          --theme NAME   color theme (default, light, ...; also $VELLUM_THEME)
          --read-only    browse without editing (automatic when the file or its
                         folder is not writable; the status line says so)
          --model NEW    open with the model at NEW (JSON, Xcode model or store);
                         a store holding another model shows the migration plan
                         and asks before migrating it (see vellum migrate)
          --no-mouse     leave the mouse to the terminal: its own text selection
                         works without Shift (also :mouse off inside; with the
                         mouse on, most terminals select text with Shift held)
        \(StoreArguments.help)
          --help         show this help

        """
    static let spec = ArgumentSpec(flags: [ReadOnlyNotice.flag, "no-mouse", StoreArguments.noForeignKeysFlag], options: ["theme", "model"])

    @MainActor
    static func runAsync(_ arguments: ParsedArguments, console: Console) async throws {
        let path = try VellumCLI.positionals(arguments, ["FILE"], command: name)[0]
        let model = try arguments.option("model").map { (model: try ModelSource.loadModel(path: $0), name: URL(fileURLWithPath: $0).lastPathComponent) }
        let status = await AppCommands.browse(path: path, theme: arguments.option("theme"),
                                              readOnly: arguments.has(ReadOnlyNotice.flag), model: model,
                                              mouse: !arguments.has("no-mouse"),
                                              enforcesForeignKeys: StoreArguments(arguments).enforcesForeignKeys)
        if status != 0 { throw CLIError.exit(status) }
    }
}
