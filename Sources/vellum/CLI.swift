import Foundation
import VellumStore
import VellumTerminal

/// Where a command writes. The real CLI uses stdout/stderr; tests can capture.
struct Console {
    var out: (String) -> Void
    var err: (String) -> Void

    static func standard() -> Console {
        Console(
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            err: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// A console appending to a buffer, for tests.
    final class Capture {
        var out = ""
        var err = ""
        var console: Console { Console(out: { self.out += $0 }, err: { self.err += $0 }) }
    }
}

/// A failure that ends the command: usage errors exit 2, runtime errors exit 1.
enum CLIError: Error, Equatable, CustomStringConvertible {
    case usage(String, command: String?)
    case runtime(String)
    /// Exit with this status; the command already told the user why.
    case exit(Int32)

    var exitCode: Int32 {
        switch self {
        case .usage: return 2
        case .runtime: return 1
        case .exit(let status): return status
        }
    }

    var description: String {
        switch self {
        case .usage(let m, _): return m
        case .runtime(let m): return m
        case .exit(let status): return "exit status \(status)"
        }
    }
}

/// One subcommand. Register it in `VellumCLI.commands` (one line).
protocol Command {
    /// The word typed after `vellum`.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// Full help: usage lines, description, options.
    static var help: String { get }
    /// The flags and options it accepts (`help` is added automatically).
    static var spec: ArgumentSpec { get }
    static func run(_ arguments: ParsedArguments, console: Console) throws
    /// Hidden commands work but are not listed by `vellum --help` (test helpers).
    static var isHidden: Bool { get }
}

extension Command {
    static var isHidden: Bool { false }
}

/// A command whose work is asynchronous (the write queue, watching a store).
/// Implement `runAsync`; the synchronous `run` is provided and never called by the CLI.
protocol AsyncCommand: Command {
    /// Runs on the main actor (the browser's event loop and view context live there).
    @MainActor static func runAsync(_ arguments: ParsedArguments, console: Console) async throws
}

extension AsyncCommand {
    static func run(_ arguments: ParsedArguments, console: Console) throws {
        throw CLIError.runtime("\(name) must be run asynchronously")
    }
}

enum VellumCLI {
    static let version = "0.1.0"

    /// Every command, in the order `vellum --help` lists them. Add new commands here.
    static var commands: [any Command.Type] {
        [
            ModelCommand.self,
            GenerateCommand.self,
            MigrateCommand.self,
            CreateCommand.self,
            QueryCommand.self,
            InsertCommand.self,
            UpdateCommand.self,
            DeleteCommand.self,
            WatchCommand.self,
            TrackCommand.self,
            UntrackCommand.self,
            BrowseCommand.self,
            DemoCommand.self,
            HelpCommand.self,
            StressWriterCommand.self,
            DemoWriterCommand.self,
        ]
    }

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    /// Runs the CLI with `arguments` (without the program name); returns the exit code.
    @MainActor
    static func main(_ arguments: [String], console: Console = .standard()) async -> Int32 {
        do {
            try await dispatch(arguments, console: console)
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

    @MainActor
    static func dispatch(_ arguments: [String], console: Console) async throws {
        guard let first = arguments.first else {
            throw CLIError.usage("missing command", command: nil)
        }
        switch first {
        case "--help", "-h":
            console.out(Help.overview)
            return
        case "--version":
            console.out("vellum \(version)\n")
            return
        default:
            break
        }
        guard let command = command(named: first) else {
            if first.hasPrefix("-") { throw CLIError.usage("unknown option '\(first)'", command: nil) }
            // `vellum FILE`: a path, not a command, opens the browser.
            if FileManager.default.fileExists(atPath: first) || first.contains("/") || first.contains(".") {
                return try await dispatch([BrowseCommand.name] + arguments, console: console)
            }
            throw CLIError.usage("unknown command '\(first)'", command: nil)
        }
        var spec = command.spec
        spec.flags.insert("help")
        let parsed: ParsedArguments
        do { parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: spec) } catch {
            throw CLIError.usage(error.description, command: command.name)
        }
        if parsed.has("help") {
            console.out(command.help)
            return
        }
        if let asyncCommand = command as? any AsyncCommand.Type {
            try await asyncCommand.runAsync(parsed, console: console)
        } else {
            try command.run(parsed, console: console)
        }
    }

    /// `vellum: message` on stderr; usage errors add a hint where to get help.
    static func report(_ error: CLIError, console: Console) {
        if case .exit = error { return }
        console.err("vellum: \(error.description)\n")
        if case .usage(_, let command) = error {
            if let command {
                console.err("Run 'vellum help \(command)' for usage.\n")
            } else {
                console.err("\n" + Help.overview)
            }
        }
    }

    /// A readable message for any error (a predicate's with its caret; the rest through the store's one describing function).
    static func describe(_ error: any Error) -> String {
        switch error {
        case let e as CLIError: return e.description
        case let e as ModelError: return e.description
        case StoreError.query(let e): return e.rendered(width: DisplayWidth.of)
        case let e as StoreError: return e.description
        case let e as ArgumentError: return e.description
        case let e as QueryError: return e.rendered(width: DisplayWidth.of)
        case let e as ParseError: return e.description
        default: return ErrorText.describe(error)
        }
    }

    /// Parses the command's arguments into its positional names, mapping errors to usage errors.
    static func positionals(_ arguments: ParsedArguments, _ names: [String], command: String) throws -> [String] {
        do { return try arguments.requirePositionals(names) } catch {
            throw CLIError.usage(error.description, command: command)
        }
    }
}
