import Foundation

/// A command that runs on the main actor and may await (the browser). Its
/// synchronous `run` is never used: `VellumCLI.mainAsync` dispatches it.
protocol AsyncCommand: Command {
    @MainActor static func runAsync(_ arguments: ParsedArguments, console: Console) async throws -> Int32
}

extension AsyncCommand {
    static func run(_ arguments: ParsedArguments, console: Console) throws {
        throw CLIError.runtime("'\(name)' must be run through the vellum executable")
    }
}

extension VellumCLI {
    /// Commands that work but are not listed in help.
    static var hiddenCommands: [any Command.Type] { [DemoWriterCommand.self] }

    /// The executable's entry: async commands and `vellum FILE` on the main actor,
    /// everything else through `main(_:)`.
    @MainActor
    static func mainAsync(_ arguments: [String], console: Console = .standard()) async -> Int32 {
        var arguments = arguments
        if let first = arguments.first, command(named: first) == nil,
           !hiddenCommands.contains(where: { $0.name == first }), !first.hasPrefix("-") {
            // `vellum FILE`: a path, not a command.
            if FileManager.default.fileExists(atPath: first) || first.contains("/") || first.contains(".") {
                arguments.insert(BrowseCommand.name, at: 0)
            }
        }
        let hidden = arguments.first.flatMap { name in hiddenCommands.first { $0.name == name } }
        guard let first = arguments.first,
              let command = (hidden ?? command(named: first)) as? any AsyncCommand.Type else {
            if let hidden, let first = arguments.first, first == hidden.name {
                return run(hidden, Array(arguments.dropFirst()), console: console)
            }
            return main(arguments, console: console)
        }
        var spec = command.spec
        spec.flags.insert("help")
        do {
            let parsed: ParsedArguments
            do { parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: spec) } catch {
                throw CLIError.usage(error.description, command: command.name)
            }
            if parsed.has("help") { console.out(command.help); return 0 }
            return try await command.runAsync(parsed, console: console)
        } catch let error as CLIError {
            report(error, console: console)
            return error.exitCode
        } catch {
            let e = CLIError.runtime(describe(error))
            report(e, console: console)
            return e.exitCode
        }
    }

    /// Runs a synchronous (hidden) command with error reporting.
    static func run(_ command: any Command.Type, _ arguments: [String], console: Console) -> Int32 {
        var spec = command.spec
        spec.flags.insert("help")
        do {
            let parsed: ParsedArguments
            do { parsed = try ArgumentParser.parse(arguments, spec: spec) } catch {
                throw CLIError.usage(error.description, command: command.name)
            }
            if parsed.has("help") { console.out(command.help); return 0 }
            try command.run(parsed, console: console)
            return 0
        } catch let error as CLIError {
            report(error, console: console)
            return error.exitCode
        } catch {
            let e = CLIError.runtime(describe(error))
            report(e, console: console)
            return e.exitCode
        }
    }
}
