import Foundation
import Testing
@testable import VellumStore

/// Tracking tables addressed by their declared key (text, composite, `WITHOUT ROWID`,
/// `INT PRIMARY KEY`): the triggers record each row's key — the key's values where the
/// object ID digests them (`RecordedKey`) — so another program's writes arrive object by
/// object, with the IDs the layout gives those rows, a key-column update as a delete and
/// an insert; `untrack` leaves the schema as it was.
@MainActor @Suite(.serialized)
struct KeyedTableTrackingTests {
    static let schema = """
        CREATE TABLE wr (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
        CREATE TABLE pair (a TEXT NOT NULL, b INT NOT NULL, note TEXT, PRIMARY KEY (a, b));
        CREATE TABLE num (n INT PRIMARY KEY NOT NULL, label TEXT);
        CREATE TABLE loose (code TEXT PRIMARY KEY, v TEXT);
        INSERT INTO wr VALUES ('a', 'x'), ('b', 'y');
        INSERT INTO pair VALUES ('a', 1, 'a1'), ('a', 2, 'a2');
        INSERT INTO num VALUES (10, 'ten');
        INSERT INTO loose VALUES ('p', 'q');
        """

    /// The ID a fresh context of `store` gives the one row of `entity` matching `format`.
    static func id(_ store: PersistentStore, _ entity: String, _ format: String) throws -> ObjectID {
        let rows = try ManagedObjectContext(store: store).fetch(entity, where: QueryPredicate(format: format))
        try #require(rows.count == 1, "\(entity) where \(format): \(rows.count) rows")
        return rows[0].objectID
    }

