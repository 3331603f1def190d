import Foundation
import Testing
import VellumStore
@testable import vellum

/// `vellum migrate` and `vellum model --diff` as a user runs them; the migration
/// killed with SIGKILL at random moments; a writer in another process during a migration.
@Suite("vellum migrate", .serialized)
struct MigrateCommandTests {
    static func oldModel() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Person") { $0.attribute("name", .string); $0.attribute("age", .integer16); $0.toMany("pets", "Pet", inverse: "owner") }
            .entity("Pet") { $0.attribute("kind", .string); $0.toOne("owner", "Person", inverse: "pets") }
            .build()
    }

    /// Renames `name`, drops `age` (a rebuild), makes `pets` many-to-many (a join table).
    static func newModel() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Person") { $0.attribute("fullName", .string, renamedFrom: "name"); $0.toMany("pets", "Pet", inverse: "owners") }
            .entity("Pet") { $0.attribute("kind", .string); $0.toMany("owners", "Person", inverse: "pets", renamedFrom: "owner") }
            .build()
    }

    /// The old model plus a required `email` without default: refused on a store with people. Its path.
    static func writeRefusedModel(_ dir: TempDir) throws -> String {
        let model = dir.path("required.json")
        try ModelBuilder()
            .entity("Person") { $0.attribute("name", .string); $0.attribute("age", .integer16); $0.attribute("email", .string, optional: false); $0.toMany("pets", "Pet", inverse: "owner") }
            .entity("Pet") { $0.attribute("kind", .string); $0.toOne("owner", "Person", inverse: "pets") }
            .build().jsonData().write(to: URL(fileURLWithPath: model))
        return model
    }

    static func makeStore(_ dir: TempDir, people: Int) throws -> (store: String, model: String) {
        let path = dir.path("people.sqlite")
        let store = try PersistentStore(url: URL(fileURLWithPath: path), model: oldModel())
        let ctx = try ManagedObjectContext(store: store)
        for i in 0..<people {
            let p = try ctx.insert("Person", values: ["name": .string("p\(i)"), "age": .integer(Int64(i % 100))])
            try ctx.insert("Pet", values: ["kind": .string(i % 2 == 0 ? "cat" : "dog")]).setToOne("owner", p)
        }
        _ = try ctx.save()
        let model = dir.path("new.json")
        try newModel().jsonData().write(to: URL(fileURLWithPath: model))
        return (path, model)
    }

    @Test func dryRunPrintsThePlanAndChangesNoByte() throws {
        let dir = TempDir()
        let (store, model) = try Self.makeStore(dir, people: 20)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let r = try VellumBinary.run(["migrate", store, "--model", model, "--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Person (20 rows, rebuild)"), "\(r.stdout)")
        #expect(r.stdout.contains("attribute name renamed to fullName"))
        #expect(r.stdout.contains("join table Person_pets: rebuild"))
        #expect(r.stdout.contains("Dry run: the store was not changed."))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test func migrateRunsThePlanKeepsABackupAndModelDiffAgrees() throws {
        let dir = TempDir()
        let (store, model) = try Self.makeStore(dir, people: 20)
        let diff = try VellumBinary.run(["model", store, "--diff", model])
        #expect(diff.status == 0)
        #expect(diff.stdout.contains("Pet\n  - relationship owner renamed to owners\n  - relationship owners to-one → to-many"), "\(diff.stdout)")
        let r = try VellumBinary.run(["migrate", store, "--model", model])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Migrated \(store) to model"))
        let oldHash = try Self.oldModel().versionHash
        #expect(r.stdout.contains("Backup: \(store).before-\(oldHash)"))
        #expect(try sqliteScalar(store, "SELECT count(*) FROM Person_pets") == "20")
        #expect(try sqliteScalar(store + ".before-" + oldHash, "SELECT count(*) FROM Pet WHERE owner IS NOT NULL") == "20")
        let again = try VellumBinary.run(["migrate", store, "--model", model])
        #expect(again.stdout.contains("already holds this model"))
    }

    @Test func refusedMigrationExitsWithTheReasonsAndChangesNothing() throws {
        let dir = TempDir()
        let (store, _) = try Self.makeStore(dir, people: 5)
        let model = try Self.writeRefusedModel(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let r = try VellumBinary.run(["migrate", store, "--model", model])
        #expect(r.status == 1)
        #expect(r.stdout.contains("Person: email is new, required and has no default: 5 rows do not comply (keys 1, 2, 3, 4, 5)"), "\(r.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    /// SIGKILL at random moments of `vellum migrate`: the store always opens as the old
    /// version or the new one with all its rows, never a mix.
    @Test func killedAtRandomMomentsLeavesOldOrNew() async throws {
        let dir = TempDir()
        let people = 30_000
        let (store, model) = try Self.makeStore(dir, people: people)
        let oldHash = try Self.oldModel().versionHash, newHash = try Self.newModel().versionHash
        let pristine = dir.path("pristine.sqlite")
        try FileManager.default.copyItem(atPath: store, toPath: pristine)
        // One full run, to spread the kills over its length.
        let start = Date()
        #expect(try VellumBinary.run(["migrate", store, "--model", model, "--no-backup"]).status == 0)
        let length = max(0.05, Date().timeIntervalSince(start))
        var seen: [String: Int] = [:]
        var rng = SystemRandomNumberGenerator()
        for round in 0..<12 {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            try FileManager.default.copyItem(atPath: pristine, toPath: store)
            let child = try ChildProcess(["migrate", store, "--model", model, "--no-backup"])
            // The moment is the point of the test: a random delay, not a wait for a condition.
            usleep(UInt32(Double.random(in: 0..<length, using: &rng) * 1_000_000))
            child.signal(SIGKILL)
            #expect(await child.waitForExit(timeout: 60), "round \(round)")
            let opened = try PersistentStore(url: URL(fileURLWithPath: store), model: nil, options: StoreOptions(createIfMissing: false))
            let hash = opened.model.versionHash
            #expect(hash == oldHash || hash == newHash, "round \(round)")
            seen[hash == oldHash ? "old" : "new", default: 0] += 1
            #expect(try sqliteScalar(store, "SELECT count(*) FROM sqlite_master WHERE name LIKE '\\_vellum\\_new\\_%' ESCAPE '\\'") == "0")
            #expect(try sqliteScalar(store, "SELECT count(*) FROM Person") == "\(people)")
            if hash == oldHash {
                #expect(try sqliteScalar(store, "SELECT count(*) FROM Pet WHERE owner IS NOT NULL") == "\(people)")
                #expect(try sqliteScalar(store, "SELECT count(*) FROM Person WHERE name = 'p' || (_pk - 1)") == "\(people)")
            } else {
                #expect(try sqliteScalar(store, "SELECT count(*) FROM Person_pets") == "\(people)")
                #expect(try sqliteScalar(store, "SELECT count(*) FROM Person WHERE fullName = 'p' || (_pk - 1)") == "\(people)")
            }
        }
        // Whatever the kills left, the migration completes.
        let r = try VellumBinary.run(["migrate", store, "--model", model, "--no-backup"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try sqliteScalar(store, "SELECT count(*) FROM Person_pets") == "\(people)")
        print("kill -9 rounds (run length \(length)s) left: \(seen)")
    }

    /// A writer process with the store open while another migrates it stops with a clear
    /// error; every row it reported saved is in the migrated store.
    @Test func writerInAnotherProcessStopsWithAClearError() async throws {
        let dir = TempDir()
        let path = dir.path("rows.sqlite")
        try CLIFixtures.makeRowStore(at: path)
        let writer = try ChildProcess(["_stress-writer", path, "--writer", "1", "--saves", "1000000", "--seed", "7"])
        #expect(await writer.waitForLines(timeout: 60) { $0.count >= 20 })
        let new = try ModelBuilder()
            .entity("Row") {
                $0.attribute("owner", .string, optional: false)
                $0.attribute("key", .integer64, optional: false)
                $0.attribute("value", .integer64, optional: false, default: .integer(0))
                $0.attribute("note", .string)
                $0.unique("owner", "key")
                $0.index("Row_owner_key", "owner", "key")
            }
            .build()
        try StoreMigrator.migrate(storeAt: URL(fileURLWithPath: path), to: new, options: MigrationOptions(backup: false))
        #expect(await writer.waitForExit(timeout: 60))
        #expect(writer.process.terminationStatus != 0)
        #expect(await writer.waitForStderr("another process migrated the store", timeout: 10), "\(writer.stderr)")
        var replay = Replay()
        try replay.apply(writer.lines, owner: "w1")
        let rows = try sqliteRows(path, "SELECT key || '=' || value FROM Row WHERE owner = 'w1' ORDER BY key")
        #expect(rows == (replay.rows["w1"] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        #expect(try sqliteScalar(path, "SELECT count(*) FROM pragma_table_info('Row') WHERE name = 'note'") == "1")
    }
}
