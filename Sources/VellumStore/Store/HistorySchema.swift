import Foundation

/// Persistent history lives in the store itself, written by triggers that the
/// store installs on every entity table and join table — so writes that bypass
/// Vellum (the `sqlite3` shell, another program) are recorded too, in the same
/// transaction.
///
/// * `_vellum_transactions(seq, timestamp, author, process)`: one row per Vellum
///   save that changed something (created with its first history row).
/// * `_vellum_changes(id, txn, timestamp, entity, pk, kind, columns, tombstone, pks)`:
///   `kind` 0 insert, 1 update, 2 delete; `columns` lists changed columns or
///   properties (updates); `tombstone` is a JSON object of the values kept on delete.
///   Writes made outside Vellum get one row per changed row from the triggers
///   (`txn` NULL); a join-table row changed outside Vellum is an update of the
///   to-many on each side. Vellum's own saves skip the triggers and record
///   themselves, compactly: one row per entity, kind and changed-key set, with the
///   primary keys packed in `pks` (little-endian Int64s) — a 100k-row save adds one
///   history row.
///
/// The update trigger also bumps `_version` when a writer outside Vellum left it
/// unchanged, so that writer takes part in optimistic locking.
///
/// Triggers use only SQL built into SQLite (no custom functions), so any client can
/// write. Vellum's writer connection runs with triggers off
/// (`Connection.setTriggersEnabled(false)`): it records its own saves and bumps its
/// own versions instead.
enum HistorySchema {
    static let transactions = "_vellum_transactions"
    static let changes = "_vellum_changes"
    /// Version of the triggers below, kept in `_vellum_metadata` under `triggerVersionKey`
    /// (absent: 1, history rows of entity tables only). 2: `_version` bump, join tables.
    static let triggerVersion = 2
    static let triggerVersionKey = "historyTriggers"
    /// Every trigger Vellum installs is named with this prefix.
    static let triggerPrefix = "_vellum_history_"

    static func tablesSQL() -> [String] {
        [
            "CREATE TABLE \(transactions) (seq INTEGER PRIMARY KEY AUTOINCREMENT, timestamp REAL NOT NULL, author TEXT, process INTEGER)",
            "CREATE TABLE \(changes) (id INTEGER PRIMARY KEY AUTOINCREMENT, txn INTEGER, timestamp REAL NOT NULL, entity TEXT NOT NULL, pk INTEGER, kind INTEGER NOT NULL, columns TEXT, tombstone TEXT, pks BLOB)",
            "CREATE INDEX \(changes)_txn ON \(changes) (txn)",
        ]
    }

    private static let now = "((julianday('now') - 2440587.5) * 86400.0)"

