import Foundation
import Testing
@testable import VellumStore

/// A many-to-many that is its own inverse (Person.friends ↔ Person.friends), which no fixture
/// has: Core Data keeps it in the join table `Z_1FRIENDS` whose second key column, clashing
/// with the first, is suffixed `Z_1FRIENDS1`, one row per pair in either order. The store is
/// built with `sqlite3` with Core Data's schema and a `Z_METADATA` carrying the model's
/// version hashes, opened with the model read from Xcode model XML, checked with `sqlite3`.
@Suite struct CoreDataSelfInverseManyToManyTests {
    static let xcodeModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
            </entity>
        </model>
        """

    static func model() throws -> ManagedObjectModel { try XcodeModelReader.read(data: Data(xcodeModel.utf8), file: "friends.xml") }

    /// Ada ↔ Bob stored as (1, 2), Cy ↔ Ada stored the other way round as (3, 1); Dee has none.
    static func build(_ path: String) throws {
        let hashes = CoreDataVersionHash.hashes(CoreDataModel(model: try model()))
        let plist: [String: Any] = ["NSStoreType": "SQLite", "NSStoreUUID": "5E1F-1NV", "NSStoreModelVersionHashes": hashes,
                                    "NSPersistenceFrameworkVersion": 1000]
        let bytes = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let sql = """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Person', 0, 4);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_METADATA VALUES (1, '5E1F-1NV', X'\(bytes.map { String(format: "%02X", $0) }.joined())');
            CREATE TABLE ZPERSON (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE TABLE Z_1FRIENDS (Z_1FRIENDS INTEGER, Z_1FRIENDS1 INTEGER, PRIMARY KEY (Z_1FRIENDS, Z_1FRIENDS1));
            CREATE INDEX Z_1FRIENDS_Z_1FRIENDS1_INDEX ON Z_1FRIENDS (Z_1FRIENDS1, Z_1FRIENDS);
            INSERT INTO ZPERSON VALUES (1, 1, 1, 'Ada'), (2, 1, 1, 'Bob'), (3, 1, 1, 'Cy'), (4, 1, 1, 'Dee');
            INSERT INTO Z_1FRIENDS VALUES (1, 2), (3, 1);
            """
        #expect(try sqliteShell(path, sql) == 0)
    }

    static func open(_ path: String) throws -> PersistentStore {
        try PersistentStore(coreDataURL: URL(fileURLWithPath: path), model: model(), options: StoreOptions(createIfMissing: false))
    }

    /// A new store in `dir` (`build`): its path and the store opened on it.
    static func built(in dir: TempDir) throws -> (String, PersistentStore) {
        let path = dir.path("friends.sqlite")
        try build(path)
        return (path, try open(path))
    }

    static func names(_ people: [ManagedObject]) throws -> [String] { try people.map { try $0["name"].stringValue ?? "?" }.sorted() }

    static func person(_ name: String, _ c: ManagedObjectContext) throws -> ManagedObject {
        try #require(try c.fetch("Person", where: QueryPredicate(format: "name == '\(name)'")).first)
    }

    /// The rows of `Z_1FRIENDS`, each as `smaller-larger` key (either column order is Core Data's).
    static func pairs(_ path: String) throws -> [String] {
        try sqliteShellOutput(path, "SELECT min(Z_1FRIENDS, Z_1FRIENDS1) || '-' || max(Z_1FRIENDS, Z_1FRIENDS1) FROM Z_1FRIENDS ORDER BY 1")
    }

    @Test func selfInverseManyToManyOpensAndReadsBothColumnOrders() throws {
        let dir = TempDir()
        let (_, store) = try Self.built(in: dir)
        #expect(store.writeRefusal == nil)
        let c = try ManagedObjectContext(store: store)
        #expect(try Self.names(Self.person("Ada", c).toMany("friends")) == ["Bob", "Cy"])
        #expect(try Self.names(Self.person("Bob", c).toMany("friends")) == ["Ada"])
        #expect(try Self.names(Self.person("Cy", c).toMany("friends")) == ["Ada"])
        #expect(try Self.person("Dee", c).toMany("friends").isEmpty)
        #expect(try c.count(FetchRequest(entityName: "Person", predicate: QueryPredicate(format: "ANY friends.name == 'Ada'"))) == 2)
        #expect(try c.count(FetchRequest(entityName: "Person", predicate: QueryPredicate(format: "ANY friends.name == 'Cy'"))) == 1)
    }

    @Test func selfInverseManyToManyWritesOneRowPerPairAndBumpsZOPT() throws {
        let dir = TempDir()
        let (path, store) = try Self.built(in: dir)
        let c = try ManagedObjectContext(store: store)
        let (ada, bob, cy, dee) = (try Self.person("Ada", c), try Self.person("Bob", c), try Self.person("Cy", c), try Self.person("Dee", c))
        // Dee befriends Bob (both sets change: one row); Cy drops Ada (row stored (Cy, Ada)) and
        // Bob drops Ada (row stored (Ada, Bob)): each row goes whichever side it is removed from.
        try dee.setToMany("friends", [bob])
        try cy.setToMany("friends", [])
        try bob.setToMany("friends", [dee])
        try c.save()
        #expect(try Self.pairs(path) == ["2-4"])
        #expect(try Self.names(ada.toMany("friends")).isEmpty)
        // Every person whose set changed is updated once: Ada lost two, Bob and Dee changed, Cy lost one.
        #expect(try sqliteShellOutput(path, "SELECT Z_PK || ':' || Z_OPT FROM ZPERSON ORDER BY Z_PK") == ["1:2", "2:2", "3:2", "4:2"])
        // Re-adding from the other side finds the row already there: still one row per pair.
        try ada.setToMany("friends", [cy])
        try c.save()
        let d = try ManagedObjectContext(store: store)
        try Self.person("Cy", d).setToMany("friends", [try Self.person("Ada", d), try Self.person("Dee", d)])
        try d.save()
        #expect(try Self.pairs(path) == ["1-3", "2-4", "3-4"])
        let e = try ManagedObjectContext(store: store)
        #expect(try Self.names(Self.person("Dee", e).toMany("friends")) == ["Bob", "Cy"])
        #expect(try sqliteShellOutput(path, "PRAGMA integrity_check") == ["ok"])
    }

    @Test func deletingAMemberOfASelfInverseManyToManyRemovesItsRowsInBothColumns() throws {
        let dir = TempDir()
        let (path, store) = try Self.built(in: dir)
        let c = try ManagedObjectContext(store: store)
        try c.delete(try Self.person("Ada", c))
        try c.save()
        #expect(try Self.pairs(path).isEmpty)
        // Nullify: the friends lost Ada, so their rows are updated.
        #expect(try sqliteShellOutput(path, "SELECT Z_PK || ':' || Z_OPT FROM ZPERSON ORDER BY Z_PK") == ["2:2", "3:2", "4:1"])
        let d = try ManagedObjectContext(store: store)
        #expect(try Self.person("Bob", d).toMany("friends").isEmpty)
    }

    /// Cascade over a relationship that is its own inverse reaches friends of friends: deleting
    /// Bob deletes Ada, hence Cy (Ada's friend through the row stored (Cy, Ada)); Dee stays.
    @Test func cascadeOverASelfInverseManyToManyFollowsBothColumnOrders() throws {
        let dir = TempDir()
        let path = dir.path("friends.sqlite")
        try Self.build(path)
        let model = try ModelBuilder()
            .entity("Person") {
                $0.attribute("name", .string)
                $0.toMany("friends", "Person", inverse: "friends", deleteRule: .cascade)
            }
            .build()
        let store = try CoreDataRelationshipLayoutTests.open(path, model: model)
        let c = try ManagedObjectContext(store: store)
        try c.delete(try Self.person("Bob", c))
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT ZNAME FROM ZPERSON ORDER BY Z_PK") == ["Dee"])
        #expect(try Self.pairs(path).isEmpty)
    }

    /// The model recovered from a compiled model cache (hand-built: no fixture has this
    /// relationship) fits the same table, here `Book.related` ↔ `Book.related`.
    @Test func selfInverseManyToManyFromAModelCacheFitsCoreDatasJoinTable() throws {
        let archive = try ModelCacheDetailsTests.archive([
            ("title", "NSAttributeDescription", ["NSAttributeType": .integer(700), "_P": .integer(0xF3)]),
            ("related", "NSRelationshipDescription", ["_NSDestinationEntityName": .string("Book"), "_NSInverseRelationshipName": .string("related"),
                                                      "NSMinCount": .integer(0), "NSMaxCount": .integer(0), "NSDeleteRule": .integer(1), "_P": .integer(0xF3)]),
        ])
        let model = try ModelCacheDecoder.decode(archive).model
        let dir = TempDir()
        let path = dir.path("books.sqlite")
        #expect(try sqliteShell(path, """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Book', 0, 3);
            CREATE TABLE ZBOOK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
            CREATE TABLE Z_1RELATED (Z_1RELATED INTEGER, Z_1RELATED1 INTEGER, PRIMARY KEY (Z_1RELATED, Z_1RELATED1));
            INSERT INTO ZBOOK VALUES (1, 1, 1, 'Emma'), (2, 1, 1, 'Persuasion'), (3, 1, 1, 'Ulysses');
            INSERT INTO Z_1RELATED VALUES (2, 1);
            """) == 0)
        let store = try CoreDataRelationshipLayoutTests.open(path, model: model)
        let layout = try #require(store.layout as? CoreDataLayout)
        #expect(layout.joinTables.map { [$0.table, $0.sourceColumn, $0.targetColumn] } == [["Z_1RELATED", "Z_1RELATED", "Z_1RELATED1"]])
        let c = try ManagedObjectContext(store: store)
        func book(_ title: String) throws -> ManagedObject { try #require(try c.fetch("Book", where: QueryPredicate(format: "title == '\(title)'")).first) }
        #expect(try book("Emma").toMany("related").map { try $0["title"] } == [.string("Persuasion")])
        #expect(try book("Persuasion").toMany("related").map { try $0["title"] } == [.string("Emma")])
        #expect(try book("Ulysses").toMany("related").isEmpty)
    }

    /// Without a model cache or an Xcode model, the join table's columns tell the relationship:
    /// `Z_1FRIENDS1` is the suffixed second column of Person.friends, not a relationship `friends1`.
    @Test func selfInverseManyToManyIsInferredFromItsJoinTable() throws {
        let dir = TempDir()
        let path = dir.path("friends.sqlite")
        try Self.build(path)
        let (inferred, notes) = try CoreDataSchemaInference.infer(CoreDataStoreFile(path: path), storedHashes: [:])
        let person = try #require(inferred.model.entity(named: "Person"))
        #expect(person.relationships.map { "\($0.name)>\($0.destination)<\($0.inverse)" } == ["friends>Person<friends"])
        #expect(notes.contains { $0.contains("Person.friends ↔ Person.friends: many-to-many from join table Z_1FRIENDS") })
        let store = try CoreDataRelationshipLayoutTests.open(path, model: inferred.model)
        let c = try ManagedObjectContext(store: store)
        #expect(try Self.names(Self.person("Ada", c).toMany("friends")) == ["Bob", "Cy"])
    }

    @MainActor @Test func anotherProcesssNewFriendshipReachesAnOpenContext() async throws {
        let dir = TempDir()
        let (path, store) = try Self.built(in: dir)
        let container = try PersistentContainer(store: store)
        let view = container.viewContext
        let dee = try Self.person("Dee", view)
        #expect(try dee.toMany("friends").isEmpty)
        // As a Core Data app would: one row, stored (Bob, Dee), and both Z_OPTs bumped.
        #expect(try sqliteShell(path, "BEGIN; INSERT INTO Z_1FRIENDS VALUES (2, 4); UPDATE ZPERSON SET Z_OPT = Z_OPT + 1 WHERE Z_PK IN (2, 4); COMMIT;") == 0)
        #expect(await waitUntil { (try? Self.names(dee.toMany("friends"))) == ["Bob"] })
    }
}
