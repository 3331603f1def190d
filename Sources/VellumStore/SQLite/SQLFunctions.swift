import CSQLite
import Foundation

/// SQL functions and collations registered on every connection, so that SQL and
/// in-memory evaluation fold case and diacritics with the same Swift code.
enum SQLFunctions {
    static func register(on db: OpaquePointer) {
        // vellum_fold(text, flags): flags bit 1 = case-insensitive, bit 2 = diacritic-insensitive.
        sqlite3_create_function_v2(db, "vellum_fold", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { ctx, argc, argv in
            guard let argv, let ctx else { return }
            guard sqlite3_value_type(argv[0]) != SQLITE_NULL else { sqlite3_result_null(ctx); return }
            let text = sqliteText(argv[0])
            let flags = sqlite3_value_int(argv[1])
            let folded = TextFolding.fold(text, caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0)
            var out = folded
            out.withUTF8 { buf in
                sqlite3_result_text(ctx, UnsafeRawPointer(buf.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(buf.count), sqliteTransient)
            }
        }, nil, nil, nil)
        // vellum_regexp(pattern, text): full-string ICU-syntax match (MATCHES, LIKE) by the linear-time `LinearRegex`.
        sqlite3_create_function_v2(db, "vellum_regexp", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { ctx, argc, argv in
            guard let argv, let ctx else { return }
            guard sqlite3_value_type(argv[0]) != SQLITE_NULL, sqlite3_value_type(argv[1]) != SQLITE_NULL else {
                sqlite3_result_int(ctx, 0); return
            }
            // An invalid pattern or a match past the engine's budget fails the statement: never a silent 0.
            do throws(RegexError) {
                let matched = try LinearRegex.cached(sqliteText(argv[0])).matchesWhole(sqliteText(argv[1]))
                sqlite3_result_int(ctx, matched ? 1 : 0)
            } catch {
                sqlite3_result_error(ctx, error.description, -1)
            }
        }, nil, nil, nil)
        // Collations for sort descriptors: the in-memory comparator calls the same functions.
        sqlite3_create_collation_v2(db, "VELLUM_NOCASE", SQLITE_UTF8, nil, { _, n1, p1, n2, p2 in
            TextFolding.compareCollated(collationText(p1, n1), collationText(p2, n2), localized: false)
        }, nil)
        sqlite3_create_collation_v2(db, "VELLUM_LOCALIZED", SQLITE_UTF8, nil, { _, n1, p1, n2, p2 in
            TextFolding.compareCollated(collationText(p1, n1), collationText(p2, n2), localized: true)
        }, nil)
        RowVersionFunction.register(on: db)
    }

}

/// The whole text of a value, NUL bytes included (`sqlite3_value_text` alone stops at the first one).
private func sqliteText(_ value: OpaquePointer?) -> String {
    guard let p = sqlite3_value_text(value) else { return "" }
    let n = Int(sqlite3_value_bytes(value))
    return String(decoding: UnsafeRawBufferPointer(start: p, count: n), as: UTF8.self)
}

private func collationText(_ p: UnsafeRawPointer?, _ n: Int32) -> String {
    guard let p, n > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: p, count: Int(n)), as: UTF8.self)
}
