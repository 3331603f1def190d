import Foundation

/// Exactly what tracking a database would add, made by `HistoryTracking.plan`
/// and shown to the user before `track` installs it.
public struct TrackingPlan: Sendable, Equatable {
    public var path: String
    /// The tables whose changes will be recorded, with their keys.
    public var tables: [TrackedTable]
    /// Tables left out, each with its reason.
    public var skipped: [SkippedTable]
    /// History tables and index created (empty when the file already has them).
    public var historyTables: [String]
    public var historyIndexes: [String]
    /// Trigger names, three per table.
    public var triggers: [String]
    /// The statements `track` runs, in one transaction.
    public var statements: [String]

    /// Every name the plan adds to the file's schema.
    public var addedNames: [String] { historyTables + historyIndexes + triggers }
}

/// Installs Vellum's persistent history (tables and triggers) into a SQLite
/// database that Vellum did not create — only when asked (`vellum track`):
/// from then on a store opened on it learns other writers' changes object by
/// object, as for its own stores. `untrack` removes every name tracking added
/// and nothing else. The file's journal mode is never changed.
public enum HistoryTracking {
    /// What tracking `tables` (nil: every table that can be tracked, by its natural
    /// key) would add. Throws naming the table and the reason when a table that was
    /// asked for cannot be tracked.
    public static func plan(path: String, tables: [TrackedTable]? = nil) throws(StoreError) -> TrackingPlan {
        try plan(in: open(path), path: path, tables: tables)
    }

    /// The plan for the database open on `db` (tests use it on a store of their own layout).
    static func plan(in db: Connection, path: String, tables: [TrackedTable]?) throws(StoreError) -> TrackingPlan {
        let info = try TableInfo.read(db)
        let hasHistory = try db.tableExists(HistorySchema.changes)
        let already = try trackedTables(db)
        var chosen: [TrackedTable] = []
        var skipped: [SkippedTable] = []
        if let tables {
            for t in tables {
                guard let table = info[t.table] else { throw .invalidOperation("\(path): cannot track \(t.table): no such table") }
                if let problem = table.problem(trackingBy: t.key) { throw .invalidOperation("\(path): cannot track \(t.table): \(problem)") }
                if already.contains(t.table) { throw .invalidOperation("\(path): \(t.table) is already tracked") }
                chosen.append(t)
            }
        } else {
            for table in info.values.sorted(by: { $0.name < $1.name }) where table.type != "view" {
                if already.contains(table.name) { skipped.append(SkippedTable(table: table.name, reason: "already tracked")); continue }
                if let problem = table.problem(trackingBy: table.naturalKey) {
                    skipped.append(SkippedTable(table: table.name, reason: problem))
                } else {
                    chosen.append(TrackedTable(table: table.name, key: table.naturalKey))
                }
            }
        }
        var plan = TrackingPlan(path: path, tables: chosen, skipped: skipped, historyTables: [], historyIndexes: [], triggers: [], statements: [])
        if !hasHistory && !chosen.isEmpty {
            plan.historyTables = [HistorySchema.transactions, HistorySchema.changes]
            plan.historyIndexes = [TrackingTriggers.index]
            plan.statements = TrackingTriggers.tablesSQL()
        }
        // Which key each row of a table addressed by its declared key has: the layout's rule.
        let schema = chosen.contains { if case .primaryKey = $0.key { true } else { false } } ? try ForeignSchema.read(db) : nil
        for t in chosen {
            plan.triggers += TrackingTriggers.names(for: t.table)
            plan.statements += TrackingTriggers.triggersSQL(t, columns: info[t.table]!.columns.map(\.name), schema: schema?.table(named: t.table))
        }
        return plan
    }

    /// Installs `plan` in one transaction; throws (and changes nothing) when the
    /// file's tables changed since the plan was made.
    public static func track(_ plan: TrackingPlan) throws(StoreError) {
        guard !plan.statements.isEmpty else { return }
        let db = try open(plan.path)
        do {
            try db.transaction(.immediate) {
                if try Self.plan(path: plan.path, tables: plan.tables).statements != plan.statements {
                    throw StoreError.invalidOperation("\(plan.path): the database changed since the tracking plan was made; nothing was installed")
                }
                for statement in plan.statements { try db.execute(statement) }
            }
        } catch {
            throw StoreError(nesting: error)
        }
    }

    /// Removes every table, index and trigger tracking added (one transaction) and
    /// returns their names; nothing else in the file changes.
    @discardableResult
    public static func untrack(path: String) throws(StoreError) -> [String] {
        let db = try open(path)
        do {
            return try db.transaction(.immediate) {
                let names = try trackingNames(db)
                for (type, name) in names.triggers { try db.execute("DROP \(type) \(quoteIdentifier(name))") }
                for (type, name) in names.others { try db.execute("DROP \(type) IF EXISTS \(quoteIdentifier(name))") }
                return names.triggers.map(\.name) + names.others.map(\.name)
            }
        } catch {
            throw StoreError(nesting: error)
        }
    }

    /// The tables of the file that tracking watches (by their triggers' names).
    public static func trackedTables(path: String) throws(StoreError) -> [String] {
        try trackedTables(open(path))
    }

    /// What `untrack` would remove: the triggers, then the index and tables.
    public static func trackingObjects(path: String) throws(StoreError) -> [String] {
        let names = try trackingNames(open(path))
        return names.triggers.map(\.name) + names.others.map(\.name)
    }

    /// The three trigger names tracking gives `table` (`_vellum_history_<table>_insert`, `_update`, `_delete`).
    public static func triggerNames(for table: String) -> [String] {
        TrackingTriggers.names(for: table)
    }

    // MARK: -

    private static func trackingNames(_ db: Connection) throws(StoreError) -> (triggers: [(type: String, name: String)], others: [(type: String, name: String)]) {
        var triggers: [(type: String, name: String)] = []
        for name in try triggerNames(db) { triggers.append(("TRIGGER", name)) }
        var others: [(type: String, name: String)] = []
        if try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?", [.string(TrackingTriggers.index)]) == 1 {
            others.append(("INDEX", TrackingTriggers.index))
        }
        for table in [HistorySchema.changes, HistorySchema.transactions] where try db.tableExists(table) { others.append(("TABLE", table)) }
        return (triggers, others)
    }

    private static func triggerNames(_ db: Connection) throws(StoreError) -> [String] {
        try db.rows("SELECT name FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ? ORDER BY name",
                    [.integer(Int64(HistorySchema.triggerPrefix.count)), .string(HistorySchema.triggerPrefix)]).compactMap { $0[0].stringValue }
    }

    /// The tables that history triggers watch on `db` (`HistoryCoverage` asks too).
    static func trackedTables(_ db: Connection) throws(StoreError) -> [String] {
        try db.rows("SELECT DISTINCT tbl_name FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ? ORDER BY tbl_name",
                    [.integer(Int64(HistorySchema.triggerPrefix.count)), .string(HistorySchema.triggerPrefix)]).compactMap { $0[0].stringValue }
    }

    /// The file, read-write, its journal mode untouched; refused when it is a Vellum
    /// store (whose history is its own) or not a usable file.
    private static func open(_ path: String) throws(StoreError) -> Connection {
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path) }
        try StoreFileCheck.check(path)
        if !PersistentStore.isWritable(path) { throw .readOnly(path: path) }
        let db = try Connection(path: path, options: .init(journalModeWAL: false))
        if try db.tableExists(PersistentStore.metadataTable) {
            throw .invalidOperation("\(path): a Vellum store records its own history; nothing to track")
        }
        return db
    }
}
