import Foundation

/// Persistent history in a PostgreSQL store: the same two tables and row meanings
/// as `HistorySchema` (SQLite), written in the same transaction as the change.
///
/// * Vellum's saves record themselves (`HistoryWriter`, compact rows with author and
///   process). Their writer connection sets `vellum.writer` to `on`, which the
///   row triggers below skip.
/// * Every other writer (`psql`, another program) is recorded by row triggers, one
///   change row per row (`txn` NULL); an update that left the version column as it
///   was gets it bumped (a BEFORE trigger), so such writers take part in optimistic
///   locking; a join-table row is an update of the to-many on both sides.
/// * Before a statement writes a store table, it takes the store's write lock (the
///   advisory lock of `PGEngine.writeLockSQL`). All writers thus hand out change ids
///   in commit order: a reader that has seen id N will never see a smaller id appear
///   later, so reading "after my token" misses nothing.
/// * `TRUNCATE` leaves no row changes: it moves the history horizon past a marker
///   row, so readers behind it are told to refetch (`historyExpired`).
enum PostgreSQLHistorySchema {
    /// The session setting that marks Vellum's writer connection (its triggers' work is its own).
    static let writerSetting = "vellum.writer"
    private static let d = PostgreSQLDialect()
    private static let now = "extract(epoch from clock_timestamp())::double precision"
    private static let skipOwnWriter = "IF current_setting('\(writerSetting)', true) = 'on' THEN RETURN NULL; END IF;"

