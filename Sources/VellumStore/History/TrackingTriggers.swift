import Foundation

/// The SQL that tracking installs in a database Vellum did not create: the two
/// history tables (as `HistorySchema`'s, without AUTOINCREMENT, which would add
/// `sqlite_sequence`, a table no one can drop again) and three triggers per
/// table. A trigger records the TABLE name as `entity` and the row's key as `pk`:
/// the row id (or `INTEGER PRIMARY KEY`), a declared integer key column, or — a key
/// the object ID digests — the key's values (`RecordedKey`); the history reader maps
/// the table to its entity through the store layout, and digests recorded values. Only SQL built into SQLite, so any client
/// can write. Nothing else: no `_vellum_metadata`, no change to any table.
enum TrackingTriggers {
    static let index = HistorySchema.changes + "_txn"

    static func tablesSQL() -> [String] {
        [
            "CREATE TABLE \(HistorySchema.transactions) (seq INTEGER PRIMARY KEY, timestamp REAL NOT NULL, author TEXT, process INTEGER)",
            "CREATE TABLE \(HistorySchema.changes) (id INTEGER PRIMARY KEY, txn INTEGER, timestamp REAL NOT NULL, entity TEXT NOT NULL, pk INTEGER, kind INTEGER NOT NULL, columns TEXT, tombstone TEXT, pks BLOB)",
            "CREATE INDEX \(index) ON \(HistorySchema.changes) (txn)",
        ]
    }

    /// `_vellum_history_<table>_insert`, `_update`, `_delete`.
    static func names(for table: String) -> [String] {
        ["insert", "update", "delete"].map { HistorySchema.triggerPrefix + table + "_" + $0 }
    }

    private static let now = "((julianday('now') - 2440587.5) * 86400.0)"

    /// `schema`: the table as the store layout reads it (for a declared key: which key each row has).
    static func triggersSQL(_ tracked: TrackedTable, columns: [String], schema: ForeignSchema.Table?) -> [String] {
        let table = quoteIdentifier(tracked.table), entity = literal(tracked.table)
        let new = tracked.key.sql("NEW", table: schema), old = tracked.key.sql("OLD", table: schema)
        let names = names(for: tracked.table).map(quoteIdentifier)
        let changed = columns.isEmpty ? "NULL" : "NULLIF(rtrim(" + columns.map { c in
            "(CASE WHEN OLD.\(quoteIdentifier(c)) IS NOT NEW.\(quoteIdentifier(c)) THEN \(literal(c + ",")) ELSE '' END)"
        }.joined(separator: " || ") + ", ','), '')"
        let insert = "INSERT INTO \(HistorySchema.changes) (txn, timestamp, entity, pk, kind"
        return [
            "CREATE TRIGGER \(names[0]) AFTER INSERT ON \(table) BEGIN\n  \(insert)) VALUES (NULL, \(now), \(entity), \(new), 0);\nEND",
            // A row whose key changed is another object: the old one deleted, the new one inserted.
            """
            CREATE TRIGGER \(names[1]) AFTER UPDATE ON \(table) BEGIN
              \(insert), columns) SELECT NULL, \(now), \(entity), \(new), 1, \(changed) WHERE \(old) IS \(new);
              \(insert)) SELECT NULL, \(now), \(entity), \(old), 2 WHERE \(old) IS NOT \(new);
              \(insert)) SELECT NULL, \(now), \(entity), \(new), 0 WHERE \(old) IS NOT \(new);
            END
            """,
            "CREATE TRIGGER \(names[2]) AFTER DELETE ON \(table) BEGIN\n  \(insert)) VALUES (NULL, \(now), \(entity), \(old), 2);\nEND",
        ]
    }

    /// A SQL string literal.
    static func literal(_ text: String) -> String { SQLiteDialect().literal(text) }
}
