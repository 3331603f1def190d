import Foundation
import VellumApp

/// `vellum demo-writer STORE` (hidden): the demo's second process.
struct DemoWriterCommand: Command {
    static let name = "demo-writer"
    static let summary = "Keep changing a demo store (used by 'vellum demo')"
    static let help = """
        Usage: vellum demo-writer STORE

        Changes a random product's price or adds a task about every 0.7 s, until killed.

        """
    static let spec = ArgumentSpec()
    static let isHidden = true

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let path = try VellumCLI.positionals(arguments, ["STORE"], command: name)[0]
        let status = AppCommands.demoWriter(arguments: [path])
        if status != 0 { throw CLIError.runtime("demo-writer failed") }
    }
}
