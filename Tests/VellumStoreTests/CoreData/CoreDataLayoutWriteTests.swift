import Foundation
import Testing
@testable import VellumStore

/// Saves into a copy of a Core Data store write what Core Data itself would: keys from
/// `Z_MAX` (bumped in the same transaction), `Z_ENT` of the concrete entity, `Z_OPT` 1 on
/// insert and +1 per saved update (and checked: another writer's bump is a conflict), dates
/// since 2001; the schema, `Z_METADATA` and journal mode stay as they were. Checked with `sqlite3`.
@Suite struct CoreDataLayoutWriteTests {
    static let store = "SampleModel-v1.sqlite"

    static func open(_ copy: CoreDataFixtureCopy) throws -> PersistentStore {
        try PersistentStore.openAny(url: copy.url, model: nil, options: StoreOptions(createIfMissing: false))
    }

    /// What must not change when Vellum writes: the schema, the metadata, the journal mode.
    static func untouched(_ path: String) throws -> [String] {
        try sqliteShellOutput(path, "SELECT type || name || coalesce(sql, '') FROM sqlite_master ORDER BY name")
            + sqliteShellOutput(path, "SELECT Z_VERSION || Z_UUID || hex(Z_PLIST) FROM Z_METADATA")
            + sqliteShellOutput(path, "PRAGMA journal_mode")
    }

    @Test func insertUpdateAndDeleteWriteWhatCoreDataWould() throws {
        let copy = try CoreDataFixtureCopy(Self.store)
        let path = copy.url.path
        let before = try Self.untouched(path)
        let owned = try sqliteShellOutput(path, "SELECT Z_PK FROM ZCAR WHERE ZOWNER = 2 ORDER BY Z_PK")
        #expect(!owned.isEmpty)
        let store = try Self.open(copy)
        #expect(store.writeRefusal == nil)
        let c = try ManagedObjectContext(store: store)
        let id = UUID()
        let when = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
        let ada = try c.insert("Person", values: ["firstName": .string("Ada"), "lastName": .string("Lovelace"), "id": .uuid(id), "updatedAt": .date(when)])
        let car = try c.insert("ExpensiveSportCar", values: ["numberPlate": .string("AE-1815"), "isLimitedEdition": .bool(true), "maker": .string("Babbage")])
        try car.setToOne("owner", ada)
        let victoria = try #require(try c.fetch("Person", where: QueryPredicate(format: "firstName == 'Victoria'")).first)
        let victoriaKey = try #require(victoria.objectID.primaryKey)
        try victoria.setValue(.string("Regina"), forKey: "lastName")
        let second = try #require(try c.fetch("Person").first { $0.objectID.primaryKey == 2 })
        try c.delete(second)
        try c.save()

        // Keys from Z_MAX, which moved with them; Z_ENT of the concrete entity; Z_OPT 1.
        #expect(try sqliteShellOutput(path, "SELECT Z_ENT, Z_OPT, ZFIRSTNAME, ZUPDATEDAT, hex(ZID) FROM ZPERSON WHERE Z_PK = 21")
                == ["4|1|Ada|700000000.5|\(id.uuidString.replacingOccurrences(of: "-", with: ""))"])
        #expect(try sqliteShellOutput(path, "SELECT Z_ENT, Z_OPT, ZMAKER, ZISLIMITEDEDITION, ZOWNER FROM ZCAR WHERE Z_PK = 126") == ["3|1|Babbage|1|21"])
        #expect(try sqliteShellOutput(path, "SELECT Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == ["126", "0", "0", "21"])
        // One saved update: Z_OPT + 1, exactly once.
        #expect(try sqliteShellOutput(path, "SELECT Z_OPT, ZLASTNAME FROM ZPERSON WHERE Z_PK = \(victoriaKey)") == ["2|Regina"])
        // The delete nullified its cars' owner (a change of theirs: Z_OPT + 1).
        #expect(try sqliteShellOutput(path, "SELECT count(*) FROM ZPERSON WHERE Z_PK = 2") == ["0"])
        #expect(try sqliteShellOutput(path, "SELECT DISTINCT coalesce(ZOWNER, 'null') || '|' || Z_OPT FROM ZCAR WHERE Z_PK IN (\(owned.joined(separator: ",")))") == ["null|2"])
        // What Core Data checks when it opens the file.
        #expect(try sqliteShellOutput(path, "PRAGMA integrity_check") == ["ok"])
        #expect(try sqliteShellOutput(path, "SELECT count(*) FROM Z_PRIMARYKEY p WHERE p.Z_SUPER = 0 AND p.Z_MAX < (SELECT max(Z_PK) FROM ZCAR) AND p.Z_ENT = 1") == ["0"])
        #expect(try Self.untouched(path) == before)
        #expect(try CoreDataStoreFile(path: path).recoverModel().differingEntities.isEmpty)

