import CSQLite
import Foundation
import VellumStore

/// `coredata-fetch-100k` (objects fetched by `ForeignWorkload.fetch`) and `coredata-insert-100k`:
/// a Core Data store (the SampleModel-v1 fixture, its model from the cache) grown to 100k
/// `Person` rows the way Core Data lays them out, read and written through `CoreDataLayout`,
/// each beside raw SQLite doing the same.
enum CoreDataStoreWorkload {
    static let columns = "Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME, ZUPDATEDAT, ZID"

    /// A writable copy of the fixture at `url`.
    static func copyFixture(to url: URL) throws {
        let dir = ProcessInfo.processInfo.environment["VELLUM_FIXTURES_DIR"] ?? "/work/shared/fixtures/coredata"
        let source = URL(fileURLWithPath: dir).appendingPathComponent("stores/SampleModel-v1.sqlite")
        guard FileManager.default.fileExists(atPath: source.path) else { throw BenchError("no Core Data fixture at \(source.path) (set VELLUM_FIXTURES_DIR)") }
        try FileManager.default.copyItem(at: source, to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
    }

    /// The fixture with `count` more people, keys from Z_MAX as Core Data hands them out.
    static func store(at url: URL, count: Int) throws {
        try copyFixture(to: url)
        let raw = try RecordWorkload.RawDB(path: url.path)
        try raw.exec("""
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO ZPERSON (\(columns)) SELECT 1000 + i, 4, 1, 'First ' || i, 'Last ' || i, 600000000.5 + i, randomblob(16) FROM n;
            UPDATE Z_PRIMARYKEY SET Z_MAX = 1000 + \(count) WHERE Z_ENT = 4;
            COMMIT;
            """)
    }

    /// The same rows stepped with raw SQLite, each column read. Returns (ms, rows).
    static func rawFetch(at url: URL) throws -> (Double, Int) {
        var n = 0, checksum: Int64 = 0
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                try ForeignWorkload.plainRead(url.path, "SELECT \(columns) FROM ZPERSON WHERE Z_ENT = 4") { s in
                    for i in 0..<sqlite3_column_count(s) {
                        switch sqlite3_column_type(s, i) {
                        case SQLITE_TEXT, SQLITE_BLOB: checksum &+= Int64(sqlite3_column_bytes(s, i))
                        case SQLITE_FLOAT: checksum &+= Int64(sqlite3_column_double(s, i))
                        default: checksum &+= sqlite3_column_int64(s, i)
                        }
                    }
                    n += 1
                }
            } catch { failure = error }
        }
        if let failure { throw failure }
        return (ms, n)
    }

    /// Inserts `count` people in one save into a fresh copy of the fixture. Returns ms.
    static func insert(at url: URL, count: Int) throws -> Double {
        try copyFixture(to: url)
        let store = try PersistentStore.openAny(url: url, model: nil, options: StoreOptions(createIfMissing: false))
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                let c = try ManagedObjectContext(store: store)
                for i in 0..<count {
                    _ = try c.insert("Person", values: ["firstName": .string("First \(i)"), "lastName": .string("Last \(i)"),
                                                        "updatedAt": .date(Date(timeIntervalSinceReferenceDate: 600_000_000.5 + Double(i))), "id": .uuid(UUID())])
                }
                try c.save()
            } catch { failure = error }
        }
        if let failure { throw failure }
        return ms
    }

    /// The same rows inserted with raw SQLite in one transaction, Z_MAX updated. Returns ms.
    static func rawInsert(at url: URL, count: Int) throws -> Double {
        try copyFixture(to: url)
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                let raw = try RecordWorkload.RawDB(path: url.path)
                var s: OpaquePointer?
                guard sqlite3_prepare_v2(raw.db, "INSERT INTO ZPERSON (\(columns)) VALUES (?, 4, 1, ?, ?, ?, ?)", -1, &s, nil) == SQLITE_OK, let s else {
                    throw BenchError("prepare: \(String(cString: sqlite3_errmsg(raw.db)))")
                }
                defer { sqlite3_finalize(s) }
                try raw.exec("BEGIN IMMEDIATE")
                for i in 0..<count {
                    sqlite3_bind_int64(s, 1, Int64(21 + i))
                    sqlite3_bind_text(s, 2, "First \(i)", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    sqlite3_bind_text(s, 3, "Last \(i)", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    sqlite3_bind_double(s, 4, 600_000_000.5 + Double(i))
                    var id = UUID().uuid
                    _ = withUnsafeBytes(of: &id) { sqlite3_bind_blob(s, 5, $0.baseAddress, 16, unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
                    try raw.step(s)
                }
                try raw.exec("UPDATE Z_PRIMARYKEY SET Z_MAX = \(20 + count) WHERE Z_ENT = 4; COMMIT")
            } catch { failure = error }
        }
        if let failure { throw failure }
        return ms
    }
}
