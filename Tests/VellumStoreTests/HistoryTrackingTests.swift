import Foundation
import Testing
@testable import VellumStore

/// `HistoryTracking`: Vellum's history installed into a database it did not
/// create only as planned, recording other writers' changes; `untrack` leaves
/// the schema exactly as it was. Fixtures are used on copies; the original is
/// checked byte for byte afterwards.
struct HistoryTrackingTests {
    /// The Chinook fixture (`shared/fixtures/sqlite/chinook.sqlite`), opened only through `SQLiteFixtures.copy`.
    static let chinook = "chinook.sqlite"

    /// type, name, table and SQL of every schema object, sorted (rootpage left out:
    /// dropping a table may renumber pages, which is not the schema).
    static func schema(_ path: String) throws -> [String] {
        try sqliteRows(path, "SELECT type || '|' || name || '|' || tbl_name || '|' || coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
    }

    static func names(_ path: String) throws -> Set<String> {
        Set(try sqliteRows(path, "SELECT name FROM sqlite_master"))
    }

    @Test func trackingChinookAddsExactlyThePlanAndUntrackRestoresTheSchema() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy(Self.chinook, into: dir)
        let path = copy.path
        let before = try Self.schema(path)
        let namesBefore = try Self.names(path)

        let plan = try HistoryTracking.plan(path: path)
        #expect(plan.tables.map(\.table) == ["Album", "Artist", "Customer", "Employee", "Genre", "Invoice", "InvoiceLine",
                                             "MediaType", "Playlist", "PlaylistTrack", "Track"])
        #expect(plan.tables.first { $0.table == "Artist" }?.key == .integerPrimaryKey(column: "ArtistId"))
        // Its rows are addressed by (PlaylistId, TrackId), and recorded by it.
        #expect(plan.tables.first { $0.table == "PlaylistTrack" }?.key == .primaryKey(columns: ["PlaylistId", "TrackId"]))
        #expect(plan.skipped.isEmpty)
        #expect(plan.triggers.count == 33)
        #expect(plan.triggers.contains("_vellum_history_Artist_update"))
        #expect(plan.historyTables == ["_vellum_transactions", "_vellum_changes"])
        #expect(try Self.schema(path) == before, "planning changes nothing")

        try HistoryTracking.track(plan)
        #expect(try Self.names(path).subtracting(namesBefore) == Set(plan.addedNames))
        #expect(try Self.names(path).count == namesBefore.count + plan.addedNames.count)
        #expect(try sqliteScalar(path, "PRAGMA journal_mode") == "delete")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal") && !FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(try HistoryTracking.trackedTables(path: path) == plan.tables.map(\.table))

        // Another program's writes are recorded row by row, by table and key.
        #expect(try sqliteShell(path, """
            INSERT INTO Artist (ArtistId, Name) VALUES (1000, 'New');
            UPDATE Artist SET Name = 'Renamed' WHERE ArtistId = 1000;
            UPDATE Artist SET Name = Name WHERE ArtistId = 1000;
            DELETE FROM Artist WHERE ArtistId = 1000;
            UPDATE PlaylistTrack SET TrackId = TrackId WHERE rowid = 1;
            """) == 0)
        #expect(try sqliteRows(path, "SELECT entity || ' ' || pk || ' ' || kind || ' ' || coalesce(columns, '-') FROM _vellum_changes ORDER BY id")
                == ["Artist 1000 0 -", "Artist 1000 1 Name", "Artist 1000 1 -", "Artist 1000 2 -", "PlaylistTrack (1,3402) 1 -"])

        let removed = try HistoryTracking.untrack(path: path)
        #expect(Set(removed) == Set(plan.addedNames))
        #expect(try Self.schema(path) == before)
        #expect(try HistoryTracking.trackedTables(path: path).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged(Self.chinook, original))
    }

    /// A table keyed by a text or composite key: the key's values (`RecordedKey`); one integer key column: itself.
    @Test func aDeclaredKeyIsRecordedAndAKeyChangeIsDeleteAndInsert() throws {
        let dir = TempDir()
        let path = dir.path("keys.sqlite")
        #expect(try sqliteShell(path, """
            CREATE TABLE p (a TEXT NOT NULL, b INT NOT NULL, v TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
            CREATE TABLE n (id INT PRIMARY KEY NOT NULL, v TEXT);
            INSERT INTO p VALUES ('x', 1, 'v'); INSERT INTO n VALUES (4, 'v');
            """) == 0)
        try HistoryTracking.track(try HistoryTracking.plan(path: path))
        #expect(try sqliteShell(path, """
            UPDATE p SET v = 'w'; UPDATE p SET b = 2; UPDATE n SET v = 'w'; UPDATE n SET id = 5;
            """) == 0)
        #expect(try sqliteRows(path, "SELECT entity || ' ' || pk || ' ' || kind || ' ' || coalesce(columns, '-') FROM _vellum_changes ORDER BY id")
                == ["p ('x',1) 1 v", "p ('x',1) 2 -", "p ('x',2) 0 -", "n 4 1 v", "n 4 2 -", "n 5 0 -"])
    }

    @Test func aRowWhoseKeyChangesIsRecordedAsDeleteAndInsert() throws {
        let dir = TempDir()
        let path = dir.path("keys.sqlite")
        #expect(try sqliteShell(path, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a');") == 0)
        try HistoryTracking.track(try HistoryTracking.plan(path: path))
        #expect(try sqliteShell(path, "UPDATE t SET id = 2 WHERE id = 1") == 0)
        #expect(try sqliteRows(path, "SELECT pk || ' ' || kind FROM _vellum_changes ORDER BY id") == ["1 2", "2 0"])
    }

    @Test func tablesThatCannotBeTrackedAreLeftOutSayingWhy() throws {
        let dir = TempDir()
        let path = dir.path("odd.sqlite")
        #expect(try sqliteShell(path, #"""
            CREATE TABLE "Order Details" ("Order ""Id""" INTEGER PRIMARY KEY, qty INT);
            CREATE TABLE pairs (a TEXT, b TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
            CREATE TABLE hides (rowid TEXT, v INT);
            CREATE TABLE plain (v INT);
            CREATE VIEW big AS SELECT * FROM plain WHERE v > 10;
            """#) == 0)
        let before = try Self.schema(path)
        let plan = try HistoryTracking.plan(path: path)
        #expect(plan.tables == [TrackedTable(table: "Order Details", key: .integerPrimaryKey(column: "Order \"Id\"")),
                                TrackedTable(table: "pairs", key: .primaryKey(columns: ["a", "b"])),
                                TrackedTable(table: "plain", key: .rowid)])
        #expect(plan.skipped == [SkippedTable(table: "hides", reason: "its column rowid hides the row id")])
        do {
            _ = try HistoryTracking.plan(path: path, tables: [TrackedTable(table: "pairs", key: .rowid)])
            Issue.record("a WITHOUT ROWID table was accepted by row id")
        } catch {
            #expect(error.description.contains("cannot track pairs: its rows are addressed by their primary key (a, b), not by the row id"))
        }
        do {
            _ = try HistoryTracking.plan(path: path, tables: [TrackedTable(table: "pairs", key: .primaryKey(columns: ["b", "a"]))])
            Issue.record("a key in another order was accepted")
        } catch {
            #expect(error.description.contains("its primary key is (a, b), not (b, a)"))
        }
        do {
            _ = try HistoryTracking.plan(path: path, tables: [TrackedTable(table: "plain", key: .integerPrimaryKey(column: "v"))])
            Issue.record("a column that is not the INTEGER PRIMARY KEY was accepted")
        } catch {
            #expect(error.description.contains("v is not its INTEGER PRIMARY KEY"))
        }
        // Odd names work in the triggers.
        try HistoryTracking.track(plan)
        #expect(try sqliteShell(path, #"INSERT INTO "Order Details" ("Order ""Id""", qty) VALUES (7, 1); UPDATE "Order Details" SET qty = 2;"#) == 0)
        #expect(try sqliteRows(path, "SELECT entity || ' ' || pk || ' ' || kind || ' ' || coalesce(columns, '-') FROM _vellum_changes ORDER BY id")
                == ["Order Details 7 0 -", "Order Details 7 1 qty"])
        try HistoryTracking.untrack(path: path)
        #expect(try Self.schema(path) == before)
    }

    @Test func aVellumStoreIsNotTracked() throws {
        let dir = TempDir()
        _ = try Fixtures.openShop(dir)
        let path = dir.path("shop.sqlite")
        let before = try Self.schema(path)
        #expect(throws: StoreError.self) { try HistoryTracking.plan(path: path) }
        #expect(throws: StoreError.self) { try HistoryTracking.untrack(path: path) }
        #expect(try Self.schema(path) == before)
    }

    @Test func aPlanMadeBeforeTheSchemaChangedIsNotInstalled() throws {
        let dir = TempDir()
        let path = dir.path("moving.sqlite")
        #expect(try sqliteShell(path, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)") == 0)
        let plan = try HistoryTracking.plan(path: path)
        #expect(try sqliteShell(path, "ALTER TABLE t ADD COLUMN w TEXT") == 0)
        let before = try Self.schema(path)
        #expect(throws: StoreError.self) { try HistoryTracking.track(plan) }
        #expect(try Self.schema(path) == before)
    }
}

