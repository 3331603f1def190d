import Foundation
import Testing
@testable import VellumStore

/// Chinook (`shared/fixtures/sqlite/chinook.sqlite`, another program's database)
/// opened through `ForeignLayout`, always on a copy: the inferred model matches
/// the schema, reading changes nothing, and edits go through contexts with
/// conflicts detected without a version column.
@Suite(.serialized) struct ForeignChinookTests {
    static let fixture = "chinook.sqlite"

    static func open(_ dir: TempDir, readOnly: Bool = false) throws -> (PersistentStore, URL, Data) {
        let (copy, original) = try SQLiteFixtures.copy(fixture, into: dir)
        var options = StoreOptions(createIfMissing: false)
        options.readOnly = readOnly
        return (try PersistentStore.openAny(url: copy, model: nil, options: options), copy, original)
    }

    static func names(_ e: Entity) -> [String] { e.attributes.map(\.name) }

    @Test func inferredModelMatchesTheSchema() throws {
        let dir = TempDir()
        let (store, _, original) = try Self.open(dir)
        let m = store.model
        #expect(m.entityNames == ["Album", "Artist", "Customer", "Employee", "Genre", "Invoice", "InvoiceLine", "MediaType", "Playlist", "PlaylistTrack", "Track"])
        let track = try #require(m.entity(named: "Track"))
        #expect(Self.names(track) == ["TrackId", "Name", "Composer", "Milliseconds", "Bytes", "UnitPrice"])
        #expect(track.attribute(named: "Name")?.type == .string)
        #expect(track.attribute(named: "Name")?.isOptional == false)
        #expect(track.attribute(named: "TrackId")?.isOptional == true)  // the rowid key: generated
        #expect(track.attribute(named: "Milliseconds")?.type == .integer64)
        #expect(track.attribute(named: "UnitPrice")?.type == .double)   // NUMERIC(10,2)
        let album = try #require(track.relationship(named: "album"))
        #expect(album.destination == "Album" && !album.isToMany && album.isOptional && album.inverse == "tracks")
        #expect(track.relationship(named: "genre")?.isOptional == true)
        let mediaType = try #require(track.relationship(named: "mediaType"))
        #expect(mediaType.destination == "MediaType" && !mediaType.isOptional)  // NOT NULL
        let tracks = try #require(m.entity(named: "Album")?.relationship(named: "tracks"))
        #expect(tracks.isToMany && tracks.destination == "Track" && tracks.deleteRule == .deny)  // ON DELETE NO ACTION
        #expect(m.entity(named: "Album")?.relationship(named: "artist")?.destination == "Artist")
        // Self-reference and its inverse.
        let employee = try #require(m.entity(named: "Employee"))
        #expect(employee.relationship(named: "reportsTo")?.destination == "Employee")
        #expect(employee.relationship(named: "employees")?.inverse == "reportsTo")
        #expect(m.entity(named: "Customer")?.relationship(named: "supportRep")?.destination == "Employee")
        #expect(employee.relationship(named: "customers")?.inverse == "supportRep")
        // PlaylistTrack: a many-to-many, and still a table of its own.
        let playlistTracks = try #require(m.entity(named: "Playlist")?.relationship(named: "tracks"))
        #expect(playlistTracks.isToMany && playlistTracks.destination == "Track" && playlistTracks.inverse == "playlists")
        #expect(track.relationship(named: "playlists")?.isToMany == true)
        let join = try #require(m.entity(named: "PlaylistTrack"))
        #expect(join.relationships.map(\.name).sorted() == ["playlist", "track"])
        #expect(Self.names(join).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    @Test func readingChangesNothing() throws {
        let dir = TempDir()
        let (store, copy, original) = try Self.open(dir)
        let c = try ManagedObjectContext(store: store)
        let tracks = try c.fetch("Track", where: QueryPredicate(format: "album.artist.Name == 'AC/DC'"), sortedBy: [QuerySortDescriptor("Name")])
        #expect(tracks.count == Int(try sqliteScalar(copy.path, "SELECT count(*) FROM Track JOIN Album USING (AlbumId) JOIN Artist USING (ArtistId) WHERE Artist.Name = 'AC/DC'")))
        #expect(try tracks.first?.toOne("album")?.toOne("artist")?["Name"] == .string("AC/DC"))
        let rich = try c.count(FetchRequest(entityName: "Customer", predicate: QueryPredicate(format: "ANY invoices.Total > 10")))
        #expect(rich == Int(try sqliteScalar(copy.path, "SELECT count(DISTINCT CustomerId) FROM Invoice WHERE Total > 10")))
        #expect(rich > 0)
        let playlist = try #require(try c.fetch("Playlist", where: QueryPredicate(format: "Name == 'Grunge'")).first)
        #expect(try playlist.toMany("tracks").count == Int(try sqliteScalar(copy.path, "SELECT count(*) FROM PlaylistTrack JOIN Playlist USING (PlaylistId) WHERE Name = 'Grunge'")))
        #expect(try Data(contentsOf: copy) == original)
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(try sqliteScalar(copy.path, "PRAGMA journal_mode") == "delete")
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    @Test func editedTrackNameIsWhatSQLiteReads() throws {
        let dir = TempDir()
        let (store, copy, original) = try Self.open(dir)
        let c = try ManagedObjectContext(store: store)
        let track = try #require(try c.fetch("Track", where: QueryPredicate(format: "TrackId == 1")).first)
        try track.setValue(.string("For Those About To Rock (edited)"), forKey: "Name")
        try c.save()
        #expect(try sqliteScalar(copy.path, "SELECT Name FROM Track WHERE TrackId = 1") == "For Those About To Rock (edited)")
        // Untouched columns keep their stored form (UnitPrice stays a real, not text).
        #expect(try sqliteScalar(copy.path, "SELECT typeof(UnitPrice) || ' ' || UnitPrice FROM Track WHERE TrackId = 1") == "real 0.99")
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(try sqliteScalar(copy.path, "PRAGMA journal_mode") == "delete")
        // A second edit in the same context is not mistaken for another writer's.
        try track.setValue(.string("Again"), forKey: "Name")
        try c.save()
        #expect(try sqliteScalar(copy.path, "SELECT Name FROM Track WHERE TrackId = 1") == "Again")
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    @Test func anotherWritersChangeIsAConflictNotOverwritten() throws {
        let dir = TempDir()
        let (store, copy, original) = try Self.open(dir)
        let c = try ManagedObjectContext(store: store)
        let track = try #require(try c.fetch("Track", where: QueryPredicate(format: "TrackId == 2")).first)
        #expect(try sqliteShell(copy.path, "UPDATE Track SET Composer = 'someone else' WHERE TrackId = 2") == 0)
        try track.setValue(.string("Mine"), forKey: "Name")
        do {
            try c.save()
            Issue.record("the save overwrote another writer's change")
        } catch StoreError.conflicts(let conflicts) {
            #expect(conflicts.first?.persistedSnapshot?["Composer"] == .string("someone else"))
            #expect(conflicts.first?.objectSnapshot["Name"] == .string("Mine"))
        }
        #expect(try sqliteScalar(copy.path, "SELECT Name || '|' || Composer FROM Track WHERE TrackId = 2") == "Balls to the Wall|someone else")
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    @Test func insertedRowsReadBackTheirGeneratedKey() throws {
        let dir = TempDir()
        let (store, copy, original) = try Self.open(dir)
        let c = try ManagedObjectContext(store: store)
        let largest = Int64(try sqliteScalar(copy.path, "SELECT max(ArtistId) FROM Artist"))!
        let artist = try c.insert("Artist", values: ["Name": .string("New Band")])
        let album = try c.insert("Album", values: ["Title": .string("First")])
        try album.setToOne("artist", artist)
        try c.save()
        #expect(try artist["ArtistId"] == .integer(largest + 1))
        #expect(artist.objectID.primaryKey == largest + 1)
        #expect(try sqliteScalar(copy.path, "SELECT Artist.Name FROM Album JOIN Artist USING (ArtistId) WHERE Title = 'First'") == "New Band")
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    @Test func deletingARowOthersReferToIsExplained() throws {
        let dir = TempDir()
        let (store, copy, original) = try Self.open(dir)
        let c = try ManagedObjectContext(store: store)
        let acdc = try #require(try c.fetch("Artist", where: QueryPredicate(format: "Name == 'AC/DC'")).first)
        try c.delete(acdc)
        do {
            try c.save()
            Issue.record("an artist with albums was deleted")
        } catch StoreError.deleteDenied(let entity, let relationship, let count) {
            #expect(entity == "Artist" && relationship == "albums" && count == 2)
        }
        #expect(try sqliteScalar(copy.path, "SELECT count(*) FROM Artist WHERE Name = 'AC/DC'") == "1")
        // A row nothing refers to goes.
        let c2 = try ManagedObjectContext(store: store)
        let lonely = try c2.insert("Artist", values: ["Name": .string("Nobody")])
        try c2.save()
        try c2.delete(lonely)
        try c2.save()
        #expect(try sqliteScalar(copy.path, "SELECT count(*) FROM Artist WHERE Name = 'Nobody'") == "0")
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    @Test func readOnlyStoresRefuseSavesAndChangeNothing() throws {
        let dir = TempDir()
        let (store, copy, original) = try Self.open(dir, readOnly: true)
        #expect(store.isReadOnly)
        let c = try ManagedObjectContext(store: store)
        let genre = try #require(try c.fetch("Genre", where: QueryPredicate(format: "GenreId == 1")).first)
        try genre.setValue(.string("Not Rock"), forKey: "Name")
        #expect(throws: StoreError.self) { try c.save() }
        #expect(try Data(contentsOf: copy) == original)
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    @Test func manyToManyEditsWriteJoinRows() throws {
        let dir = TempDir()
        let (store, copy, original) = try Self.open(dir)
        let c = try ManagedObjectContext(store: store)
        let grunge = try #require(try c.fetch("Playlist", where: QueryPredicate(format: "Name == 'Grunge'")).first)
        let before = try grunge.toMany("tracks")
        let added = try #require(try c.fetch("Track", where: QueryPredicate(format: "TrackId == 1")).first)
        try grunge.setToMany("tracks", [added] + before.dropFirst())
        try c.save()
        let rows = try sqliteRows(copy.path, "SELECT TrackId FROM PlaylistTrack JOIN Playlist USING (PlaylistId) WHERE Name = 'Grunge' ORDER BY TrackId")
        #expect(rows.count == before.count)
        #expect(rows.contains("1"))
        #expect(!rows.contains(String(before[0].objectID.primaryKey!)))
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }
}

