import Foundation
import Testing
@testable import VellumStore
import VellumTestSupport

/// Issue #13, "deleting with foreign keys on and off": another program's database opened
/// with `enforcesForeignKeys` false behaves as SQLite does by default — nothing refused,
/// no `ON DELETE` action — and opened as usual it refuses and cascades as declared.
@Suite struct ForeignKeysOffTests {
    static let schema = """
        CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE part (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id) ON DELETE CASCADE, name TEXT);
        CREATE TABLE loan (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id) ON DELETE RESTRICT, amount INTEGER);
        INSERT INTO parent VALUES (1, 'one'), (2, 'two');
        INSERT INTO part (parent_id, name) VALUES (1, 'a'), (2, 'b');
        INSERT INTO loan (parent_id, amount) VALUES (1, 10);
        """

    static func open(_ dir: TempDir, enforcing: Bool) throws -> (PersistentStore, String) {
        let path = dir.path("other.sqlite")
        let made = try runSQLite(path, schema)
        #expect(made.status == 0, "\(made.err)")
        var options = StoreOptions(createIfMissing: false)
        options.enforcesForeignKeys = enforcing
        return (try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: options), path)
    }

    @Test func withForeignKeysOffADeleteLeavesTheReferringRowsAsSQLiteDoes() throws {
        let dir = TempDir()
        let (store, path) = try Self.open(dir, enforcing: false)
        let parent = try #require(store.model.entity(named: "parent"))
        #expect(parent.relationship(named: "parts")?.deleteRule == .noAction)
        #expect(parent.relationship(named: "loans")?.deleteRule == .noAction)
        let c = try ManagedObjectContext(store: store)
        #expect(try c.connection.scalarInt("PRAGMA foreign_keys") == 0)
        try c.delete(try #require(try c.fetch("parent", where: QueryPredicate(format: "id == 1")).first))
        try c.save()
        #expect(try sqliteRows(path, "SELECT name FROM parent") == ["two"])
        #expect(try sqliteRows(path, "SELECT name || ':' || parent_id FROM part ORDER BY id") == ["a:1", "b:2"], "no cascade")
        #expect(try sqliteRows(path, "SELECT amount || ':' || parent_id FROM loan") == ["10:1"], "nothing refused")
        // The row whose parent went stays editable.
        let other = try ManagedObjectContext(store: store)
        try #require(try other.fetch("part", where: QueryPredicate(format: "name == 'a'")).first).setValue(.string("a2"), forKey: "name")
        try other.save()
        #expect(try sqliteRows(path, "SELECT name || ':' || parent_id FROM part ORDER BY id") == ["a2:1", "b:2"])
    }

    @Test func withForeignKeysOnTheDeclaredActionsRunAndARestrictRefuses() throws {
        let dir = TempDir()
        let (store, path) = try Self.open(dir, enforcing: true)
        let parent = try #require(store.model.entity(named: "parent"))
        #expect(parent.relationship(named: "parts")?.deleteRule == .cascade)
        #expect(parent.relationship(named: "loans")?.deleteRule == .deny)
        let c = try ManagedObjectContext(store: store)
        #expect(try c.connection.scalarInt("PRAGMA foreign_keys") == 1)
        try c.delete(try #require(try c.fetch("parent", where: QueryPredicate(format: "id == 1")).first))
        #expect(throws: StoreError.self) { try c.save() }
        c.rollback()
        try c.delete(try #require(try c.fetch("parent", where: QueryPredicate(format: "id == 2")).first))
        try c.save()
        #expect(try sqliteRows(path, "SELECT name FROM part ORDER BY id") == ["a"], "the cascade ran")
        #expect(try sqliteRows(path, "SELECT name FROM parent") == ["one"])
    }
}
