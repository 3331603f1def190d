import Foundation
import Testing
@testable import VellumStore

/// `WITHOUT ROWID` tables (addressed by their primary key, composite or text)
/// and views (read-only entities) of another program's database: browsed,
/// filtered, and — for tables — edited, with the sqlite3 shell reading the file.
/// Their `rowid` comes from per-connection TEMP views, so the file stays as it was.
@Suite(.serialized) struct ForeignKeylessTableTests {
    static let schema = """
        CREATE TABLE wr (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
        CREATE TABLE pair (a TEXT, b INT, note TEXT DEFAULT 'none', PRIMARY KEY (a, b)) WITHOUT ROWID;
        CREATE TABLE num (n INTEGER PRIMARY KEY, label TEXT) WITHOUT ROWID;
        CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, qty INT);
        CREATE VIEW big AS SELECT name, qty FROM t WHERE qty > 1;
        INSERT INTO wr VALUES ('a', 'x'), ('b', 'y');
        INSERT INTO pair VALUES ('a', 1, 'a1'), ('a', 2, 'a2');
        INSERT INTO num VALUES (10, 'ten'), (20, 'twenty');
        INSERT INTO t VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3), (4, 'c', 3);
        """

    static func open(_ dir: TempDir, readOnly: Bool = false) throws -> (PersistentStore, String) {
        let path = dir.path("keyless.sqlite")
        if !FileManager.default.fileExists(atPath: path) {
            let made = try runSQLite(path, schema)
            #expect(made.status == 0, "\(made.err)")
        }
        var options = StoreOptions(createIfMissing: false)
        options.readOnly = readOnly
        return (try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: options), path)
    }

    static func masterText(_ path: String) throws -> String { try sqliteScalar(path, "SELECT group_concat(type || name, ',') FROM sqlite_master") }

    @Test func withoutRowIDRowsAreEditedThroughTheirKey() throws {
        let dir = TempDir()
        let (store, path) = try Self.open(dir)
        let master = try Self.masterText(path)
        #expect(store.model.entityNames.contains("wr") && store.model.entityNames.contains("pair"))
        let c = try ManagedObjectContext(store: store)
        let rows = try c.fetch("wr", sortedBy: [QuerySortDescriptor("k")])
        #expect(try rows.map { try $0["k"] } == [.string("a"), .string("b")])
        #expect(Set(rows.map(\.objectID)).count == 2)
        try rows[1].setValue(.string("y2"), forKey: "v")
        try c.delete(rows[0])
        let added = try c.insert("wr", values: ["k": .string("c"), "v": .string("z")])
        try c.save()
        #expect(try sqliteScalar(path, "SELECT group_concat(k || '=' || v, ',') FROM (SELECT * FROM wr ORDER BY k)") == "b=y2,c=z")
        // The inserted row's ID is the one a fresh read gives it.
        let fresh = try ManagedObjectContext(store: store)
        #expect(try fresh.fetch("wr", where: QueryPredicate(format: "k == 'c'")).first?.objectID == added.objectID)
        #expect(try Self.masterText(path) == master)
    }

    @Test func compositeKeysDefaultsAndKeyChangesRefused() throws {
        let dir = TempDir()
        let (store, path) = try Self.open(dir)
        let c = try ManagedObjectContext(store: store)
        let inserted = try c.insert("pair", values: ["a": .string("b"), "b": .integer(1)])
        try c.save()
        #expect(try inserted["note"] == .string("none"))  // the default, read back
        #expect(try sqliteScalar(path, "SELECT note FROM pair WHERE a = 'b' AND b = 1") == "none")
        let a2 = try #require(try c.fetch("pair", where: QueryPredicate(format: "a == 'a' AND b == 2")).first)
        try a2.setValue(.string("changed"), forKey: "note")
        try c.save()
        #expect(try sqliteScalar(path, "SELECT group_concat(note, ',') FROM (SELECT note FROM pair ORDER BY a, b)") == "a1,changed,none")
        try a2.setValue(.integer(3), forKey: "b")
        #expect { try c.save() } throws: { "\($0)".contains("key") && "\($0)".contains("cannot be changed") }
        #expect(try sqliteScalar(path, "SELECT count(*) FROM pair WHERE b = 3") == "0")
        let ten = try #require(try c.fetch("num", where: QueryPredicate(format: "n == 10")).first)
        #expect(ten.objectID.primaryKey == 10)  // one integer key: the key itself
    }

    @Test func anotherWritersChangeToAKeylessRowIsAConflict() throws {
        let dir = TempDir()
        let (store, path) = try Self.open(dir)
        let c = try ManagedObjectContext(store: store)
        let b = try #require(try c.fetch("wr", where: QueryPredicate(format: "k == 'b'")).first)
        #expect(try sqliteShell(path, "UPDATE wr SET v = 'theirs' WHERE k = 'b'") == 0)
        try b.setValue(.string("mine"), forKey: "v")
        #expect { try c.save() } throws: { error in
            if case StoreError.conflicts = error { return true } else { return false }
        }
        #expect(try sqliteScalar(path, "SELECT v FROM wr WHERE k = 'b'") == "theirs")
    }

    @Test func viewsAreBrowsedButNotWritten() throws {
        let dir = TempDir()
        let (store, path) = try Self.open(dir)
        let big = try #require(store.model.entity(named: "big"))
        #expect(big.attributes.map(\.name) == ["name", "qty"])
        let c = try ManagedObjectContext(store: store)
        let rows = try c.fetch("big", where: QueryPredicate(format: "qty > 2"), sortedBy: [QuerySortDescriptor("name")])
        #expect(rows.count == 2)  // two equal rows stay two objects
        #expect(Set(rows.map(\.objectID)).count == 2)
        #expect((store.layout as? ForeignLayout)?.readOnlyReason(table: "big")?.contains("is a view") == true)
        try rows[0].setValue(.integer(5), forKey: "qty")
        #expect { try c.save() } throws: { "\($0)".contains("big is a view") }
        #expect(try sqliteScalar(path, "SELECT group_concat(qty, ',') FROM t") == "1,2,3,3")
    }

    @Test func readOnlyOpeningReadsKeylessTablesAndLeavesNoSidecars() throws {
        let dir = TempDir()
        let path = dir.path("keyless.sqlite")
        #expect(try runSQLite(path, Self.schema).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let (store, _) = try Self.open(dir, readOnly: true)
        let c = try ManagedObjectContext(store: store)
        #expect(try c.fetch("pair").count == 2)
        #expect(try c.fetch("big").count == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(SQLiteFixtures.sidecars(of: path).isEmpty)
    }
}