/// Through the store: a table tracked by triggers (recording its TABLE name) reaches
/// the results controller object by object, via the history reader's table → entity
/// mapping. Stands in for a foreign layout with the Core Data-named test layout
/// (tables `Z<ROOT>`), a store made without history.
@MainActor
struct TrackedTableLiveTests {
    @Test func aTrackedTablesOutsideInsertArrivesAsAHistoryTransaction() async throws {
        let dir = TempDir()
        let url = dir.file("tracked.sqlite")
        var options = StoreOptions()
        options.recordsHistory = false
        options.layout = { CoreDataNamedLayout(model: $0) }
        do { _ = try PersistentStore(url: url, model: Fixtures.shopModel(), options: options) }
        let db = try Connection(path: url.path)
        let plan = try HistoryTracking.plan(in: db, path: url.path, tables: [TrackedTable(table: "ZTAG", key: .integerPrimaryKey(column: "Z_PK"))])
        try db.transaction {
            for s in plan.statements { try db.execute(s) }
            // What a foreign database lacks, so the native trigger upgrade would otherwise replace ours.
            try db.execute("INSERT INTO _vellum_metadata (key, value) VALUES ('historyTriggers', '2')")
        }
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: url, options: options)
        #expect(!container.store.detectsChangesCoarsely)
        let changes = RemoteChanges()
        container.observeRemoteChanges { changes.append($0) }
        let view = container.viewContext
        var coarse = 0
        view.observeChanges { if $0.storeChangedExternally { coarse += 1 } }
        let controller = ResultsController(fetchRequest: FetchRequest(entityName: "Tag", sortDescriptors: [QuerySortDescriptor("name")]), context: view)
        try controller.performFetch()
        #expect(try sqliteShell(url.path, "INSERT INTO ZTAG (Z_PK, Z_ENT, ZNAME) VALUES (5, 'Tag', 'outside')") == 0)
        #expect(await waitUntil(timeout: 30) { controller.fetchedObjectCount == 1 })
        let id = container.store.objectID(entity: "Tag", primaryKey: 5)
        #expect(controller.fetchedObjectIDs == [id])
        #expect(changes.insertedIDs == [id])
        // Only ZTAG is tracked: each outside commit also asks for a refetch, as it may have
        // changed the untracked tables (PartlyTrackedFileTests).
        let untracked = try container.store.withWriter { try container.store.tablesWithoutHistory(using: $0) }
        #expect(!untracked.isEmpty && !untracked.contains("ZTAG"), "\(untracked)")
        #expect(coarse >= 1)
        #expect(try sqliteShell(url.path, "UPDATE ZTAG SET ZNAME = 'renamed' WHERE Z_PK = 5") == 0)
        #expect(await waitUntil(timeout: 30) { changes.updatedKeys[id] == ["name"] })
        #expect(try await waitUntil(timeout: 30) { try view.existingObject(with: id).value(forKey: "name") == .string("renamed") },
                "\(String(describing: try? view.existingObject(with: id).value(forKey: "name")))")
    }
}