        // Reopened, the changes read back.
        let again = try ManagedObjectContext(store: try Self.open(copy))
        let read = try #require(try again.fetch("Person", where: QueryPredicate(format: "firstName == 'Ada'")).first)
        #expect(try read["updatedAt"] == .date(when) && read["id"] == .uuid(id))
        #expect(try read.toMany("cars").map(\.entity.name) == ["ExpensiveSportCar"])
        #expect(copy.originalUnchanged())
    }

    /// `Z_OPT` is the optimistic-locking version: a row another program saved since it was
    /// read is a conflict, and nothing is written.
    @Test func anotherWritersZOPTBumpIsAConflict() throws {
        let copy = try CoreDataFixtureCopy(Self.store)
        let path = copy.url.path
        let c = try ManagedObjectContext(store: try Self.open(copy))
        let person = try #require(try c.fetch("Person").first { $0.objectID.primaryKey == 3 })
        _ = try person["firstName"]
        _ = try runSQLiteShell([path, "UPDATE ZPERSON SET ZLASTNAME = 'App', Z_OPT = Z_OPT + 1 WHERE Z_PK = 3"])
        try person.setValue(.string("Vellum"), forKey: "lastName")
        #expect { try c.save() } throws: { e in
            guard case StoreError.conflicts = e else { return false }
            return true
        }
        #expect(try sqliteShellOutput(path, "SELECT Z_OPT, ZLASTNAME FROM ZPERSON WHERE Z_PK = 3") == ["2|App"])
        #expect(copy.originalUnchanged())
    }

    /// A store whose persistent-history tables lack what Core Data's history rows need is
    /// opened read-only: a save is refused naming the missing columns, and the file is not changed.
    @Test func aStoreWithIncompleteCoreDataHistoryTablesIsNotWritten() throws {
        let copy = try CoreDataFixtureCopy(Self.store)
        let path = copy.url.path
        _ = try runSQLiteShell([path, "CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTIMESTAMP TIMESTAMP)"])
        let bytes = try copy.bytes()
        let store = try Self.open(copy)
        #expect(store.writeRefusal?.contains("persistent-history tables lack ACHANGE.Z_PK") == true, "\(store.writeRefusal ?? "")")
        let c = try ManagedObjectContext(store: store)
        _ = try c.insert("Person", values: ["firstName": .string("Ada"), "id": .uuid(UUID()), "updatedAt": .date(Date())])
        #expect { try c.save() } throws: { e in "\(e)".contains("persistent-history tables lack") }
        #expect(try copy.bytes() == bytes)
        #expect(copy.originalUnchanged())
    }

    /// Derived-attribute triggers call Core Data's own SQL functions: Vellum registers no-op
    /// functions of those names, so a save runs the trigger instead of failing.
    @Test func triggersCallingCoreDataFunctionsStillRun() throws {
        let copy = try CoreDataFixtureCopy(Self.store)
        let path = copy.url.path
        let trigger = """
            CREATE TRIGGER Z_DA_ZPERSON_TOUCH AFTER INSERT ON ZPERSON FOR EACH ROW
            BEGIN SELECT NSCoreDataTriggerUpdateAffectedObjectValue('ZPERSON', NEW.Z_PK); UPDATE ZPERSON SET ZLASTNAME = 'derived' WHERE Z_PK = NEW.Z_PK; END
            """
        #expect(try sqliteShell(path, trigger) == 0)
        let c = try ManagedObjectContext(store: try Self.open(copy))
        _ = try c.insert("Person", values: ["firstName": .string("Ada"), "id": .uuid(UUID()), "updatedAt": .date(Date())])
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT ZLASTNAME FROM ZPERSON WHERE ZFIRSTNAME = 'Ada'") == ["derived"])
        #expect(copy.originalUnchanged())
    }
}
