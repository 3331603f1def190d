import CSQLite
import Foundation

/// `vellum_row_version(col, …)`: a 64-bit FNV-1a-style digest of a row's values,
/// each with its storage class. Tables without a version column use it as the row's
/// version: an update checks that the digest of the columns it read is unchanged,
/// so a change by any writer (the sqlite3 shell included) is a conflict, never
/// overwritten silently.
///
/// It mixes 64-bit words, not bytes (eight times fewer multiplications: it runs
/// over every column of every row a fetch reads). Each step `(h ^ w) &* prime` is
/// a bijection of `w` and of `h`, so changing any one word of a row (a number, the
/// length or eight bytes of a text) always changes its digest.
///
/// `digest` is the one implementation: the SQL function runs it over its arguments,
/// and a reader that selects the columns anyway runs it over the row's own values
/// (`Statement.rowVersion(columns:)`), which saves SQLite reading every column twice.
enum RowVersionFunction {
    static func register(on db: OpaquePointer) {
        sqlite3_create_function_v2(db, "vellum_row_version", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { ctx, argc, argv in
            guard let ctx else { return }
            sqlite3_result_int64(ctx, RowVersionFunction.digest(Int(argc)) { argv?[$0] })
        }, nil, nil, nil)
    }

    /// The digest of `count` values, the `i`th given by `value(i)`. Reads each value's
    /// storage class first and converts none (decoding may follow on the same values).
    @inline(__always)
    static func digest(_ count: Int, _ value: (Int) -> OpaquePointer?) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ word: UInt64) { hash = (hash ^ word) &* 0x0000_0100_0000_01b3 }
        for i in 0..<count {
            let v = value(i)
            let type = sqlite3_value_type(v)
            mix(UInt64(type))
            switch type {
            case SQLITE_INTEGER: mix(UInt64(bitPattern: sqlite3_value_int64(v)))
            case SQLITE_FLOAT: mix(sqlite3_value_double(v).bitPattern)
            case SQLITE_TEXT, SQLITE_BLOB:
                let p = type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_value_text(v)) : sqlite3_value_blob(v)
                let n = Int(sqlite3_value_bytes(v))
                mix(UInt64(n))
                guard let p else { break }
                var at = 0
                while at + 8 <= n {
                    mix(p.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                    at += 8
                }
                if at < n {
                    var tail: UInt64 = 0
                    for k in at..<n { tail |= UInt64(p.load(fromByteOffset: k, as: UInt8.self)) << UInt64(8 * (k - at)) }
                    mix(tail)
                }
            default: break
            }
        }
        return Int64(bitPattern: hash)
    }
}
