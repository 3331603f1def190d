/// Reads one ISO 8601 date or date-time, all of the text or nothing:
/// `YYYY-MM-DD`, then optionally `T` (or `t` or a space) `HH:MM`, `:SS`,
/// `.fraction` (or `,fraction`), and `Z` or an offset `±HH`, `±HHMM`, `±HH:MM`.
/// Every field is range-checked against its calendar, never rolled over.
struct DateReader {
    private let bytes: [UInt8]
    private let text: String
    private var i = 0

    init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    /// Seconds since 1970 (UTC) the text stands for.
    mutating func read() throws(DateParseError) -> Double {
        guard !bytes.isEmpty else { throw fail("it is empty") }
        let year = try number(4, "a 4-digit year")
        guard year >= 1 else { throw fail("year 0000 is not allowed (years 0001-9999)") }
        try expect("-", "'-' after the 4-digit year")
        let month = try number(2, "a 2-digit month")
        guard (1...12).contains(month) else { throw fail("month \(padded(month)) is out of range (01-12)") }
        try expect("-", "'-' after the month")
        let day = try number(2, "a 2-digit day")
        let monthLength = CivilDate.daysInMonth(month, year: year)
        guard (1...monthLength).contains(day) else {
            throw fail("\(CivilDate.monthNames[Int(month) - 1]) \(year) has no day \(padded(day)) (01-\(monthLength))")
        }
        var whole = CivilDate.days(year: year, month: month, day: day) * 86_400
        guard let separator = peek() else { return Double(whole) }
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " ") else {
            throw fail("unexpected '\(rest)' after the date")
        }
        i += 1
        let hour = try number(2, "a time HH:MM after the date")
        guard hour <= 23 else { throw fail("hour \(padded(hour)) is out of range (00-23)") }
        try expect(":", "':' after the hour")
        let minute = try number(2, "2-digit minutes")
        guard minute <= 59 else { throw fail("minute \(padded(minute)) is out of range (00-59)") }
        whole += hour * 3600 + minute * 60
        var fraction = ""
        if peek() == UInt8(ascii: ":") {
            i += 1
            let second = try number(2, "2-digit seconds")
            guard second <= 59 else { throw fail("second \(padded(second)) is out of range (00-59)") }
            whole += second
            if let c = peek(), c == UInt8(ascii: ".") || c == UInt8(ascii: ",") {
                i += 1
                while let d = peek(), Self.isDigit(d) { fraction.unicodeScalars.append(Unicode.Scalar(d)); i += 1 }
                guard !fraction.isEmpty else { throw fail("expected digits after the decimal point of the seconds") }
            }
        }
        whole -= try offset()
        guard i == bytes.count else { throw fail("unexpected '\(rest)' after the time") }
        return ISODate.seconds(whole: whole, fraction: fraction)
    }

    /// The zone's offset from UTC in seconds (0 for `Z` or no zone).
    private mutating func offset() throws(DateParseError) -> Int64 {
        guard let c = peek() else { return 0 }
        if c == UInt8(ascii: "Z") || c == UInt8(ascii: "z") { i += 1; return 0 }
        guard c == UInt8(ascii: "+") || c == UInt8(ascii: "-") else { return 0 }
        i += 1
        let hours = try number(2, "a 2-digit zone hour after '\(Character(Unicode.Scalar(c)))'", followedByDigits: true)
        guard hours <= 23 else { throw fail("zone offset hour \(padded(hours)) is out of range (00-23)") }
        var minutes: Int64 = 0
        if peek() == UInt8(ascii: ":") { i += 1; minutes = try number(2, "2-digit zone minutes") }
        else if let d = peek(), Self.isDigit(d) { minutes = try number(2, "2-digit zone minutes") }
        guard minutes <= 59 else { throw fail("zone offset minute \(padded(minutes)) is out of range (00-59)") }
        let seconds = hours * 3600 + minutes * 60
        return c == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// Exactly `count` ASCII digits; more digits are an error, not a bigger
    /// number, unless `followedByDigits` (a zone's `HHMM`).
    private mutating func number(_ count: Int, _ what: String, followedByDigits: Bool = false) throws(DateParseError) -> Int64 {
        let start = i
        var n: Int64 = 0
        for _ in 0..<count {
            guard let d = peek(), Self.isDigit(d) else { i = start; throw fail("expected \(what), found \(found)") }
            n = n * 10 + Int64(d - UInt8(ascii: "0"))
            i += 1
        }
        if !followedByDigits, let d = peek(), Self.isDigit(d) { throw fail("expected \(what), found more digits") }
        return n
    }

    private mutating func expect(_ c: Unicode.Scalar, _ what: String) throws(DateParseError) {
        guard peek() == UInt8(c.value) else { throw fail("expected \(what), found \(found)") }
        i += 1
    }

    private func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }
    private var rest: String { String(decoding: bytes[i...], as: UTF8.self) }
    private var found: String { i < bytes.count ? "'\(rest)'" : "the end" }
    private func padded(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
    private func fail(_ reason: String) -> DateParseError { DateParseError(text: text, reason: reason) }
    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}
