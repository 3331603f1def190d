import CSQLite
import Foundation
import VellumStore

/// The `Record` entity used by the insert/fetch benchmarks: 10 attributes.
enum RecordWorkload {
    static let rowCount = 100_000
    static let attributeNames = ["key", "name", "category", "note", "count", "flag", "rank", "price", "weight", "score"]

    static func model() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Record") {
                $0.attribute("key", .integer64, optional: false)
                $0.attribute("name", .string)
                $0.attribute("category", .string)
                $0.attribute("note", .string)
                $0.attribute("count", .integer32)
                $0.attribute("flag", .boolean)
                $0.attribute("rank", .integer64)
                $0.attribute("price", .double)
                $0.attribute("weight", .double)
                $0.attribute("score", .double)
            }
            .build()
    }

    /// One generated row (computed before timing starts, shared by both sides).
    struct Row {
        var key: Int64
        var name: String
        var category: String
        var note: String?
        var count: Int64
        var flag: Bool
        var rank: Int64
        var price: Double
        var weight: Double
        var score: Double
    }

    static func rows(_ n: Int = rowCount) -> [Row] {
        let categories = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
        var rows: [Row] = []
        rows.reserveCapacity(n)
        for i in 0..<n {
            let note: String? = i % 2 == 0 ? "a note for record \(i)" : nil
            let price = Double(i) * 0.25
            let weight = Double(i % 500) / 7
            let score = Double(i) / 3
            rows.append(Row(key: Int64(i), name: "record number \(i)", category: categories[i % categories.count],
                            note: note, count: Int64(i % 1000), flag: i % 3 == 0, rank: Int64(n - i),
                            price: price, weight: weight, score: score))
        }
        return rows
    }

    // MARK: - Vellum

    /// A store at a file URL or a `postgresql://…?schema=` URL (the pg-* benchmarks).
    static func openStore(_ url: URL, model: ManagedObjectModel?, options: StoreOptions) throws -> PersistentStore {
        if PostgreSQLURL.isPostgreSQL(url.absoluteString) {
            return try PersistentStore(postgreSQL: PostgreSQLURL(url.absoluteString), model: model, options: options)
        }
        return try PersistentStore(url: url, model: model, options: options)
    }

    /// `url` as a `--child` argument, and back (`openStore` takes either kind).
    static func location(_ url: URL) -> String { url.isFileURL ? url.path : url.absoluteString }
    static func url(location: String) -> URL {
        PostgreSQLURL.isPostgreSQL(location) ? URL(string: location)! : URL(fileURLWithPath: location)
    }

    /// How the insert benchmark gives an object its values.
    enum InsertStyle {
        /// `insert(entity)` then `setValue(_:at:)` with attribute indexes looked up once.
        case indexed
        /// `insert(name, values: [String: Value])`: a dictionary per object.
        case dictionary
    }

    /// Creates a store (untimed), then times one context inserting every row and one save.
    static func vellumInsert(at url: URL, rows: [Row], options: StoreOptions = StoreOptions(), style: InsertStyle = .indexed) throws -> Double {
        let store = try openStore(url, model: try model(), options: options)
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                let ctx = try ManagedObjectContext(store: store)
                switch style {
                case .indexed: try insertIndexed(rows, into: ctx)
                case .dictionary: try insertDictionaries(rows, into: ctx)
                }
                _ = try ctx.save()
            } catch { failure = error }
        }
        if let failure { throw failure }
        return ms
    }

    private static func insertIndexed(_ rows: [Row], into ctx: ManagedObjectContext) throws {
        guard let entity = ctx.model.entity(named: "Record") else { throw BenchError("no Record entity") }
        let i = try attributeNames.map { name in
            guard let index = entity.attributeIndexByName[name] else { throw BenchError("no attribute \(name)") }
            return index
        }
        for r in rows {
            let o = try ctx.insert(entity)
            try o.setValue(.integer(r.key), at: i[0])
            try o.setValue(.string(r.name), at: i[1])
            try o.setValue(.string(r.category), at: i[2])
            if let note = r.note { try o.setValue(.string(note), at: i[3]) }
            try o.setValue(.integer(r.count), at: i[4])
            try o.setValue(.bool(r.flag), at: i[5])
            try o.setValue(.integer(r.rank), at: i[6])
            try o.setValue(.double(r.price), at: i[7])
            try o.setValue(.double(r.weight), at: i[8])
            try o.setValue(.double(r.score), at: i[9])
        }
    }

    private static func insertDictionaries(_ rows: [Row], into ctx: ManagedObjectContext) throws {
        for r in rows {
            try ctx.insert("Record", values: [
                "key": .integer(r.key), "name": .string(r.name), "category": .string(r.category),
                "note": r.note.map(Value.string) ?? .null, "count": .integer(r.count), "flag": .bool(r.flag),
                "rank": .integer(r.rank), "price": .double(r.price), "weight": .double(r.weight),
                "score": .double(r.score),
            ])
        }
    }

    /// Opens the store (untimed), then times a fresh context fetching all records and
    /// reading every attribute of every object. Returns (ms, checksum). The context
    /// (and its 100k objects) is released inside the timed region, as in real use;
    /// the raw side's strings are released as it goes.
    static func vellumFetch(at url: URL) throws -> (Double, Int64) {
        let store = try openStore(url, model: nil, options: StoreOptions(createIfMissing: false))
        var checksum: Int64 = 0
        var failure: (any Error)?
        // The context (its reader connection) is made before the timing, as the raw side
        // connects before its own: both time the query and reading every value.
        let ctx = try ManagedObjectContext(store: store)
        let ms = Timing.milliseconds {
            do {
                let objects = try ctx.fetch(FetchRequest(entityName: "Record"))
                guard let entity = store.model.entity(named: "Record") else { return }
                let count = entity.attributes.count
                for o in objects {
                    for i in 0..<count { checksum &+= fold(try o.value(at: i)) }
                }
                if objects.count != rowCount { failure = BenchError("fetched \(objects.count) objects, expected \(rowCount)") }
            } catch { failure = error }
        }
        if let failure { throw failure }
        return (ms, checksum)
    }

    static func fold(_ v: Value) -> Int64 {
        switch v {
        case .integer(let i): return i
        case .bool(let b): return b ? 1 : 0
        case .double(let d): return Int64(bitPattern: d.bitPattern) >> 8
        case .string(let s): return Int64(s.utf8.count)
        case .null: return -1
        default: return 0
        }
    }

    // MARK: - Raw SQLite

    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    final class RawDB {
        let db: OpaquePointer
        init(path: String) throws {
            var handle: OpaquePointer?
            let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
            guard rc == SQLITE_OK, let handle else { throw BenchError("cannot open \(path): \(rc)") }
            db = handle
            try exec("PRAGMA journal_mode=WAL")
            try exec("PRAGMA synchronous=NORMAL")
            try exec("PRAGMA foreign_keys=ON")
        }
        deinit { sqlite3_close_v2(db) }

        func exec(_ sql: String) throws {
            var message: UnsafeMutablePointer<CChar>?
            if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
                let text = message.map { String(cString: $0) } ?? "?"
                sqlite3_free(message)
                throw BenchError("\(sql): \(text)")
            }
        }

        /// Runs a bound INSERT (or other statement without rows) and resets it for the next row.
        func step(_ s: OpaquePointer) throws {
            guard sqlite3_step(s) == SQLITE_DONE else { throw BenchError("step: \(String(cString: sqlite3_errmsg(db)))") }
            sqlite3_reset(s)
        }

        func prepare(_ sql: String) throws -> OpaquePointer {
            var s: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &s, nil) == SQLITE_OK, let s else {
                throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
            }
            return s
        }
    }

    /// Binds a row's ten attribute columns, in schema order, starting at parameter `first`.
    static func bindAttributes(_ s: OpaquePointer, _ r: Row, from first: Int32) {
        sqlite3_bind_int64(s, first, r.key)
        bindText(s, first + 1, r.name)
        bindText(s, first + 2, r.category)
        if let note = r.note { bindText(s, first + 3, note) } else { sqlite3_bind_null(s, first + 3) }
        sqlite3_bind_int64(s, first + 4, r.count)
        sqlite3_bind_int64(s, first + 5, r.flag ? 1 : 0)
        sqlite3_bind_int64(s, first + 6, r.rank)
        sqlite3_bind_double(s, first + 7, r.price)
        sqlite3_bind_double(s, first + 8, r.weight)
        sqlite3_bind_double(s, first + 9, r.score)
    }

    static func bindText(_ s: OpaquePointer, _ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buf in
            _ = sqlite3_bind_text(s, index, UnsafeRawPointer(buf.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(buf.count), transient)
        }
    }

    /// Creates the identical table (Vellum's own schema SQL, untimed), then times
    /// inserting the same rows and columns with one prepared statement in one transaction.
    static func rawInsert(at path: String, rows: [Row]) throws -> Double {
        let raw = try RawDB(path: path)
        for sql in NativeLayout(model: try model()).schemaSQL() { try raw.exec(sql) }
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                let s = try raw.prepare("""
                    INSERT INTO "Record" ("_pk", "_entity", "_version", "key", "name", "category", "note", "count", "flag", "rank", "price", "weight", "score") \
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                defer { sqlite3_finalize(s) }
                try raw.exec("BEGIN IMMEDIATE")
                for (i, r) in rows.enumerated() {
                    sqlite3_bind_int64(s, 1, Int64(i + 1))
                    bindText(s, 2, "Record")
                    sqlite3_bind_int64(s, 3, 1)
                    bindAttributes(s, r, from: 4)
                    try raw.step(s)
                }
                try raw.exec("COMMIT")
            } catch { failure = error }
        }
        if let failure { throw failure }
        return ms
    }

    /// Times stepping every row of the same store file, reading every column into
    /// Swift values (Int64, Double, Bool, String). Returns (ms, checksum) — the
    /// checksum must equal the Vellum fetch's.
    static func rawFetch(at path: String) throws -> (Double, Int64) {
        let raw = try RawDB(path: path)
        var checksum: Int64 = 0
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                let s = try raw.prepare("""
                    SELECT "_pk", "_entity", "_version", "key", "name", "category", "note", "count", "flag", "rank", "price", "weight", "score" \
                    FROM "Record" ORDER BY "_pk"
                    """)
                defer { sqlite3_finalize(s) }
                func text(_ i: Int32) -> String? {
                    guard let p = sqlite3_column_text(s, i) else { return nil }
                    return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(s, i))), as: UTF8.self)
                }
                func fold(_ t: String?) -> Int64 { t.map { Int64($0.utf8.count) } ?? -1 }
                func fold(_ d: Double) -> Int64 { Int64(bitPattern: d.bitPattern) >> 8 }
                var n = 0
                while sqlite3_step(s) == SQLITE_ROW {
                    let pk = sqlite3_column_int64(s, 0)
                    let entity = text(1)
                    let version = sqlite3_column_int64(s, 2)
                    let key = sqlite3_column_int64(s, 3)
                    let name = text(4), category = text(5), note = text(6)
                    let count = sqlite3_column_int64(s, 7)
                    let flag = sqlite3_column_int64(s, 8) != 0
                    let rank = sqlite3_column_int64(s, 9)
                    let price = sqlite3_column_double(s, 10), weight = sqlite3_column_double(s, 11), score = sqlite3_column_double(s, 12)
                    _ = (pk, entity, version)
                    checksum &+= key &+ fold(name) &+ fold(category) &+ fold(note) &+ count &+ (flag ? 1 : 0) &+ rank
                    checksum &+= fold(price) &+ fold(weight) &+ fold(score)
                    n += 1
                }
                if n != rowCount { failure = BenchError("raw fetch read \(n) rows") }
            } catch { failure = error }
        }
        if let failure { throw failure }
        return (ms, checksum)
    }
}
