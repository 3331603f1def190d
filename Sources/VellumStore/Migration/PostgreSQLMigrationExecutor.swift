import Foundation

/// The schema step of a PostgreSQL store's migration, inside the caller's transaction
/// (PostgreSQL's DDL is transactional): the new store is built complete in a staging
/// schema — functions, tables, constraints, indexes, triggers, metadata — and filled
/// from the old tables; then the old schema is renamed to the backup's name (or
/// dropped) and the staging schema takes the store's name. Objects in the schema that
/// Vellum did not make would not survive that, so such a schema is refused first.
struct PostgreSQLMigrationExecutor {
    let design: MigrationDesign
    let connection: Connection
    /// The store's schema.
    let schema: String
    let totalRows: Int
    let progress: (MigrationProgress) -> Void

    private var c: Connection { connection }
    private var d: PostgreSQLDialect { PostgreSQLDialect() }
    private var newLayout: any StoreLayout { design.newLayout }
    private var oldLayout: any StoreLayout { design.oldLayout }

    /// Runs the step; returns the backup schema's name (nil: the old schema was dropped).
    func run(backup: Bool, oldHash: String) throws(StoreError) -> String? {
        try refuseForeignObjects()
        let staging = "_vellum_migrating_" + UUID().uuidString.prefix(8).lowercased()
        try c.execute("CREATE SCHEMA \(d.quote(staging))")
        try c.execute("SET LOCAL search_path TO \(d.quote(staging)), public")
        for statement in PostgreSQLSchema(layout: newLayout).statements() { try c.execute(statement) }
        let metadata = d.quote(PersistentStore.metadataTable)
        try c.execute("CREATE TABLE \(metadata) (key text COLLATE \"C\" PRIMARY KEY, value text NOT NULL)")
        try c.execute("INSERT INTO \(metadata) (key, value) SELECT key, value FROM \(d.quote(schema)).\(metadata)")
        // The old tables by their plain names: the copies' expressions name them so.
        try c.execute("SET LOCAL search_path TO \(d.quote(schema)), public")
        var done = 0
        for table in design.copies.keys.sorted() {
            for copy in design.copies[table] ?? [] { try fill(table, copy, staging: staging, done: &done) }
        }
        for join in newLayout.joinTables { try fillJoin(join, staging: staging) }
        for root in newLayout.model.rootEntities { try continueKeys(root.name, staging: staging) }
        try checkReferences()
        try carryHistory(staging: staging)
        let kept = backup ? try backupName(oldHash) : nil
        if let kept {
            try c.execute("ALTER SCHEMA \(d.quote(schema)) RENAME TO \(d.quote(kept))")
        } else {
            try c.execute("DROP SCHEMA \(d.quote(schema)) CASCADE")
        }
        try c.execute("ALTER SCHEMA \(d.quote(staging)) RENAME TO \(d.quote(schema))")
        try c.execute("SET LOCAL search_path TO \(d.quote(schema)), public")
        // The history functions keep the search path they are created with, so they are
        // made only now, under the schema's final name (made in staging, they would name it).
        for statement in PostgreSQLHistorySchema.schemaSQL(layout: newLayout, includingTables: false) { try c.execute(statement) }
        progress(MigrationProgress(rowsDone: totalRows, rowsTotal: totalRows, table: ""))
        return kept
    }

    /// The history tables move to the new store with every row and their id sequences,
    /// so a reader's token from before the migration still reads "after" correctly
    /// (the store's older history is not lost with a dropped schema). A store made
    /// before PostgreSQL stores had history gets empty tables.
    private func carryHistory(staging: String) throws(StoreError) {
        try c.execute("SET LOCAL search_path TO \(d.quote(staging)), public")
        for statement in PostgreSQLHistorySchema.tablesSQL() { try c.execute(statement) }
        try c.execute("SET LOCAL search_path TO \(d.quote(schema)), public")
        for (table, key) in [(HistorySchema.transactions, "seq"), (HistorySchema.changes, "id")] {
            let old = "\(d.quote(schema)).\(d.quote(table))", new = "\(d.quote(staging)).\(d.quote(table))"
            guard try c.scalarInt("SELECT CASE WHEN to_regclass(?) IS NULL THEN 0 ELSE 1 END", [.string(old)]) == 1 else { continue }
            try c.execute("INSERT INTO \(new) OVERRIDING SYSTEM VALUE SELECT * FROM \(old)")
            let last = try c.scalarInt("SELECT COALESCE(pg_sequence_last_value(pg_get_serial_sequence(\(d.literal(old)), \(d.literal(key)))::regclass), 0)") ?? 0
            if last > 0 { try c.run("SELECT setval(pg_get_serial_sequence(\(d.literal(new)), \(d.literal(key))), ?)", [.integer(last)]) }
        }
    }

