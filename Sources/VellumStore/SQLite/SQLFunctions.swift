import CSQLite
import Foundation

/// SQL functions and collations registered on every connection, so that SQL and
/// in-memory evaluation fold case and diacritics with the same Swift code.
enum SQLFunctions {
    static func register(on db: OpaquePointer) {
        // vellum_fold(text, flags): flags bit 1 = case-insensitive, bit 2 = diacritic-insensitive.
        sqlite3_create_function_v2(db, "vellum_fold", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { ctx, argc, argv in
            guard let argv, let ctx else { return }
            let type = sqlite3_value_type(argv[0])
            guard type != SQLITE_NULL else { sqlite3_result_null(ctx); return }
            let flags = sqlite3_value_int(argv[1])
            // ASCII text (most of it): folded byte by byte, no String made.
            if type == SQLITE_TEXT, let p = sqlite3_value_text(argv[0]),
               TextFolding.withFoldedASCII(UnsafeBufferPointer(start: p, count: Int(sqlite3_value_bytes(argv[0]))),
                                           caseInsensitive: flags & 1 != 0, { folded in
                   sqlite3_result_text(ctx, UnsafeRawPointer(folded.baseAddress ?? UnsafePointer(p)).assumingMemoryBound(to: CChar.self),
                                       Int32(folded.count), sqliteTransient)
               }) {
                return
            }
            let text = sqliteText(argv[0])
            let folded = TextFolding.fold(text, caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0)
            var out = folded
            out.withUTF8 { buf in
                sqlite3_result_text(ctx, UnsafeRawPointer(buf.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(buf.count), sqliteTransient)
            }
        }, nil, nil, nil)
        // vellum_contains_folded(text, part, flags): instr(vellum_fold(text), vellum_fold(part)) > 0,
        // never NULL. The folded part is kept for the statement (auxiliary data); ASCII
        // text is searched as it is, byte by byte case-folded, with no copy.
        sqlite3_create_function_v2(db, "vellum_contains_folded", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { ctx, argc, argv in
            guard let argv, let ctx else { return }
            guard sqlite3_value_type(argv[0]) != SQLITE_NULL, sqlite3_value_type(argv[1]) != SQLITE_NULL else {
                sqlite3_result_int(ctx, 0); return
            }
            let flags = sqlite3_value_int(argv[2])
            let part: FoldedPart
            if let saved = sqlite3_get_auxdata(ctx, 1) {
                part = Unmanaged<FoldedPart>.fromOpaque(saved).takeUnretainedValue()
            } else {
                part = FoldedPart(TextFolding.fold(sqliteText(argv[1]), caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0))
                sqlite3_set_auxdata(ctx, 1, Unmanaged.passRetained(part).toOpaque()) { p in
                    if let p { Unmanaged<FoldedPart>.fromOpaque(p).release() }
                }
            }
            let found = part.found(in: argv[0], caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0)
            sqlite3_result_int(ctx, found ? 1 : 0)
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

/// The folded right side of `vellum_contains_folded`, kept per statement.
private final class FoldedPart {
    let bytes: [UInt8]
    init(_ folded: String) { bytes = Array(folded.utf8) }

    /// Whether the folded text of `value` contains the part (on UTF-8 bytes, as `instr`
    /// on valid UTF-8 finds whole characters).
    func found(in value: OpaquePointer?, caseInsensitive: Bool, diacriticInsensitive: Bool) -> Bool {
        guard let p = sqlite3_value_text(value) else { return bytes.isEmpty }
        let text = UnsafeBufferPointer(start: p, count: Int(sqlite3_value_bytes(value)))
        var found = false
        if TextFolding.withFoldedASCII(text, caseInsensitive: caseInsensitive, { found = Self.search($0, for: bytes) }) { return found }
        var folded = TextFolding.fold(String(decoding: text, as: UTF8.self), caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
        return folded.withUTF8 { Self.search($0, for: bytes) }
    }

    static func search(_ text: UnsafeBufferPointer<UInt8>, for part: [UInt8]) -> Bool {
        let n = part.count
        guard n > 0 else { return true }
        guard text.count >= n else { return false }
        let first = part[0]
        var i = 0
        while i <= text.count - n {
            if text[i] == first {
                var j = 1
                while j < n && text[i + j] == part[j] { j += 1 }
                if j == n { return true }
            }
            i += 1
        }
        return false
    }
}
