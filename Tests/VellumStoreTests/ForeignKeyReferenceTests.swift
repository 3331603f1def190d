import Foundation
import Testing
@testable import VellumStore

/// Issue 13: a foreign key referring to a key other than the target's rowid (a text key,
/// an `INT PRIMARY KEY`, a `WITHOUT ROWID` table's key, a UNIQUE column) is a to-one with
/// an inverse to-many, as one to the rowid is: followed both ways, crossed by predicates,
/// written as the referenced value (what `sqlite3` reads), and deleted by its `ON DELETE`
/// action. They used to stay plain attributes.
@Suite(.serialized) struct ForeignKeyReferenceTests {
    static let countries = """
        CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT);
        CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT, country_code TEXT REFERENCES country (code) ON DELETE CASCADE);
        INSERT INTO country VALUES ('fr', 'France'), ('de', 'Germany'), ('it', 'Italy');
        INSERT INTO city (name, country_code) VALUES ('Paris', 'fr'), ('Lyon', 'fr'), ('Berlin', 'de');
        """

    static func names(_ objects: [ManagedObject], _ key: String = "name") throws -> [String] {
        try objects.map { try $0.value(forKey: key).stringValue ?? "" }.sorted()
    }

    @Test func aTextKeyedTargetIsAToOneWithAnInverseToMany() throws {
        let dir = TempDir()
        let (store, _) = try ForeignGeneratedTests.make(dir, Self.countries)
        let city = try #require(store.model.entity(named: "city"))
        #expect(city.attributes.map(\.name) == ["id", "name"])
        let toOne = try #require(city.relationship(named: "country_code"))
        #expect(!toOne.isToMany && toOne.destination == "country" && toOne.inverse == "cities")
        let cities = try #require(store.model.entity(named: "country")?.relationship(named: "cities"))
        #expect(cities.isToMany && cities.destination == "city" && cities.deleteRule == .cascade)

        let c = try ManagedObjectContext(store: store)
        let paris = try #require(try c.fetch("city", where: QueryPredicate(format: "name == 'Paris'")).first)
        #expect(try paris.toOne("country_code")?["name"] == .string("France"))
        let france = try #require(try c.fetch("country", where: QueryPredicate(format: "code == 'fr'")).first)
        #expect(try Self.names(france.toMany("cities")) == ["Lyon", "Paris"])
        #expect(try Self.names(c.fetch("city", where: QueryPredicate(format: "country_code.name == 'France'"))) == ["Lyon", "Paris"])
        #expect(try Self.names(c.fetch("country", where: QueryPredicate(format: "ANY cities.name == 'Berlin'"))) == ["Germany"])
        #expect(try Self.names(c.fetch("country", where: QueryPredicate(format: "cities.@count == 0"))) == ["Italy"])
    }

