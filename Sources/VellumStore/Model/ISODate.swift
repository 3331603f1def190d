import Foundation

/// The one date parser and printer of Vellum (browser, CLI, JSON, model
/// defaults, predicate literals). Strict: a date is read whole or refused with
/// the reason, never rounded, rolled over or cut short. A date or date-time
/// without a zone is UTC. Printing gives the shortest text that parses back
/// to the very value stored (seconds since 1970 as a double).
public enum ISODate {
    /// Examples of every accepted form, for messages.
    public static let acceptedForms = "2024-05-01, 2024-05-01T12:30, 2024-05-01 12:30:15, 2024-05-01T12:30:15.25Z, 2024-05-01T12:30+02:00 (no zone = UTC)"

    /// The date `text` stands for; anything else is `StoreError.date`, saying why and listing the accepted forms.
    public static func parse(_ text: String) throws(StoreError) -> Date {
        do { return try read(text) } catch { throw .date(error) }
    }

    static func read(_ text: String) throws(DateParseError) -> Date {
        var reader = DateReader(text)
        let seconds = try reader.read()
        return Date(timeIntervalSince1970: seconds)
    }

    /// The date in UTC as `YYYY-MM-DDTHH:MM:SSZ`, with as many fraction digits as
    /// the value needs to parse back identically (none for whole seconds).
    public static func text(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        guard t.isFinite, abs(t) < 1e15 else { return "\(t)" }
        let whole = t.rounded(.down), fraction = t - whole
        var scale = 1.0
        for count in 0...17 {
            var scaled = (fraction * scale).rounded(), base = Int64(whole)
            if scaled >= scale { scaled = 0; base += 1 }
            let digits = count == 0 ? "" : padded(Int64(scaled), count)
            if Date(timeIntervalSince1970: seconds(whole: base, fraction: digits)) == date || count == 17 { return render(whole: base, digits: digits) }
            scale *= 10
        }
        return render(whole: Int64(whole), digits: "")
    }

    /// Seconds since 1970 for whole seconds plus fraction digits: the same
    /// arithmetic for parsing and for checking what `text` prints.
    static func seconds(whole: Int64, fraction digits: String) -> Double {
        guard !digits.isEmpty else { return Double(whole) }
        return Double(whole) + (Double("0." + digits) ?? 0)
    }

    /// `n` (not negative) in at least `width` digits.
    private static func padded(_ n: Int64, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    private static func render(whole: Int64, digits: String) -> String {
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        let (y, m, d) = CivilDate.date(fromDays: days)
        let year = y >= 0 ? padded(y, 4) : String(y)
        return "\(year)-\(padded(m, 2))-\(padded(d, 2))T\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2))"
            + (digits.isEmpty ? "" : "." + digits) + "Z"
    }
}

/// Why a text is not a date, naming the text, the reason and the accepted forms.
public struct DateParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "'\(text)' is not a date: \(reason); use \(ISODate.acceptedForms)" }
}

/// Proleptic Gregorian days since 1970-01-01 (H. Hinnant's algorithms):
/// plain integer arithmetic, so no calendar rolls an impossible day over.
enum CivilDate {
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func date(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]
}
