import Foundation

extension StoreMigrator {
    /// The plan for a store in a PostgreSQL schema (read only): the same inference and
    /// checks as for a file; every table is a rebuild (`PostgreSQLMigrationExecutor`).
    public static func plan(postgreSQL url: PostgreSQLURL, to model: ManagedObjectModel, options: MigrationOptions = MigrationOptions()) throws(StoreError) -> MigrationPlan {
        let c = try serverConnection(url)
        let old = try storedModel(c, url.description, place: "schema")
        return try MigrationPlanner.plan(MigrationDesign(server: old, new: model, layout: options.layout), path: url.description, connection: c)
    }

    /// Migrates a store in a PostgreSQL schema in one transaction (PostgreSQL's DDL is
    /// transactional): the writers' lock is taken, the plan made again inside it, the new
    /// store built in a staging schema and swapped in. The backup (`MigrationOptions.backup`)
    /// is the old schema itself, renamed `<schema>_before_<old hash>` (`backupPath`).
    /// Throws `migrationRefused` with the plan when it cannot run; nothing is changed then.
    @discardableResult
    public static func migrate(postgreSQL url: PostgreSQLURL, to model: ManagedObjectModel, options: MigrationOptions = MigrationOptions()) throws(StoreError) -> MigrationResult {
        let c = try serverConnection(url)
        do throws(StoreError) {
            try c.execute("BEGIN IMMEDIATE")
            let old = try storedModel(c, url.description, place: "schema")
            let design = MigrationDesign(server: old, new: model, layout: options.layout)
            let plan = try MigrationPlanner.plan(design, path: url.description, connection: c)
            if old.versionHash == model.versionHash {
                try c.execute("ROLLBACK")
                return MigrationResult(plan: plan, backupPath: nil, migrated: false)
            }
            guard plan.canRun else { throw .migrationRefused(path: url.description, plan: plan.description) }
            let before = MigrationStageContext(model: old, layout: design.oldLayout, connection: c, path: url.description)
            for stage in options.stages { try stage.run(stage.before, before) }
            let total = plan.steps.reduce(0) { $0 + ($1.rows ?? 0) }
            let executor = PostgreSQLMigrationExecutor(design: design, connection: c, schema: url.schema ?? "", totalRows: total,
                                                       progress: { options.progress?($0) })
            let backup = try executor.run(backup: options.backup, oldHash: old.versionHash)
            let after = MigrationStageContext(model: model, layout: design.newLayout, connection: c, path: url.description)
            for stage in options.stages { try stage.run(stage.after, after) }
            let entries: [(String, String)] = [
                ("modelHash", model.versionHash), ("model", String(decoding: model.jsonData(), as: UTF8.self)),
                ("migratedFrom", old.versionHash), ("migrated", Value.iso8601(Date())),
            ]
            for (k, v) in entries {
                try c.run(PostgreSQLDialect().upsert(into: PersistentStore.metadataTable, columns: ["key", "value"]), [.string(k), .string(v)])
            }
            try c.execute("COMMIT")
            return MigrationResult(plan: plan, backupPath: backup, migrated: true)
        } catch {
            if c.isInTransaction { try? c.execute("ROLLBACK") }
            throw error
        }
    }

    private static func serverConnection(_ url: PostgreSQLURL) throws(StoreError) -> Connection {
        guard url.schema != nil else { throw .invalidOperation("\(url): name the schema that holds the store (?schema=name)") }
        let c = Connection(remote: PGEngine(connection: try PGConnection(url: url)))
        guard try c.tableExists(PersistentStore.metadataTable) else {
            throw .invalidOperation("\(url): the schema holds no Vellum store")
        }
        return c
    }
}
