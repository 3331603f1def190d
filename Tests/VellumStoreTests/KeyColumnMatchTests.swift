import Foundation
import Testing
@testable import VellumStore

/// Rows whose object IDs digest a text or composite key are written and read back by
/// their key columns' values (`KeyColumnMatch`): SQLite searches the primary-key index
/// instead of computing the digest of every row.
@Suite(.serialized) struct KeyColumnMatchTests {
    static let schema = """
        CREATE TABLE wr (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
        CREATE TABLE pair (a TEXT NOT NULL, b INT NOT NULL, note TEXT, PRIMARY KEY (a, b));
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
        INSERT INTO wr SELECT 'k' || i, 'v' || i FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
        INSERT INTO pair SELECT 'a', i, 'n' || i FROM n;
        """

    /// `EXPLAIN QUERY PLAN`'s details of `sql` on `db`, joined (a statement of its own,
    /// finalized here: a cached EXPLAIN stays busy and would hold the next commit).
    static func plan(_ sql: String, _ db: Connection) throws -> String {
        let s = try db.prepare("EXPLAIN QUERY PLAN " + sql)
        var details: [String] = []
        while try s.step() { details.append(s.string(3)) }
        return details.joined(separator: "; ")
    }

    /// An object known by its ID alone (another context's ID, a URI, a fault that never held
    /// values) in a table whose key is a digest is read through the connection's key map
    /// (`DigestKeyMap`) and the primary-key index; each such fault used to compute the digest
    /// of every row. A row another program adds after the map was made is found (the map is
    /// topped up); a row it deletes is missing; the file is not changed.
    @Test func anObjectKnownByItsIDAloneIsFoundThroughTheKeyMap() throws {
        let dir = TempDir()
        let path = dir.path("keyed.sqlite")
        #expect(try sqliteShell(path, Self.schema) == 0)
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        let finder = try ManagedObjectContext(store: store)
        func id(_ entity: String, _ format: String) throws -> ObjectID {
            try #require(try finder.fetch(entity, where: QueryPredicate(format: format)).first).objectID
        }
        let k500 = try id("wr", "k == 'k500'"), k10 = try id("wr", "k == 'k10'"), pair7 = try id("pair", "a == 'a' AND b == 7")

        let c = try ManagedObjectContext(store: store)
        #expect(try c.object(with: k500)["v"] == .string("v500"))
        #expect(try c.object(with: pair7)["note"] == .string("n7"))
        let reads = c.connection.cachedStatementSQL.filter { $0.hasPrefix("SELECT ") && ($0.contains("t0.\"k\" = ?") || $0.contains("t0.\"a\" = ?") || $0.contains("FROM temp.\"_vellum_keys")) }
        #expect(reads.count == 4, "\(c.connection.cachedStatementSQL)")
        for sql in reads {
            let plan = try Self.plan(sql, c.connection)
            #expect(plan.contains("SEARCH") && !plan.contains("SCAN"), "\(sql): \(plan)")
        }

        #expect(try sqliteShell(path, "INSERT INTO wr VALUES ('k2000', 'v2000'); DELETE FROM wr WHERE k = 'k10';") == 0)
        let k2000 = try id("wr", "k == 'k2000'")
        #expect(try c.object(with: k2000)["v"] == .string("v2000"))
        #expect(try c.object(with: k10).isMissing)
        #expect(try sqliteScalar(path, "SELECT count(*) FROM sqlite_master") == "3")  // two tables and pair's key index: nothing added
    }

