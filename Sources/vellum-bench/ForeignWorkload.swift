import CSQLite
import Foundation
import VellumStore

/// foreign-fetch-100k and foreign-first-screen-1m: a plain SQLite table as
/// another program would make it (rollback journal, no Vellum tables, an
/// `INTEGER PRIMARY KEY`), opened through `PersistentStore.openAny`, each figure
/// beside raw SQLite doing the same reads.
enum ForeignWorkload {
    static let columns = #""key", "name", "category", "note", "count", "flag", "rank", "price", "weight", "score""#

    /// Another program's database holding the rows of the bulk store at `bulk`.
    static func database(at url: URL, from bulk: URL) throws {
        let raw = try RecordWorkload.RawDB(path: url.path)
        try raw.exec("""
            PRAGMA journal_mode=DELETE;
            CREATE TABLE "Record" ("id" INTEGER PRIMARY KEY, "key" INTEGER NOT NULL, "name" TEXT, "category" TEXT, "note" TEXT,
                                   "count" INTEGER, "flag" BOOLEAN, "rank" INTEGER, "price" REAL, "weight" REAL, "score" REAL);
            ATTACH '\(bulk.path.replacingOccurrences(of: "'", with: "''"))' AS src;
            INSERT INTO "Record" SELECT "_pk", \(columns) FROM src."Record" ORDER BY "_pk";
            DETACH src;
            """)
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

    /// Steps the same rows with raw SQLite, reading each column. Returns (ms, rows).
    static func rawFetch(at path: String) throws -> (Double, Int) {
        var n = 0, checksum: Int64 = 0
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                try plainRead(path, #"SELECT "id", \#(columns) FROM "Record" ORDER BY "id""#) { s in
                    for i in 0..<sqlite3_column_count(s) {
                        switch sqlite3_column_type(s, i) {
                        case SQLITE_TEXT: checksum &+= Int64(sqlite3_column_bytes(s, i))
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
