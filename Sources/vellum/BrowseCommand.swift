import Foundation
import VellumApp

/// `vellum browse FILE [--theme NAME]`, also `vellum FILE`: the terminal browser.
struct BrowseCommand: AsyncCommand {
    static let name = "browse"
    static let summary = "Browse and edit a store in the terminal (also: vellum FILE)"
    static let help = """
        Usage: vellum FILE [--theme NAME] [--read-only]
               vellum browse FILE [--theme NAME] [--read-only]

        Opens the store at FILE in an interactive terminal browser: entities,
        records, a detail pane, filtering, sorting, editing with undo, and live
        updates from other writers. Press ? inside for the keys.

        Options:
          --theme NAME   color theme (default, light, ...; also $VELLUM_THEME)
          --read-only    browse without editing (automatic when the file or its
                         folder is not writable; the status line says so)
          --help         show this help

        """
    static let spec = ArgumentSpec(flags: [ReadOnlyNotice.flag], options: ["theme"])

    @MainActor
    static func runAsync(_ arguments: ParsedArguments, console: Console) async throws {
        let path = try VellumCLI.positionals(arguments, ["FILE"], command: name)[0]
        let status = await AppCommands.browse(path: path, theme: arguments.option("theme"),
                                              readOnly: arguments.has(ReadOnlyNotice.flag))
        if status != 0 { throw CLIError.exit(status) }
    }
}
