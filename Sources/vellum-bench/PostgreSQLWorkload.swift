import CLibPQ
import Foundation
import VellumStore

/// The raw-libpq sides of the pg-* benchmarks (the Vellum sides are RecordWorkload's
/// and LiveWorkload's, given a `postgresql://` store URL). Parameters are sent as
/// Vellum's store sends them (`PGParameters`): one `PQexecParams` per row, numbers
/// binary with their type, text untyped, results in binary.
enum PostgreSQLWorkload {
    static let columns = ["key", "name", "category", "note", "count", "flag", "rank", "price", "weight", "score"]
    static let quotedColumns = columns.map { "\"\($0)\"" }.joined(separator: ", ")

    /// One libpq connection whose search path is `schema`.
    final class RawPG {
        let conn: OpaquePointer

        init(url: String, schema: String) throws {
            guard let c = PQconnectdb(url) else { throw BenchError("libpq could not allocate a connection") }
            conn = c
            guard PQstatus(c) == CONNECTION_OK else { throw BenchError("cannot connect to \(url): \(errorMessage)") }
            try exec("SET search_path TO \"\(schema)\"")
        }
        deinit { PQfinish(conn) }

        var errorMessage: String { String(cString: PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines) }

        func exec(_ sql: String) throws { PQclear(try check(PQexec(conn, sql), sql)) }

        /// Runs `sql` with the row in `p`; the caller clears the result.
        func exec(_ sql: String, _ p: Parameters, binaryResult: Bool) throws -> OpaquePointer {
            try p.withArrays { types, values, lengths, formats in
                try check(PQexecParams(conn, sql, Int32(p.types.count), types, values, lengths, formats, binaryResult ? 1 : 0), sql)
            }
        }