    /// Setting the to-one writes the referenced key (what `sqlite3` reads); clearing it writes NULL.
    @Test func settingAndClearingTheToOneWritesTheReferencedKey() throws {
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, Self.countries)
        let c = try ManagedObjectContext(store: store)
        let lyon = try #require(try c.fetch("city", where: QueryPredicate(format: "name == 'Lyon'")).first)
        let italy = try #require(try c.fetch("country", where: QueryPredicate(format: "code == 'it'")).first)
        try lyon.setToOne("country_code", italy)
        #expect(try Self.names(italy.toMany("cities")) == ["Lyon"])
        try c.save()
        #expect(try sqliteScalar(path, "SELECT country_code FROM city WHERE name = 'Lyon'") == "it")
        try lyon.setToOne("country_code", nil)
        let rome = try c.insert("city", values: ["name": .string("Rome")])
        try rome.setToOne("country_code", italy)
        try c.save()
        #expect(try sqliteRows(path, "SELECT name || ':' || coalesce(country_code, 'null') FROM city ORDER BY id")
            == ["Paris:fr", "Lyon:null", "Berlin:de", "Rome:it"])
        // Another context reads what was written.
        let fresh = try ManagedObjectContext(store: store)
        let again = try #require(try fresh.fetch("country", where: QueryPredicate(format: "code == 'it'")).first)
        #expect(try Self.names(again.toMany("cities")) == ["Rome"])
    }

    /// A new city inserted before its new country, in one save: the country's row is written
    /// first, so the city's column holds its code (the key exists only once the row does).
    @Test func aNewObjectReferringToANewTargetIsWrittenAfterIt() throws {
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, Self.countries)
        let c = try ManagedObjectContext(store: store)
        let nice = try c.insert("city", values: ["name": .string("Nice")])
        let monaco = try c.insert("country", values: ["code": .string("mc"), "name": .string("Monaco")])
        try nice.setToOne("country_code", monaco)
        try c.save()
        #expect(try sqliteScalar(path, "SELECT coalesce(country_code, 'null') FROM city WHERE name = 'Nice'") == "mc")
        let fresh = try ManagedObjectContext(store: store)
        let again = try #require(try fresh.fetch("city", where: QueryPredicate(format: "name == 'Nice'")).first)
        #expect(try again.toOne("country_code")?["name"] == .string("Monaco"))
    }

    /// `ON DELETE CASCADE` deletes the cities with their country; `RESTRICT` refuses the delete.
    @Test func deletingHonoursCascadeAndRestrict() throws {
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, Self.countries + """
            CREATE TABLE embassy (id INTEGER PRIMARY KEY, country_code TEXT REFERENCES country (code) ON DELETE RESTRICT);
            INSERT INTO embassy (country_code) VALUES ('de');
            """)
        #expect(store.model.entity(named: "country")?.relationship(named: "embassies")?.deleteRule == .deny)
        let c = try ManagedObjectContext(store: store)
        try c.delete(try #require(try c.fetch("country", where: QueryPredicate(format: "code == 'fr'")).first))
        try c.save()
        #expect(try sqliteRows(path, "SELECT name FROM city ORDER BY id") == ["Berlin"])
        #expect(try sqliteRows(path, "SELECT code FROM country ORDER BY code") == ["de", "it"])
        try c.delete(try #require(try c.fetch("country", where: QueryPredicate(format: "code == 'de'")).first))
        #expect { try c.save() } throws: { "\($0)".contains("embassies") }
        #expect(try sqliteRows(path, "SELECT code FROM country ORDER BY code") == ["de", "it"])
    }

    /// Keys that are not the rowid, whatever their kind: the to-one reads and writes them.
    @Test(arguments: [
        "CREATE TABLE team (id INT PRIMARY KEY, name TEXT)",
        "CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT) WITHOUT ROWID",
        "CREATE TABLE team (tag TEXT NOT NULL PRIMARY KEY, name TEXT) WITHOUT ROWID",
        "CREATE TABLE team (rowid_alias INTEGER PRIMARY KEY, id TEXT UNIQUE, name TEXT)",
    ])
    func everyKindOfKeyIsAToOne(_ team: String) throws {
        let key = team.contains("tag TEXT") ? "tag" : "id"
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, """
            \(team);
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, team_id REFERENCES team (\(key)) ON DELETE SET NULL);
            INSERT INTO team (\(key), name) VALUES (7, 'Reds'), (9, 'Blues');
            INSERT INTO player (name, team_id) VALUES ('Ann', 7), ('Bob', 7), ('Cy', 9);
            """)
        let player = try #require(store.model.entity(named: "player"))
        #expect(player.attributes.map(\.name) == ["id", "name"])
        #expect(player.relationship(named: "team")?.destination == "team")
        #expect(store.model.entity(named: "team")?.relationship(named: "players")?.deleteRule == .nullify)
        let c = try ManagedObjectContext(store: store)
        let ann = try #require(try c.fetch("player", where: QueryPredicate(format: "name == 'Ann'")).first)
        let reds = try #require(try ann.toOne("team"))
        #expect(try reds["name"] == .string("Reds"))
        #expect(try Self.names(reds.toMany("players")) == ["Ann", "Bob"])
        #expect(try Self.names(c.fetch("player", where: QueryPredicate(format: "team.name == 'Blues'"))) == ["Cy"])
        let blues = try #require(try c.fetch("team", where: QueryPredicate(format: "name == 'Blues'")).first)
        try ann.setToOne("team", blues)
        try c.save()
        #expect(try sqliteRows(path, "SELECT name || ':' || coalesce(team_id, 'null') FROM player ORDER BY id") == ["Ann:9", "Bob:7", "Cy:9"])
        try c.delete(blues)
        try c.save()
        #expect(try sqliteRows(path, "SELECT name || ':' || coalesce(team_id, 'null') FROM player ORDER BY id") == ["Ann:null", "Bob:7", "Cy:null"])
    }

    /// A table referring to itself by its text key: `ReportsTo` → `reportsTo`, with the
    /// inverse named after the table; `RESTRICT` keeps a boss with reports.
    @Test func aSelfReferenceByTextKey() throws {
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, """
            CREATE TABLE staff (login TEXT PRIMARY KEY, name TEXT, ReportsTo TEXT REFERENCES staff (login) ON DELETE RESTRICT);
            INSERT INTO staff VALUES ('ada', 'Ada', NULL), ('bo', 'Bo', 'ada'), ('cy', 'Cy', 'ada'), ('di', 'Di', 'bo');
            """)
        let staff = try #require(store.model.entity(named: "staff"))
        #expect(staff.relationship(named: "reportsTo")?.inverse == "staffs")
        let c = try ManagedObjectContext(store: store)
        let ada = try #require(try c.fetch("staff", where: QueryPredicate(format: "login == 'ada'")).first)
        #expect(try Self.names(ada.toMany("staffs")) == ["Bo", "Cy"])
        #expect(try Self.names(c.fetch("staff", where: QueryPredicate(format: "reportsTo.reportsTo.name == 'Ada'"))) == ["Di"])
        let di = try #require(try c.fetch("staff", where: QueryPredicate(format: "login == 'di'")).first)
        try di.setToOne("reportsTo", ada)
        try c.save()
        #expect(try sqliteScalar(path, "SELECT ReportsTo FROM staff WHERE login = 'di'") == "ada")
        try c.delete(ada)
        #expect { try c.save() } throws: { "\($0)".contains("staffs") }
        #expect(try sqliteScalar(path, "SELECT count(*) FROM staff") == "4")
    }
}

