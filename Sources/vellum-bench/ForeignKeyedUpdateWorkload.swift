import CSQLite
import Foundation
import VellumStore

/// foreign-keyed-update-200k: single-row updates, each its own save, of another program's
/// 200k-row `WITHOUT ROWID` table with a text primary key (its rows' object IDs digest the
/// key), beside raw SQLite running the same `UPDATE … WHERE code = ?`, each in its own
/// transaction (`synchronous=NORMAL`, as Vellum's connections). It measures how a save finds the row: by its key column's value (the
/// primary-key index), not by a digest of every row.
enum ForeignKeyedUpdateWorkload {
    static let rows = 200_000

    static func code(_ i: Int) -> String { "item-" + String(i).leftPadded(to: 6) }

    /// The database, written with raw SQLite only.
    static func database(at url: URL) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db = handle else {
            throw BenchError("cannot create \(url.path)")
        }
        defer { sqlite3_close_v2(db) }
        guard sqlite3_exec(db, "CREATE TABLE item (code TEXT PRIMARY KEY, qty INTEGER NOT NULL, note TEXT) WITHOUT ROWID; BEGIN", nil, nil, nil) == SQLITE_OK else {
            throw BenchError("create: \(String(cString: sqlite3_errmsg(db)))")
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO item VALUES (?, ?, ?)", -1, &statement, nil) == SQLITE_OK, let s = statement else {
            throw BenchError("prepare: \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(s) }
        for i in 0..<rows {
            sqlite3_bind_text(s, 1, code(i), -1, transient)
            sqlite3_bind_int64(s, 2, Int64(i % 100))
            sqlite3_bind_text(s, 3, "note \(i)", -1, transient)
            guard sqlite3_step(s) == SQLITE_DONE else { throw BenchError("insert: \(String(cString: sqlite3_errmsg(db)))") }
            sqlite3_reset(s)
        }
        guard sqlite3_exec(db, "COMMIT", nil, nil, nil) == SQLITE_OK else { throw BenchError("commit: \(String(cString: sqlite3_errmsg(db)))") }
    }

    /// `updates` objects (spread over the table, fetched before the clock starts) changed
    /// and saved one by one. Returns ms.
    static func update(at url: URL, updates: Int, round: Int) throws -> Double {
        let store = try ForeignWorkload.open(url)
        let context = try ManagedObjectContext(store: store)
        let step = rows / updates
        let codes = (0..<updates).map { "'\(code($0 * step))'" }.joined(separator: ", ")
        let objects = try context.fetch("item", where: QueryPredicate(format: "code IN {\(codes)}"))
        guard objects.count == updates else { throw BenchError("foreign-keyed-update: fetched \(objects.count) rows, expected \(updates)") }
        return try Timing.milliseconds {
            for (i, o) in objects.enumerated() {
                try o.setValue(.integer(Int64(1000 + round * updates + i)), forKey: "qty")
                _ = try context.save()
            }
        }
    }

    /// The same updates with raw SQLite (autocommit: one transaction each). Returns ms.
    static func rawUpdate(at path: String, updates: Int, round: Int) throws -> Double {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db = handle else { throw BenchError("cannot open \(path)") }
        defer { sqlite3_close_v2(db) }
        // As Vellum's connections sync (SQLite's default, FULL, syncs the journal once more a commit).
        guard sqlite3_exec(db, "PRAGMA synchronous=NORMAL", nil, nil, nil) == SQLITE_OK else { throw BenchError("pragma: \(String(cString: sqlite3_errmsg(db)))") }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "UPDATE item SET qty = ? WHERE code = ?", -1, &statement, nil) == SQLITE_OK, let s = statement else {
            throw BenchError("prepare: \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(s) }
        let step = rows / updates
        return try Timing.milliseconds {
            for i in 0..<updates {
                sqlite3_bind_int64(s, 1, Int64(-1000 - round * updates - i))
                sqlite3_bind_text(s, 2, code(i * step), -1, transient)
                guard sqlite3_step(s) == SQLITE_DONE, sqlite3_changes(db) == 1 else { throw BenchError("raw update: \(String(cString: sqlite3_errmsg(db)))") }
                sqlite3_reset(s)
            }
        }
    }
}

/// `SQLITE_TRANSIENT` (the C macro is not importable): SQLite copies the text.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
