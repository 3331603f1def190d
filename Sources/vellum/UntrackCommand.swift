import Foundation
import VellumStore

/// `vellum untrack FILE [--yes]`: removes everything `vellum track` added.
struct UntrackCommand: Command {
    static let name = "untrack"
    static let summary = "Remove Vellum's history triggers and tables from a SQLite database"
    static let help = """
        Usage: vellum untrack FILE [--yes]

        Removes every trigger, index and table that `vellum track` added to FILE
        (the recorded history with them) and nothing else: the rest of the
        schema is as it was before tracking. Lists them first and asks, unless
        --yes is given. A Vellum store or a postgresql:// store is refused (its history is its own).

        Options:
          --yes    remove without asking
          --help   show this help

        """
    static let spec = ArgumentSpec(flags: ["yes"])

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let path = try VellumCLI.positionals(arguments, ["FILE"], command: name)[0]
        // A server store's history is its own, as a Vellum file's is: there is nothing tracking added.
        if PersistentStore.isServerLocation(path) {
            throw CLIError.runtime("\(path): a PostgreSQL store records its own history; untrack removes only what `vellum track` added to another program's SQLite file; nothing was changed")
        }
        let names = try HistoryTracking.trackingObjects(path: path)
        guard !names.isEmpty else {
            console.out("\(path) is not tracked; nothing to remove\n")
            return
        }
        console.out("will remove from \(path): \(names.joined(separator: ", "))\n")
        guard try Confirmation.ask("Remove these?", yes: arguments.has("yes"), console: console) else {
            throw CLIError.runtime("not confirmed; nothing was changed (pass --yes to remove without asking)")
        }
        let removed = try HistoryTracking.untrack(path: path)
        console.out("removed \(removed.count) name\(removed.count == 1 ? "" : "s") from \(path)\n")
    }
}
