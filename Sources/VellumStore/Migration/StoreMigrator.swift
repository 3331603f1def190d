import Foundation

/// Options of one migration.
public struct MigrationOptions: Sendable {
    /// Keep a copy of the file as it was, `STORE.before-<old model hash>`, beside it.
    public var backup: Bool = true
    /// Author of the history transaction that records the migration.
    public var author: String = "vellum migration"
    /// Called while rows are copied (on the migrating thread).
    public var progress: (@Sendable (MigrationProgress) -> Void)?
    /// Must match the layout the store was created with.
    public var layout: @Sendable (ManagedObjectModel) -> any StoreLayout = { NativeLayout(model: $0) }
    public var busyTimeoutMilliseconds: Int32 = 5000
    /// Custom stages, run in order in the migration's transaction (`MigrationStage`).
    public var stages: [MigrationStage] = []

    public init(backup: Bool = true) { self.backup = backup }
}

/// What a migration did.
public struct MigrationResult: Sendable {
    public let plan: MigrationPlan
    /// The backup copy, when one was made.
    public let backupPath: String?
    /// False when the store already held the model.
    public let migrated: Bool
}

/// Migrates a Vellum store from the model stored in it to another model, inferring
/// the changes (`ModelCorrespondence`, `MigrationPlanner`). Everything happens in
/// one SQLite transaction, several steps of a schedule included: a crash at any
/// moment leaves the old store or the new one, never a mix. The file is never deleted or recreated; Core Data stores and
/// other databases are refused untouched.
public enum StoreMigrator {
    /// The plan, computed without changing anything (read only).
    public static func plan(storeAt url: URL, to model: ManagedObjectModel, options: MigrationOptions = MigrationOptions()) throws(StoreError) -> MigrationPlan {
        let path = url.path
        let c = try open(path, readOnly: true, options: options)
        let old = try storedModel(c, path)
        let design = try MigrationDesign(old: old, new: model, connection: c, layout: options.layout)
        return try MigrationPlanner.plan(design, path: path, connection: c)
    }

    /// Runs the migration; throws `migrationRefused` (with the plan) when it cannot.
    @discardableResult
    public static func migrate(storeAt url: URL, to model: ManagedObjectModel, options: MigrationOptions = MigrationOptions()) throws(StoreError) -> MigrationResult {
        try migrate(storeAt: url, to: model, options: options, stored: nil)
    }

    /// `stored`: the model the caller already read from the file (opening a store does),
    /// used when the file still holds a model of its hash instead of decoding it again.
    @discardableResult
    static func migrate(storeAt url: URL, to model: ManagedObjectModel, options: MigrationOptions, stored: ManagedObjectModel?) throws(StoreError) -> MigrationResult {
        try migrate(storeAt: url, options: options, stored: stored) { _ throws(StoreError) in
            [MigrationSchedule.Step(model: model, stages: [])]
        }[0]
    }

    /// Runs the steps `steps` chooses for the stored model, all in one SQLite transaction:
    /// a failure in any step (a refusal, a stage that throws, a crash) leaves the store at
    /// the version it held. Each step is planned on the shape the previous one left; its
    /// stages are `options.stages` and its own. The backup, if any, is taken once, before
    /// the first step that changes anything; history records the whole as one transaction.
    static func migrate(storeAt url: URL, options: MigrationOptions, stored: ManagedObjectModel?,
                        steps: (ManagedObjectModel) throws(StoreError) -> [MigrationSchedule.Step]) throws(StoreError) -> [MigrationResult] {
        let path = url.path
        guard PersistentStore.isWritable(path) else { throw .readOnly(path: path) }
        let c = try open(path, readOnly: false, options: options)
        // SQLite's way to change tables: foreign keys off (outside the transaction), checked at the end.
        try c.execute("PRAGMA foreign_keys=OFF")
        try c.setTriggersEnabled(false)
        do throws(StoreError) {
            try c.execute("BEGIN IMMEDIATE")
            let original = try storedModel(c, path, known: stored)
            var current = original
            var results: [MigrationResult] = []
            for step in try steps(original) {
                let design = try MigrationDesign(old: current, new: step.model, connection: c, layout: options.layout)
                let plan = try MigrationPlanner.plan(design, path: path, connection: c)
                if current.versionHash == step.model.versionHash {
                    results.append(MigrationResult(plan: plan, backupPath: nil, migrated: false))
                    continue
                }
                guard plan.canRun else { throw .migrationRefused(path: path, plan: plan.description) }
                let first = !results.contains(where: \.migrated)
                let backup = first && options.backup ? try StoreBackup.copy(path, suffix: "before-" + original.versionHash, options: options) : nil
                let stages = options.stages + step.stages
                let total = plan.steps.filter { $0.strategy == .rebuild }.reduce(0) { $0 + ($1.rows ?? 0) }
                let before = MigrationStageContext(model: current, layout: design.oldLayout, connection: c, path: path)
                for stage in stages { try stage.run(stage.before, before) }
                try MigrationExecutor(design: design, connection: c, totalRows: total, progress: { options.progress?($0) }).run()
                let after = MigrationStageContext(model: step.model, layout: design.newLayout, connection: c, path: path)
                for stage in stages { try stage.run(stage.after, after) }
                results.append(MigrationResult(plan: plan, backupPath: backup, migrated: true))
                current = step.model
            }
            guard results.contains(where: \.migrated) else {
                try c.execute("ROLLBACK")
                return results
            }
            try record(c, model: current, from: original, author: options.author)
            try c.execute("COMMIT")
            return results
        } catch {
            if c.isInTransaction { try? c.execute("ROLLBACK") }
            throw error
        }
    }

