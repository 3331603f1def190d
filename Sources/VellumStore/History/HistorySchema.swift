import Foundation

/// Persistent history lives in the store itself, written by triggers that the
/// store installs on every entity table — so writes that bypass Vellum (the
/// `sqlite3` shell, another program) are recorded too, in the same transaction.
///
/// * `_vellum_transactions(seq, timestamp, author, process)`: one row per Vellum
///   save that changed something (created with its first history row).
/// * `_vellum_changes(id, txn, timestamp, entity, pk, kind, columns, tombstone, pks)`:
///   `kind` 0 insert, 1 update, 2 delete; `columns` lists changed columns or
///   properties (updates); `tombstone` is a JSON object of the values kept on delete.
///   Writes made outside Vellum get one row per changed row from the triggers
///   (`txn` NULL). Vellum's own saves skip the triggers and record themselves,
///   compactly: one row per entity, kind and changed-key set, with the primary keys
///   packed in `pks` (little-endian Int64s) — a 100k-row save adds one history row.
///
/// Triggers use only SQL built into SQLite (no custom functions), so any client can
/// write. Vellum's writer connection runs with triggers off
/// (`Connection.setTriggersEnabled(false)`): it records its own saves instead.
enum HistorySchema {
    static let transactions = "_vellum_transactions"
    static let changes = "_vellum_changes"

    static func tablesSQL() -> [String] {
        [
            "CREATE TABLE \(transactions) (seq INTEGER PRIMARY KEY AUTOINCREMENT, timestamp REAL NOT NULL, author TEXT, process INTEGER)",
            "CREATE TABLE \(changes) (id INTEGER PRIMARY KEY AUTOINCREMENT, txn INTEGER, timestamp REAL NOT NULL, entity TEXT NOT NULL, pk INTEGER, kind INTEGER NOT NULL, columns TEXT, tombstone TEXT, pks BLOB)",
            "CREATE INDEX \(changes)_txn ON \(changes) (txn)",
        ]
    }

    private static let now = "((julianday('now') - 2440587.5) * 86400.0)"

    /// Triggers for one root table: every stored column of its hierarchy is watched.
    static func triggersSQL(layout: NativeLayout, root: Entity) -> [String] {
        let table = quoteIdentifier(root.name)
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
            "(CASE WHEN OLD.\(quoteIdentifier(c)) IS NOT NEW.\(quoteIdentifier(c)) THEN '\(c.replacingOccurrences(of: "'", with: "''")),' ELSE '' END)"
        }.joined(separator: " || ") + ", ','), '')"
        let tombstone = tombstoneColumns.isEmpty ? "NULL" : "json_object(" + tombstoneColumns.map { c in
            "'\(c.replacingOccurrences(of: "'", with: "''"))', OLD.\(quoteIdentifier(c))"
        }.joined(separator: ", ") + ")"
        let prefix = "_vellum_history_\(root.name)"
        return [
            """
            CREATE TRIGGER \(quoteIdentifier(prefix + "_insert")) AFTER INSERT ON \(table) BEGIN
              INSERT INTO \(changes) (txn, timestamp, entity, pk, kind) VALUES (NULL, \(now), NEW."_entity", NEW."_pk", 0);
            END
            """,
            """
            CREATE TRIGGER \(quoteIdentifier(prefix + "_update")) AFTER UPDATE ON \(table) BEGIN
              INSERT INTO \(changes) (txn, timestamp, entity, pk, kind, columns) VALUES (NULL, \(now), NEW."_entity", NEW."_pk", 1, \(changed));
            END
            """,
            """
            CREATE TRIGGER \(quoteIdentifier(prefix + "_delete")) AFTER DELETE ON \(table) BEGIN
              INSERT INTO \(changes) (txn, timestamp, entity, pk, kind, tombstone) VALUES (NULL, \(now), OLD."_entity", OLD."_pk", 2, \(tombstone));
            END
            """,
        ]
    }

    static func schemaSQL(layout: NativeLayout) -> [String] {
        tablesSQL() + layout.model.rootEntities.flatMap { triggersSQL(layout: layout, root: $0) }
    }

    static func openTransactionSQL() -> String {
        "INSERT INTO \(transactions) (timestamp, author, process) VALUES (\(now), ?, ?)"
    }
}
