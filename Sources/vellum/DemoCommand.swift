import Foundation
import VellumApp

/// `vellum demo [--theme NAME] [--no-mouse]`: the browser on a demo store with a live writer.
struct DemoCommand: AsyncCommand {
    static let name = "demo"
    static let summary = "Open the browser on a demo store that another process keeps changing"
    static let help = """
        Usage: vellum demo [--theme NAME] [--no-mouse]

        Creates a demo shop store (once, under $XDG_DATA_HOME/vellum) and opens it
        in the browser while a second process edits it, to show live updates.

        Options:
          --theme NAME   color theme
          --no-mouse     leave the mouse to the terminal (also :mouse off inside)
          --help         show this help

        """
    static let spec = ArgumentSpec(flags: ["no-mouse"], options: ["theme"])

    @MainActor
    static func runAsync(_ arguments: ParsedArguments, console: Console) async throws {
        _ = try VellumCLI.positionals(arguments, [], command: name)
        let status = await AppCommands.demo(theme: arguments.option("theme"), mouse: !arguments.has("no-mouse"))
        if status != 0 { throw CLIError.exit(status) }
    }
}
