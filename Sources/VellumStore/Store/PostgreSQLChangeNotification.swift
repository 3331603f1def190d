/// Every commit that changes a store's tables — Vellum's saves or any other
/// program's (`psql`) — sends one notification on `channel` with the schema's name as
/// payload (PostgreSQL folds a transaction's equal notifications into one and delivers
/// them at commit). Statement-level triggers, so a bulk write costs one call per statement.
enum PostgreSQLChangeNotification {
    static let channel = "vellum_changes"
    static let function = "vellum_notify_change"

    /// The function and a trigger on each of the layout's tables (root tables and join tables).
    static func statements(layout: any StoreLayout) -> [String] {
        let d = PostgreSQLDialect()
        let tables = layout.model.rootEntities.compactMap { layout.table(of: $0.name) } + layout.joinTables.map(\.table)
        let create = """
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('\(channel)', TG_TABLE_SCHEMA); RETURN NULL; END $$
            """
        return [create] + tables.map { table in
            "CREATE OR REPLACE TRIGGER \(function) AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(d.quote(table)) "
                + "FOR EACH STATEMENT EXECUTE FUNCTION \(function)()"
        }
    }

    /// Installs the triggers in a store created before they existed (one transaction).
    static func installIfMissing(on db: PGConnection, layout: any StoreLayout) throws(StoreError) {
        guard try db.scalar("SELECT to_regproc($1) IS NULL", [.string(function)]) == .bool(true) else { return }
        try db.execute((["BEGIN"] + statements(layout: layout) + ["COMMIT"]).joined(separator: ";\n"))
    }
}