    @Test func aTrackedKeyedTablesOutsideWritesArriveObjectByObjectWithTheLayoutsIDs() async throws {
        let dir = TempDir()
        let path = dir.path("keyed.sqlite")
        #expect(try sqliteShell(path, Self.schema) == 0)
        let before = try HistoryTrackingTests.schema(path)

        let plan = try HistoryTracking.plan(path: path)
        #expect(plan.skipped.isEmpty, "\(plan.skipped)")
        #expect(plan.tables == [TrackedTable(table: "loose", key: .primaryKey(columns: ["code"])),
                                TrackedTable(table: "num", key: .primaryKey(columns: ["n"])),
                                TrackedTable(table: "pair", key: .primaryKey(columns: ["a", "b"])),
                                TrackedTable(table: "wr", key: .primaryKey(columns: ["k"]))])
        #expect(plan.triggers.count == 12)
        try HistoryTracking.track(plan)

        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        #expect(!store.detectsChangesCoarsely)
        let container = try PersistentContainer(store: store)
        #expect(try store.withWriter { try store.tablesWithoutHistory(using: $0) }.isEmpty, "every table is watched: no refetch needed")
        let changes = RemoteChanges()
        container.observeRemoteChanges { changes.append($0) }
        let view = container.viewContext
        let pairs = ResultsController(fetchRequest: FetchRequest(entityName: "pair", sortDescriptors: [QuerySortDescriptor("note")]), context: view)
        let wrs = ResultsController(fetchRequest: FetchRequest(entityName: "wr", sortDescriptors: [QuerySortDescriptor("k")]), context: view)
        try pairs.performFetch()
        try wrs.performFetch()
        let a1 = try Self.id(store, "pair", "a == 'a' AND b == 1")
        let b = try Self.id(store, "wr", "k == 'b'")
        let a = try Self.id(store, "wr", "k == 'a'")
        #expect(try view.existingObject(with: b).value(forKey: "v") == .string("y"))

        // An insert into each table, and an update, from the sqlite3 shell.
        #expect(try sqliteShell(path, """
            INSERT INTO wr VALUES ('c', 'z');
            INSERT INTO pair VALUES ('b', 7, 'b7');
            INSERT INTO num VALUES (20, 'twenty');
            INSERT INTO loose VALUES ('r', 's');
            INSERT INTO loose VALUES (NULL, 'keyless');
            UPDATE wr SET v = 'y2' WHERE k = 'b';
            """) == 0)
        let inserted = [try Self.id(store, "wr", "k == 'c'"), try Self.id(store, "pair", "a == 'b' AND b == 7"),
                        try Self.id(store, "num", "n == 20"), try Self.id(store, "loose", "code == 'r'"),
                        try Self.id(store, "loose", "v == 'keyless'")]
        #expect(inserted[2].primaryKey == 20)
        #expect(await waitUntil(timeout: 30) { changes.insertedIDs.count == 5 && changes.updatedKeys[b] == ["v"] },
                "\(changes.insertedIDs) \(changes.updatedKeys)")
        #expect(changes.insertedIDs == inserted)
        #expect(await waitUntil(timeout: 30) { wrs.fetchedObjectIDs.contains(inserted[0]) && pairs.fetchedObjectCount == 3 })
        #expect(try await waitUntil(timeout: 30) { try view.existingObject(with: b).value(forKey: "v") == .string("y2") })

        // A key-column update: the old object deleted, the new one inserted.
        #expect(try sqliteShell(path, "UPDATE pair SET b = 5 WHERE a = 'a' AND b = 1; DELETE FROM wr WHERE k = 'a';") == 0)
        let a5 = try Self.id(store, "pair", "a == 'a' AND b == 5")
        #expect(await waitUntil(timeout: 30) { changes.deletedIDs.count == 2 }, "\(changes.deletedIDs)")
        #expect(changes.deletedIDs == [a1, a])
        #expect(changes.insertedIDs.last == a5)
        #expect(await waitUntil(timeout: 30) { pairs.fetchedObjectIDs.contains(a5) && !pairs.fetchedObjectIDs.contains(a1) && !wrs.fetchedObjectIDs.contains(a) },
                "\(pairs.fetchedObjectIDs) \(wrs.fetchedObjectIDs)")

        let removed = try HistoryTracking.untrack(path: path)
        #expect(Set(removed) == Set(plan.addedNames))
        #expect(try HistoryTrackingTests.schema(path) == before)
    }

    /// Chinook's `PlaylistTrack` (a composite key of two integers, a rowid table) is tracked
    /// with the rest; the shell's insert, key change and delete arrive object by object.
    @Test func chinooksPlaylistTrackIsTrackedByItsCompositeKey() async throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let path = copy.path
        let before = try HistoryTrackingTests.schema(path)
        let plan = try HistoryTracking.plan(path: path)
        #expect(plan.tables.first { $0.table == "PlaylistTrack" }?.key == .primaryKey(columns: ["PlaylistId", "TrackId"]))
        try HistoryTracking.track(plan)
        let store = try PersistentStore.openAny(url: copy, model: nil, options: StoreOptions(createIfMissing: false))
        let container = try PersistentContainer(store: store)
        #expect(try store.withWriter { try store.tablesWithoutHistory(using: $0) }.isEmpty)
        let changes = RemoteChanges()
        container.observeRemoteChanges { changes.append($0) }
        let list = ResultsController(fetchRequest: FetchRequest(entityName: "PlaylistTrack", predicate: try QueryPredicate(format: "playlist.PlaylistId == 2")),
                                     context: container.viewContext)
        try list.performFetch()
        #expect(list.fetchedObjectCount == 0)

        #expect(try sqliteShell(path, "INSERT INTO PlaylistTrack (PlaylistId, TrackId) VALUES (2, 5)") == 0)
        let first = try Self.playlistTrack(store, 2, 5)
        #expect(await waitUntil(timeout: 30) { list.fetchedObjectIDs == [first] }, "\(list.fetchedObjectIDs)")
        #expect(changes.insertedIDs == [first])

        #expect(try sqliteShell(path, "UPDATE PlaylistTrack SET TrackId = 6 WHERE PlaylistId = 2 AND TrackId = 5") == 0)
        let moved = try Self.playlistTrack(store, 2, 6)
        #expect(await waitUntil(timeout: 30) { list.fetchedObjectIDs == [moved] }, "\(list.fetchedObjectIDs)")
        #expect(changes.deletedIDs == [first] && changes.insertedIDs == [first, moved])

        #expect(try sqliteShell(path, "DELETE FROM PlaylistTrack WHERE PlaylistId = 2") == 0)
        #expect(await waitUntil(timeout: 30) { list.fetchedObjectCount == 0 })
        #expect(changes.deletedIDs == [first, moved])

        try HistoryTracking.untrack(path: path)
        #expect(try HistoryTrackingTests.schema(path) == before)
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
    }

    /// The ID the layout gives Chinook's `PlaylistTrack` row (its columns are relationships,
    /// so it is read through the store's own view of the table).
    static func playlistTrack(_ store: PersistentStore, _ playlist: Int, _ track: Int) throws -> ObjectID {
        let key = try store.withWriter { try $0.scalarInt("SELECT rowid FROM PlaylistTrack WHERE PlaylistId = \(playlist) AND TrackId = \(track)") }
        return store.objectID(entity: "PlaylistTrack", primaryKey: try #require(key))
    }

    /// Keys of every storage class, text with quotes and commas, a blob, a real: the values
    /// a trigger records digest into exactly the key the layout reads for the row.
    @Test func recordedKeyValuesDigestIntoTheLayoutsKey() throws {
        let dir = TempDir()
        let path = dir.path("odd.sqlite")
        #expect(try sqliteShell(path, "CREATE TABLE odd (a, b, PRIMARY KEY (a, b)) WITHOUT ROWID") == 0)
        try HistoryTracking.track(try HistoryTracking.plan(path: path))
        #expect(try sqliteShell(path, """
            INSERT INTO odd VALUES ('it''s, (odd)', 1), (X'00ff10', -7), (0.1, 1e300), (12, 'x'), ('ünï', 2.5);
            """) == 0)
        let recorded = try sqliteRows(path, "SELECT pk FROM _vellum_changes ORDER BY id")
        #expect(recorded.count == 5)
        #expect(recorded.first == "('it''s, (odd)',1)")
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        let ids = try store.withWriter { c in try recorded.map { try #require(try RecordedKey.digest($0, on: c)) } }
        let keys = try store.withWriter { c in try c.rows("SELECT rowid FROM odd").compactMap { $0[0].integerValue } }
        #expect(Set(ids) == Set(keys) && keys.count == 5)
        #expect(RecordedKey.values("1") == nil && RecordedKey.values("('a'") == nil)
        #expect(RecordedKey.values("(NULL,-3,2.5,X'0a','')") == [.null, .integer(-3), .double(2.5), .data(Data([10])), .string("")])
    }
}