    /// Triggers for one root table: every stored column of its hierarchy is watched.
    static func triggersSQL(layout: any StoreLayout, root: Entity) -> [String] {
        let table = quoteIdentifier(layout.table(of: root.name) ?? root.name)
        let (pk, entity, version) = (layout.qualifiedKey(), layout.qualifiedEntity(), quoteIdentifier(layout.versionColumn))
        var columns: [String] = []
        var tombstoneColumns: [String] = []
        for name in root.hierarchyNames {
            let m = layout.mapping(for: name)!
            for (i, c) in m.attributeColumns.enumerated() {
                guard let c, !columns.contains(c) else { continue }
                columns.append(c)
                if m.entity.attributes[i].preservesValueInHistoryOnDeletion { tombstoneColumns.append(c) }
            }
            for s in m.relationshipStorage {
                if case .foreignKey(let c) = s, !columns.contains(c) { columns.append(c) }
            }
        }
        let changed = columns.isEmpty ? "NULL" : "NULLIF(rtrim(" + columns.map { c in
            "(CASE WHEN OLD.\(quoteIdentifier(c)) IS NOT NEW.\(quoteIdentifier(c)) THEN \(literal(c + ",")) ELSE '' END)"
        }.joined(separator: " || ") + ", ','), '')"
        let tombstone = tombstoneColumns.isEmpty ? "NULL" : "json_object(" + tombstoneColumns.map { c in
            "\(literal(c)), OLD.\(quoteIdentifier(c))"
        }.joined(separator: ", ") + ")"
        let prefix = triggerPrefix + root.name
        return [
            """
            CREATE TRIGGER \(quoteIdentifier(prefix + "_insert")) AFTER INSERT ON \(table) BEGIN
              INSERT INTO \(changes) (txn, timestamp, entity, pk, kind) VALUES (NULL, \(now), NEW.\(entity), NEW.\(pk), 0);
            END
            """,
            // The bump is a nested UPDATE of the same row: it does not fire this trigger again
            // (SQLite's default), and with recursive triggers on its own `_version` changed, so
            // the WHERE stops it after one step.
            """
            CREATE TRIGGER \(quoteIdentifier(prefix + "_update")) AFTER UPDATE ON \(table) BEGIN
              INSERT INTO \(changes) (txn, timestamp, entity, pk, kind, columns) VALUES (NULL, \(now), NEW.\(entity), NEW.\(pk), 1, \(changed));
              UPDATE \(table) SET \(version) = OLD.\(version) + 1 WHERE \(pk) = NEW.\(pk) AND NEW.\(version) IS OLD.\(version);
            END
            """,
            """
            CREATE TRIGGER \(quoteIdentifier(prefix + "_delete")) AFTER DELETE ON \(table) BEGIN
              INSERT INTO \(changes) (txn, timestamp, entity, pk, kind, tombstone) VALUES (NULL, \(now), OLD.\(entity), OLD.\(pk), 2, \(tombstone));
            END
            """,
        ]
    }

    /// Triggers for one many-to-many join table: a row inserted, changed or deleted
    /// is an update of the to-many on both sides (a side whose row is gone is skipped).
    static func triggersSQL(join: JoinTable, layout: any StoreLayout) -> [String] {
        func record(_ rows: [String]) -> String {
            [(join.sourceColumn, join.sourceTable, join.sourceRelationship), (join.targetColumn, join.targetTable, join.targetRelationship)].map { column, table, relationship in
                let keys = rows.map { "\($0).\(quoteIdentifier(column))" }.joined(separator: ", ")
                return "  INSERT INTO \(changes) (txn, timestamp, entity, pk, kind, columns) "
                    + "SELECT NULL, \(now), \(layout.qualifiedEntity()), \(layout.qualifiedKey()), 1, \(literal(relationship)) FROM \(quoteIdentifier(table)) WHERE \(layout.qualifiedKey()) IN (\(keys));"
            }.joined(separator: "\n")
        }
        let prefix = triggerPrefix + join.table
        return [("insert", ["NEW"]), ("update", ["OLD", "NEW"]), ("delete", ["OLD"])].map { event, rows in
            "CREATE TRIGGER \(quoteIdentifier(prefix + "_" + event)) AFTER \(event.uppercased()) ON \(quoteIdentifier(join.table)) BEGIN\n\(record(rows))\nEND"
        }
    }

    /// Every history trigger of a layout.
    static func triggersSQL(layout: any StoreLayout) -> [String] {
        layout.model.rootEntities.flatMap { triggersSQL(layout: layout, root: $0) } + layout.joinTables.flatMap { triggersSQL(join: $0, layout: layout) }
    }

    static func schemaSQL(layout: any StoreLayout) -> [String] {
        tablesSQL() + triggersSQL(layout: layout) + [recordTriggerVersionSQL()]
    }

    static func recordTriggerVersionSQL() -> String {
        "INSERT OR REPLACE INTO _vellum_metadata (key, value) VALUES (\(literal(triggerVersionKey)), '\(triggerVersion)')"
    }

    static let openTransactionSQL = "INSERT INTO \(transactions) (timestamp, author, process) VALUES (\(now), ?, ?)"

    /// A SQL string literal.
    private static func literal(_ text: String) -> String { SQLiteDialect().literal(text) }
}
