import Foundation
import Testing
@testable import VellumStore

/// What no fixture has, on small stores with Core Data's layout: an ordered many-to-many kept
/// by its join table's `Z_FOK_` column, and a self-referencing many-to-many (Person.follows ↔
/// Person.followers: both key columns numbered 1, named by the relationship pointing at the
/// keys they hold). Read and written through `CoreDataLayout`, checked with `sqlite3`.
@Suite struct CoreDataManyToManyTests {
    static func model() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Person") {
                $0.attribute("name", .string)
                $0.toMany("follows", "Person", inverse: "followers")
                $0.toMany("followers", "Person", inverse: "follows")
            }
            .entity("Playlist") {
                $0.attribute("name", .string)
                $0.toMany("songs", "Song", inverse: "playlists", ordered: true)
            }
            .entity("Song") {
                $0.attribute("title", .string)
                $0.toMany("playlists", "Playlist", inverse: "songs")
            }
            .build()
    }

    /// Entities 1 Person, 2 Playlist, 3 Song. Ada follows Bob; the playlist holds "two", "one".
    static func schema(ordering: Bool = true) -> String {
        """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Person', 0, 3), (2, 'Playlist', 0, 1), (3, 'Song', 0, 3);
        CREATE TABLE ZPERSON (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
        CREATE TABLE ZPLAYLIST (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
        CREATE TABLE ZSONG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
        CREATE TABLE Z_1FOLLOWS (Z_1FOLLOWERS INTEGER, Z_1FOLLOWS INTEGER, PRIMARY KEY (Z_1FOLLOWERS, Z_1FOLLOWS));
        CREATE TABLE Z_2SONGS (Z_2PLAYLISTS INTEGER, Z_3SONGS INTEGER\(ordering ? ", Z_FOK_2PLAYLISTS INTEGER" : ""), PRIMARY KEY (Z_2PLAYLISTS, Z_3SONGS));
        INSERT INTO ZPERSON VALUES (1, 1, 1, 'Ada'), (2, 1, 1, 'Bob'), (3, 1, 1, 'Cy');
        INSERT INTO ZPLAYLIST VALUES (1, 2, 1, 'Mix');
        INSERT INTO ZSONG VALUES (1, 3, 1, 'one'), (2, 3, 1, 'two'), (3, 3, 1, 'three');
        INSERT INTO Z_1FOLLOWS VALUES (1, 2);
        INSERT INTO Z_2SONGS VALUES (1, 2\(ordering ? ", 1" : "")), (1, 1\(ordering ? ", 2" : ""));
        """
    }

    /// The store, and what `CoreDataWriteCheck` says of writing it.
    static func open(_ path: String) throws -> (PersistentStore, String?) {
        let store = try CoreDataRelationshipLayoutTests.open(path, model: model())
        let layout = try #require(store.layout as? CoreDataLayout)
        return (store, try CoreDataWriteCheck.refusal(differingEntities: [], layout: layout, connection: store.writer))
    }

    @Test func orderedManyToManyReadsAndWritesItsZFOKColumn() throws {
        let dir = TempDir()
        let path = dir.path("z.sqlite")
        #expect(try sqliteShell(path, Self.schema()) == 0)
        let (store, refusal) = try Self.open(path)
        #expect(refusal == nil)
        let c = try ManagedObjectContext(store: store)
        let mix = try #require(try c.fetch("Playlist").first)
        #expect(try mix.toMany("songs").map { try $0["title"] } == [.string("two"), .string("one")])
        let three = try #require(try c.fetch("Song", where: QueryPredicate(format: "title == 'three'")).first)
        let songs = try mix.toMany("songs")
        try mix.setToMany("songs", [three, songs[1], songs[0]])
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT Z_3SONGS FROM Z_2SONGS WHERE Z_2PLAYLISTS = 1 ORDER BY Z_FOK_2PLAYLISTS") == ["3", "1", "2"])
        #expect(try sqliteShellOutput(path, "PRAGMA integrity_check") == ["ok"])
        // Z_OPT: +1 exactly once on each row whose relationship set changed (the playlist's
        // songs, song three's playlists); the songs only reordered are not updated.
        #expect(try sqliteShellOutput(path, "SELECT Z_OPT FROM ZPLAYLIST") == ["2"])
        #expect(try sqliteShellOutput(path, "SELECT Z_PK || ':' || Z_OPT FROM ZSONG ORDER BY Z_PK") == ["1:1", "2:1", "3:2"])
        // Read back by another context in the new order; the inverse sees the new member.
        let d = try ManagedObjectContext(store: store)
        #expect(try #require(try d.fetch("Playlist").first).toMany("songs").map { try $0["title"] } == [.string("three"), .string("one"), .string("two")])
        let threeAgain = try #require(try d.fetch("Song", where: QueryPredicate(format: "title == 'three'")).first)
        #expect(try threeAgain.toMany("playlists").count == 1)
    }

    @Test func orderedManyToManyWithoutAnOrderingColumnIsRefusedWithTheReason() throws {
        let dir = TempDir()
        let path = dir.path("z.sqlite")
        #expect(try sqliteShell(path, Self.schema(ordering: false)) == 0)
        let (_, refusal) = try Self.open(path)
        #expect(refusal?.hasPrefix("ordered many-to-many Playlist.songs: its join table Z_2SONGS has no single Z_FOK_ ordering column") == true)
    }

    @Test func selfReferencingManyToManyReadsAndWritesBothDirections() throws {
        let dir = TempDir()
        let path = dir.path("z.sqlite")
        #expect(try sqliteShell(path, Self.schema()) == 0)
        let (store, _) = try Self.open(path)
        let c = try ManagedObjectContext(store: store)
        let people = Dictionary(uniqueKeysWithValues: try c.fetch("Person").map { (try $0["name"].stringValue!, $0) })
        let (ada, bob, cy) = (people["Ada"]!, people["Bob"]!, people["Cy"]!)
        #expect(try ada.toMany("follows").map { $0 === bob } == [true])
        #expect(try bob.toMany("followers").map { $0 === ada } == [true])
        #expect(try ada.toMany("followers").isEmpty)
        #expect(try c.count(FetchRequest(entityName: "Person", predicate: QueryPredicate(format: "ANY followers.name == 'Ada'"))) == 1)
        // Cy follows Ada and Bob; Bob stops being followed by Ada (changed from the other side).
        try cy.setToMany("follows", [ada, bob])
        try bob.setToMany("followers", [cy])
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT Z_1FOLLOWERS || '>' || Z_1FOLLOWS FROM Z_1FOLLOWS ORDER BY 1") == ["3>1", "3>2"])
        // Each person's sets changed in that save (Ada's on both sides): Z_OPT + 1 exactly once.
        #expect(try sqliteShellOutput(path, "SELECT Z_PK || ':' || Z_OPT FROM ZPERSON ORDER BY Z_PK") == ["1:2", "2:2", "3:2"])
        let d = try ManagedObjectContext(store: store)
        let adaAgain = try #require(try d.fetch("Person", where: QueryPredicate(format: "name == 'Ada'")).first)
        #expect(try adaAgain.toMany("followers").map { try $0["name"] } == [.string("Cy")])
        #expect(try adaAgain.toMany("follows").isEmpty)
        // Deleting Cy removes both of its rows.
        try d.delete(try #require(try d.fetch("Person", where: QueryPredicate(format: "name == 'Cy'")).first))
        try d.save()
        #expect(try sqliteShellOutput(path, "SELECT count(*) FROM Z_1FOLLOWS") == ["0"])
    }
}
