import Foundation

/// The text of a delete tombstone: one flat JSON object, column → stored value,
/// written by Vellum's saves (`HistoryWriter`) and by the history triggers'
/// `json_object`, and read back by `history(after:)`.
///
/// Why not JSONSerialization: it refuses infinities both ways, so a deleted
/// object holding `inf` lost its whole tombstone. SQLite stores no NaN (it
/// becomes NULL, and `json_object` writes `null`); infinity is written `9e999`,
/// and read back from that or from the `Inf`/`-Inf` older SQLite's `json_object` writes.
enum TombstoneJSON {
    /// One stored value; numbers keep their text, so integers stay exact.
    enum Scalar: Equatable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
    }

    /// Why a tombstone's text could not be read, and where (a character offset).
    struct Unreadable: Error {
        var position: Int
        var reason: String
    }

    static func encode(_ columns: [(column: String, value: Scalar)]) -> String {
        let fields = columns.sorted { $0.column < $1.column }.map { c -> String in
            let value: String
            switch c.value {
            case .null: value = "null"
            case .bool(let b): value = b ? "true" : "false"
            case .number(let n): value = n
            case .string(let s): value = QuotedString.quoted(s, .json)
            }
            return QuotedString.quoted(c.column, .json) + ":" + value
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A double as tombstone text: shortest round-trip digits; ±9e999 for infinities; null for NaN.
    static func number(_ d: Double) -> Scalar {
        if d.isNaN { return .null }
        if d.isInfinite { return .number(d < 0 ? "-9e999" : "9e999") }
        return .number("\(d)")
    }

    static func decode(_ text: String) throws(Unreadable) -> [String: Scalar] {
        var reader = Reader(Array(text.unicodeScalars))
        return try reader.object()
    }

    private struct Reader {
        let s: [Unicode.Scalar]
        var i = 0
        init(_ s: [Unicode.Scalar]) { self.s = s }

        func fail(_ reason: String) -> Unreadable { Unreadable(position: i, reason: reason) }

        mutating func skipSpace() { while i < s.count, s[i] == " " || s[i] == "\n" || s[i] == "\t" || s[i] == "\r" { i += 1 } }

        mutating func expect(_ c: Unicode.Scalar) throws(Unreadable) {
            skipSpace()
            guard i < s.count, s[i] == c else { throw fail("expected '\(c)'") }
            i += 1
        }

        mutating func object() throws(Unreadable) -> [String: Scalar] {
            try expect("{")
            var result: [String: Scalar] = [:]
            skipSpace()
            if i < s.count, s[i] == "}" { i += 1 } else {
                repeat {
                    skipSpace()
                    let key = try string()
                    try expect(":")
                    result[key] = try scalar()
                    skipSpace()
                    guard i < s.count, s[i] == "," || s[i] == "}" else { throw fail("expected ',' or '}'") }
                    i += 1
                } while s[i - 1] == ","
            }
            skipSpace()
            guard i == s.count else { throw fail("text after the object") }
            return result
        }

        mutating func scalar() throws(Unreadable) -> Scalar {
            skipSpace()
            guard i < s.count else { throw fail("expected a value") }
            if s[i] == "\"" { return .string(try string()) }
            let start = i
            while i < s.count, !",}] \n\t\r".unicodeScalars.contains(s[i]) { i += 1 }
            let word = String(String.UnicodeScalarView(s[start..<i]))
            switch word {
            case "null": return .null
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "Inf", "-Inf": return .number(word)
            default:
                let isNumber = word.unicodeScalars.allSatisfy { "0123456789+-.eE".unicodeScalars.contains($0) }
                guard isNumber, Double(word) != nil else { i = start; throw fail("expected a value (a tombstone holds no arrays or objects)") }
                return .number(word)
            }
        }

        mutating func string() throws(Unreadable) -> String {
            guard i < s.count, s[i] == "\"" else { throw fail("expected a string") }
            i += 1
            var out = String.UnicodeScalarView()
            while i < s.count, s[i] != "\"" {
                guard s[i] == "\\" else { out.append(s[i]); i += 1; continue }
                i += 1
                guard i < s.count else { break }
                let escaped = s[i]
                i += 1
                switch escaped {
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "b": out.append("\u{8}")
                case "f": out.append("\u{c}")
                case "u": out.append(try unicodeEscape())
                default: out.append(escaped)
                }
            }
            guard i < s.count else { throw fail("unterminated string") }
            i += 1
            return String(out)
        }

        /// `\uXXXX` (the `\u` read), joining a surrogate pair.
        mutating func unicodeEscape() throws(Unreadable) -> Unicode.Scalar {
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high), i + 1 < s.count, s[i] == "\\", s[i + 1] == "u" {
                i += 2
                let low = try hex4()
                if (0xDC00..<0xE000).contains(low), let u = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) { return u }
                throw fail("unpaired surrogate")
            }
            guard let u = Unicode.Scalar(high) else { throw fail("unpaired surrogate") }
            return u
        }

        mutating func hex4() throws(Unreadable) -> UInt32 {
            guard i + 4 <= s.count, let v = UInt32(String(String.UnicodeScalarView(s[i..<i + 4])), radix: 16) else { throw fail("bad \\u escape") }
            i += 4
            return v
        }
    }
}