    static func tablesSQL() -> [String] {
        [
            "CREATE TABLE \(d.quote(HistorySchema.transactions)) (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                + "timestamp double precision NOT NULL, author text, process integer)",
            "CREATE TABLE \(d.quote(HistorySchema.changes)) (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, txn bigint, "
                + "timestamp double precision NOT NULL, entity text NOT NULL, pk bigint, kind integer NOT NULL, columns text, tombstone text, pks bytea)",
            "CREATE INDEX \(d.quote(HistorySchema.changes + "_txn")) ON \(d.quote(HistorySchema.changes)) (txn)",
        ]
    }

    /// Opens a save's history transaction and returns its number.
    static let openTransactionSQL = "INSERT INTO \(d.quote(HistorySchema.transactions)) (timestamp, author, process) VALUES (\(now), ?, ?) RETURNING seq"

    /// Tables, functions and triggers of a layout. Functions keep the search path they
    /// were created with, so a writer whose own path differs (`psql`) records into this schema.
    static func schemaSQL(layout: any StoreLayout, includingTables: Bool = true) -> [String] {
        let schema = PostgreSQLSchema(layout: layout)
        let version = d.quote(layout.versionColumn)
        var sql = (includingTables ? tablesSQL() : []) + [
            function("vellum_write_lock", "PERFORM \(PGEngine.writeLockSQL(schema: "TG_TABLE_SCHEMA")); RETURN NULL;"),
            function("vellum_bump_version", """
                IF current_setting('\(writerSetting)', true) IS DISTINCT FROM 'on' AND NEW.\(version) IS NOT DISTINCT FROM OLD.\(version) THEN
                  NEW.\(version) := OLD.\(version) + 1;
                END IF;
                RETURN NEW;
                """),
            function("vellum_history_truncate", """
                DECLARE marker bigint;
                BEGIN
                  INSERT INTO \(d.quote(HistorySchema.changes)) (txn, timestamp, entity, kind) VALUES (NULL, \(now), TG_TABLE_NAME, 2) RETURNING id INTO marker;
                  DELETE FROM \(d.quote(PersistentStore.metadataTable)) WHERE key = 'historyHorizon';
                  INSERT INTO \(d.quote(PersistentStore.metadataTable)) (key, value) VALUES ('historyHorizon', marker::text);
                  RETURN NULL;
                END
                """, wrapped: false),
        ]
        let tables = layout.model.rootEntities.compactMap { layout.table(of: $0.name) } + layout.joinTables.map(\.table)
        for table in tables {
            sql.append(trigger("vellum_write_lock", "BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE", table, perRow: false))
            sql.append(trigger("vellum_history_truncate", "AFTER TRUNCATE", table, perRow: false))
        }
        for root in layout.model.rootEntities {
            guard let table = layout.table(of: root.name) else { continue }
            let name = schema.name63("vellum_history_" + table)
            sql.append(function(name, rootTriggerBody(layout: layout, root: root)))
            sql.append(trigger(name, "AFTER INSERT OR UPDATE OR DELETE", table, perRow: true))
            sql.append(trigger("vellum_bump_version", "BEFORE UPDATE", table, perRow: true))
        }
        for join in layout.joinTables {
            let name = schema.name63("vellum_history_" + join.table)
            sql.append(function(name, joinTriggerBody(join, layout: layout)))
            sql.append(trigger(name, "AFTER INSERT OR UPDATE OR DELETE", join.table, perRow: true))
        }
        // Notifications carry the history position (Vellum's writer notifies from the change table).
        return sql + PostgreSQLChangeNotification.historyStatements(layout: layout)
    }

    /// Installs history in a store created without it (one transaction), unless it is there.
    static func installIfMissing(on db: PGConnection, layout: any StoreLayout) throws(StoreError) {
        func missing() throws(StoreError) -> Bool {
            try db.scalar("SELECT NOT \(PostgreSQLSchema.inCatalog(relation: "$1"))", [.string(HistorySchema.changes)]) == .bool(true)
        }
        guard try missing() else { return }
        // Another opener may be installing it too: under the lock, the second finds it there.
        try PostgreSQLSchema.withCreationLock(db) { () throws(StoreError) in
            guard try missing() else { return }
            for statement in schemaSQL(layout: layout) { try db.execute(statement) }
        }
    }

    private static func function(_ name: String, _ body: String, wrapped: Bool = true) -> String {
        let code = wrapped ? "BEGIN\n\(body)\nEND" : body
        return "CREATE OR REPLACE FUNCTION \(d.quote(name))() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $vellum$\n\(code)\n$vellum$"
    }

    private static func trigger(_ function: String, _ when: String, _ table: String, perRow: Bool) -> String {
        "CREATE OR REPLACE TRIGGER \(d.quote(function)) \(when) ON \(d.quote(table)) FOR EACH \(perRow ? "ROW" : "STATEMENT") EXECUTE FUNCTION \(d.quote(function))()"
    }

    /// The row trigger of a root table: one change row per row, as SQLite's triggers write them.
    private static func rootTriggerBody(layout: any StoreLayout, root: Entity) -> String {
        var columns: [String] = []
        var kept: [(column: String, type: AttributeType)] = []
        for name in root.hierarchyNames {
            guard let m = layout.mapping(for: name) else { continue }
            for (i, c) in m.attributeColumns.enumerated() {
                guard let c, !columns.contains(c) else { continue }
                columns.append(c)
                if m.entity.attributes[i].preservesValueInHistoryOnDeletion { kept.append((c, m.entity.attributes[i].type)) }
            }
            for case .foreignKey(let c) in m.relationshipStorage where !columns.contains(c) { columns.append(c) }
        }
        let changed = columns.isEmpty ? "NULL" : "NULLIF(concat_ws(',', " + columns.map { c in
            "CASE WHEN OLD.\(d.quote(c)) IS DISTINCT FROM NEW.\(d.quote(c)) THEN \(d.literal(c)) END"
        }.joined(separator: ", ") + "), '')"
        let tombstone = kept.isEmpty ? "NULL" : "json_build_object(" + kept.map { c in
            "\(d.literal(c.column)), \(tombstoneValue("OLD." + d.quote(c.column), c.type))"
        }.joined(separator: ", ") + ")::text"
        let (entity, key) = (d.quote(layout.entityColumn), d.quote(layout.primaryKeyColumn))
        let changes = d.quote(HistorySchema.changes)
        return """
            \(skipOwnWriter)
            IF TG_OP = 'INSERT' THEN
              INSERT INTO \(changes) (txn, timestamp, entity, pk, kind) VALUES (NULL, \(now), NEW.\(entity), NEW.\(key), 0);
            ELSIF TG_OP = 'UPDATE' THEN
              INSERT INTO \(changes) (txn, timestamp, entity, pk, kind, columns) VALUES (NULL, \(now), NEW.\(entity), NEW.\(key), 1, \(changed));
            ELSE
              INSERT INTO \(changes) (txn, timestamp, entity, pk, kind, tombstone) VALUES (NULL, \(now), OLD.\(entity), OLD.\(key), 2, \(tombstone));
            END IF;
            RETURN NULL;
            """
    }

    /// A kept value as `HistoryWriter` writes it in a tombstone (dates in seconds since 1970,
    /// booleans 0/1, decimals and binary as text), so both read back the same.
    private static func tombstoneValue(_ column: String, _ type: AttributeType) -> String {
        switch type {
        case .date: return "extract(epoch from \(column))::double precision"
        case .boolean: return "\(column)::integer"
        case .decimal, .transformable: return "\(column)::text"
        case .binary: return "translate(encode(\(column), 'base64'), E'\\n', '')"
        case .uuid: return "upper(\(column)::text)"
        default: return column
        }
    }

    /// A join-table row changed outside Vellum: an update of the to-many on each side.
    private static func joinTriggerBody(_ join: JoinTable, layout: any StoreLayout) -> String {
        let (entity, key) = (d.quote(layout.entityColumn), d.quote(layout.primaryKeyColumn))
        func record(_ rows: [String]) -> String {
            [(join.sourceColumn, join.sourceTable, join.sourceRelationship), (join.targetColumn, join.targetTable, join.targetRelationship)].map { column, table, relationship in
                let keys = rows.map { "\($0).\(d.quote(column))" }.joined(separator: ", ")
                return "  INSERT INTO \(d.quote(HistorySchema.changes)) (txn, timestamp, entity, pk, kind, columns) "
                    + "SELECT NULL, \(now), \(entity), \(key), 1, \(d.literal(relationship)) FROM \(d.quote(table)) WHERE \(key) IN (\(keys));"
            }.joined(separator: "\n")
        }
        return """
            \(skipOwnWriter)
            IF TG_OP = 'INSERT' THEN
            \(record(["NEW"]))
            ELSIF TG_OP = 'UPDATE' THEN
            \(record(["OLD", "NEW"]))
            ELSE
            \(record(["OLD"]))
            END IF;
            RETURN NULL;
            """
    }
}
