import Foundation

/// What opening a store does when the file holds an older model than the one given.
public enum MigrationPolicy: Sendable {
    /// Infer the migration and run it (with a backup copy), as Core Data's automatic
    /// lightweight migration; a migration that cannot be inferred fails with
    /// `migrationRefused` and its plan.
    case automatic
    /// Never migrate: fail with `migrationRequired`, whose message is the plan.
    case never
    /// Keep today's behaviour: fail with `modelMismatch`.
    case off

    /// `options` with this policy's hook (`StoreOptions.migrateOnMismatch`).
    public func applied(to options: StoreOptions, migration: MigrationOptions = MigrationOptions()) -> StoreOptions {
        var options = options
        var adjusted = migration
        adjusted.layout = options.layout
        let migration = adjusted
        switch self {
        case .off:
            options.migrateOnMismatch = nil
        case .automatic:
            options.migrateOnMismatch = { path, stored, model throws(StoreError) in
                try StoreMigrator.migrate(storeAt: URL(fileURLWithPath: path), to: model, options: migration, stored: stored)
            }
        case .never:
            options.migrateOnMismatch = { path, _, model throws(StoreError) in
                let plan = try StoreMigrator.plan(storeAt: URL(fileURLWithPath: path), to: model, options: migration)
                throw .migrationRequired(path: path, plan: plan.description)
            }
        }
        return options
    }
}
