import CSQLite
import Foundation
import VellumStore

/// Migrating a 1M-row `Record` store, each beside raw SQLite doing the same schema
/// work in one transaction: `ALTER TABLE … ADD COLUMN` for an added attribute, and
/// for a removed one a new table filled by `INSERT INTO new SELECT … FROM old`,
/// the old dropped, the new renamed and its index created. Each run works on a
/// fresh copy of the store (the copy is not timed).
enum MigrationWorkload {
    /// The Record model plus an optional attribute.
    static func addedAttributeModel() throws -> ManagedObjectModel {
        var entity = try RecordWorkload.model().entityDescriptions[0]
        entity.attributes.append(AttributeDescription(name: "extra", type: .string))
        return try ManagedObjectModel(entities: [entity])
    }

    /// The Record model without `note` (a column removed: a table rebuild).
    static func removedAttributeModel() throws -> ManagedObjectModel {
        var entity = try RecordWorkload.model().entityDescriptions[0]
        entity.attributes.removeAll { $0.name == "note" }
        return try ManagedObjectModel(entities: [entity])
    }

    /// A copy of `store`, written through to the disk before it is returned: otherwise the
    /// first `fsync` in the timed span (the checkpoint when either side closes) writes
    /// back the whole 110 MB copy — 150–250 ms that were neither side's work.
    static func copy(_ store: URL, to path: URL) throws -> URL {
        try? FileManager.default.removeItem(at: path)
        try FileManager.default.copyItem(at: store, to: path)
        let handle = try FileHandle(forUpdating: path)
        try handle.synchronize()
        try handle.close()
        return path
    }

    static func vellum(_ store: URL, to model: ManagedObjectModel, scratch: URL) throws -> Double {
        let url = try copy(store, to: scratch)
        defer { try? FileManager.default.removeItem(at: url) }
        return try Timing.milliseconds { try timedMigrate(url, to: model) }
    }

    static func rawAddColumn(_ store: URL, scratch: URL) throws -> Double {
        let url = try copy(store, to: scratch)
        defer { try? FileManager.default.removeItem(at: url) }
        return try Timing.milliseconds { try timedRawAddColumn(url) }
    }

    static func rawRebuild(_ store: URL, scratch: URL) throws -> Double {
        let url = try copy(store, to: scratch)
        defer { try? FileManager.default.removeItem(at: url) }
        return try Timing.milliseconds { try timedRawRebuild(url) }
    }

    // The timed parts, as functions of their own so that a profiler can collect exactly
    // them (`valgrind --tool=callgrind --toggle-collect='*MigrationWorkload*timed*'`).
    // Each starts from the file at rest, as `StoreMigrator.migrate(storeAt:)` does:
    // the raw side's connection is opened inside the timing too.

    @inline(never) static func timedMigrate(_ url: URL, to model: ManagedObjectModel) throws {
        try StoreMigrator.migrate(storeAt: url, to: model, options: MigrationOptions(backup: false))
    }

    @inline(never) static func timedRawAddColumn(_ url: URL) throws {
        let db = try RecordWorkload.RawDB(path: url.path)
        try db.exec("BEGIN IMMEDIATE; ALTER TABLE \"Record\" ADD COLUMN \"extra\" TEXT; COMMIT")
    }

    @inline(never) static func timedRawRebuild(_ url: URL) throws {
        let db = try RecordWorkload.RawDB(path: url.path)
        let columns = "\"_pk\", \"_entity\", \"_version\", \"key\", \"name\", \"category\", \"count\", \"flag\", \"rank\", \"price\", \"weight\", \"score\""
        try db.exec("""
            PRAGMA foreign_keys=OFF; BEGIN IMMEDIATE;
            CREATE TABLE "new_Record" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "_entity" TEXT NOT NULL, "_version" INTEGER NOT NULL DEFAULT 1, \
            "key" INTEGER, "name" TEXT, "category" TEXT, "count" INTEGER, "flag" INTEGER, "rank" INTEGER, "price" REAL, "weight" REAL, "score" REAL);
            INSERT INTO "new_Record" (\(columns)) SELECT \(columns) FROM "Record";
            DROP TABLE "Record"; ALTER TABLE "new_Record" RENAME TO "Record";
            CREATE INDEX "Record__entity" ON "Record" ("_entity");
            COMMIT
            """)
    }

    /// One run of a migration workload on a copy of `store` (`vellum-bench --child migrate-add STORE`),
    /// for a profiler: the store is made once beforehand (`--child bulk-store PATH 1000000`).
    /// The process is warmed first by the same work untimed (and uncounted: it does not go
    /// through the `timed` functions), as the suite's best-of-3 runs are: Swift pays for
    /// each generic type's metadata and protocol conformance once per process.
    /// `VELLUM_BENCH_COLD=1` skips the warming (a command-line migration's first run).
    static func child(_ workload: String, store: URL) throws {
        let scratch = store.deletingLastPathComponent().appendingPathComponent("child-\(getpid())-\(store.lastPathComponent)")
        let warm = try copy(store, to: scratch)
        switch ProcessInfo.processInfo.environment["VELLUM_BENCH_COLD"] == "1" ? "cold" : workload {
        case "cold": break
        case "migrate-add": try StoreMigrator.migrate(storeAt: warm, to: try addedAttributeModel(), options: MigrationOptions(backup: false))
        case "migrate-rebuild": try StoreMigrator.migrate(storeAt: warm, to: try removedAttributeModel(), options: MigrationOptions(backup: false))
        default: try RecordWorkload.RawDB(path: warm.path).exec("BEGIN IMMEDIATE; ALTER TABLE \"Record\" ADD COLUMN \"warm\" TEXT; ROLLBACK")
        }
        switch workload {
        case "migrate-add": _ = try vellum(store, to: try addedAttributeModel(), scratch: scratch)
        case "migrate-add-raw": _ = try rawAddColumn(store, scratch: scratch)
        case "migrate-rebuild": _ = try vellum(store, to: try removedAttributeModel(), scratch: scratch)
        default: _ = try rawRebuild(store, scratch: scratch)
        }
    }
}
