import Foundation
import Testing
@testable import VellumStore

/// Databases made here with the `sqlite3` shell, for what Chinook does not
/// have: odd names, keys other than `INTEGER PRIMARY KEY`, tables that cannot
/// be entities, dates stored three ways, values that do not fit their type,
/// constraints, defaults and AUTOINCREMENT.
@Suite(.serialized) struct ForeignGeneratedTests {
    static func make(_ dir: TempDir, _ sql: String) throws -> (PersistentStore, String) {
        let path = dir.path("other.sqlite")
        let made = try runSQLite(path, sql)
        #expect(made.status == 0, "\(made.err)")
        return (try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false)), path)
    }

    @Test func namesWithSpacesQuotesAndKeywordsAreReachable() throws {
        let dir = TempDir()
        let (store, path) = try Self.make(dir, """
            CREATE TABLE "Order Details" ("Unit Price" REAL, "select" TEXT, "it's" TEXT, "_hidden" INTEGER);
            INSERT INTO "Order Details" VALUES (3.5, 'a', 'x', 1), (7.25, 'b', 'y', 2);
            """)
        let e = try #require(store.model.entity(named: "Order Details"))
        #expect(e.attributes.map(\.name) == ["Unit Price", "select", "it's", "hidden"])
        let c = try ManagedObjectContext(store: store)
        let found = try c.fetch("Order Details", where: Predicate(format: #"#"Unit Price" > 5 AND #select == 'b' AND #"it's" == 'y'"#))
        #expect(found.count == 1)
        #expect(PredicatePrinter.keyName("Unit Price") == #"#"Unit Price""#)
        #expect(try Predicate(format: #"#"it's" == 'y'"#).format == #"#"it's" == "y""#)  // printed text parses back
        try found[0].setValue(.string("z"), forKey: "it's")
        try c.save()
        #expect(try sqliteScalar(path, #"SELECT "it's" || "_hidden" FROM "Order Details" WHERE "select" = 'b'"#) == "z2")
    }

    @Test func everyRowidTableIsAnEntityAndOthersAreSkippedSayingWhy() throws {
        let dir = TempDir()
        let (store, path) = try Self.make(dir, """
            CREATE TABLE code (code TEXT PRIMARY KEY, label TEXT);
            CREATE TABLE pair (a INT, b INT, note TEXT, PRIMARY KEY (a, b));
            CREATE TABLE plain (x, y);
            CREATE TABLE wr (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
            CREATE VIEW labels AS SELECT label FROM code;
            INSERT INTO code VALUES ('de', 'German'), ('fr', 'French');
            INSERT INTO pair VALUES (1, 2, 'one-two');
            """)
        #expect(store.model.entityNames == ["code", "pair", "plain"])
        let skipped = ForeignModelInference.skippedTables((store.layout as! ForeignLayout).schema)
        #expect(skipped.map(\.table) == ["labels", "wr"])
        #expect(skipped.allSatisfy { $0.reason.contains("no rowid") || $0.reason.contains("no key") })
        let c = try ManagedObjectContext(store: store)
        let fr = try #require(try c.fetch("code", where: Predicate(format: "code == 'fr'")).first)
        try fr.setValue(.string("Français"), forKey: "label")
        _ = try c.insert("plain", values: ["x": .string("1"), "y": .string("2")])
        _ = try c.insert("pair", values: ["a": .integer(2), "b": .integer(1), "note": .string("two-one")])
        try c.save()
        #expect(try sqliteScalar(path, "SELECT label FROM code WHERE code = 'fr'") == "Français")
        #expect(try sqliteScalar(path, "SELECT count(*) FROM plain") == "1")
        #expect(try sqliteScalar(path, "SELECT note FROM pair WHERE a = 2 AND b = 1") == "two-one")
        #expect(throws: StoreError.self) { try PersistentStore(foreignURL: URL(fileURLWithPath: path), model: Fixtures.shopModel()) }
    }

    @Test func datesStoredThreeWaysAreTypedByHowTheyAreStored() throws {
        let dir = TempDir()
        let (store, path) = try Self.make(dir, """
            CREATE TABLE ev (id INTEGER PRIMARY KEY, iso DATETIME, unix TIMESTAMP, julian DATE, label TEXT);
            INSERT INTO ev VALUES (1, '2024-05-01 10:00:00', 1714557600, 2460432.5, 'a');
            """)
        let ev = try #require(store.model.entity(named: "ev"))
        #expect(ev.attribute(named: "iso")?.type == .string)
        #expect(ev.attribute(named: "unix")?.type == .date)
        #expect(ev.attribute(named: "julian")?.type == .double)
        let c = try ManagedObjectContext(store: store)
        let row = try #require(try c.fetch("ev").first)
        #expect(try row["unix"] == .date(Date(timeIntervalSince1970: 1_714_557_600)))
        #expect(try row["iso"] == .string("2024-05-01 10:00:00"))
        try row.setValue(.date(Date(timeIntervalSince1970: 1_714_557_660)), forKey: "unix")
        try c.save()
        #expect(try sqliteScalar(path, "SELECT typeof(unix) || ' ' || unix || ' ' || iso || ' ' || julian FROM ev") == "integer 1714557660 2024-05-01 10:00:00 2460432.5")
    }

    @Test func valuesThatDoNotFitTheirTypeAreShownAndNeverRewritten() throws {
        let dir = TempDir()
        let (store, path) = try Self.make(dir, """
            CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, flag BOOLEAN, name TEXT);
            INSERT INTO t VALUES (1, 'abc', 'maybe', 'x');
            """)
        let c = try ManagedObjectContext(store: store)
        let row = try #require(try c.fetch("t").first)
        #expect(try row["n"] == .string("abc"))
        #expect(try row["flag"] == .string("maybe"))
        try row.setValue(.string("y"), forKey: "name")
        try c.save()
        #expect(try sqliteScalar(path, "SELECT typeof(n) || ' ' || n || ' ' || flag || ' ' || name FROM t") == "text abc maybe y")
    }

    @Test func constraintFailuresNameTheConstraintAndRollBackTheSave() throws {
        let dir = TempDir()
        let (store, path) = try Self.make(dir, """
            CREATE TABLE item (id INTEGER PRIMARY KEY, sku TEXT UNIQUE, qty INTEGER CONSTRAINT positive_qty CHECK (qty > 0));
            INSERT INTO item VALUES (1, 'A', 1);
            """)
        #expect(store.model.entity(named: "item")?.uniquenessConstraints == [["sku"]])
        let c = try ManagedObjectContext(store: store)
        _ = try c.insert("item", values: ["sku": .string("B"), "qty": .integer(2)])
        _ = try c.insert("item", values: ["sku": .string("C"), "qty": .integer(0)])
        do {
            try c.save()
            Issue.record("a CHECK violation was saved")
        } catch {
            #expect("\(error)".contains("CHECK constraint failed: positive_qty"), "\(error)")
        }
        #expect(try sqliteScalar(path, "SELECT count(*) FROM item") == "1")  // B rolled back with C
    }

    @Test func generatedKeysDefaultsAndAutoincrementAreReadBack() throws {
        let dir = TempDir()
        let (store, path) = try Self.make(dir, """
            CREATE TABLE note (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL,
                               created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP, status TEXT DEFAULT 'new');
            INSERT INTO note (body) VALUES ('one'), ('two'), ('three');
            DELETE FROM note WHERE id = 3;
            """)
        let e = try #require(store.model.entity(named: "note"))
        #expect(e.attribute(named: "created")?.isOptional == true)
        #expect(e.attribute(named: "status")?.defaultValue == .string("new"))
        let c = try ManagedObjectContext(store: store)
        let note = try c.insert("note", values: ["body": .string("four")])
        try c.save()
        #expect(try note["id"] == .integer(4))  // AUTOINCREMENT: 3 is never reused
        #expect(note.objectID.primaryKey == 4)
        #expect(try note["created"].stringValue?.count == 19)
        #expect(try note["created"] == .string(try sqliteScalar(path, "SELECT created FROM note WHERE id = 4")))
        #expect(try sqliteScalar(path, "SELECT status FROM note WHERE id = 4") == "new")
    }

    @Test func foreignKeyFailuresNameTheTableAndKeys() throws {
        let dir = TempDir()
        let (store, path) = try Self.make(dir, """
            CREATE TABLE parent (code TEXT PRIMARY KEY, label TEXT);
            CREATE TABLE child (id INTEGER PRIMARY KEY, parent_code TEXT REFERENCES parent (code));
            INSERT INTO parent VALUES ('a', 'A');
            INSERT INTO child (parent_code) VALUES ('a');
            """)
        // A key to a text column is no relationship: it stays an attribute.
        #expect(store.model.entity(named: "child")?.attribute(named: "parent_code") != nil)
        let c = try ManagedObjectContext(store: store)
        _ = try c.insert("child", values: ["parent_code": .string("zz")])
        do {
            try c.save()
            Issue.record("a dangling key was saved")
        } catch {
            #expect("\(error)".contains("FOREIGN KEY constraint failed (writing child: child.parent_code → parent)"), "\(error)")
        }
        let c2 = try ManagedObjectContext(store: store)
        try c2.delete(try #require(try c2.fetch("parent").first))
        do {
            try c2.save()
            Issue.record("a row others refer to was deleted")
        } catch {
            #expect("\(error)".contains("deleting from parent: child.parent_code refers to it"), "\(error)")
        }
        #expect(try sqliteScalar(path, "SELECT (SELECT count(*) FROM parent) || (SELECT count(*) FROM child)") == "11")
    }
}