/// Remote changes seen by an observer (on the monitor's queue).
final class RemoteChanges: @unchecked Sendable {
    private let lock = NSLock()
    private var inserted: [ObjectID] = []
    private var updated: [ObjectID: Set<String>] = [:]
    private var deleted: [ObjectID] = []

    func append(_ change: RemoteChange) {
        guard case .transactions(let ts) = change else { return }
        lock.withLock {
            for c in ts.flatMap(\.changes) {
                switch c.kind {
                case .insert: inserted.append(c.objectID)
                case .update: updated[c.objectID, default: []].formUnion(c.changedKeys)
                case .delete: deleted.append(c.objectID)
                }
            }
        }
    }

    var insertedIDs: [ObjectID] { lock.withLock { inserted } }
    var updatedKeys: [ObjectID: Set<String>] { lock.withLock { updated } }
    var deletedIDs: [ObjectID] { lock.withLock { deleted } }
}

/// A file tracked only in part: another program's change to a table without triggers
/// leaves no history row, yet open lists over that table must still follow it.
@MainActor struct PartlyTrackedFileTests {
    /// Found trying `vellum track` then `vellum FILE`: the history tables tracking adds were
    /// read as entities, and every open of a tracked file failed ("names starting with
    /// _vellum_ are reserved"). Tracked, changes arrive object by object, `PlaylistTrack`'s
    /// too (by its (PlaylistId, TrackId) key: `KeyedTableTrackingTests`).
    @Test func aTrackedChinookOpensAndAnOutsideInsertArrivesAsAHistoryTransaction() async throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy(HistoryTrackingTests.chinook, into: dir)
        let path = copy.path
        try HistoryTracking.track(try HistoryTracking.plan(path: path))
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        #expect(!store.model.entityNames.contains { $0.hasPrefix("_vellum") })
        let container = try PersistentContainer(store: store)
        #expect(try container.store.withWriter { try container.store.tablesWithoutHistory(using: $0) }.isEmpty)
        let changes = RemoteChanges()
        container.observeRemoteChanges { changes.append($0) }
        let artists = ResultsController(fetchRequest: FetchRequest(entityName: "Artist", sortDescriptors: [QuerySortDescriptor("ArtistId")]), context: container.viewContext)
        try artists.performFetch()
        let count = artists.fetchedObjectCount
        #expect(try sqliteShell(path, "INSERT INTO Artist (ArtistId, Name) VALUES (9000, 'Outside')") == 0)
        #expect(await waitUntil(timeout: 30) { artists.fetchedObjectCount == count + 1 })
        #expect(changes.insertedIDs == [store.objectID(entity: "Artist", primaryKey: 9000)])
        #expect(SQLiteFixtures.originalUnchanged(HistoryTrackingTests.chinook, original))
    }

    @Test func anUntrackedTablesOutsideInsertStillReachesAnOpenList() async throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy(HistoryTrackingTests.chinook, into: dir)
        let path = copy.path
        try HistoryTracking.track(try HistoryTracking.plan(path: path, tables: [TrackedTable(table: "Artist", key: .integerPrimaryKey(column: "ArtistId"))]))
        #expect(try HistoryTracking.trackedTables(path: path) == ["Artist"])
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        #expect(!store.detectsChangesCoarsely)
        let container = try PersistentContainer(store: store)
        let view = container.viewContext
        let albums = ResultsController(fetchRequest: FetchRequest(entityName: "Album", sortDescriptors: [QuerySortDescriptor("AlbumId")]), context: view)
        let artists = ResultsController(fetchRequest: FetchRequest(entityName: "Artist", sortDescriptors: [QuerySortDescriptor("ArtistId")]), context: view)
        try albums.performFetch()
        try artists.performFetch()
        let (albumCount, artistCount) = (albums.fetchedObjectCount, artists.fetchedObjectCount)
        #expect(try sqliteShell(path, "INSERT INTO Album (AlbumId, Title, ArtistId) VALUES (9000, 'Outside', 1)") == 0)
        #expect(await waitUntil(timeout: 30) { albums.fetchedObjectCount == albumCount + 1 }, "the untracked table's list never followed")
        // The tracked table still arrives object by object, and both in one commit too.
        #expect(try sqliteShell(path, """
            BEGIN; INSERT INTO Artist (ArtistId, Name) VALUES (9000, 'New'); INSERT INTO Album (AlbumId, Title, ArtistId) VALUES (9001, 'Second', 9000); COMMIT;
            """) == 0)
        #expect(await waitUntil(timeout: 30) { albums.fetchedObjectCount == albumCount + 2 && artists.fetchedObjectCount == artistCount + 1 })
        #expect(SQLiteFixtures.originalUnchanged(HistoryTrackingTests.chinook, original))
    }
}