    /// Tables, views and functions in the schema besides the store's own.
    private func refuseForeignObjects() throws(StoreError) {
        let ours = Set(oldLayout.model.rootEntities.compactMap { oldLayout.table(of: $0.name) } + oldLayout.joinTables.map(\.table)
                       + [PersistentStore.metadataTable, HistorySchema.transactions, HistorySchema.changes])
        let relations = try c.rows("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
            WHERE n.nspname = ? AND c.relkind IN ('r', 'p', 'v', 'm', 'f') ORDER BY 1
            """, [.string(schema)]).compactMap { $0[0].stringValue }.filter { !ours.contains($0) }
        let functions = try c.rows("""
            SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace \
            WHERE n.nspname = ? AND p.proname NOT LIKE 'vellum\\_%' ORDER BY 1
            """, [.string(schema)]).compactMap { $0[0].stringValue }
        let others = relations + functions.map { $0 + "()" }
        guard others.isEmpty else {
            throw .invalidOperation("schema \(schema) also holds \(others.prefix(5).joined(separator: ", "))\(others.count > 5 ? ", …" : ""), which Vellum did not make: the migration rebuilds the schema and would not keep them; move them to another schema first; nothing was changed")
        }
    }

    /// Copies one entity's rows into the staging table: columns and relationship
    /// expressions in one INSERT … SELECT, then constants and conversions by UPDATE
    /// (a bound value gets its type from the column it is assigned to).
    private func fill(_ table: String, _ copy: EntityCopy, staging: String, done: inout Int) throws(StoreError) {
        let target = "\(d.quote(staging)).\(d.quote(table))"
        let kind = d.quote(newLayout.entityColumn)
        let booleans = try booleanColumns(copy.oldTable)
        let targetTypes = try columnTypes(table, schema: staging)
        var selects = ["s.\(d.quote(oldLayout.primaryKeyColumn))", "?", "s.\(d.quote(oldLayout.versionColumn))"]
        for (column, source) in copy.columns {
            switch source {
            case .column(let old), .coalesce(let old, _):
                // PostgreSQL has no assignment cast from boolean to the integer types (SQLite's boolean → integer is as is).
                let boolToNumber = booleans.contains(old) && targetTypes[column] != "boolean"
                selects.append(boolToNumber ? "CAST(s.\(d.quote(old)) AS integer)" : "s.\(d.quote(old))")
            case .null, .constant, .converted: selects.append("NULL")
            case .expression(let e): selects.append(e)
            }
        }
        let columns = ([newLayout.primaryKeyColumn, newLayout.entityColumn, newLayout.versionColumn] + copy.columns.map(\.column)).map(d.quote)
        let copied = try c.scalarInt("""
            WITH copied AS (INSERT INTO \(target) (\(columns.joined(separator: ", "))) SELECT \(selects.joined(separator: ", ")) \
            FROM \(d.quote(copy.oldTable)) s WHERE s.\(d.quote(oldLayout.entityColumn)) = ? RETURNING 1) SELECT count(*) FROM copied
            """, [.string(copy.newEntity), .string(copy.oldEntity)])
        done += Int(copied ?? 0)
        progress(MigrationProgress(rowsDone: done, rowsTotal: totalRows, table: table))
        for (column, source) in copy.columns {
            switch source {
            case .constant(let v):
                try c.run("UPDATE \(target) SET \(d.quote(column)) = ? WHERE \(kind) = ?", [v, .string(copy.newEntity)])
            case .coalesce(_, let v):
                try c.run("UPDATE \(target) SET \(d.quote(column)) = ? WHERE \(d.quote(column)) IS NULL AND \(kind) = ?", [v, .string(copy.newEntity)])
            case .converted(let old, let from, let to, let orDefault):
                try convert(copy, column: column, old: old, from: from, to: to, target: target)
                if let orDefault {
                    try c.run("UPDATE \(target) SET \(d.quote(column)) = ? WHERE \(d.quote(column)) IS NULL AND \(kind) = ?", [orDefault, .string(copy.newEntity)])
                }
            case .column, .null, .expression:
                break
            }
        }
    }

    /// A column whose type changed, row by row with the same rule as SQLite stores (`TypeChange.convert`).
    private func convert(_ copy: EntityCopy, column: String, old: String, from: AttributeType, to: AttributeType, target: String) throws(StoreError) {
        let pk = d.quote(oldLayout.primaryKeyColumn)
        let rows = try c.rows("SELECT s.\(pk), s.\(d.quote(old)) FROM \(d.quote(copy.oldTable)) s WHERE s.\(d.quote(oldLayout.entityColumn)) = ? AND s.\(d.quote(old)) IS NOT NULL",
                              [.string(copy.oldEntity)])
        for row in rows {
            guard let key = row[0].integerValue else { continue }
            guard let converted = TypeChange.convert(try row[1].coerced(to: from), to: to) else {
                throw .invalidOperation("\(copy.newEntity) \(key): the value of \(column) does not fit \(to.rawValue); nothing was changed")
            }
            try c.run("UPDATE \(target) SET \(d.quote(column)) = ? WHERE \(d.quote(newLayout.primaryKeyColumn)) = ?", [converted, .integer(key)])
        }
    }

    /// A join table's rows from the old storage of its relationship, both ends kept.
    private func fillJoin(_ join: JoinTable, staging: String) throws(StoreError) {
        guard let rows = design.sources.joinRows(join) else { return }
        let pk = d.quote(newLayout.primaryKeyColumn)
        func staged(_ table: String) -> String { "\(d.quote(staging)).\(d.quote(table))" }
        // The SELECT's NULL positions are text to PostgreSQL: every join column is a bigint.
        let names = rows.columns.indices.map { "c\($0)" }
        try c.execute("""
            INSERT INTO \(staged(join.table)) (\(rows.columns.map(d.quote).joined(separator: ", "))) \
            SELECT \(names.map { "CAST(\($0) AS bigint)" }.joined(separator: ", ")) FROM (\(rows.select)) AS _vellum_join_rows(\(names.joined(separator: ", "))) \
            WHERE c0 IN (SELECT \(pk) FROM \(staged(join.sourceTable))) AND c1 IN (SELECT \(pk) FROM \(staged(join.targetTable))) \
            ON CONFLICT DO NOTHING
            """)
    }

    /// Keys are never reused: the new key sequence starts past the largest key the
    /// sources ever handed out (their sequences) and the largest copied.
    private func continueKeys(_ table: String, staging: String) throws(StoreError) {
        let sources = Set((design.copies[table] ?? []).map(\.oldTable))
        let key = d.literal(newLayout.primaryKeyColumn)
        var largest = try c.scalarInt("SELECT COALESCE(max(\(d.quote(newLayout.primaryKeyColumn))), 0) FROM \(d.quote(staging)).\(d.quote(table))") ?? 0
        for source in sources {
            let qualified = d.literal(d.quote(schema) + "." + d.quote(source))
            let seq = try c.scalarInt("SELECT COALESCE(pg_sequence_last_value(pg_get_serial_sequence(\(qualified), \(key))::regclass), 0)") ?? 0
            largest = max(largest, seq)
        }
        guard largest > 0 else { return }
        let qualified = d.literal(d.quote(staging) + "." + d.quote(table))
        try c.run("SELECT setval(pg_get_serial_sequence(\(qualified), \(key)), ?)", [.integer(largest)])
    }

    /// The deferred foreign keys, checked now rather than at COMMIT, with a message.
    private func checkReferences() throws(StoreError) {
        do { try c.execute("SET CONSTRAINTS ALL IMMEDIATE") } catch {
            throw .invalidOperation("schema \(schema): rows would refer to rows that the migration does not keep (\(ErrorText.describe(error))); nothing was changed")
        }
    }

    /// `<schema>_before_<old hash>` (cut to PostgreSQL's 63 bytes), with `_2`, `_3`, … when taken.
    private func backupName(_ oldHash: String) throws(StoreError) -> String {
        let base = String((schema + "_before_" + oldHash.prefix(12)).utf8.prefix(PostgreSQLDialect.maximumIdentifierBytes - 3)) ?? schema
        var name = base
        var n = 1
        while try c.scalarInt("SELECT count(*) FROM pg_namespace WHERE nspname = ?", [.string(name)]) ?? 0 > 0 {
            n += 1
            name = "\(base)_\(n)"
        }
        return name
    }

    private func booleanColumns(_ table: String) throws(StoreError) -> Set<String> {
        Set(try columnTypes(table, schema: schema).filter { $0.value == "boolean" }.keys)
    }

    private func columnTypes(_ table: String, schema: String) throws(StoreError) -> [String: String] {
        var out: [String: String] = [:]
        for row in try c.rows("SELECT column_name::text, data_type::text FROM information_schema.columns WHERE table_schema = ? AND table_name = ?", [.string(schema), .string(table)]) {
            if let name = row[0].stringValue, let type = row[1].stringValue { out[name] = type }
        }
        return out
    }
}