extension ForeignKeyReferenceTests {
    /// `ON DELETE SET DEFAULT` on a foreign key to a text key: each child takes the
    /// column's default, the key of another row, as SQLite does (compared with the shell
    /// deleting the same row of a twin file). The delete used to clear the to-one instead:
    /// a NULL written where SQLite writes the default (and a failed save where the column
    /// is NOT NULL).
    @Test func onDeleteSetDefaultToATextKeyGivesTheDefaultRowAsSQLiteDoes() throws {
        let script = """
            CREATE TABLE shelf (code TEXT PRIMARY KEY, name TEXT);
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, shelf_code TEXT NOT NULL DEFAULT 'inbox' REFERENCES shelf (code) ON DELETE SET DEFAULT);
            CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT, shelf_code TEXT DEFAULT 'attic' REFERENCES shelf (code) ON DELETE SET DEFAULT);
            INSERT INTO shelf VALUES ('inbox', 'Inbox'), ('sf', 'Science fiction'), ('attic', 'Attic');
            INSERT INTO book (title, shelf_code) VALUES ('Dune', 'sf'), ('Solaris', 'sf'), ('Emma', 'attic');
            INSERT INTO note (body, shelf_code) VALUES ('x', 'sf'), ('y', NULL), ('z', 'inbox');
            """
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, script)
        let twin = dir.path("twin.sqlite")
        #expect(try runSQLite(twin, script).status == 0)
        func contents(_ file: String) throws -> [String] {
            try sqliteRows(file, "SELECT title || ':' || shelf_code FROM book ORDER BY id")
                + sqliteRows(file, "SELECT body || ':' || coalesce(shelf_code, 'null') FROM note ORDER BY id")
        }
        #expect(store.model.entity(named: "shelf")?.relationship(named: "books")?.deleteRule == .setDefault)

        let c = try ManagedObjectContext(store: store)
        try c.delete(try #require(try c.fetch("shelf", where: QueryPredicate(format: "code == 'sf'")).first))
        try c.save()
        #expect(try runSQLite(twin, "PRAGMA foreign_keys=ON; DELETE FROM shelf WHERE code = 'sf';").err == "")
        #expect(try contents(path) == ["Dune:inbox", "Solaris:inbox", "Emma:attic", "x:attic", "y:null", "z:inbox"])
        #expect(try contents(path) == contents(twin))
        // The objects follow: the books now sit on the default shelf, in this context and another.
        let dune = try #require(try c.fetch("book", where: QueryPredicate(format: "title == 'Dune'")).first)
        #expect(try dune.toOne("shelf_code")?["name"] == .string("Inbox"))
        let fresh = try ManagedObjectContext(store: store)
        let attic = try #require(try fresh.fetch("shelf", where: QueryPredicate(format: "code == 'attic'")).first)
        #expect(try Self.names(attic.toMany("books"), "title") == ["Emma"])
        #expect(try Self.names(attic.toMany("notes"), "body") == ["x"])
    }
}

