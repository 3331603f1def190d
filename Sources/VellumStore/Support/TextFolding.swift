import Foundation

/// The one implementation of text folding and collation, shared by SQL and memory.
public enum TextFolding {
    public static func fold(_ s: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        if options.isEmpty { return s }
        if let folded = foldedASCII(s, caseInsensitive: caseInsensitive) { return folded }
        // Fold, then NFC-normalize so composed and decomposed inputs compare equal.
        return s.folding(options: options, locale: nil).precomposedStringWithCanonicalMapping
    }

    /// The fold of an all-ASCII string without Foundation: ASCII has no diacritics and is
    /// already NFC, and case folding maps only A-Z (to a-z), which is what `folding` and
    /// `precomposedStringWithCanonicalMapping` give for every ASCII character
    /// (`TextFoldingASCIITests`). Nil when `s` has a non-ASCII byte.
    @inline(__always)
    static func foldedASCII(_ s: String, caseInsensitive: Bool) -> String? {
        var s = s
        let (ascii, upper) = s.withUTF8 { bytes -> (Bool, Bool) in
            var upper = false
            for b in bytes {
                if b >= 0x80 { return (false, false) }
                if b &- 65 < 26 { upper = true }
            }
            return (true, upper)
        }
        guard ascii else { return nil }
        guard caseInsensitive, upper else { return s }
        return s.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: bytes.count) { out in
                for (i, b) in bytes.enumerated() { out[i] = b &- 65 < 26 ? b | 0x20 : b }
                return bytes.count
            }
        }
    }

    /// Folds UTF-8 `bytes` as `fold` would when they are all ASCII, calling `body` with
    /// the folded bytes (the input itself when nothing changes); false (and no call)
    /// when a byte is not ASCII. For SQL functions: no String is made.
    @inline(__always)
    static func withFoldedASCII(_ bytes: UnsafeBufferPointer<UInt8>, caseInsensitive: Bool,
                                _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        var upper = false
        for b in bytes {
            if b >= 0x80 { return false }
            if b &- 65 < 26 { upper = true }
        }
        guard caseInsensitive, upper else { body(bytes); return true }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { out in
            for (i, b) in bytes.enumerated() { out[i] = b &- 65 < 26 ? b | 0x20 : b }
            body(UnsafeBufferPointer(out))
        }
        return true
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
            // Attribute patterns are checked when the model loads (`ModelError.invalidRegex`),
            // so nil (no match) is only for a pattern no model could hold.
            let r = try? NSRegularExpression(pattern: pattern)
            if cache.count > 256 { cache.removeAll() }
            cache[pattern] = r
            return r
        }
    }
}
