import Foundation
import Testing
@testable import VellumStore

/// What the store opened read-only before, now written as Core Data writes it: a store that
/// records persistent history gets the save's `ATRANSACTION`/`ACHANGE` rows (strings in
/// `ATRANSACTIONSTRING`, keys from the history entities' `Z_MAX`), and a to-one relationship to
/// an entity with sub-entities gets its `Z<n>_<NAME>` companion column. Checked with `sqlite3`.
@Suite struct CoreDataHistoryWriteTests {
    static func open(_ copy: CoreDataFixtureCopy) throws -> PersistentStore {
        try PersistentStore.openAny(url: copy.url, model: nil, options: StoreOptions(createIfMissing: false))
    }

    @Test func aSaveInAStoreWithCoreDataHistoryWritesItsTransactionAndChanges() throws {
        let copy = try CoreDataFixtureCopy("SampleModel-v1.sqlite")
        let path = copy.url.path
        #expect(try sqliteShell(path, CoreDataObjectLiveUpdateTests.historySchema) == 0)
        let before = try CoreDataLayoutWriteTests.untouched(path)
        let store = try Self.open(copy)
        #expect(store.writeRefusal == nil)
        let c = try ManagedObjectContext(store: store)
        c.transactionAuthor = "tester"
        c.name = "editor"
        _ = try c.insert("Person", values: ["firstName": .string("Ada"), "id": .uuid(UUID()), "updatedAt": .date(Date())])
        let victoria = try #require(try c.fetch("Person", where: QueryPredicate(format: "firstName == 'Victoria'")).first)
        try victoria.setValue(.string("Regina"), forKey: "lastName")
        let start = Date().timeIntervalSinceReferenceDate
        try c.save()
        let end = Date().timeIntervalSinceReferenceDate
        let victoriaKey = try #require(victoria.objectID.primaryKey)

        let transaction = try sqliteShellOutput(path, """
            SELECT t.Z_PK, t.Z_ENT, t.Z_OPT, a.ZNAME, b.ZNAME, x.ZNAME, t.ZTIMESTAMP FROM ATRANSACTION t JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS
            JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS JOIN ATRANSACTIONSTRING x ON x.Z_PK = t.ZCONTEXTNAMETS
            """)
        #expect(transaction.count == 1)
        let fields = transaction.first?.split(separator: "|").map(String.init) ?? []
        #expect(fields.prefix(6) == ["1", "16002", "1", "tester", "vellum", "editor"])
        let time = fields.last.flatMap(Double.init) ?? 0
        #expect(time >= start - 1 && time <= end + 1, "seconds since 2001: \(time)")
        #expect(try sqliteShellOutput(path, "SELECT Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID FROM ACHANGE ORDER BY Z_PK")
                == ["16001|1|0|4|21|1", "16001|1|1|4|\(victoriaKey)|1"])
        #expect(try sqliteShellOutput(path, "SELECT Z_ENT || '=' || Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
                == ["16001=2", "16002=1", "16003=\(try Self.sqliteScalarCount(path, "ATRANSACTIONSTRING"))"])
        #expect(try sqliteShellOutput(path, "PRAGMA integrity_check") == ["ok"])
        #expect(try CoreDataLayoutWriteTests.untouched(path) == before)

        // A second save reuses the strings, takes the next keys, and records a delete.
        let ada = try #require(try c.fetch("Person", where: QueryPredicate(format: "firstName == 'Ada'")).first)
        try c.delete(ada)
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID FROM ACHANGE WHERE Z_PK = 3") == ["2|4|21|2"])
        #expect(try sqliteShellOutput(path, "SELECT count(*), count(DISTINCT ZNAME) FROM ATRANSACTIONSTRING") == ["4|4"])
        #expect(try sqliteShellOutput(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT IN (16001, 16002) ORDER BY Z_ENT") == ["3", "2"])
        #expect(copy.originalUnchanged())
    }

    /// Vellum's own history rows are not reported back as another writer's; the app's are.
    @MainActor @Test func ownHistoryRowsAreSkippedAndAnotherWritersAreMerged() async throws {
        let (copy, container, recorder, checker) = try CoreDataObjectLiveUpdateTests.watchedHistoryStore()
        let path = copy.url.path
        try await container.enqueue { c in
            let p = try #require(try c.fetch("Person").first { $0.objectID.primaryKey == 4 })
            try p.setValue(.string("Mine"), forKey: "lastName")
        }
        let app = """
            BEGIN;
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZTIMESTAMP) VALUES ((SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_ENT = 16002), 16002, 1, 700000000);
            UPDATE ZPERSON SET ZLASTNAME = 'Theirs', Z_OPT = Z_OPT + 1 WHERE Z_PK = 6;
            INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID)
                VALUES ((SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_ENT = 16001), 16001, 1, 1, 4, 6, (SELECT max(Z_PK) FROM ATRANSACTION));
            UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_ENT IN (16001, 16002);
            COMMIT;
            """
        #expect(try sqliteShell(path, app) == 0)
        #expect(await waitUntil { !recorder.transactions.isEmpty }, "\(recorder.changes.withLock { $0 })")
        let theirs = container.store.objectID(entity: "Person", primaryKey: 6)
        #expect(recorder.transactions.flatMap(\.changes).map { "\($0.kind) \($0.objectID)" } == ["update \(theirs)"])
        #expect(await waitUntil { (try? container.viewContext.existingObject(with: theirs)["lastName"]) == .string("Theirs") })
        #expect(try sqliteShellOutput(path, "SELECT count(*) FROM ATRANSACTION") == ["2"])
        #expect(checker.failures.isEmpty, "\(checker.failures)")
        #expect(copy.originalUnchanged())
    }

    /// A to-one relationship to an entity with sub-entities: its `Z<n>_<NAME>` column holds
    /// the destination row's `Z_ENT`, on insert and on change.
    @Test func aToOneToAnEntityWithSubentitiesWritesItsCompanionColumn() throws {
        let dir = TempDir()
        let path = dir.path("tickets.sqlite")
        let schema = """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Car', 0, 2), (2, 'SportCar', 1, 0), (3, 'Ticket', 0, 1);
            CREATE TABLE ZCAR (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMAKER VARCHAR);
            CREATE INDEX ZCAR_Z_ENT_INDEX ON ZCAR (Z_ENT);
            CREATE TABLE ZTICKET (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCAR INTEGER, Z1_CAR INTEGER, ZNOTE VARCHAR);
            INSERT INTO ZCAR VALUES (1, 1, 1, 'Fiat'), (2, 2, 1, 'Ferrari');
            INSERT INTO ZTICKET VALUES (1, 3, 1, 1, 1, 'parking');
            """
        #expect(try sqliteShell(path, schema) == 0)
        let model = try ModelBuilder()
            .entity("Car") {
                $0.attribute("maker", .string)
                $0.toMany("tickets", "Ticket", inverse: "car")
            }
            .entity("SportCar", parent: "Car") { _ in }
            .entity("Ticket") {
                $0.attribute("note", .string)
                $0.toOne("car", "Car", inverse: "tickets")
            }
            .build()
        let writer = try Connection(path: path, options: .init(journalModeWAL: false))
        let layout = try CoreDataLayout(model: model, schema: ForeignSchema.read(writer))
        let store = PersistentStore(path: path, options: StoreOptions(createIfMissing: false), access: .readWrite, writer: writer,
                                    model: model, layout: layout, identifier: "TEST", writeRefusal: nil)
        let c = try ManagedObjectContext(store: store)
        let ferrari = try #require(try c.fetch("SportCar").first)
        let ticket = try c.insert("Ticket", values: ["note": .string("speeding")])
        try ticket.setToOne("car", ferrari)
        let parking = try #require(try c.fetch("Ticket", where: QueryPredicate(format: "note == 'parking'")).first)
        try parking.setToOne("car", ferrari)
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT ZNOTE || '|' || ZCAR || '|' || Z1_CAR || '|' || Z_OPT FROM ZTICKET ORDER BY Z_PK")
                == ["parking|2|2|2", "speeding|2|2|1"])
        let fiat = try #require(try c.fetch("Car", where: QueryPredicate(format: "maker == 'Fiat'")).first)
        try parking.setToOne("car", fiat)
        try ticket.setToOne("car", nil)
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT ZNOTE || '|' || coalesce(ZCAR, '-') || '|' || coalesce(Z1_CAR, '-') FROM ZTICKET ORDER BY Z_PK")
                == ["parking|1|1", "speeding|-|-"])
        #expect(try sqliteShellOutput(path, "PRAGMA integrity_check") == ["ok"])
    }

    static func sqliteScalarCount(_ path: String, _ table: String) throws -> String {
        try sqliteShellOutput(path, "SELECT count(*) FROM \(table)").first ?? ""
    }
}
