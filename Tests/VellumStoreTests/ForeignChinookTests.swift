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

    /// Rows of a query on `path` through the sqlite3 shell (read-only), split into fields.
    static func fields(_ path: String, _ sql: String) throws -> [[String]] {
        try sqliteRows(path, sql).map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Every table of the file, read with the sqlite3 shell (`pragma_table_info`,
    /// `pragma_foreign_key_list`), is an entity; each column is an attribute of its
    /// type and optionality or the key column of a to-one; each declared foreign key is
    /// a to-one with its inverse to-many (delete rule from `ON DELETE`); a table whose
    /// key is two foreign keys and nothing else is a many-to-many between their tables.
    @Test func inferredModelMatchesTheSchema() throws {
        let dir = TempDir()
        let (store, copy, original) = try Self.open(dir)
        let m = store.model
        let tables = try sqliteRows(copy.path, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        #expect(tables.count == 11)
        #expect(m.entityNames.sorted() == tables)
        let types: [(declared: String, type: AttributeType)] = [("INT", .integer64), ("CHAR", .string), ("NUMERIC", .double), ("DATETIME", .date)]
        let rules: [String: DeleteRule] = ["NO ACTION": .deny, "RESTRICT": .deny, "CASCADE": .cascade, "SET NULL": .nullify, "SET DEFAULT": .setDefault]
        var joinTables: [String] = [], declaredKeys = 0
        for table in tables {
            let e = try #require(m.entity(named: table))
            let info = e.declaration.userInfo
            #expect(info[ForeignMappingKeys.table] == table)
            let columns = try Self.fields(copy.path, "SELECT name, type, \"notnull\", coalesce(dflt_value, ''), pk FROM pragma_table_info('\(table)')")
            let keys = try Self.fields(copy.path, "SELECT \"from\", \"table\", on_delete FROM pragma_foreign_key_list('\(table)')")
            declaredKeys += keys.count
            let rowidKey = columns.filter { $0[4] != "0" }.count == 1 ? columns.first { $0[4] == "1" && $0[1] == "INTEGER" }?[0] : nil
            // Each foreign key: a to-one on its column, and the inverse to-many on the table it refers to.
            for key in keys {
                let (column, target, onDelete) = (key[0], key[1], key[2])
                let toOne = try #require(e.relationships.first { info[ForeignMappingKeys.foreignKey($0.name)] == column }, "\(table).\(column) → \(target)")
                #expect(!toOne.isToMany && toOne.destination == target, "\(table).\(toOne.name)")
                #expect(toOne.isOptional == (columns.first { $0[0] == column }?[2] == "0"), "\(table).\(toOne.name)")
                let inverse = try #require(m.entity(named: target)?.relationship(named: toOne.inverse), "\(target).\(toOne.inverse)")
                #expect(inverse.isToMany && inverse.destination == table && inverse.inverse == toOne.name, "\(target).\(inverse.name)")
                #expect(inverse.deleteRule == rules[onDelete], "\(target).\(inverse.name): ON DELETE \(onDelete)")
            }
            // Every other column: an attribute of its declared type; required when NOT NULL, not the rowid key and without a default.
            let keyColumns = Set(keys.map { $0[0] })
            let attributeColumns = columns.filter { !keyColumns.contains($0[0]) }
            #expect(e.attributes.count == attributeColumns.count, "\(table): \(Self.names(e))")
            for c in attributeColumns {
                let a = try #require(e.attributes.first { (info[ForeignMappingKeys.column($0.name)] ?? $0.name) == c[0] }, "\(table).\(c[0])")
                let expected = types.first { c[1].uppercased().contains($0.declared) }?.type
                #expect(expected != nil && a.type == expected, "\(table).\(c[0]) \(c[1]) → \(a.type)")
                #expect(a.isOptional == (c[2] == "0" || c[0] == rowidKey || !c[3].isEmpty), "\(table).\(c[0])")
            }
            // A key of two foreign keys and no other column: a many-to-many between the two tables.
            let key = columns.filter { $0[4] != "0" }.map { $0[0] }
            guard columns.count == 2, key.count == 2, Set(key) == keyColumns else { continue }
            joinTables.append(table)
            let (a, b) = (try #require(m.entity(named: keys[0][1])), keys[1][1])
            let many = try #require(a.relationships.first { $0.destination == b && a.declaration.userInfo[ForeignMappingKeys.joinTable($0.name)] != nil }, "\(a.name) ↔ \(b)")
            #expect(many.isToMany && m.entity(named: b)?.relationship(named: many.inverse)?.isToMany == true, "\(a.name).\(many.name)")
            #expect(a.declaration.userInfo[ForeignMappingKeys.joinTable(many.name)]?.contains("\"\(table)\"") == true)
        }
        #expect(joinTables == ["PlaylistTrack"])
        // Nothing else: each entity's relationships are its to-ones, their inverses and the many-to-many.
        let entities = m.entityNames.compactMap(m.entity(named:))
        #expect(entities.map(\.relationships.count).reduce(0, +) == 2 * declaredKeys + 2 * joinTables.count)
        #expect(entities.map { e in e.relationships.filter { e.declaration.userInfo[ForeignMappingKeys.joinTable($0.name)] != nil }.count }.reduce(0, +) == 2 * joinTables.count)

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

