import Foundation
import Testing
@testable import VellumStore

/// Databases made here with the `sqlite3` shell, for what Chinook does not
/// have: odd names, keys other than `INTEGER PRIMARY KEY`, tables that cannot
/// be entities (dates: `ForeignDateTests`), values that do not fit their type,
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
            CREATE TABLE "Order Details" ("Unit Price" REAL, "select" TEXT PRIMARY KEY, "it's" TEXT, "_hidden" INTEGER);
            INSERT INTO "Order Details" VALUES (3.5, 'a', 'x', 1), (7.25, 'b', 'y', 2);
            """)
        let e = try #require(store.model.entity(named: "Order Details"))
        #expect(e.attributes.map(\.name) == ["Unit Price", "select", "it's", "hidden"])
        let c = try ManagedObjectContext(store: store)
        let found = try c.fetch("Order Details", where: QueryPredicate(format: #"#"Unit Price" > 5 AND #select == 'b' AND #"it's" == 'y'"#))
        #expect(found.count == 1)
        #expect(PredicatePrinter.keyName("Unit Price") == #"#"Unit Price""#)
        #expect(try QueryPredicate(format: #"#"it's" == 'y'"#).format == #"#"it's" == "y""#)  // printed text parses back
        try found[0].setValue(.string("z"), forKey: "it's")
        try c.save()
        #expect(try sqliteScalar(path, #"SELECT "it's" || "_hidden" FROM "Order Details" WHERE "select" = 'b'"#) == "z2")
    }

    @Test func everyTableAndViewIsAnEntityUnlessItHidesItsKey() throws {
        let dir = TempDir()
        let (store, path) = try Self.make(dir, """
            CREATE TABLE code (code TEXT PRIMARY KEY, label TEXT);
            CREATE TABLE pair (a INT, b INT, note TEXT, PRIMARY KEY (a, b));
            CREATE TABLE plain (x, y);
            CREATE TABLE wr (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
            CREATE TABLE hidden (rowid TEXT PRIMARY KEY, v) WITHOUT ROWID;
            CREATE VIEW labels AS SELECT label FROM code;
            INSERT INTO code VALUES ('de', 'German'), ('fr', 'French');
            INSERT INTO pair VALUES (1, 2, 'one-two');
            """)
        #expect(store.model.entityNames == ["code", "labels", "pair", "plain", "wr"])
        let skipped = ForeignModelInference.skippedTables((store.layout as! ForeignLayout).schema)
        #expect(skipped.map(\.table) == ["hidden"])
        #expect(skipped.allSatisfy { $0.reason.contains("column named rowid") })
        let c = try ManagedObjectContext(store: store)
        let fr = try #require(try c.fetch("code", where: QueryPredicate(format: "code == 'fr'")).first)
        try fr.setValue(.string("Français"), forKey: "label")
        _ = try c.insert("pair", values: ["a": .integer(2), "b": .integer(1), "note": .string("two-one")])
        try c.save()
        #expect(try sqliteScalar(path, "SELECT label FROM code WHERE code = 'fr'") == "Français")
        #expect(try sqliteScalar(path, "SELECT note FROM pair WHERE a = 2 AND b = 1") == "two-one")
        #expect(throws: StoreError.self) { try PersistentStore(foreignURL: URL(fileURLWithPath: path), model: Fixtures.shopModel()) }
    }

    /// A rowid table with a text, `INT` or composite primary key is addressed by that key,
    /// as a `WITHOUT ROWID` table is: its object IDs survive `VACUUM` and a rebuild of the
    /// file that renumbers the rowids (`.dump` into a new file), and it is written by key.
    @Test func declaredKeysAddressRowsAndTheirIDsSurviveVacuumAndRenumbering() throws {
        let dir = TempDir()
        let script = """
            CREATE TABLE code (code TEXT PRIMARY KEY, label TEXT);
            CREATE TABLE num (n INT PRIMARY KEY, label TEXT);
            CREATE TABLE pair (a INT, b INT, note TEXT, PRIMARY KEY (a, b));
            INSERT INTO code VALUES ('aa', 'gone'), ('de', 'German'), ('fr', 'French');
            INSERT INTO num VALUES (10, 'ten'), (20, 'twenty'), (30, 'thirty');
            INSERT INTO pair VALUES (0, 0, 'gone'), (1, 2, 'one-two'), (3, 4, 'three-four');
            DELETE FROM code WHERE code = 'aa'; DELETE FROM num WHERE n = 10; DELETE FROM pair WHERE a = 0;
            """
        let (store, path) = try Self.make(dir, script)
        func ids(_ store: PersistentStore) throws -> [String] {
            let c = try ManagedObjectContext(store: store)
            return try [("code", "code == 'fr'"), ("num", "n == 30"), ("pair", "a == 3")].map { entity, format in
                try #require(try c.fetch(entity, where: QueryPredicate(format: format)).first).objectID.uriString
            }
        }
        let before = try ids(store)
        #expect(before[1].hasSuffix("/num/p30"), "an integer key is the ID's key itself: \(before[1])")
        #expect(try sqliteScalar(path, "SELECT rowid FROM code WHERE code = 'fr'") == "3")
        #expect(try sqliteShell(path, "VACUUM") == 0)
        // Rebuilt from its dump, as a user might: the rowids are renumbered, the keys are not.
        let dump = try runSQLiteShell([path, ".dump"])
        try FileManager.default.removeItem(atPath: path)
        #expect(try runSQLite(path, dump.out).status == 0)
        #expect(try sqliteScalar(path, "SELECT rowid FROM code WHERE code = 'fr'") == "2")
        let reopened = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        #expect(try ids(reopened) == before)
        // Written by key: an update and a delete find their row, an insert reads its key back.
        let probe = try ManagedObjectContext(store: reopened)
        let frID = try #require(try probe.fetch("code", where: QueryPredicate(format: "code == 'fr'")).first).objectID
        let c = try ManagedObjectContext(store: reopened)
        let fr = try c.existingObject(with: frID)  // loaded by its key
        try fr.setValue(.string("Français"), forKey: "label")
        try c.delete(try #require(try c.fetch("pair", where: QueryPredicate(format: "a == 1")).first))
        let new = try c.insert("code", values: ["code": .string("it"), "label": .string("Italian")])
        try c.save()
        #expect(try sqliteRows(path, "SELECT code || ' ' || label FROM code ORDER BY code") == ["de German", "fr Français", "it Italian"])
        #expect(try sqliteRows(path, "SELECT note FROM pair") == ["three-four"])
        let again = try ManagedObjectContext(store: reopened)
        #expect(try again.fetch("code", where: QueryPredicate(format: "code == 'it'")).first?.objectID == new.objectID)
        do {
            try fr.setValue(.string("fx"), forKey: "code")
            try c.save()
            Issue.record("a key column was changed")
        } catch {
            #expect("\(error)".contains("is the row's key and cannot be changed"), "\(error)")
        }
    }

    /// A table that declares no primary key is browsed by rowid but never written: a rowid
    /// without an `INTEGER PRIMARY KEY` may be renumbered by VACUUM, so a write could hit
    /// another row. The reason is in the model and in the refused save.
    @Test func aTableWithoutAPrimaryKeyIsReadOnlySayingWhy() throws {
        let dir = TempDir()
        let (store, path) = try Self.make(dir, """
            CREATE TABLE plain (x, y);
            INSERT INTO plain VALUES ('1', '2'), ('3', '4');
            """)
        let reason = "plain has no primary key: its rows are known only by their rowid, which VACUUM may renumber, so they cannot be added, changed or deleted here (give the table a PRIMARY KEY to edit it)"
        #expect(store.model.entity(named: "plain")?.declaration.userInfo[ForeignMappingKeys.readOnly] == reason)
        #expect(store.layout.readOnlyReason(table: "plain") == reason)
        let c = try ManagedObjectContext(store: store)
        #expect(try c.fetch("plain").count == 2)
        let writes: [(ManagedObjectContext) throws -> Void] = [
            { c in _ = try c.insert("plain", values: ["x": .string("5")]) },
            { c in try c.fetch("plain")[0].setValue(.string("9"), forKey: "x") },
            { c in try c.delete(try c.fetch("plain")[0]) },
        ]
        for write in writes {
            let c = try ManagedObjectContext(store: store)
            try write(c)
            do {
                try c.save()
                Issue.record("a table without a primary key was written")
            } catch {
                #expect("\(error)".contains(reason), "\(error)")
            }
        }
        #expect(try sqliteRows(path, "SELECT x || y FROM plain ORDER BY rowid") == ["12", "34"])
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
            #expect("\(error)".contains("CHECK constraint failed: table item, column qty: CHECK (qty > 0) (constraint positive_qty)"), "\(error)")
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
            CREATE TABLE parent (code TEXT, n INT, label TEXT, PRIMARY KEY (code, n));
            CREATE TABLE child (id INTEGER PRIMARY KEY, parent_code TEXT, parent_n INT, FOREIGN KEY (parent_code, parent_n) REFERENCES parent (code, n));
            INSERT INTO parent VALUES ('a', 1, 'A');
            INSERT INTO child (parent_code, parent_n) VALUES ('a', 1);
            """)
        // The inferred to-one (`ForeignCompositeKeyTests`) cannot hold a missing row; a mapping
        // that keeps the key's columns as attributes can write one, and SQLite refuses it.
        #expect(store.model.entity(named: "child")?.relationship(named: "parent") != nil)
        let columns = try ManagedObjectModel.fromJSON(Data("""
            {"entities": [
              {"name": "child", "attributes": [{"name": "id", "type": "integer64"}, {"name": "parent_code", "type": "string"},
                                               {"name": "parent_n", "type": "integer64"}]},
              {"name": "parent", "attributes": [{"name": "code", "type": "string"}, {"name": "n", "type": "integer64"},
                                                {"name": "label", "type": "string"}]}]}
            """.utf8))
        let mapped = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: columns, options: StoreOptions(createIfMissing: false))
        let c = try ManagedObjectContext(store: mapped)
        _ = try c.insert("child", values: ["parent_code": .string("zz"), "parent_n": .integer(1)])
        do {
            try c.save()
            Issue.record("a dangling key was saved")
        } catch {
            #expect("\(error)".contains("FOREIGN KEY constraint failed (writing child: child.parent_code, parent_n → parent)"), "\(error)")
        }
        let c2 = try ManagedObjectContext(store: mapped)
        try c2.delete(try #require(try c2.fetch("parent").first))
        do {
            try c2.save()
            Issue.record("a row others refer to was deleted")
        } catch {
            #expect("\(error)".contains("deleting from parent: child.parent_code, parent_n refers to it"), "\(error)")
        }
        // Through the inferred to-one, `NO ACTION` is a deny rule: refused before SQLite would, naming it.
        let c3 = try ManagedObjectContext(store: store)
        do {
            try c3.delete(try #require(try c3.fetch("parent").first))
            try c3.save()
            Issue.record("a row others refer to was deleted")
        } catch {
            #expect("\(error)".contains("children"), "\(error)")
        }
        #expect(try sqliteScalar(path, "SELECT (SELECT count(*) FROM parent) || (SELECT count(*) FROM child)") == "11")
    }

    /// Declared type → attribute type, for every name issue #13 lists (SQLite's affinity
    /// rules and common names), read from `vellum model`'s inferred model.
    @Test(arguments: [
        ("INT", AttributeType.integer64), ("INTEGER", .integer64), ("BIGINT", .integer64),
        ("NVARCHAR(200)", .string), ("VARCHAR(20)", .string), ("TEXT", .string), ("CLOB", .string),
        ("NUMERIC(10,2)", .double), ("DECIMAL", .double), ("DECIMAL(8,3)", .double),
        ("REAL", .double), ("DOUBLE", .double), ("DOUBLE PRECISION", .double), ("FLOAT", .double),
        ("BOOLEAN", .boolean), ("BOOL", .boolean),
        ("DATE", .date), ("DATETIME", .date), ("TIMESTAMP", .date),
        ("BLOB", .binary), ("JSON", .string), ("UUID", .string), ("", .string),
    ])
    func declaredTypeIsTheAttributeType(declared: String, expected: AttributeType) throws {
        let dir = TempDir()
        let (store, _) = try Self.make(dir, "CREATE TABLE t (id INTEGER PRIMARY KEY, v \(declared));")
        #expect(store.model.entity(named: "t")?.attribute(named: "v")?.type == expected, "\(declared)")
    }

    /// A unique index (and a UNIQUE column) becomes a uniqueness constraint; a save that
    /// would break it fails naming the table and column, and writes nothing.
    @Test func uniqueIndexesAreUniquenessConstraintsAndAViolationNamesTableAndColumn() throws {
        let dir = TempDir()
        let (store, path) = try Self.make(dir, """
            CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT, first TEXT, last TEXT, badge TEXT UNIQUE);
            CREATE UNIQUE INDEX person_email ON person (email);
            CREATE UNIQUE INDEX person_name ON person (first, last);
            CREATE INDEX person_last ON person (last);
            INSERT INTO person (email, first, last, badge) VALUES ('a@x', 'Ann', 'Lee', 'B1');
            """)
        let constraints = try #require(store.model.entity(named: "person")?.uniquenessConstraints)
        #expect(Set(constraints) == [["email"], ["first", "last"], ["badge"]])
        for (values, column) in [(["email": Value.string("a@x"), "badge": .string("B2")], "email"),
                                 (["email": .string("b@x"), "first": .string("Ann"), "last": .string("Lee")], "first")] {
            let c = try ManagedObjectContext(store: store)
            _ = try c.insert("person", values: values)
            do {
                try c.save()
                Issue.record("a duplicate \(column) was saved")
            } catch {
                let text = "\(error)"
                #expect(text.contains("person") && text.contains(column), "\(text)")
            }
        }
        #expect(try sqliteScalar(path, "SELECT count(*) FROM person") == "1")
    }

    /// `ON DELETE CASCADE` and `SET NULL` are honoured by a context's delete (whether or not
    /// the connection enforces foreign keys): the children go, or lose their reference.
    @Test func onDeleteCascadeAndSetNullAreHonouredByAContextDelete() throws {
        let dir = TempDir()
        let (store, path) = try Self.make(dir, """
            CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE part (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id) ON DELETE CASCADE, name TEXT);
            CREATE TABLE note (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id) ON DELETE SET NULL, body TEXT);
            INSERT INTO parent VALUES (1, 'one'), (2, 'two');
            INSERT INTO part (parent_id, name) VALUES (1, 'a'), (1, 'b'), (2, 'c');
            INSERT INTO note (parent_id, body) VALUES (1, 'x'), (2, 'y');
            """)
        let parent = try #require(store.model.entity(named: "parent"))
        #expect(parent.relationship(named: "parts")?.deleteRule == .cascade)
        #expect(parent.relationship(named: "notes")?.deleteRule == .nullify)
        let c = try ManagedObjectContext(store: store)
        try c.delete(try #require(try c.fetch("parent", where: QueryPredicate(format: "id == 1")).first))
        try c.save()
        #expect(try sqliteRows(path, "SELECT name FROM part ORDER BY id") == ["c"])
        #expect(try sqliteRows(path, "SELECT body || ':' || coalesce(parent_id, 'null') FROM note ORDER BY id") == ["x:null", "y:2"])
        #expect(try sqliteRows(path, "SELECT name FROM parent") == ["two"])
    }

    /// `ON DELETE SET DEFAULT` was inferred as nullify: deleting a parent left a `NOT NULL
    /// DEFAULT 0` child without its required parent (the save failed) and wrote NULL into a
    /// nullable column whose default is another row. A context's delete now does what SQLite
    /// does, compared with the sqlite3 shell deleting the same row of a twin file: each child
    /// takes its column's default (and its object the row that default names); deleting the
    /// row that is the children's default itself is refused, as SQLite refuses it.
    @Test func onDeleteSetDefaultGivesChildrenTheColumnDefaultAsSQLiteDoes() throws {
        let script = """
            CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE item (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL DEFAULT 0 REFERENCES parent (id) ON DELETE SET DEFAULT, name TEXT);
            CREATE TABLE tag (id INTEGER PRIMARY KEY, parent_id INTEGER DEFAULT 2 REFERENCES parent (id) ON DELETE SET DEFAULT, label TEXT);
            INSERT INTO parent VALUES (0, 'unknown'), (1, 'one'), (2, 'two');
            INSERT INTO item (parent_id, name) VALUES (1, 'a'), (1, 'b'), (2, 'c');
            INSERT INTO tag (parent_id, label) VALUES (1, 'x'), (0, 'y'), (NULL, 'z');
            """
        let dir = TempDir()
        let (store, path) = try Self.make(dir, script)
        let twin = dir.path("twin.sqlite")
        #expect(try runSQLite(twin, script).status == 0)
        let rows = ["SELECT group_concat(name || ':' || parent_id, ' ') FROM (SELECT * FROM item ORDER BY id)",
                    "SELECT group_concat(label || ':' || coalesce(parent_id, 'null'), ' ') FROM (SELECT * FROM tag ORDER BY id)",
                    "SELECT group_concat(name, ' ') FROM (SELECT * FROM parent ORDER BY id)"]
        func contents(_ file: String) throws -> [String] { try rows.map { try sqliteScalar(file, $0) } }

        #expect(store.model.entity(named: "parent")?.relationship(named: "items")?.deleteRule == .setDefault)
        #expect(store.model.entity(named: "parent")?.relationship(named: "tags")?.deleteRule == .setDefault)
        let c = try ManagedObjectContext(store: store)
        try c.delete(try #require(try c.fetch("parent", where: QueryPredicate(format: "id == 1")).first))
        try c.save()
        #expect(try runSQLite(twin, "PRAGMA foreign_keys=ON; DELETE FROM parent WHERE id = 1;").err == "")
        #expect(try contents(path) == ["a:0 b:0 c:2", "x:2 y:0 z:null", "unknown two"])
        #expect(try contents(path) == contents(twin))
        // The objects follow the rows: the children hold the rows their defaults name.
        let a = try #require(try c.fetch("item", where: QueryPredicate(format: "name == 'a'")).first)
        #expect(try a.toOne("parent")?["name"] == .string("unknown"))
        let fresh = try ManagedObjectContext(store: store)
        let x = try #require(try fresh.fetch("tag", where: QueryPredicate(format: "label == 'x'")).first)
        #expect(try x.toOne("parent")?["name"] == .string("two"))

        // The default row itself: its children cannot take it, so SQLite refuses, and so does the save.
        let before = try contents(path)
        let c2 = try ManagedObjectContext(store: store)
        try c2.delete(try #require(try c2.fetch("parent", where: QueryPredicate(format: "id == 0")).first))
        #expect { try c2.save() } throws: { "\($0)".contains("FOREIGN KEY constraint failed") && "\($0)".contains("item.parent_id refers to it") }
        #expect(try contents(path) == before)
        #expect(try runSQLite(twin, "PRAGMA foreign_keys=ON; DELETE FROM parent WHERE id = 0;").err.contains("FOREIGN KEY constraint failed"))
        #expect(try contents(twin) == before)
    }

    /// An inverse to-many is named with the English plural of its table (`child` → `children`,
    /// not `childs`; `box` → `boxes`, `category` → `categories`).
    @Test func inverseToManysAreNamedWithEnglishPlurals() {
        let cases = [("child", "children"), ("GrandChild", "grandChildren"), ("person", "people"), ("box", "boxes"),
                     ("match", "matches"), ("category", "categories"), ("day", "days"), ("address", "addresses"), ("orders", "orders"), ("track", "tracks")]
        for (singular, plural) in cases { #expect(ForeignModelInference.plural(singular) == plural, "\(singular)") }
    }
}
