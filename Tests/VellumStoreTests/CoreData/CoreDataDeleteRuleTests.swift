import Foundation
import Testing
@testable import VellumStore

/// Delete rules on Core Data stores, through a context, checked in the file with `sqlite3`:
/// nullify (the cars' `ZOWNER` cleared, their `Z_OPT` + 1), cascade (the cars' rows gone),
/// deny (refused with the reason, the file unchanged), and many-to-many join rows removed.
/// Delete rules are not in the version hash, so the recovered model with another rule is
/// still the store's model (accepted as `model:`). `Z_MAX` never moves back: keys are not reused.
@Suite struct CoreDataDeleteRuleTests {
    static let store = "SampleModel-v1.sqlite"

    /// The store's own model with `Person.cars` under `rule`.
    static func model(_ copy: CoreDataFixtureCopy, carsRule rule: DeleteRule) throws -> ManagedObjectModel {
        let recovered = try CoreDataStoreFile(path: copy.url.path).recoverModel().model
        let entities = recovered.entityDescriptions.map { e in
            var e = e
            e.relationships = e.relationships.map { r in
                var r = r
                if e.name == "Person" && r.name == "cars" { r.deleteRule = rule }
                return r
            }
            return e
        }
        return try ManagedObjectModel(entities: entities, versionIdentifier: recovered.versionIdentifier)
    }

    static func open(_ copy: CoreDataFixtureCopy, _ rule: DeleteRule) throws -> PersistentStore {
        let store = try PersistentStore.openAny(url: copy.url, model: model(copy, carsRule: rule), options: StoreOptions(createIfMissing: false))
        #expect(store.writeRefusal == nil)
        return store
    }

    static func person(_ c: ManagedObjectContext, key: Int64) throws -> ManagedObject {
        try #require(try c.fetch("Person").first { $0.objectID.primaryKey == key })
    }

    static let otherCars = "SELECT Z_PK || '|' || Z_OPT || '|' || coalesce(ZOWNER, 'null') FROM ZCAR WHERE coalesce(ZOWNER, 0) <> 2 ORDER BY Z_PK"

