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

/// The one implementation of text folding and collation, shared by SQL and memory.
public enum TextFolding {
    public static func fold(_ s: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        if options.isEmpty { return s }
        // Fold, then NFC-normalize so composed and decomposed inputs compare equal.
        return s.folding(options: options, locale: nil).precomposedStringWithCanonicalMapping
    }

    /// Compares two strings by their UTF-8 bytes, as SQLite's BINARY collation does.
    @inline(__always)
    public static func compareBinary(_ a: String, _ b: String) -> Int32 {
        var a = a, b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                let n = min(pa.count, pb.count)
                if n > 0 {
                    let c = memcmp(pa.baseAddress!, pb.baseAddress!, n)
                    if c != 0 { return c < 0 ? -1 : 1 }
                }
                return pa.count == pb.count ? 0 : (pa.count < pb.count ? -1 : 1)
            }
        }
    }

    /// Case-insensitive (and for `localized`, also diacritic-insensitive with
    /// numeric ordering of digit runs) comparison; ties broken by binary order so
    /// the collation is a total order.
    public static func compareCollated(_ a: String, _ b: String, localized: Bool) -> Int32 {
        if localized {
            let fa = fold(a, caseInsensitive: true, diacriticInsensitive: true)
            let fb = fold(b, caseInsensitive: true, diacriticInsensitive: true)
            let c = compareNumericAware(fa, fb)
            return c != 0 ? c : compareBinary(a, b)
        }
        let c = compareBinary(fold(a, caseInsensitive: true, diacriticInsensitive: false),
                              fold(b, caseInsensitive: true, diacriticInsensitive: false))
        return c != 0 ? c : compareBinary(a, b)
    }

    /// Orders runs of ASCII digits by numeric value ("file2" < "file10"), everything else by UTF-8 bytes.
    static func compareNumericAware(_ a: String, _ b: String) -> Int32 {
        let x = Array(a.utf8), y = Array(b.utf8)
        var i = 0, j = 0
        func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var i2 = i, j2 = j
                while i2 < x.count && x[i2] == 48 { i2 += 1 }
                while j2 < y.count && y[j2] == 48 { j2 += 1 }
                var ie = i2, je = j2
                while ie < x.count && isDigit(x[ie]) { ie += 1 }
                while je < y.count && isDigit(y[je]) { je += 1 }
                if ie - i2 != je - j2 { return ie - i2 < je - j2 ? -1 : 1 }
                for k in 0..<(ie - i2) where x[i2 + k] != y[j2 + k] { return x[i2 + k] < y[j2 + k] ? -1 : 1 }
                i = ie; j = je
                continue
            }
            if x[i] != y[j] { return x[i] < y[j] ? -1 : 1 }
            i += 1; j += 1
        }
        if i < x.count { return 1 }
        if j < y.count { return -1 }
        return 0
    }

    private static let regexCache = RegexCache()

    public static func matchesRegex(_ text: String, pattern: String) -> Bool {
        guard let re = regexCache.regex(pattern) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        guard let m = re.firstMatch(in: text, options: [.anchored], range: range) else { return false }
        return m.range.location == 0 && m.range.length == range.length
    }
}

/// Compiled regular expressions by pattern, shared across threads.
final class RegexCache: Sendable {
    private let cache = Locked<[String: NSRegularExpression?]>([:])
    func regex(_ pattern: String) -> NSRegularExpression? {
        cache.withLock { cache in
            if let r = cache[pattern] { return r }
            let r = try? NSRegularExpression(pattern: pattern)
            if cache.count > 256 { cache.removeAll() }
            cache[pattern] = r
            return r
        }
    }
}
