import CSQLite
import Foundation
import VellumStore

/// foreign-fetch-100k and foreign-first-screen-1m: a plain SQLite table as
/// another program would make it (raw `CREATE TABLE` and `INSERT`s, rollback
/// journal, no Vellum tables, an `INTEGER PRIMARY KEY`), opened through
/// `PersistentStore.openAny` (foreign layout, inferred model), each figure beside
/// raw SQLite doing the same reads.
enum ForeignWorkload {
    static let columns = #""key", "name", "category", "note", "count", "flag", "rank", "price", "weight", "score""#

    /// Another program's database of `count` rows, written with raw SQLite only (the
    /// values `LiveWorkload.bulkStore` writes: keys a fixed permutation of 0..<count).
    static func database(at url: URL, count: Int) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db = handle else {
            throw BenchError("cannot create \(url.path)")
        }
        defer { sqlite3_close_v2(db) }
        func exec(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))") }
        }
        try exec("""
            CREATE TABLE "Record" ("id" INTEGER PRIMARY KEY, "key" INTEGER NOT NULL, "name" TEXT, "category" TEXT, "note" TEXT,
                                   "count" INTEGER, "flag" BOOLEAN, "rank" INTEGER, "price" REAL, "weight" REAL, "score" REAL)
            """)
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, #"INSERT INTO "Record" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#, -1, &statement, nil) == SQLITE_OK,
              let s = statement else { throw BenchError("prepare: \(String(cString: sqlite3_errmsg(db)))") }
        defer { sqlite3_finalize(s) }
        try exec("BEGIN")
        for i in 0..<count {
            sqlite3_bind_int64(s, 1, Int64(i + 1))
            LiveWorkload.bindRecordColumns(s, row: i, of: count, from: 2)
            guard sqlite3_step(s) == SQLITE_DONE else { throw BenchError("insert: \(String(cString: sqlite3_errmsg(db)))") }
            sqlite3_reset(s)
        }
        try exec("COMMIT")
    }

    /// Steps `sql` on a plain read-only connection (no pragmas: nothing written), calling `row` per row.
    static func plainRead(_ path: String, _ sql: String, _ row: (OpaquePointer) -> Void) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else { throw BenchError("cannot open \(path)") }
        defer { sqlite3_close_v2(db) }
        var s: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &s, nil) == SQLITE_OK, let s else { throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))") }
        defer { sqlite3_finalize(s) }
        while sqlite3_step(s) == SQLITE_ROW { row(s) }
    }

    /// Another program's database, as the browser opens it: no Vellum store, so the
    /// foreign layout with the model inferred from the schema.
    static func open(_ url: URL) throws -> PersistentStore {
        try PersistentStore.openAny(url: url, model: nil, options: StoreOptions(createIfMissing: false))
    }

    /// Fetches every row (of `entity`) as objects and reads each attribute. Returns (ms, objects).
    static func fetch(at url: URL, entity: String = "Record") throws -> (Double, Int) {
        let store = try open(url)
        var n = 0, checksum: Int64 = 0
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                let objects = try ManagedObjectContext(store: store).fetch(FetchRequest(entityName: entity))
                let count = store.model.entity(named: entity)?.attributes.count ?? 0
                for o in objects {
                    for i in 0..<count { checksum &+= RecordWorkload.fold(try o.value(at: i)) }
                }
                n = objects.count
            } catch { failure = error }
        }
        if let failure { throw failure }
        return (ms, n)
    }

    /// Steps the same rows with raw SQLite, reading each column into a Swift value (texts
    /// as Strings, as `RecordWorkload.rawFetch`). Returns (ms, rows).
    static func rawFetch(at path: String) throws -> (Double, Int) {
        var n = 0, checksum: Int64 = 0
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                try plainRead(path, #"SELECT "id", \#(columns) FROM "Record" ORDER BY "id""#) { s in
                    for i in 0..<sqlite3_column_count(s) {
                        switch sqlite3_column_type(s, i) {
                        case SQLITE_TEXT:
                            // A Swift program reads a text as a String, as `fetch-100k`'s baseline does.
                            let text = String(decoding: UnsafeBufferPointer(start: sqlite3_column_text(s, i), count: Int(sqlite3_column_bytes(s, i))), as: UTF8.self)
                            checksum &+= Int64(text.utf8.count)
                        case SQLITE_FLOAT: checksum &+= Int64(bitPattern: sqlite3_column_double(s, i).bitPattern) >> 8
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

    /// Opening (schema inference included) to the first 40 rows of a results
    /// controller over the table, fetched and read as the browser's first screen
    /// (`ResultsRowSource`: a first page of 256 keys, then the count).
    static func firstScreen(at url: URL) throws -> Double {
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                let store = try open(url)
                // As the browser opens an unsorted list: the first page first, the rest later.
                let controller = ResultsController(fetchRequest: FetchRequest(entityName: "Record", fetchBatchSize: 100),
                                                   context: try ManagedObjectContext(store: store))
                try controller.performFetch(firstPage: 256)
                for i in 0..<min(40, controller.fetchedObjectCount) {
                    _ = try controller.object(at: ResultsIndexPath(item: i, section: 0)).value(at: 1)
                }
            } catch { failure = error }
        }
        if let failure { throw failure }
        return ms
    }

    /// Raw SQLite: open, then the first 40 rows in key order.
    static func rawFirstScreen(at path: String) throws -> Double {
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                try plainRead(path, #"SELECT "id", \#(columns) FROM "Record" ORDER BY "id" LIMIT 40"#) { s in _ = sqlite3_column_text(s, 2) }
            } catch { failure = error }
        }
        if let failure { throw failure }
        return ms
    }
}