    @Test func anUpdateOfARowWithADigestedKeySearchesThePrimaryKeyIndex() throws {
        let dir = TempDir()
        let path = dir.path("keyed.sqlite")
        #expect(try sqliteShell(path, Self.schema) == 0)
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        let c = try ManagedObjectContext(store: store)
        let w = try #require(try c.fetch("wr", where: QueryPredicate(format: "k == 'k500'")).first)
        try w.setValue(.string("changed"), forKey: "v")
        let p = try #require(try c.fetch("pair", where: QueryPredicate(format: "a == 'a' AND b == 7")).first)
        try p.setValue(.string("changed"), forKey: "note")
        _ = try c.save()
        #expect(try sqliteRows(path, "SELECT k || '=' || v FROM wr WHERE v = 'changed'") == ["k500=changed"])
        #expect(try sqliteScalar(path, "SELECT group_concat(b) FROM pair WHERE note = 'changed'") == "7")

        try store.withWriter { db in
            let updates = db.cachedStatementSQL.filter { $0.hasPrefix("UPDATE ") }.sorted()
            #expect(updates.count == 2, "\(updates)")
            for sql in updates {
                let plan = try Self.plan(sql, db)
                let index = sql.contains("\"wr\"") ? "USING PRIMARY KEY (k=?)" : "USING INDEX sqlite_autoindex_pair_1 (a=? AND b=?)"
                #expect(plan.contains("SEARCH") && plan.contains(index) && !plan.contains("SCAN"), "\(sql): \(plan)")
            }
            // The conflict check and the read-back of the written rows find them the same way (through the TEMP view).
            let reads = db.cachedStatementSQL.filter { $0.hasPrefix("SELECT ") && ($0.contains("t0.\"k\" = ?") || $0.contains("t0.\"a\" = ?")) }
            #expect(reads.count == 2, "\(db.cachedStatementSQL)")
            for sql in reads {
                let plan = try Self.plan(sql, db)
                #expect(plan.contains("SEARCH") && !plan.contains("SCAN"), "\(sql): \(plan)")
            }
        }

        // A delete finds its row, and a second save of the same object still does.
        try c.delete(p)
        try w.setValue(.string("again"), forKey: "v")
        _ = try c.save()
        #expect(try sqliteScalar(path, "SELECT count(*) FROM pair WHERE b = 7") == "0")
        #expect(try sqliteScalar(path, "SELECT v FROM wr WHERE k = 'k500'") == "again")
    }

    /// Chinook's `PlaylistTrack`: its key columns are to-ones; a delete binds their keys.
    @Test func aDeleteOfARowKeyedByTwoForeignKeysSearchesItsIndex() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let store = try PersistentStore.openAny(url: copy, model: nil, options: StoreOptions(createIfMissing: false))
        let c = try ManagedObjectContext(store: store)
        let rows = try c.fetch("PlaylistTrack", where: QueryPredicate(format: "playlist.PlaylistId == 1"))
        let count = try sqliteScalar(copy.path, "SELECT count(*) FROM PlaylistTrack")
        try c.delete(try #require(rows.first))
        _ = try c.save()
        #expect(Int(try sqliteScalar(copy.path, "SELECT count(*) FROM PlaylistTrack")) == Int(count)! - 1)
        try store.withWriter { db in
            let deletes = db.cachedStatementSQL.filter { $0.hasPrefix("DELETE FROM main.\"PlaylistTrack\"") }
            #expect(deletes.count == 1, "\(db.cachedStatementSQL)")
            for sql in deletes {
                let plan = try Self.plan(sql, db)
                #expect(plan.contains("USING INDEX sqlite_autoindex_PlaylistTrack_1 (PlaylistId=? AND TrackId=?)") && !plan.contains("SCAN"), "\(sql): \(plan)")
            }
        }
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
    }

    /// A key column without a declared type holding a number: however the object reads it,
    /// its row is found (by the values where they match it, else by the digest).
    @Test func aKeyValueStoredInAnotherFormStillFindsItsRow() throws {
        let dir = TempDir()
        let path = dir.path("odd.sqlite")
        #expect(try sqliteShell(path, "CREATE TABLE odd (k, n INT NOT NULL, v TEXT, PRIMARY KEY (k, n)) WITHOUT ROWID; INSERT INTO odd VALUES (5, 1, 'x'), ('5', 1, 'y');") == 0)
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        let c = try ManagedObjectContext(store: store)
        let rows = try c.fetch("odd", sortedBy: [QuerySortDescriptor("v")])
        #expect(rows.count == 2)
        for o in rows { try o.setValue(.string(try o.value(forKey: "v").stringValue! + "2"), forKey: "v") }
        _ = try c.save()
        #expect(try sqliteRows(path, "SELECT typeof(k) || ' ' || v FROM odd ORDER BY v") == ["integer x2", "text y2"])
        try c.delete(rows[0])
        _ = try c.save()
        #expect(try sqliteRows(path, "SELECT typeof(k) || ' ' || v FROM odd") == ["text y2"])
    }
}
