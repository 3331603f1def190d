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
    /// version or the new one with all its rows, never a mix. With a backup (the default),
    /// a file under the backup's name is always a whole copy of the old store: the copy is
    /// written under a temporary name and linked into place only when complete.
    @Test(arguments: [false, true])
    func killedAtRandomMomentsLeavesOldOrNew(backup: Bool) async throws {
        let dir = TempDir()
        let people = 30_000
        let (store, model) = try Self.makeStore(dir, people: people)
        let oldHash = try Self.oldModel().versionHash, newHash = try Self.newModel().versionHash
        let pristine = dir.path("pristine.sqlite")
        try FileManager.default.copyItem(atPath: store, toPath: pristine)
        let arguments = ["migrate", store, "--model", model] + (backup ? [] : ["--no-backup"])
        let backupName = "people.sqlite.before-" + oldHash
        func removeBackups() throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.url.path) where name.hasPrefix(backupName) {
                try FileManager.default.removeItem(atPath: dir.path(name))
            }
        }
        // One full run, to spread the kills over its length.
        let start = Date()
        #expect(try VellumBinary.run(arguments).status == 0)
        let length = max(0.05, Date().timeIntervalSince(start))
        var seen: [String: Int] = [:]
        var rng = SystemRandomNumberGenerator()
        for round in 0..<(backup ? 8 : 12) {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            try removeBackups()
            try FileManager.default.copyItem(atPath: pristine, toPath: store)
            let child = try ChildProcess(arguments)
            // The moment is the point of the test: a random delay, not a wait for a condition.
            usleep(UInt32(Double.random(in: 0..<(length * 1.2), using: &rng) * 1_000_000))
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
            // A backup that has its name is whole: the old version with every row.
            if backup, FileManager.default.fileExists(atPath: dir.path(backupName)) {
                let copy = try PersistentStore(url: URL(fileURLWithPath: dir.path(backupName)), model: nil,
                                               options: StoreOptions(createIfMissing: false, readOnly: true))
                #expect(copy.model.versionHash == oldHash, "round \(round)")
                #expect(try sqliteScalar(dir.path(backupName), "SELECT count(*) FROM Person WHERE name = 'p' || (_pk - 1)") == "\(people)")
                #expect(try sqliteScalar(dir.path(backupName), "PRAGMA integrity_check") == "ok")
                seen["backup", default: 0] += 1
            }
            #expect(hash == oldHash || !backup || FileManager.default.fileExists(atPath: dir.path(backupName)),
                    "a migrated store has its backup, round \(round)")
        }
        // Whatever the kills left, the migration completes.
        let r = try VellumBinary.run(arguments)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try sqliteScalar(store, "SELECT count(*) FROM Person_pets") == "\(people)")
        print("kill -9 rounds (run length \(length)s) left: \(seen)")
    }

    /// The progress line: a 30-wide bar, rows done of all, the rate so far and the time left.
    @Test func theProgressLineShowsRowsRateAndTimeLeft() {
        let line = MigrationProgressBar.line(MigrationProgress(rowsDone: 50_000, rowsTotal: 200_000, table: "Person"), elapsed: 2)
        #expect(line == "[#######-----------------------] 50000/200000 rows  25000 rows/s  ETA 6s")
        let done = MigrationProgressBar.line(MigrationProgress(rowsDone: 200_000, rowsTotal: 200_000, table: "Person"), elapsed: 4)
        #expect(done == "[##############################] 200000/200000 rows  50000 rows/s  ETA 0s")
    }

    /// A migration that copies 100,000 rows or more shows its progress on stderr, on one
    /// line rewritten in place, ending with every row done; smaller ones show none.
    @Test func aLargeMigrationShowsItsProgressOnStderr() throws {
        let dir = TempDir()
        let (store, model) = try Self.makeStore(dir, people: 1)
        let people = 120_000
        // Rows made by SQL (fast), as the store's own would be.
        _ = try sqliteScalar(store, """
            WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < \(people)) \
            INSERT INTO Person (_pk, _entity, _version, name, age) \
            SELECT i, (SELECT _entity FROM Person), 1, 'p' || (i - 1), (i - 1) % 100 FROM n
            """)
        let r = try VellumBinary.run(["migrate", store, "--model", model, "--no-backup"])
        #expect(r.status == 0, "\(r.stderr)")
        let updates = r.stderr.split(separator: "\r").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { $0.hasPrefix("[") }
        let last = try #require(updates.last, "no progress on stderr: \(r.stderr)")
        let counts = try #require(last.firstMatch(of: /^\[#{30}\] (\d+)\/(\d+) rows  \d+ rows\/s  ETA 0s$/), "\(last)")
        #expect(counts.1 == counts.2 && Int(counts.2)! >= people, "\(last)")
        #expect(try sqliteScalar(store, "SELECT count(*) FROM Person WHERE fullName = 'p' || (_pk - 1)") == "\(people)")
        // A small store's migration says nothing of progress.
        let small = TempDir()
        let (smallStore, smallModel) = try Self.makeStore(small, people: 10)
        let quiet = try VellumBinary.run(["migrate", smallStore, "--model", smallModel, "--no-backup"])
        #expect(quiet.status == 0 && !quiet.stderr.contains("rows/s"), "\(quiet.stderr)")
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
