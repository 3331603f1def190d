import Foundation
import VellumStore

/// `vellum migrate STORE --model NEW [--dry-run] [--no-backup]`.
struct MigrateCommand: Command {
    static let name = "migrate"
    static let summary = "Migrate a store to a new model (inferred, planned, atomic)"
    static let help = """
        Usage: vellum migrate STORE --model NEW [--dry-run] [--no-backup]

        Infers the migration from the model stored in STORE to the model at NEW (JSON,
        Xcode model or another store), prints the plan — per entity the changes, the
        strategy (ALTER in place or table rebuild), the rows and the checks run
        against the data — and runs it in one transaction: a crash leaves the old
        store or the new one, never a mix. STORE may be a postgresql://…?schema=NAME
        URL: the same plan, run in one server transaction. See docs/migration.md.

        Options:
          --model NEW   the model to migrate to
          --dry-run     print the plan only; the store is not changed
          --no-backup   do not keep STORE.before-<old model hash> (for a
                        postgresql:// STORE, the old schema SCHEMA_before_<hash>)
          --help        show this help

        """
    static let spec = ArgumentSpec(flags: ["dry-run", "no-backup"], options: ["model"])

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let path = try VellumCLI.positionals(arguments, ["STORE"], command: name)[0]
        guard let modelPath = arguments.option("model") else { throw CLIError.usage("missing --model NEW", command: name) }
        let model = try ModelSource.loadModel(path: modelPath)
        let url = URL(fileURLWithPath: path)
        // A server store (postgresql://…?schema=NAME) is migrated in one server transaction.
        let server = PersistentStore.isServerLocation(path) ? try PostgreSQLURL(path) : nil
        do {
            let plan = try server.map { try StoreMigrator.plan(postgreSQL: $0, to: model) } ?? StoreMigrator.plan(storeAt: url, to: model)
            console.out(plan.description)
            if plan.fromHash == plan.toHash {
                console.out("The store already holds this model; nothing to do.\n")
                return
            }
            guard plan.canRun else { throw CLIError.exit(1) }
            if arguments.has("dry-run") {
                console.out("Dry run: the store was not changed.\n")
                return
            }
            var options = MigrationOptions(backup: !arguments.has("no-backup"))
            let bar = MigrationProgressBar(console: console)
            options.progress = { bar.show($0) }
            let result = try server.map { try StoreMigrator.migrate(postgreSQL: $0, to: model, options: options) }
                ?? StoreMigrator.migrate(storeAt: url, to: model, options: options)
            bar.finish()
            if let backup = result.backupPath { console.out("Backup: \(backup)\n") }
            console.out("Migrated \(path) to model \(plan.toHash.prefix(12)).\n")
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.runtime(VellumCLI.describe(error))
        }
    }
}
