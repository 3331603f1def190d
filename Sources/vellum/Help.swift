/// `vellum --help` and `vellum help COMMAND`.
enum Help {
    static var overview: String {
        var entries: [(name: String, summary: String)] = []
        for command in VellumCLI.commands where !command.isHidden { entries.append((command.name, command.summary)) }
        let width = entries.map { $0.name.count }.max() ?? 0
        let list = entries
            .map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
            .joined(separator: "\n")
        return """
            vellum \(VellumCLI.version): a Core-Data-like object store over SQLite

            Usage:
              vellum COMMAND [ARGUMENTS] [OPTIONS]
              vellum --help | --version

            Commands:
            \(list)

            Run 'vellum help COMMAND' or 'vellum COMMAND --help' for details.

            """
    }
}

struct HelpCommand: Command {
    static let name = "help"
    static let summary = "Show help for a command"
    static let help = """
        Usage: vellum help [COMMAND]

        Shows the list of commands, or the help of COMMAND.

        """
    static let spec = ArgumentSpec()

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        guard let name = arguments.positionals.first else {
            console.out(Help.overview)
            return
        }
        if arguments.positionals.count > 1 {
            throw CLIError.usage(ArgumentError.tooManyArguments(Array(arguments.positionals.dropFirst())).description, command: Self.name)
        }
        guard let command = VellumCLI.command(named: name) else {
            throw CLIError.usage("unknown command '\(name)'", command: nil)
        }
        console.out(command.help)
    }
}
