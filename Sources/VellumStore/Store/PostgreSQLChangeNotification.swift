/// Every commit that changes a store's tables — Vellum's saves or any other
/// program's (`psql`) — sends a notification on `channel` whose payload is the schema's
/// name and, when the store has history, the transaction's position in it (the largest
/// change id it recorded: `schema 1234`), so a listener whose history token is already
/// there skips the read (`PostgreSQLChangeMonitor`). PostgreSQL delivers a transaction's
/// notifications at commit (equal ones folded into one). Statement-level triggers, so a
/// bulk write costs one call per statement:
///
/// * on each store table, after another program's statement: its row triggers have
///   recorded its changes by then, so the largest change id is its position so far;
/// * with history, Vellum's writer (`vellum.writer = on`) is skipped there (its history
///   rows come last in a save) and notifies after inserting its history rows instead.
enum PostgreSQLChangeNotification {
    static let channel = "vellum_changes"
    static let function = "vellum_notify_change"
    private static let d = PostgreSQLDialect()

    /// The function and a trigger on each of the layout's tables (root tables and join tables),
    /// as a store without history has them.
    static func statements(layout: any StoreLayout) -> [String] {
        [createFunction] + tables(layout).map { trigger(on: $0, when: nil) }
    }

    /// With history: the store tables' triggers skip Vellum's writer, and the history's change
    /// table notifies for it (after `PostgreSQLHistorySchema`'s tables exist).
    static func historyStatements(layout: any StoreLayout) -> [String] {
        let writer = "current_setting('\(PostgreSQLHistorySchema.writerSetting)', true)"
        return [createFunction] + tables(layout).map { trigger(on: $0, when: "\(writer) IS DISTINCT FROM 'on'") }
            + ["CREATE OR REPLACE TRIGGER \(function) AFTER INSERT ON \(d.quote(HistorySchema.changes)) "
                + "FOR EACH STATEMENT WHEN (\(writer) = 'on') EXECUTE FUNCTION \(function)()"]
    }

    /// The schema is the trigger's own (any search path, a staging schema too); a store without
    /// history tables sends the schema alone.
    private static let createFunction = """
        CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE position bigint;
        BEGIN
          IF to_regclass(format('%I.%I', TG_TABLE_SCHEMA, '\(HistorySchema.changes)')) IS NOT NULL THEN
            EXECUTE format('SELECT max(id) FROM %I.%I', TG_TABLE_SCHEMA, '\(HistorySchema.changes)') INTO position;
          END IF;
          PERFORM pg_notify('\(channel)', TG_TABLE_SCHEMA || COALESCE(' ' || position, ''));
          RETURN NULL;
        END $$
        """

    private static func tables(_ layout: any StoreLayout) -> [String] {
        layout.model.rootEntities.compactMap { layout.table(of: $0.name) } + layout.joinTables.map(\.table)
    }

    private static func trigger(on table: String, when condition: String?) -> String {
        "CREATE OR REPLACE TRIGGER \(function) AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(d.quote(table)) "
            + "FOR EACH STATEMENT \(condition.map { "WHEN (\($0)) " } ?? "")EXECUTE FUNCTION \(function)()"
    }

    /// Installs the triggers in a store created before they existed, or, in a store with
    /// history, before notifications carried its position (one transaction).
    static func installIfMissing(on db: PGConnection, layout: any StoreLayout) throws(StoreError) {
        func missing() throws(StoreError) -> [String] {
            let what = try db.scalar("""
                SELECT CASE WHEN NOT \(PostgreSQLSchema.inCatalog(function: "$1")) THEN 'all' WHEN \(PostgreSQLSchema.inCatalog(relation: "$2")) AND NOT EXISTS \
                (SELECT 1 FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
                WHERE n.nspname = current_schema() AND c.relname = $2 AND t.tgname = $1) THEN 'history' ELSE '' END
                """, [.string(function), .string(HistorySchema.changes)])?.stringValue
            switch what {
            case "all": return statements(layout: layout)
            case "history": return historyStatements(layout: layout)
            default: return []
            }
        }
        guard try !missing().isEmpty else { return }
        // Another opener may be installing them too: under the lock, the second finds them there.
        try PostgreSQLSchema.withCreationLock(db) { () throws(StoreError) in
            for statement in try missing() { try db.execute(statement) }
        }
    }

    /// What one notification says of store `schema`: nil when it is another schema's;
    /// otherwise the position it carries (nil: none, from a store without history or an
    /// older trigger) and whether another connection than `ownPID` sent it.
    struct Notice: Equatable {
        var position: Int64?
        var fromOthers: Bool
    }

    static func notice(_ n: PGNotification, schema: String, ownPID: Int32) -> Notice? {
        if n.payload == schema { return Notice(position: nil, fromOthers: n.senderPID != ownPID) }
        guard let space = n.payload.lastIndex(of: " "), n.payload[..<space] == schema,
              let position = Int64(n.payload[n.payload.index(after: space)...]) else { return nil }
        return Notice(position: position, fromOthers: n.senderPID != ownPID)
    }

    /// True when reading history after `token` may find something new: a notice without a
    /// position, or one past the token (a read for an earlier notice may have covered it).
    static func needsRead(_ notices: [Notice], after token: HistoryToken) -> Bool {
        notices.contains { $0.position.map { $0 > token.rawValue } ?? true }
    }
}
