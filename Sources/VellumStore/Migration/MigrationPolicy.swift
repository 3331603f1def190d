import Foundation

/// What opening a store does when the file (or the PostgreSQL schema) holds an older model than the one given.
public enum MigrationPolicy: Sendable {
    /// Infer the migration and run it (with a backup copy), as Core Data's automatic
    /// lightweight migration; a migration that cannot be inferred fails with
    /// `migrationRefused` and its plan.
    case automatic
    /// Never migrate: fail with `migrationRequired`, whose message is the plan.
    case never
    /// Keep today's behaviour: fail with `modelMismatch`.
    case off

    /// `options` with this policy's hooks (`StoreOptions.migrateOnMismatch`, `migrateServerOnMismatch`).
    public func applied(to options: StoreOptions, migration: MigrationOptions = MigrationOptions()) -> StoreOptions {
        var options = options
        var adjusted = migration
        adjusted.layout = options.layout
        let migration = adjusted
        switch self {
        case .off:
            options.migrateOnMismatch = nil
            options.migrateServerOnMismatch = nil
        case .automatic:
            options.migrateOnMismatch = { path, stored, model throws(StoreError) in
                try StoreMigrator.migrate(storeAt: URL(fileURLWithPath: path), to: model, options: migration, stored: stored)
            }
            options.migrateServerOnMismatch = { url, _, model throws(StoreError) in
                try StoreMigrator.migrate(postgreSQL: url, to: model, options: migration)
            }
        case .never:
            options.migrateOnMismatch = { path, _, model throws(StoreError) in
                let plan = try StoreMigrator.plan(storeAt: URL(fileURLWithPath: path), to: model, options: migration)
                throw .migrationRequired(path: path, plan: plan.description)
            }
            options.migrateServerOnMismatch = { url, _, model throws(StoreError) in
                let plan = try StoreMigrator.plan(postgreSQL: url, to: model, options: migration)
                throw .migrationRequired(path: url.description, plan: plan.description)
            }
        }
        return options
    }
}