        private func check(_ r: OpaquePointer?, _ sql: String) throws -> OpaquePointer {
            guard let r else { throw BenchError("\(sql): \(errorMessage)") }
            let status = PQresultStatus(r)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                PQclear(r)
                throw BenchError("\(sql): \(errorMessage)")
            }
            return r
        }
    }

    /// One row's parameters in one reused buffer (text NUL-terminated, as libpq reads it).
    struct Parameters {
        static let int8: UInt32 = 20, bool: UInt32 = 16, float8: UInt32 = 701
        var types: [UInt32] = [], formats: [Int32] = [], lengths: [Int32] = [], offsets: [Int] = []
        var bytes: [UInt8] = []

        mutating func removeAll() {
            types.removeAll(keepingCapacity: true); formats.removeAll(keepingCapacity: true)
            lengths.removeAll(keepingCapacity: true); offsets.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
        }

        private mutating func add(_ type: UInt32, binary: Bool, _ data: some Collection<UInt8>) {
            types.append(type); formats.append(binary ? 1 : 0)
            lengths.append(Int32(data.count)); offsets.append(bytes.count)
            bytes.append(contentsOf: data)
        }

        mutating func int(_ v: Int64) { withUnsafeBytes(of: v.bigEndian) { add(Self.int8, binary: true, $0) } }
        mutating func double(_ v: Double) { withUnsafeBytes(of: v.bitPattern.bigEndian) { add(Self.float8, binary: true, $0) } }
        mutating func bool(_ v: Bool) { add(Self.bool, binary: true, [v ? 1 : 0]) }
        mutating func text(_ v: String?) {
            guard let v else { types.append(0); formats.append(0); lengths.append(0); offsets.append(-1); return }
            add(0, binary: false, v.utf8)
            bytes.append(0)
        }

        /// A row's ten attribute columns, in schema order.
        mutating func attributes(_ r: RecordWorkload.Row) {
            int(r.key); text(r.name); text(r.category); text(r.note); int(r.count)
            bool(r.flag); int(r.rank); double(r.price); double(r.weight); double(r.score)
        }

        func withArrays<R>(_ body: (UnsafePointer<UInt32>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) throws -> R) rethrows -> R {
            try (bytes + [0]).withUnsafeBufferPointer { buffer in
                let base = UnsafeRawPointer(buffer.baseAddress!)
                let values = offsets.map { $0 < 0 ? nil : base.advanced(by: $0).assumingMemoryBound(to: CChar.self) }
                return try body(types, values, lengths, formats)
            }
        }
    }

    /// The store's `Record` table as Vellum's schema has it (same column types, key,
    /// `_entity` index), without Vellum's triggers. Returns a connection to it.
    static func rawTable(url: String, schema: String) throws -> RawPG {
        let setup = try RawPG(url: url, schema: "public")
        try setup.exec("CREATE SCHEMA \"\(schema)\"")
        let raw = try RawPG(url: url, schema: schema)
        guard let entity = try RecordWorkload.model().entity(named: "Record") else { throw BenchError("no Record entity") }
        let typed = try entity.attributes.map { a in
            guard let type = PostgreSQLSchema.columnType(a.type) else { throw BenchError("no column type for \(a.name)") }
            return "\"\(a.name)\" \(type)"
        }
        try raw.exec("""
            CREATE TABLE "Record" ("_pk" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "_entity" text COLLATE "C" NOT NULL, \
            "_version" bigint NOT NULL DEFAULT 1, \(typed.joined(separator: ", ")))
            """)
        try raw.exec("CREATE INDEX \"Record__entity\" ON \"Record\" (\"_entity\")")
        return raw
    }

    /// Creates the table (untimed), then times inserting the rows with their keys in
    /// one transaction, one `PQexecParams` INSERT per row (as a Vellum save does).
    static func rawInsert(url: String, schema: String, rows: [RecordWorkload.Row]) throws -> Double {
        let raw = try rawTable(url: url, schema: schema)
        let sql = "INSERT INTO \"Record\" (\"_pk\", \"_entity\", \"_version\", \(quotedColumns)) VALUES (\((1...13).map { "$\($0)" }.joined(separator: ", ")))"
        var p = Parameters()
        return try Timing.milliseconds {
            try raw.exec("BEGIN")
            for (i, r) in rows.enumerated() {
                p.removeAll()
                p.int(Int64(i + 1)); p.text("Record"); p.int(1)
                p.attributes(r)
                PQclear(try raw.exec(sql, p, binaryResult: true))
            }
            try raw.exec("COMMIT")
        }
    }

    /// Times one `SELECT` of every column of the store's table (binary results, as the
    /// store reads them) into Swift values. Returns (ms, checksum): equal to `vellumFetch`'s.
    static func rawFetch(url: String, schema: String) throws -> (Double, Int64) {
        let raw = try RawPG(url: url, schema: schema)
        var checksum: Int64 = 0, n = 0
        let ms = try Timing.milliseconds {
            let r = try raw.exec("SELECT \"_pk\", \"_entity\", \"_version\", \(quotedColumns) FROM \"Record\" ORDER BY \"_pk\"",
                                 Parameters(), binaryResult: true)
            defer { PQclear(r) }
            func bytes(_ row: Int32, _ c: Int32) -> UnsafeRawPointer { UnsafeRawPointer(PQgetvalue(r, row, c)!) }
            func int8(_ row: Int32, _ c: Int32) -> Int64 { Int64(bigEndian: bytes(row, c).loadUnaligned(as: Int64.self)) }
            func int4(_ row: Int32, _ c: Int32) -> Int64 { Int64(Int32(bigEndian: bytes(row, c).loadUnaligned(as: Int32.self))) }
            func float8(_ row: Int32, _ c: Int32) -> Double { Double(bitPattern: UInt64(bigEndian: bytes(row, c).loadUnaligned(as: UInt64.self))) }
            func text(_ row: Int32, _ c: Int32) -> String? {
                PQgetisnull(r, row, c) != 0 ? nil
                    : String(decoding: UnsafeRawBufferPointer(start: bytes(row, c), count: Int(PQgetlength(r, row, c))), as: UTF8.self)
            }
            func fold(_ t: String?) -> Int64 { t.map { Int64($0.utf8.count) } ?? -1 }
            func fold(_ d: Double) -> Int64 { Int64(bitPattern: d.bitPattern) >> 8 }
            n = Int(PQntuples(r))
            for row in 0..<Int32(n) {
                let pk = int8(row, 0), entity = text(row, 1), version = int8(row, 2)
                let key = int8(row, 3), name = text(row, 4), category = text(row, 5), note = text(row, 6)
                let count = int4(row, 7), flag = bytes(row, 8).load(as: UInt8.self) != 0, rank = int8(row, 9)
                let price = float8(row, 10), weight = float8(row, 11), score = float8(row, 12)
                _ = (pk, entity, version)
                checksum &+= key &+ fold(name) &+ fold(category) &+ fold(note) &+ count &+ (flag ? 1 : 0) &+ rank
                checksum &+= fold(price) &+ fold(weight) &+ fold(score)
            }
        }
        if n != RecordWorkload.rowCount { throw BenchError("raw pg fetch read \(n) rows") }
        return (ms, checksum)
    }

    /// Writes/s of the rows as one-row transactions (`BEGIN`, INSERT with the default key, `COMMIT`).
    static func rawQueueWrites(url: String, schema: String, rows: [RecordWorkload.Row]) throws -> Double {
        let raw = try rawTable(url: url, schema: schema)
        let sql = "INSERT INTO \"Record\" (\"_entity\", \"_version\", \(quotedColumns)) VALUES (\((1...12).map { "$\($0)" }.joined(separator: ", ")))"
        var p = Parameters()
        let ms = try Timing.milliseconds {
            for r in rows {
                p.removeAll()
                p.text("Record"); p.int(1)
                p.attributes(r)
                try raw.exec("BEGIN")
                PQclear(try raw.exec(sql, p, binaryResult: true))
                try raw.exec("COMMIT")
            }
        }
        return Double(rows.count) / (ms / 1000)
    }
}
