import Foundation

/// `timestamptz` values: microseconds since 2000-01-01 UTC on the wire, and the
/// text PostgreSQL prints with `TimeZone` set to UTC (`2024-05-01 12:30:00.25+00`).
enum PGTimestamp {
    /// Seconds from 1970-01-01 to 2000-01-01, PostgreSQL's epoch.
    static let epochOffset: Double = 946_684_800

    /// Microseconds since 2000-01-01 (PostgreSQL's resolution: finer parts are rounded).
    static func microseconds(_ date: Date) -> Int64 {
        Int64(((date.timeIntervalSince1970 - epochOffset) * 1_000_000).rounded())
    }

    static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: epochOffset + Double(microseconds) / 1_000_000)
    }

    /// ISO-style UTC text PostgreSQL reads exactly: `1969-12-31 23:59:59.75+00`.
    static func text(_ date: Date) -> String {
        let micros = microseconds(date)
        let (days, inDay) = floorDivision(micros, 86_400_000_000)
        let (y, m, d) = CivilDate.date(fromDays: days + 10_957)
        let seconds = inDay / 1_000_000, fraction = inDay % 1_000_000
        let year = y > 0 ? y : 1 - y
        var s = pad(year, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + " "
        s += pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
        if fraction > 0 { s += "." + pad(fraction, 6) }
        return s + "+00" + (y > 0 ? "" : " BC")
    }

    /// Parses what `text(_:)` writes (the server's output with `TimeZone` UTC); nil for anything else.
    static func parse(_ text: String) -> Date? {
        if text == "infinity" { return .distantFuture }
        if text == "-infinity" { return .distantPast }
        var s = Substring(text)
        let bc = s.hasSuffix(" BC")
        if bc { s = s.dropLast(3) }
        guard s.hasSuffix("+00") else { return nil }
        s = s.dropLast(3)
        let parts = s.split(separator: " ")
        guard parts.count == 2 else { return nil }
        let ymd = parts[0].split(separator: "-").compactMap { Int64($0) }
        let hms = parts[1].split(separator: ":")
        guard ymd.count == 3, hms.count == 3, let h = Int64(hms[0]), let mi = Int64(hms[1]) else { return nil }
        let secondParts = hms[2].split(separator: ".", omittingEmptySubsequences: false)
        guard let sec = Int64(secondParts[0]) else { return nil }
        var micros: Int64 = 0
        if secondParts.count == 2 {
            let digits = secondParts[1].prefix(6)
            guard let f = Int64(digits) else { return nil }
            micros = f * Int64(pow(10, Double(6 - digits.count)))
        }
        let year = bc ? 1 - ymd[0] : ymd[0]
        let days = CivilDate.days(year: year, month: ymd[1], day: ymd[2]) - 10_957
        return date(microseconds: ((days * 86_400 + h * 3600 + mi * 60 + sec) * 1_000_000) + micros)
    }

    private static func pad(_ n: Int64, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    private static func floorDivision(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}
