import Foundation
import Testing
@testable import VellumStore

/// A row of another program's table has no version column: its version is a digest
/// of all its columns. A fetch digests the row from the columns it reads (no second
/// read by SQLite), the save's check digests it in SQL: the two must agree for every
/// column, also ones the model leaves out and dates read through a conversion, or
/// every save would be refused as a conflict (or another writer's change missed).
struct ForeignRowVersionTests {
    static let schema = """
        CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, qty INTEGER, price REAL, seen DATETIME, blob BLOB, extra TEXT);
        INSERT INTO item VALUES (1, 'a', 1, 1.0, 1714557600250, x'00ff', 'not mapped');
        INSERT INTO item VALUES (2, 'a longer name than eight bytes', NULL, 2.5, 1714557600000, NULL, 'x');
        """

    /// The mapping leaves out `extra` (as an edited `--json` model may).
    static let mapping = """
        {"entities": [{"name": "item",
          "userInfo": {"sqlite.table": "item", "sqlite.dateStorage.seen": "unixMilliseconds"},
          "attributes": [{"name": "id", "type": "integer64"}, {"name": "name", "type": "string"},
                         {"name": "qty", "type": "integer64"}, {"name": "price", "type": "double"},
                         {"name": "seen", "type": "date"}, {"name": "blob", "type": "binary"}]}]}
        """

    static func open(_ dir: TempDir) throws -> (PersistentStore, String) {
        let path = dir.path("items.sqlite")
        #expect(try sqliteShell(path, schema) == 0)
        let model = try ManagedObjectModel.fromJSON(Data(mapping.utf8))
        return (try PersistentStore(foreignURL: URL(fileURLWithPath: path), model: model), path)
    }

    @Test func aFetchedRowsVersionIsTheDigestTheSaveChecks() throws {
        let dir = TempDir()
        let (store, path) = try Self.open(dir)
        let c = try ManagedObjectContext(store: store)
        let rows = try c.fetch("item", sortedBy: [QuerySortDescriptor("id")])
        #expect(rows.count == 2)
        let digests = try store.withWriter { db in
            try (1...2).map { id in try db.scalarInt("SELECT vellum_row_version(id, name, qty, price, seen, blob, extra) FROM item WHERE id = \(id)") }
        }
        #expect(rows.map { Optional($0.version) } == digests)
        // So a save with no other writer goes through, for each row.
        for (i, row) in rows.enumerated() { try row.setValue(.string("mine \(i)"), forKey: "name") }
        try c.save()
        #expect(try sqliteScalar(path, "SELECT group_concat(name || ' ' || extra, ',') FROM item") == "mine 0 not mapped,mine 1 x")
        #expect(try sqliteScalar(path, "SELECT typeof(seen) || ' ' || seen FROM item WHERE id = 1") == "integer 1714557600250")
    }

    @Test func anotherWritersChangeToAColumnTheModelLeavesOutIsAConflict() throws {
        let dir = TempDir()
        let (store, path) = try Self.open(dir)
        let c = try ManagedObjectContext(store: store)
        let row = try #require(try c.fetch("item", where: QueryPredicate(format: "id == 1")).first)
        #expect(try sqliteShell(path, "UPDATE item SET extra = 'theirs' WHERE id = 1") == 0)
        try row.setValue(.string("mine"), forKey: "name")
        do {
            try c.save()
            Issue.record("the save overwrote another writer's change")
        } catch StoreError.conflicts(let conflicts) {
            #expect(conflicts.count == 1)
        }
        #expect(try sqliteScalar(path, "SELECT name || ' ' || extra FROM item WHERE id = 1") == "a theirs")
    }
}