    static func keyState(_ path: String) throws -> [String] {
        try sqliteShellOutput(path, "SELECT Z_ENT || '|' || Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
    }

    @Test func nullifyClearsTheForeignKeyAndBumpsZOPT() throws {
        let copy = try CoreDataFixtureCopy(Self.store)
        defer { #expect(copy.originalUnchanged()) }
        let path = copy.url.path
        let cars = try sqliteShellOutput(path, "SELECT Z_PK || '|' || Z_OPT FROM ZCAR WHERE ZOWNER = 2 ORDER BY Z_PK")
        #expect(!cars.isEmpty)
        let keys = try Self.keyState(path)
        let c = try ManagedObjectContext(store: Self.open(copy, .nullify))
        try c.delete(Self.person(c, key: 2))
        try c.save()
        let bumped = cars.map { row -> String in
            let parts = row.split(separator: "|")
            return "\(parts[0])|null|\(Int(parts[1])! + 1)"
        }
        #expect(try sqliteShellOutput(path, "SELECT Z_PK || '|' || coalesce(ZOWNER, 'null') || '|' || Z_OPT FROM ZCAR WHERE Z_PK IN (\(cars.map { $0.split(separator: "|")[0] }.joined(separator: ","))) ORDER BY Z_PK") == bumped)
        #expect(try sqliteShellOutput(path, "SELECT count(*) FROM ZPERSON WHERE Z_PK = 2") == ["0"])
        #expect(try Self.keyState(path) == keys)
        #expect(try sqliteShellOutput(path, "PRAGMA integrity_check") == ["ok"])
    }

    /// No action: the cars keep their owner key, now pointing at no row, and are not
    /// updated (Core Data leaves them to the app).
    @Test func noActionLeavesTheCarsRowsAsTheyWere() throws {
        let copy = try CoreDataFixtureCopy(Self.store)
        defer { #expect(copy.originalUnchanged()) }
        let path = copy.url.path
        let cars = "SELECT Z_PK || '|' || Z_OPT || '|' || ZOWNER FROM ZCAR WHERE ZOWNER = 2 ORDER BY Z_PK"
        let before = try sqliteShellOutput(path, cars)
        #expect(!before.isEmpty)
        let c = try ManagedObjectContext(store: Self.open(copy, .noAction))
        try c.delete(Self.person(c, key: 2))
        try c.save()
        #expect(try sqliteShellOutput(path, cars) == before)
        #expect(try sqliteShellOutput(path, "SELECT count(*) FROM ZPERSON WHERE Z_PK = 2") == ["0"])
        #expect(try sqliteShellOutput(path, "PRAGMA integrity_check") == ["ok"])
    }

    @Test func cascadeDeletesTheCarsRows() throws {
        let copy = try CoreDataFixtureCopy(Self.store)
        defer { #expect(copy.originalUnchanged()) }
        let path = copy.url.path
        let owned = try sqliteShellOutput(path, "SELECT count(*) FROM ZCAR WHERE ZOWNER = 2")
        let total = try sqliteShellOutput(path, "SELECT count(*) FROM ZCAR")
        #expect(owned != ["0"])
        let others = try sqliteShellOutput(path, Self.otherCars)
        let keys = try Self.keyState(path)
        let c = try ManagedObjectContext(store: Self.open(copy, .cascade))
        try c.delete(Self.person(c, key: 2))
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT count(*) FROM ZCAR WHERE ZOWNER = 2") == ["0"])
        #expect(try sqliteShellOutput(path, "SELECT count(*) FROM ZCAR") == ["\(Int(total[0])! - Int(owned[0])!)"])
        #expect(try sqliteShellOutput(path, "SELECT count(*) FROM ZPERSON WHERE Z_PK = 2") == ["0"])
        // Other cars untouched (Z_OPT as it was); Z_MAX where it was.
        #expect(try sqliteShellOutput(path, Self.otherCars) == others)
        #expect(try Self.keyState(path) == keys)
        #expect(try sqliteShellOutput(path, "PRAGMA integrity_check") == ["ok"])
    }

    @Test func denyRefusesWithTheReasonAndChangesNothing() throws {
        let copy = try CoreDataFixtureCopy(Self.store)
        defer { #expect(copy.originalUnchanged()) }
        let path = copy.url.path
        let before = try copy.bytes()
        let owned = try sqliteShellOutput(path, "SELECT count(*) FROM ZCAR WHERE ZOWNER = 2")
        let c = try ManagedObjectContext(store: Self.open(copy, .deny))
        try c.delete(Self.person(c, key: 2))
        #expect { try c.save() } throws: { e in
            guard case StoreError.deleteDenied(let entity, let relationship, let count) = e else { return false }
            return entity == "Person" && relationship == "cars" && "\(count)" == owned[0]
                && "\(e)".contains("its delete rule is deny")
        }
        #expect(try copy.bytes() == before)
        // A person without cars may go.
        let lonely = try sqliteShellOutput(path, "SELECT Z_PK FROM ZPERSON WHERE Z_PK NOT IN (SELECT coalesce(ZOWNER, 0) FROM ZCAR) ORDER BY Z_PK LIMIT 1")
        let d = try ManagedObjectContext(store: Self.open(copy, .deny))
        try d.delete(Self.person(d, key: Int64(lonely[0])!))
        try d.save()
        #expect(try sqliteShellOutput(path, "SELECT count(*) FROM ZPERSON WHERE Z_PK = \(lonely[0])") == ["0"])
    }

    /// Deleting either end of a many-to-many removes its join rows (the small store of
    /// `CoreDataRelationshipLayoutTests`, Core Data's layout).
    @Test func manyToManyJoinRowsAreRemoved() throws {
        let dir = TempDir()
        let path = dir.path("z.sqlite")
        #expect(try sqliteShell(path, CoreDataRelationshipLayoutTests.schema) == 0)
        #expect(try sqliteShell(path, "INSERT INTO Z_3TAGS VALUES (1, 2); INSERT INTO ZPOST VALUES (2, 3, 1, 'Second'); INSERT INTO Z_3TAGS VALUES (2, 2); UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_ENT = 3;") == 0)
        let store = try CoreDataRelationshipLayoutTests.open(path)
        let c = try ManagedObjectContext(store: store)
        let linux = try #require(try c.fetch("Tag", where: QueryPredicate(format: "name == 'linux'")).first)
        try c.delete(linux)
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT Z_3POSTS || '|' || Z_4TAGS FROM Z_3TAGS ORDER BY Z_3POSTS, Z_4TAGS") == ["1|1"])
        let hello = try #require(try c.fetch("Post", where: QueryPredicate(format: "title == 'Hello'")).first)
        try c.delete(hello)
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT count(*) FROM Z_3TAGS") == ["0"])
        #expect(try sqliteShellOutput(path, "SELECT ZNAME FROM ZTAG") == ["swift"])
        #expect(try sqliteShellOutput(path, "SELECT ZTITLE FROM ZPOST") == ["Second"])
        #expect(try sqliteShellOutput(path, "SELECT Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == ["2", "1", "2", "2"])
        #expect(try sqliteShellOutput(path, "PRAGMA integrity_check") == ["ok"])
    }
}
