import Foundation
import VellumStore

/// `vellum track FILE [TABLE...] [--yes]`: installs Vellum's history in a database
/// it did not create, after showing exactly what will be added.
struct TrackCommand: Command {
    static let name = "track"
    static let summary = "Record another program's changes in a SQLite database (adds Vellum's history triggers)"
    static let help = """
        Usage: vellum track FILE [TABLE...] [--yes]
               vellum track postgresql://…

        Installs Vellum's persistent history in a SQLite database that Vellum did
        not create: two tables (_vellum_transactions, _vellum_changes), an index,
        and three triggers on each tracked table. From then on every write to
        those tables — by any program — is recorded, and Vellum shows other
        writers' changes object by object instead of refetching whole lists.

        Without TABLE, every table that can be tracked is, each by the key Vellum
        addresses its rows by: its INTEGER PRIMARY KEY, else its declared primary
        key (a text or composite key, WITHOUT ROWID or not), else its row id; views
        and virtual tables are left out, saying why. The list of what will be added is
        printed first and must be confirmed (or pass --yes). Nothing else in the
        file changes (not its journal mode); `vellum untrack FILE` removes it all.

        A PostgreSQL store (a postgresql:// URL) records history itself: track
        installs it in a store made before Vellum did so, and says so.

        Options:
          --yes    install without asking
          --help   show this help

        """
    static let spec = ArgumentSpec(flags: ["yes"])

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        guard let path = arguments.positionals.first else { throw CLIError.usage("missing FILE", command: name) }
        if PersistentStore.isServerLocation(path) { return try trackServerStore(path, console: console) }
        let names = arguments.positionals.dropFirst()
        let plan: TrackingPlan
        if names.isEmpty {
            plan = try HistoryTracking.plan(path: path)
        } else {
            // Each table by its natural key; the plan refuses one that cannot be tracked, saying why.
            let natural = try HistoryTracking.plan(path: path)
            var tables: [TrackedTable] = []
            for n in names {
                tables.append(natural.tables.first { $0.table == n } ?? TrackedTable(table: n, key: .rowid))
            }
            plan = try HistoryTracking.plan(path: path, tables: tables)
        }
        for s in plan.skipped { console.out("not tracked: \(s.table) (\(s.reason))\n") }
        guard !plan.tables.isEmpty else { throw CLIError.runtime("\(path): no table to track; nothing was changed") }
        console.out(describe(plan))
        guard try Confirmation.ask("Add these to \(path)?", yes: arguments.has("yes"), console: console) else {
            throw CLIError.runtime("not confirmed; nothing was changed (pass --yes to install without asking)")
        }
        try HistoryTracking.track(plan)
        console.out("tracking \(plan.tables.count) table\(plan.tables.count == 1 ? "" : "s") of \(path)\n")
    }

    /// A PostgreSQL store records history itself: opening it installs the triggers into a
    /// store made before it did (which `vellum track` confirms), and changes nothing else.
    static func trackServerStore(_ location: String, console: Console) throws {
        let store: PersistentStore
        do { store = try PersistentStore.open(location: location, model: nil, options: StoreOptions(createIfMissing: false)) } catch {
            throw CLIError.runtime(VellumCLI.describe(error))
        }
        guard store.hasHistory else { throw CLIError.runtime("\(location): the store records no history and could not be given it") }
        console.out("\(location): a PostgreSQL store records every writer's changes itself (history triggers installed); nothing to add\n")
    }

    /// Every name the plan adds, one group a line.
    static func describe(_ plan: TrackingPlan) -> String {
        var out = "will add to \(plan.path):\n"
        if !plan.historyTables.isEmpty { out += "  tables: \(plan.historyTables.joined(separator: ", "))\n" }
        if !plan.historyIndexes.isEmpty { out += "  index: \(plan.historyIndexes.joined(separator: ", "))\n" }
        out += "  triggers:\n"
        for t in plan.tables {
            let triggers = plan.triggers.filter { $0.hasPrefix("_vellum_history_" + t.table + "_") }
            out += "    on \(t.table) (key \(t.key.label)): \(triggers.joined(separator: ", "))\n"
        }
        return out
    }
}