    /// The new model in the metadata, and one history transaction for the whole migration.
    private static func record(_ c: Connection, model: ManagedObjectModel, from old: ManagedObjectModel, author: String) throws(StoreError) {
        let table = quoteIdentifier(PersistentStore.metadataTable)
        let entries: [(String, String)] = [
            ("modelHash", model.versionHash), ("model", String(decoding: model.jsonData(), as: UTF8.self)),
            ("migratedFrom", old.versionHash), ("migrated", Value.iso8601(Date())),
        ]
        for (k, v) in entries { try c.run("INSERT OR REPLACE INTO \(table) (key, value) VALUES (?, ?)", [.string(k), .string(v)]) }
        try c.execute(PersistentStore.markAsVellumSQL)
        if try c.tableExists(HistorySchema.transactions) {
            try c.run(HistorySchema.openTransactionSQL, [.string(author), .integer(Int64(getpid()))])
        }
    }

    private static func open(_ path: String, readOnly: Bool, options: MigrationOptions) throws(StoreError) -> Connection {
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path) }
        try StoreFileCheck.check(path)
        try PersistentStore.refuseForeignDatabase(at: path)
        var storeOptions = StoreOptions(createIfMissing: false, readOnly: readOnly)
        storeOptions.busyTimeoutMilliseconds = options.busyTimeoutMilliseconds
        let access = StoreFileAccess.choose(for: path, options: storeOptions)
        let c = try Connection(path: access.connectionPath(path), options: access.openOptions(storeOptions, journalModeWAL: !readOnly))
        guard try c.tableExists(PersistentStore.metadataTable) else {
            if try c.tableExists("Z_METADATA") { throw .coreDataStore(path: path) }
            throw .notAStore(path: path)
        }
        return c
    }

    /// The model in the store's metadata (`place`: where it is kept, for the message).
    static func storedModel(_ c: Connection, _ path: String, place: String = "file", known: ManagedObjectModel? = nil) throws(StoreError) -> ManagedObjectModel {
        let stored = try PersistentStore.readMetadata(c)
        if let known, stored["modelHash"] == known.versionHash { return known }
        guard let json = stored["model"] else {
            throw .invalidOperation("\(path): the store does not hold its model, so the migration cannot be inferred")
        }
        let model: ManagedObjectModel
        do { model = try ManagedObjectModel.fromJSON(Data(json.utf8)) } catch {
            throw .invalidOperation("\(path): the model stored in the \(place) cannot be read: \(ErrorText.describe(error))")
        }
        // Written beside the model in the same transaction, the recorded hash is the model's
        // identity, as opening a store already takes it to be: not computed again.
        if let hash = stored["modelHash"] { model.adoptVersionHash(hash) }
        return model
    }
}

extension StoreMigrator {
    /// Migrates step by step through `versions` (oldest first), from the one the store
    /// holds to the last: each step infers from its predecessor, so renaming identifiers
    /// that name the previous version's element chain across versions. A store whose
    /// model is none of them migrates straight to the last. All steps are one transaction
    /// and each runs `options.stages`; the backup (if any) is of the store before the first.
    /// For stages that belong to one step, use `migrate(storeAt:following:)`.
    @discardableResult
    public static func migrate(storeAt url: URL, through versions: [ManagedObjectModel], options: MigrationOptions = MigrationOptions()) throws(StoreError) -> [MigrationResult] {
        guard let first = versions.first else { return [] }
        let schedule = versions.dropFirst().reduce(MigrationSchedule(first)) { $0.lightweight(to: $1) }
        return try migrate(storeAt: url, following: schedule, options: options)
    }
}
