import Foundation
import Testing
@testable import VellumStore

/// What a migration must never do, and what it leaves behind: dry runs change no
/// byte, Core Data stores are refused untouched, the backup holds the old store,
/// history is kept and the migration is one transaction of it, and a store object
/// opened before the migration refuses to write rows of the old shape.
@Suite struct MigrationSafetyTests {
    static func new() throws -> ManagedObjectModel { try MigrationAttributeTests.people { $0.attribute("email", .string) } }

    @Test func planningChangesNoByteAndLeavesNoFileBeside() throws {
        let store = try MigrationTestStore(try MigrationAttributeTests.people(), fill: MigrationAttributeTests.fill)
        let files = try FileManager.default.contentsOfDirectory(atPath: store.dir.url.path).sorted()
        let bytes = try store.bytes()
        let plan = try StoreMigrator.plan(storeAt: store.url, to: try Self.new())
        #expect(plan.canRun && !plan.changesNothing)
        #expect(try store.bytes() == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.dir.url.path).sorted() == files)
    }

    @Test func coreDataStoresAreRefusedUntouched() throws {
        let dir = TempDir()
        let original = SharedFixtures.directory.appendingPathComponent("stores/Moody-v1.sqlite")
        let before = try Data(contentsOf: original)
        let url = dir.file("Moody-v1.sqlite")
        try FileManager.default.copyItem(at: original, to: url)
        for attempt in [{ _ = try StoreMigrator.plan(storeAt: url, to: try Self.new()) }, { try StoreMigrator.migrate(storeAt: url, to: try Self.new()) }] {
            #expect { try attempt() } throws: { e in
                guard case StoreError.coreDataStore(let path) = e else { return false }
                return path == url.path && "\(e)".contains("Core Data store")
            }
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try Data(contentsOf: original) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["Moody-v1.sqlite"])
    }

    @Test func backupHoldsTheOldStoreAndIsNeverOverwritten() throws {
        let old = try MigrationAttributeTests.people()
        let store = try MigrationTestStore(old, fill: MigrationAttributeTests.fill)
        let rows = try store.rows("Person", model: old)
        let squatter = store.path + ".before-" + old.versionHash
        try Data("not mine".utf8).write(to: URL(fileURLWithPath: squatter))
        let result = try store.migrate(to: try Self.new(), backup: true)
        #expect(result.backupPath == squatter + "-2")
        #expect(try Data(contentsOf: URL(fileURLWithPath: squatter)) == Data("not mine".utf8))
        let backup = try PersistentStore(url: URL(fileURLWithPath: squatter + "-2"), model: old, options: StoreOptions(createIfMissing: false, readOnly: true))
        #expect(backup.model.versionHash == old.versionHash)
        let copy = MigrationTestStoreView(url: URL(fileURLWithPath: squatter + "-2"))
        #expect(try copy.rows("Person", model: old) == rows)
    }

    @Test func historyIsKeptAndTheMigrationIsOneTransaction() throws {
        let store = try MigrationTestStore(try MigrationAttributeTests.people(), fill: MigrationAttributeTests.fill)
        let changes = try sqliteScalar(store.path, "SELECT count(*) FROM _vellum_changes")
        let transactions = Int(try sqliteScalar(store.path, "SELECT count(*) FROM _vellum_transactions"))!
        try store.migrate(to: try Self.new())
        #expect(try sqliteScalar(store.path, "SELECT count(*) FROM _vellum_changes") == changes)
        #expect(Int(try sqliteScalar(store.path, "SELECT count(*) FROM _vellum_transactions"))! == transactions + 1)
        #expect(try sqliteScalar(store.path, "SELECT author FROM _vellum_transactions ORDER BY seq DESC LIMIT 1") == "vellum migration")
        // The history triggers follow the new shape: a write from outside names the new column.
        #expect(try sqliteShell(store.path, "UPDATE Person SET email = 'a@b' WHERE _pk = 1") == 0)
        #expect(try sqliteScalar(store.path, "SELECT columns FROM _vellum_changes ORDER BY id DESC LIMIT 1") == "email")
    }

    @Test func aStoreOpenDuringTheMigrationRefusesToWriteAfterwards() throws {
        let old = try MigrationAttributeTests.people()
        let store = try MigrationTestStore(old, fill: MigrationAttributeTests.fill)
        let open = try PersistentStore(url: store.url, model: old)
        let context = try ManagedObjectContext(store: open)
        _ = try context.insert("Person", values: ["name": .string("before")])
        _ = try context.save()
        try store.migrate(to: try Self.new())
        _ = try context.insert("Person", values: ["name": .string("after")])
        #expect { try context.save() } throws: { e in
            guard case StoreError.storeModelChanged(let path) = e else { return false }
            return path == store.path && "\(e)".contains("another process migrated the store")
        }
        #expect(try sqliteScalar(store.path, "SELECT count(*) FROM Person WHERE name = 'after'") == "0")
    }

    @Test func containerMigratesAutomaticallyByDefault() throws {
        let old = try MigrationAttributeTests.people()
        let store = try MigrationTestStore(old, fill: MigrationAttributeTests.fill)
        let rows = try store.rows("Person", model: old)
        let container = try PersistentContainer(model: try Self.new(), storeURL: store.url)
        #expect(container.model.versionHash == (try Self.new()).versionHash)
        #expect(FileManager.default.fileExists(atPath: store.path + ".before-" + old.versionHash))
        let after = try MigrationTestStoreView(url: store.url).rows("Person", model: try Self.new())
        #expect(after.mapValues { $0.filter { $0.key != "email" } } == rows)
    }

    @Test func containerWithMigrationNeverFailsWithThePlan() throws {
        let store = try MigrationTestStore(try MigrationAttributeTests.people(), fill: MigrationAttributeTests.fill)
        let bytes = try store.bytes()
        #expect { try PersistentContainer(model: try Self.new(), storeURL: store.url, migration: .never) } throws: { e in
            guard case StoreError.migrationRequired(_, let plan) = e else { return false }
            return plan.contains("attribute email added") && "\(e)".contains("automatic migration is off")
        }
        #expect(try store.bytes() == bytes)
        #expect { try PersistentStore(url: store.url, model: try Self.new()) } throws: { e in
            if case StoreError.modelMismatch = e { return true } else { return false }
        }
    }

    @Test func containerRefusesWhatCannotBeInferred() throws {
        let store = try MigrationTestStore(try MigrationAttributeTests.people(), fill: MigrationAttributeTests.fill)
        let bytes = try store.bytes()
        let required = try ModelBuilder().entity("Person") { $0.attribute("name", .string, optional: false); $0.attribute("age", .integer16) }.build()
        #expect { try PersistentContainer(model: required, storeURL: store.url) } throws: { e in
            guard case StoreError.migrationRefused(_, let plan) = e else { return false }
            return plan.contains("name has a value (now required, no default): 1 row does not comply")
        }
        #expect(try store.bytes() == bytes)
    }
}

/// Rows of an existing store file (see `MigrationTestStore.rows`).
struct MigrationTestStoreView {
    let url: URL
    func rows(_ entity: String, model: ManagedObjectModel) throws -> [Int64: [String: Value]] {
        let store = try PersistentStore(url: url, model: model, options: StoreOptions(createIfMissing: false, readOnly: true))
        let context = try ManagedObjectContext(store: store)
        var out: [Int64: [String: Value]] = [:]
        for o in try context.fetch(entity) where o.entity.name == entity {
            var values: [String: Value] = [:]
            for a in o.entity.attributes where !a.isTransient { values[a.name] = try o.value(forKey: a.name) }
            out[MigrationTestStore.key(o.objectID)] = values
        }
        return out
    }
}