extension ForeignKeyReferenceTests {
    /// A country's cities through a text key were found by reading every city through the
    /// view (each row's key looked up): the whole table per to-many. They are now found by
    /// the file's index on the referring column; where the columns' affinities differ, the
    /// view's comparison is kept, and both give the rows SQLite's foreign key relates.
    @Test func anInverseToManyThroughATextKeyUsesTheIndexNotAScan() throws {
        let dir = TempDir()
        let (store, _) = try ForeignGeneratedTests.make(dir, Self.countries + """
            CREATE INDEX city_country ON city (country_code);
            CREATE TABLE port (id INTEGER PRIMARY KEY, name TEXT, country_code INTEGER REFERENCES country (code));
            INSERT INTO port (name, country_code) VALUES ('Marseille', 'fr'), ('Genoa', 'it');
            """)
        let c = try ManagedObjectContext(store: store)
        let layout = store.layout
        let condition = try #require(layout.inverseForeignKeyCondition(table: "city", column: "country_code").byReferencedValue)
        #expect(condition.column == "code")
        let plan = try c.connection.rows("EXPLAIN QUERY PLAN SELECT \(layout.qualifiedKey()) FROM \"city\" WHERE \(condition.sql)", [.string("fr")])
            .map { $0.last?.stringValue ?? "" }
        #expect(plan.contains { $0.contains("USING COVERING INDEX city_country") }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
        let port = layout.inverseForeignKeyCondition(table: "port", column: "country_code")
        #expect(port.byKey == #""country_code" = ?"# && port.byReferencedValue == nil)

        let france = try #require(try c.fetch("country", where: QueryPredicate(format: "code == 'fr'")).first)
        let italy = try #require(try c.fetch("country", where: QueryPredicate(format: "code == 'it'")).first)
        #expect(try Self.names(france.toMany("cities")) == ["Lyon", "Paris"])
        #expect(try Self.names(italy.toMany("cities")).isEmpty)
        #expect(try Self.names(france.toMany("ports")) == ["Marseille"])
        #expect(try Self.names(italy.toMany("ports")) == ["Genoa"])
        // An unsaved change of the referenced key: the rows still hold the stored one.
        let germany = try #require(try c.fetch("country", where: QueryPredicate(format: "code == 'de'")).first)
        try germany.setValue(.string("dd"), forKey: "code")
        #expect(try Self.names(germany.toMany("cities")) == ["Berlin"])
    }
}

/// Issue 13, live: with the file tracked, another program moving a city to another country
/// by its text code arrives as a change of the city's to-one (named as the relationship),
/// and a list filtered across it and the objects a context holds follow.
@MainActor @Suite(.serialized)
struct ForeignKeyReferenceTrackingTests {
    @Test func anotherProgramsChangeOfTheColumnArrivesAsTheToOnesChange() async throws {
        let dir = TempDir()
        let path = dir.path("places.sqlite")
        #expect(try sqliteShell(path, ForeignKeyReferenceTests.countries) == 0)
        try HistoryTracking.track(try HistoryTracking.plan(path: path))
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        let container = try PersistentContainer(store: store)
        let changes = RemoteChanges()
        container.observeRemoteChanges { changes.append($0) }
        let view = container.viewContext
        let german = ResultsController(fetchRequest: FetchRequest(entityName: "city", predicate: try QueryPredicate(format: "country_code.name == 'Germany'")), context: view)
        try german.performFetch()
        #expect(german.fetchedObjectCount == 1)
        let lyon = try #require(try view.fetch("city", where: QueryPredicate(format: "name == 'Lyon'")).first)
        #expect(try lyon.toOne("country_code")?["name"] == .string("France"))

        #expect(try sqliteShell(path, "UPDATE city SET country_code = 'de' WHERE name = 'Lyon'") == 0)
        #expect(await waitUntil(timeout: 30) { changes.updatedKeys[lyon.objectID] == ["country_code"] }, "\(changes.updatedKeys)")
        #expect(await waitUntil(timeout: 30) { german.fetchedObjectIDs.contains(lyon.objectID) }, "\(german.fetchedObjectIDs)")
        #expect(try await waitUntil(timeout: 30) { try lyon.toOne("country_code")?["name"] == .string("Germany") })
    }
}
